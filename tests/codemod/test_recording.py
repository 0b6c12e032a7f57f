"""Recording stubs: Enzyme tests that read the props a child component received
(``find(Item).at(1).prop('selected')``, a shallow root's ``prop('top')``), migrated offline and
run under the example app's real jest; then the components are broken one behaviour at a time
and the migrated tests must notice, as the Enzyme ones did."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.codemod import convert_enzyme_test
from testmend.codemod.models import CapturedElement, CodemodOptions, DomCapture, FindRecord
from tests.support.apps import fixture_text
from tests.support.codemod import broken_tests, migrate, migrated, write_components

# In the styles seen in the example app (TodoList, Accordion), typeahead (Overlay, Menu) and
# visx (a shallow root that is another component's element): a class component child, a
# callback prop, defaultProps, and the test importing the child through an index while the
# component under test imports it from its own module.
SOURCES = {
    "Item.js": """
        import React from 'react';

        export class Item extends React.Component {
          render() {
            const { label, selected, onPick } = this.props;
            return (
              <li className={selected ? 'item selected' : 'item'}>
                <button type="button" onClick={onPick}>{label}</button>
              </li>
            );
          }
        }
        """,
    "List.js": """
        import React from 'react';
        import { Item } from './Item';

        export function List({ labels, onPick = () => {} }) {
          const [selected, setSelected] = React.useState(null);
          return (
            <ul>
              {labels.map((label, i) => (
                <Item
                  key={label}
                  label={label}
                  selected={i === selected}
                  onPick={() => {
                    setSelected(i);
                    onPick(label);
                  }}
                />
              ))}
            </ul>
          );
        }
        """,
    "Frame.js": """
        export default function Frame({ top, left, inset, children }) {
          const style = { marginTop: top, marginLeft: left, padding: inset };
          return <div className="frame" style={style}>{children}</div>;
        }

        Frame.defaultProps = { inset: 1 };
        """,
    "Panel.js": """
        import Frame from './Frame';

        export default function Panel({ top = 0, left = 0 }) {
          return (
            <Frame top={top} left={left}>
              <p>Panel</p>
            </Frame>
          );
        }
        """,
    "Toggle.js": """
        import React from 'react';

        export default function Toggle({ className, label, title, toggleLeft }) {
          return (
            <button type="button" className={className} title={title}>
              {toggleLeft ? `« ${label}` : `${label} »`}
            </button>
          );
        }
        """,
    "Bar.js": """
        import React from 'react';
        import Toggle from './Toggle';

        export default function Bar({ collapsed = false, left = false }) {
          const label = collapsed ? 'Expand' : 'Collapse';
          return (
            <aside>
              <Toggle className="toggle" label={label} title={label} toggleLeft={left} />
            </aside>
          );
        }
        """,
    # Exported by default under its own name, imported under another: React names it
    # `PaneBase`, the module under test `SidePane`.
    "Pane.js": """
        import React from 'react';

        export function PaneBase({ className, children }) {
          return <section className={className}>{children}</section>;
        }

        export default PaneBase;
        """,
    "Shell.js": """
        import React from 'react';
        import SidePane from './Pane';

        export default function Shell({ flipped = false }) {
          return (
            <div>
              <SidePane className="main" side={flipped ? 'right' : 'left'}>Main</SidePane>
              <SidePane className="alt" side={flipped ? 'left' : 'right'}>Alt</SidePane>
            </div>
          );
        }
        """,
    "Card.js": """
        import React from 'react';

        export function Card({ kind, children }) {
          return <section className={`card card-${kind}`}>{children}</section>;
        }

        Card.Title = function CardTitle({ children }) {
          return <h2 className="card-title">{children}</h2>;
        };
        """,
    "Notice.js": """
        import React from 'react';
        import { Card } from './Card';

        export default function Notice({ level = 'info', title }) {
          return (
            <Card kind={level === 'error' ? 'danger' : 'secondary'}>
              <Card.Title>{title}</Card.Title>
            </Card>
          );
        }
        """,
    "Tally.js": """
        import React from 'react';

        export const Store = React.createContext(null);

        export function Tally({ kind, count }) {
          const store = React.useContext(Store);
          if (store === null) throw new Error('Tally needs a Store');
          return <span className={`tally tally-${kind}`}>{store.format(count)}</span>;
        }
        """,
    "Shelf.js": """
        import React from 'react';
        import { Tally } from './Tally';

        export default function Shelf({ errors = 0 }) {
          return (
            <div className="shelf">
              <Tally kind={errors ? 'danger' : 'secondary'} count={errors} />
            </div>
          );
        }
        """,
    "Rack.js": """
        import React from 'react';
        import { Tally } from './Tally';

        export default function Rack({ counts, lead }) {
          return (
            <div className="rack">
              {counts.map((count, i) => (
                <Tally
                  key={i}
                  className={i === 0 ? lead : undefined}
                  kind={count ? 'danger' : 'secondary'}
                  count={count} />
              ))}
            </div>
          );
        }
        """,
    "Mark.js": """
        import React from 'react';

        export default function Mark({ width, children }) {
          return (
            <svg width={width}>
              <g className="mark">{children}</g>
            </svg>
          );
        }
        """,
    "Pin.js": """
        import React from 'react';
        import Mark from './Mark';

        export function Pin({ size = 4 }) {
          return (
            <Mark width={size * 2}>
              <circle r={size} />
            </Mark>
          );
        }
        """,
    # react-tooltip's shape (kubeapps' Delete, Rollback, Upgrade and StatusAware buttons): the
    # hint renders its children only while open, so no DOM shows them.
    "Hint.js": """
        import React from 'react';

        export default function Hint({ anchor, children }) {
          const [open] = React.useState(false);
          return open ? <div role="tooltip" data-anchor={anchor}>{children}</div> : null;
        }
        """,
    "Badge.js": """
        import React from 'react';
        import Hint from './Hint';

        export default function Badge({ pending = false }) {
          return (
            <span id="badge">
              Status
              <Hint anchor="badge">{pending ? 'Pending installation.' : 'Ready.'}</Hint>
            </span>
          );
        }
        """,
    "index.js": """
        export { Item } from './Item';
        export { List } from './List';
        """,
}

LIST_SUITE = fixture_text("codemod/recording/list_suite.tsx")

PANEL_SUITE = fixture_text("codemod/recording/panel_suite.tsx")


@pytest.fixture(scope="module")
def widgets(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Widgets", SOURCES)


async def test_props_of_child_components_are_recorded_and_keep_the_tests_intent(
    app_copy: Path, widgets: Path
) -> None:
    file = "src/components/Widgets/List.test.js"
    content = await migrate(app_copy, file, LIST_SUITE)
    # The module List imports Item from is the one mocked, not the index the test imports.
    assert (
        "jest.mock('./Item', () => jest.requireActual('../../recordProps')"
        ".mockRecordingProps(jest.requireActual('./Item')" in content
    )
    assert "expect(recordedProps(Item)[1].selected).toBe(true);" in content
    # A label each item shows as its whole text is asserted there, as the user sees it.
    assert "expect(screen.getAllByRole('listitem')[0]).toHaveTextContent(/^a$/);" in content
    assert "expect(screen.getAllByRole('listitem')[2]).toHaveTextContent(/^c$/);" in content
    assert "const second = recordedProps(Item)[1];" in content
    # `items` is also counted in the DOM; its props come from the recording.
    assert "expect(recordedProps(Item)[1].label).toBe('b');" in content
    # Item hands its onPick to its button: calling it is a click on that button.
    assert "await user.click(screen.getByRole('button', { name: 'b' }));" in content
    assert ".onPick(" not in content
    assert "// testmend: Enzyme read the props that Item received" in content
    for correct, broken, tests in [
        (
            "label={label}",
            "label={label.toUpperCase()}",
            # (the pick's click finds its button by the label it shows)
            [
                "gives each item its label",
                "lists one item per label",
                "reports a pick an item makes",
            ],
        ),
        (
            "selected={i === selected}",
            "selected={false}",
            ["marks the item the user picked", "reports a pick an item makes"],
        ),
        ("onPick(label);", "", ["reports a pick an item makes"]),
    ]:
        failing = await broken_tests(app_copy, file, widgets / "List.js", correct, broken)
        assert failing == [f"<List> {test}" for test in tests], correct
    # An item whose button drops the callback: the click the recording's call became notices.
    failing = await broken_tests(
        app_copy, file, widgets / "Item.js", "onClick={onPick}", "onClick={() => undefined}"
    )
    assert failing == [
        "<List> marks the item the user picked",
        "<List> reports a pick an item makes",
    ]


async def test_props_of_a_shallow_root_component_are_recorded(
    app_copy: Path, widgets: Path
) -> None:
    """``shallow(<Panel/>)`` renders ``<Frame top={…}>``: the test reads Frame's props,
    defaultProps included, which no DOM attribute shows."""
    file = "src/components/Widgets/Panel.test.js"
    content = await migrate(app_copy, file, PANEL_SUITE)
    assert "import Frame from './Frame';" in content
    assert "expect(recordedProps(Frame)[0].top).toBe(2);" in content
    for correct, broken, test in [
        ("top={top}", "top={0}", "places its frame"),
        ("{ inset: 1 }", "{ inset: 2 }", "keeps the frame inset it has by default"),
    ]:
        module = widgets / ("Panel.js" if correct == "top={top}" else "Frame.js")
        failing = await broken_tests(app_copy, file, module, correct, broken)
        assert failing == [f"<Panel> {test}"], correct


BADGE_SUITE = fixture_text("codemod/recording/badge_suite.tsx")


async def test_a_recorded_children_prop_is_read_as_a_prop_not_as_node_access(
    app_copy: Path, widgets: Path
) -> None:
    """``find(Hint).prop('children')`` on a hint that shows its children only when open: the
    recording gives them, read with brackets (``.children`` after a dot is what Testing
    Library's lint reports as node access), and the project's eslint finds nothing."""
    file = "src/components/Widgets/Badge.test.tsx"
    result = await migrated(app_copy, file, BADGE_SUITE)
    assert "expect(recordedProps(Hint)[0]['children']).toBe('Pending installation.');" in (
        result.content
    )
    assert [(m.rule, m.line) for m in result.lint_messages] == []
    failing = await broken_tests(
        app_copy, file, widgets / "Badge.js", "'Pending installation.'", "'Pending.'"
    )
    assert failing == ["<Badge> says why it is pending"]


REFUSED = fixture_text("codemod/recording/refused.tsx")


def test_props_that_cannot_be_recorded_stay_untranslated() -> None:
    """A child defined beside the rendered component (a mock of that module would not reach
    the component's own reference), a module the test already mocks, and the instances
    inside one element (the recording holds them all) are left for a person."""
    result = convert_enzyme_test(
        REFUSED.lstrip(), path="src/List.test.js", options=CodemodOptions()
    )
    messages = [n.message for n in result.notes if n.kind == "untranslated"]
    assert messages[:2] == [
        "reads the props of Row, which comes from the module of the rendered component (a mock "
        "of that module would not reach its own references)",
        "reads the props of Cell, whose module the test mocks",
    ]
    assert len(messages) == 3
    assert "mockRecordingProps" not in result.content


BAR_SUITE = fixture_text("codemod/recording/bar_suite.tsx")


async def test_props_of_a_child_found_by_its_class_are_its_recorded_props(
    app_copy: Path, widgets: Path
) -> None:
    """addons-code-manager's ``find(`.${styles.ToggleButton}`).prop('toggleLeft')`` (and
    jest-enzyme's ``toHaveProp``): a shallow find by class selects a child component's element,
    and the props read on it are that component's. An attribute the capture saw on the DOM it
    renders (``title``) is asserted there; a prop it does not show (``toggleLeft``, and
    ``label``, which React would write as an attribute of other elements) comes from the
    recording, never an attribute the button does not have. The test's own mentions of the
    name (a member ``classes.Toggle``, a title) are no reason not to import the component."""
    file = "src/components/Widgets/Bar.test.js"
    content = await migrate(app_copy, file, BAR_SUITE)
    assert "toHaveAttribute('title', 'Collapse');" in content
    assert "expect(recordedProps(Toggle)[0].toggleLeft).toBe(true);" in content
    assert "expect(recordedProps(Toggle)[0].label).toBe('Collapse');" in content
    assert "toHaveAttribute('label'" not in content and "toggleleft" not in content
    for correct, broken, tests in [
        ("title={label}", 'title="Toggle"', ["titles its Toggle"]),
        ("toggleLeft={left}", "toggleLeft={false}", ["passes toggleLeft to its toggle"]),
        # (the button the first test queries is named by its label too)
        (
            "label={label}",
            'label="Toggle"',
            ["titles its Toggle", "passes toggleLeft to its toggle"],
        ),
    ]:
        failing = await broken_tests(app_copy, file, widgets / "Bar.js", correct, broken)
        assert failing == [f"<Bar> {test}" for test in tests], correct


SHELL_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import Shell from './Shell';

describe('<Shell>', () => {
  it('puts its main panel on the left', () => {
    const root = shallow(<Shell />);
    expect(root.find('.main').prop('side')).toBe('left');
  });

  it('puts its other panel on the left when flipped', () => {
    const root = shallow(<Shell flipped />);
    expect(root.find('.alt')).toHaveLength(1);
    expect(root.find('.alt').prop('side')).toBe('left');
  });
});
"""


async def test_props_of_one_of_several_children_found_by_its_class_are_that_ones(
    app_copy: Path, widgets: Path
) -> None:
    """addons-code-manager's ContentShell: ``find(`.${styles.altSidePanel}`)`` selects the second
    of two ``<SidePanel>`` elements of a shallow render; the props read on it are that
    instance's, the recording's second (instances record in the render's order). The module
    under test imports the panel under another name than its own (``export default
    PaneBase``), which is the one React gives it, and the recording's."""
    file = "src/components/Widgets/Shell.test.js"
    content = await migrate(app_copy, file, SHELL_SUITE)
    assert "expect(recordedProps(PaneBase)[0].side).toBe('left');" in content, content
    assert "expect(recordedProps(PaneBase)[1].side).toBe('left');" in content
    failing = await broken_tests(
        app_copy, file, widgets / "Shell.js", "side={flipped ? 'left' : 'right'}", "side='right'"
    )
    assert failing == ["<Shell> puts its other panel on the left when flipped"]


NOTICE_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import { Card } from './Card';
import Notice from './Notice';

describe('<Notice>', () => {
  it('shows an error as a danger card', () => {
    const root = shallow(<Notice level="error" title="Broken" />);
    expect(root.find(Card).prop('kind')).toBe('danger');
  });
});
"""


async def test_a_recorded_component_keeps_its_static_members(app_copy: Path, widgets: Path) -> None:
    """addons-code-manager's LinterMessage renders react-bootstrap's ``Alert`` with
    ``Alert.Heading`` and ``Alert.Link`` inside: the recording wraps ``Alert``, and the wrapper
    keeps the static members the component under test reads (they were undefined, and every
    test threw "Element type is invalid")."""
    file = "src/components/Widgets/Notice.test.js"
    content = await migrate(app_copy, file, NOTICE_SUITE)
    assert "expect(recordedProps(Card)[0].kind).toBe('danger');" in content
    failing = await broken_tests(
        app_copy, file, widgets / "Notice.js", "'danger' : 'secondary'", "'warning' : 'secondary'"
    )
    assert failing == ["<Notice> shows an error as a danger card"]


SPIED_SUITE = """
import React from 'react';
import { mount } from 'enzyme';
import { Item } from './Item';
import { List } from './List';

describe('<List>', () => {
  it('renders each item once', () => {
    const render = jest.spyOn(Item.prototype, 'render');
    const wrapper = mount(<List labels={['a', 'b']} />);
    expect(wrapper.find(Item).at(1).prop('selected')).toBe(false);
    expect(render).toHaveBeenCalledTimes(2);
  });
});
"""


async def test_a_recorded_class_keeps_its_prototype_for_the_tests_spies(
    app_copy: Path, widgets: Path
) -> None:
    """reactstrap's InputGroup test spies on ``Dropdown.prototype.toggle`` and reads the props
    Dropdown received: the recording wraps the class, and its prototype stays reachable
    through the wrapper (it was undefined: "Cannot spyOn on a primitive value"), so the spy
    sees the calls the instances make."""
    file = "src/components/Widgets/Spied.test.js"
    content = await migrate(app_copy, file, SPIED_SUITE)
    assert "jest.spyOn(Item.prototype, 'render');" in content
    assert "recordedProps(Item)[1].selected" in content
    failing = await broken_tests(
        app_copy, file, widgets / "List.js", "{labels.map(", "{labels.slice(0, 1).map("
    )
    assert failing == ["<List> renders each item once"]


SHELF_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import { Tally } from './Tally';
import Shelf from './Shelf';

describe('<Shelf>', () => {
  it('shows one danger tally when there are errors', () => {
    const root = shallow(<Shelf errors={2} />);
    const tally = root.find(Tally);
    expect(tally).toHaveLength(1);
    expect(tally.prop('kind')).toBe('danger');
  });

  it('shows a quiet tally otherwise', () => {
    const root = shallow(<Shelf />);
    const tally = root.find(Tally);
    expect(tally.exists()).toBe(true);
    expect(tally.props().kind).toBe('secondary');
  });
});
"""


async def test_a_component_selection_the_test_names_is_counted_and_read_from_the_recording(
    app_copy: Path, widgets: Path
) -> None:
    """addons-code-manager's ``const viewer = root.find(VersionFileViewer)``, then
    ``expect(viewer).toHaveLength(1)`` and its props (47 such selections in 19 files of the
    suites): no capture shows what a shallow test's child renders, so there is no element to
    bind (here the child needs a store the test never gave). The name goes; each use reads the
    recording (the instances counted, their props),
    and the intent holds: a child given other props fails the test."""
    file = "src/components/Widgets/Shelf.test.js"
    content = await migrate(app_copy, file, SHELF_SUITE)
    assert "const tally" not in content, content
    assert "expect(recordedProps(Tally)).toHaveLength(1);" in content
    assert "expect(recordedProps(Tally)[0].kind).toBe('danger');" in content
    assert "expect(recordedProps(Tally)).not.toHaveLength(0);" in content
    assert "expect(recordedProps(Tally)[0].kind).toBe('secondary');" in content
    failing = await broken_tests(
        app_copy, file, widgets / "Shelf.js", "'danger' : 'secondary'", "'warning' : 'secondary'"
    )
    assert failing == ["<Shelf> shows one danger tally when there are errors"]


RACK_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import { Tally } from './Tally';
import Rack from './Rack';

describe('<Rack>', () => {
  it('shows a tally for each count', () => {
    const root = shallow(<Rack counts={[0, 3]} />);
    const tallies = root.find(Tally);
    expect(tallies).toHaveLength(2);
    expect(tallies.at(0)).toHaveProp('kind', 'secondary');

    const last = tallies.at(1);
    expect(last).toHaveProp('kind', 'danger');
    expect(last).toHaveProp('count', 3);
  });
});
"""


async def test_instances_picked_out_of_a_named_component_selection_read_the_recording(
    app_copy: Path, widgets: Path
) -> None:
    """addons-code-manager's ``const list = root.find(Comment)``, then
    ``expect(list.at(0)).toHaveProp('commentId', …)`` and ``const sample = list.at(1)`` whose
    props are read (in 5 of its files): each instance picked out by its index reads that
    instance's recorded props, where it used to leave the whole test untranslated; a child
    given another count fails the test."""
    file = "src/components/Widgets/Rack.test.js"
    content = await migrate(app_copy, file, RACK_SUITE)
    assert "const tallies" not in content and "const last" not in content, content
    assert "expect(recordedProps(Tally)).toHaveLength(2);" in content
    assert "expect(recordedProps(Tally)[0].kind).toEqual('secondary');" in content
    assert "expect(recordedProps(Tally)[1].count).toEqual(3);" in content
    failing = await broken_tests(
        app_copy, file, widgets / "Rack.js", "count={count} />", "count={count + 1} />"
    )
    assert failing == ["<Rack> shows a tally for each count"]


LEAD_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import { Tally } from './Tally';
import Rack from './Rack';

describe('<Rack>', () => {
  it('marks its lead tally', () => {
    const tag = 'div';
    const root = shallow(<Rack counts={[4]} lead="lead" />);
    expect(root.type()).toEqual(tag);

    const tally = root.find(Tally);
    expect(tally).toHaveClassName('lead');
    expect(tally).not.toHaveClassName('lea');
  });
});
"""


async def test_a_class_a_child_component_was_given_reads_its_recorded_class_name(
    app_copy: Path, widgets: Path
) -> None:
    """addons-code-manager's ``const button = root.find(AddComment)`` then
    ``expect(button).toHaveClassName(c)`` (with its props read, in 3 of its files): on a
    component Enzyme reads the ``className`` prop, so the recording answers it, as one class
    among those given, not a substring; ``type()`` compared with a ``const`` holding a tag
    reads the element's tag as a literal does."""
    file = "src/components/Widgets/Lead.test.js"
    content = await migrate(app_copy, file, LEAD_SUITE)
    assert "expect(String(recordedProps(Tally)[0].className).split(' ')).toContain(" in content
    assert ".localName).toEqual(tag);" in content, content
    failing = await broken_tests(
        app_copy, file, widgets / "Rack.js", "i === 0 ? lead :", "i === 0 ? `${lead}-x` :"
    )
    assert failing == ["<Rack> marks its lead tally"]


PIN_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import Mark from './Mark';
import { Pin } from './Pin';

const Wrapper = (props = {}) => shallow(<Pin {...props} />);

describe('<Pin>', () => {
  it('sizes its mark', () => {
    const mark = Wrapper({ size: 5 }).find(Mark);
    const circle = mark.dive().find('circle');
    expect(mark.prop('width')).toBe(10);
    expect(circle.prop('r')).toBe(5);
  });
});
"""


async def test_a_render_made_where_a_selection_was_declared_stays_when_the_name_goes(
    app_copy: Path, widgets: Path
) -> None:
    """visx's markers: ``const marker = Wrapper({ size }).find(Marker)`` renders in the
    declaration; the test then reads the marker's props (the recording) and finds inside it
    (the DOM), so nothing reads the name any more. The declaration goes, the render it made
    stays (it went too, and every assertion read a render that never happened)."""
    file = "src/components/Widgets/Pin.test.js"
    content = await migrate(app_copy, file, PIN_SUITE)
    assert "    Wrapper({ size: 5 });\n" in content, content
    assert "expect(recordedProps(Mark)[0].width).toBe(10);" in content
    failing = await broken_tests(app_copy, file, widgets / "Pin.js", "r={size}", "r={size + 1}")
    assert failing == ["<Pin> sizes its mark"]


FRAMED_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import Frame from './Frame';
import Panel from './Panel';

describe('<Panel>', () => {
  it('is a frame', () => {
    const wrapper = shallow(<Panel top={2} />);
    expect(wrapper.type()).toBe(Frame);
  });
});
"""


async def test_the_component_at_a_shallow_root_is_asserted_as_mounted_once(
    app_copy: Path, widgets: Path
) -> None:
    """reactstrap's `expect(shallow(<UncontrolledCollapse …/>).type()).toBe(Collapse)`: the
    component the shallow root is. No DOM says which component rendered what; its mounted
    instances are recorded as for a read of its props, and there is one. The result fails
    when the panel no longer renders it."""
    file = "src/components/Widgets/Framed.test.js"
    content = await migrate(app_copy, file, FRAMED_SUITE)
    assert "expect(recordedProps(Frame)).toHaveLength(1);" in content
    failing = await broken_tests(
        app_copy, file, widgets / "Panel.js", "return (", "return <p>Panel</p>;\n  return ("
    )
    assert failing == ["<Panel> is a frame"]


def test_jest_enzymes_existence_of_a_component_nothing_queries_is_read_from_the_recording() -> None:
    """kubeapps' ``expect(wrapper.find(LoadingWrapper)).not.toExist()`` (jest-enzyme; 9 such
    checks in 5 files): with no capture of what the component renders, its mounted instances
    are counted, as ``exists()`` is (which ``test_a_component_selection_the_test_names_…``
    runs under real jest)."""
    source = (
        "import { mount } from 'enzyme';\n"
        "import LoadingWrapper from 'components/LoadingWrapper';\n"
        "import Catalog from './Catalog';\n\n"
        "it('shows no spinner once fetched', () => {\n"
        "  const wrapper = mount(<Catalog fetched />);\n"
        "  expect(wrapper.find(LoadingWrapper)).not.toExist();\n"
        "});\n\n"
        "it('shows a spinner while fetching', () => {\n"
        "  const wrapper = mount(<Catalog />);\n"
        "  expect(wrapper.find(LoadingWrapper)).toExist();\n"
        "});\n"
    )
    result = convert_enzyme_test(source, path="src/Catalog.test.tsx", options=CodemodOptions())
    assert result.error is None, result.error
    assert "expect(recordedProps(LoadingWrapper)).toHaveLength(0);" in result.content
    assert "expect(recordedProps(LoadingWrapper)).not.toHaveLength(0);" in result.content
    assert "jest.mock('components/LoadingWrapper'" in result.content, result.content


def test_a_props_read_keeps_the_type_its_declaration_gives_it() -> None:
    """kubeapps' ``const resources: { [index: string]: any } = wrapper.find(ResourceTabs)
    .props()``, then ``resources[k]`` for each key: the recording's props are typed as the
    component's (no index signature), so the declared type stays or the project's type check
    rejects the index; an Enzyme wrapper's type never stays."""
    source = (
        "import { mount, ReactWrapper } from 'enzyme';\n"
        "import ResourceTabs from './ResourceTabs';\n"
        "import Instance from './Instance';\n\n"
        "it('passes one of each resource', () => {\n"
        "  const wrapper = mount(<Instance />);\n"
        "  const resources: { [index: string]: any } = wrapper.find(ResourceTabs).props();\n"
        "  Object.keys(resources).forEach((k) => expect(resources[k].length).toBe(1));\n"
        "  const tabs: ReactWrapper = wrapper.find(ResourceTabs).first();\n"
        "  expect(tabs.prop('services')).toHaveLength(1);\n"
        "});\n"
    )
    lines = source.splitlines()
    tabs = CapturedElement(tag="div", classes=["tabs"])
    dom = DomCapture(
        file="src/Instance.test.tsx",
        records=[
            FindRecord(
                line=line + 1,
                column=lines[line].index("find(") + 1,
                selector="ResourceTabs",
                test="passes one of each resource",
                count=1,
                elements=[tabs],
                css="div.tabs",
                components=["ResourceTabs"],
            )
            for line in (6, 8)
        ],
    )
    result = convert_enzyme_test(
        source, path="src/Instance.test.tsx", options=CodemodOptions(), dom=dom
    )
    assert result.error is None, result.error
    assert (
        "const resources: { [index: string]: any } = recordedProps(ResourceTabs)[0];"
        in result.content
    ), result.content
    assert "ReactWrapper" not in result.content, result.content


MARKDOWN_SOURCES = {
    "Markdown.tsx": """
        import PropTypes from 'prop-types';

        export function Markdown(props: { children: string }) {
          return <div className="markdown">{props.children}</div>;
        }
        Markdown.propTypes = { children: PropTypes.string };
    """,
    "Notes.tsx": """
        import { Markdown } from './Markdown';

        export function Notes({ notes }: { notes: string }) {
          return <section aria-label="Notes">{notes && <Markdown>{notes}</Markdown>}</section>;
        }
    """,
}

MARKDOWN_SUITE = """
import { mount } from 'enzyme';
import { Markdown } from './Markdown';
import { Notes } from './Notes';

it('renders the notes as markdown', () => {
  const wrapper = mount(<Notes notes="# Title" />);
  expect(wrapper.find(Markdown).props()).toMatchObject({ children: '# Title' });
});
"""


async def test_a_component_whose_prop_types_differ_from_its_props_is_recorded_as_typed(
    app_copy: Path,
) -> None:
    """react-markdown 8 (kubeapps' ``AppNotes``, ``PackageReadme``): its ``propTypes`` allow
    ``null`` where its props' type does not, so it is no ``React.ComponentType`` of its props,
    and ``recordedProps(ReactMarkdown)`` was a type error under the project's own tsc. The
    recording takes any function or class of those props."""
    write_components(app_copy / "src/components/Markdown", MARKDOWN_SOURCES)
    file = "src/components/Markdown/Notes.test.tsx"
    result = await migrated(app_copy, file, MARKDOWN_SUITE)
    assert "expect(recordedProps(Markdown)[0]).toMatchObject({ children: '# Title' });" in (
        result.content
    ), result.content
    assert result.type_messages == [], result.type_messages

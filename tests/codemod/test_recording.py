"""Recording stubs: Enzyme tests that read the props a child component received
(``find(Item).at(1).prop('selected')``, a shallow root's ``prop('top')``), migrated offline and
run under the example app's real jest; then the components are broken one behaviour at a time
and the migrated tests must notice, as the Enzyme ones did."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from testmend.codemod import convert_enzyme_test, detect_conventions
from testmend.codemod.models import CodemodOptions
from testmend.codemod.offline import migrate_offline
from testmend.config import load_config
from testmend.runners import ProjectRunners

pytestmark = pytest.mark.node

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
    "index.js": """
        export { Item } from './Item';
        export { List } from './List';
        """,
}

LIST_SUITE = """
import React from 'react';
import { mount, shallow } from 'enzyme';
import { Item, List } from './index';

describe('<List>', () => {
  it('gives each item its label', () => {
    const wrapper = shallow(<List labels={['a', 'b', 'c']} />);
    expect(wrapper.find(Item).first().prop('label')).toBe('a');
    expect(wrapper.find(Item).last().props().label).toBe('c');
  });

  it('marks the item the user picked', () => {
    const wrapper = mount(<List labels={['a', 'b']} />);
    wrapper.find('button').at(1).simulate('click');
    expect(wrapper.find(Item).at(1).prop('selected')).toBe(true);
    expect(wrapper.find(Item).at(0).prop('selected')).toBe(false);
  });

  it('lists one item per label', () => {
    const wrapper = mount(<List labels={['a', 'b']} />);
    const items = wrapper.find(Item);
    expect(items).toHaveLength(2);
    expect(items.at(1).prop('label')).toBe('b');
  });

  it('reports a pick an item makes', () => {
    const onPick = jest.fn();
    const wrapper = mount(<List labels={['a', 'b']} onPick={onPick} />);
    wrapper.find(Item).at(1).prop('onPick')();
    expect(onPick).toHaveBeenCalledWith('b');
    const second = wrapper.find(Item).at(1);
    expect(second.prop('selected')).toBe(true);
  });
});
"""

PANEL_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import Panel from './Panel';

describe('<Panel>', () => {
  it('places its frame', () => {
    const wrapper = shallow(<Panel top={2} left={3} />);
    expect(wrapper.prop('top')).toBe(2);
    expect(wrapper.prop('left')).toBe(3);
  });

  it('keeps the frame inset it has by default', () => {
    const wrapper = shallow(<Panel />);
    expect(wrapper.prop('inset')).toBe(1);
  });
});
"""


def runners_for(root: Path) -> ProjectRunners:
    return ProjectRunners(load_config(root, environ={}), cwd=root)


def write_components(folder: Path, sources: dict[str, str]) -> Path:
    """A new folder of the app with ``sources`` (file name → indented source) in it."""
    folder.mkdir()
    for name, source in sources.items():
        (folder / name).write_text(textwrap.dedent(source).lstrip())
    return folder


@pytest.fixture(scope="module")
def widgets(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Widgets", SOURCES)


async def migrate(app: Path, file: str, suite: str) -> str:
    (app / file).write_text(suite.lstrip())
    result = await migrate_offline(
        load_config(app, environ={}), file, workspace_root=app, options=detect_conventions(app)
    )
    assert result.fully_passing, result.errors or [
        t.failure_messages for t in result.tests.failing()
    ]
    assert result.codemod.untranslated_count == 0
    return result.final_content


async def broken_tests(app: Path, file: str, module: Path, correct: str, broken: str) -> list[str]:
    original = module.read_text()
    assert correct in original
    module.write_text(original.replace(correct, broken))
    try:
        run = await runners_for(app).run_tests(file)
    finally:
        module.write_text(original)
    assert run.suite_error is None, run.suite_error
    return [t.full_name for t in run.failing()]


async def test_props_of_child_components_are_recorded_and_keep_the_tests_intent(
    app_copy: Path, widgets: Path
) -> None:
    file = "src/components/Widgets/List.test.js"
    content = await migrate(app_copy, file, LIST_SUITE)
    # The module List imports Item from is the one mocked, not the index the test imports.
    assert "jest.mock('./Item', () => mockRecordingProps(jest.requireActual('./Item')" in content
    assert "expect(recordedProps(Item)[1].selected).toBe(true);" in content
    assert "recordedProps(Item).slice(-1)[0].label" in content
    assert "const second = recordedProps(Item)[1];" in content
    # `items` is also counted in the DOM; its props come from the recording.
    assert "expect(recordedProps(Item)[1].label).toBe('b');" in content
    assert "act(() => {\n      recordedProps(Item)[1].onPick();\n    });" in content
    assert "// testmend: Enzyme read the props that Item received" in content
    for correct, broken, tests in [
        (
            "label={label}",
            "label={label.toUpperCase()}",
            ["gives each item its label", "lists one item per label"],
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


REFUSED = """
import React from 'react';
import { mount } from 'enzyme';
import { List, Row } from './List';
import { Cell } from './Cell';

jest.mock('./Cell');

it('reads props it cannot record', () => {
  const wrapper = mount(<List />);
  expect(wrapper.find(Row).prop('index')).toBe(0);
  expect(wrapper.find(Cell).prop('value')).toBe(1);
  const row = wrapper.find('.row');
  expect(row.find(Cell).prop('value')).toBe(1);
});
"""


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

"""Children a shallow test never rendered: ``shallow(<Card />)`` leaves ``<Badge>`` and a
connected ``<Counter>`` unrendered, and both throw once rendered without what the test never set
up (a theme provider, a store), as react-redux's ``connect`` and hooks like ``useTheme`` do in
real suites. The capture finds them; the migration stubs their modules (they render only their
children, as shallow left them), passes under the example app's real jest, and still fails when
the component under test is broken the ways the Enzyme test would notice."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from testmend.codemod import (
    CodemodOptions,
    DomCapture,
    capture_dom,
    convert_enzyme_test,
)
from testmend.codemod.models import RenderRecord, UnrenderedChild
from tests.support.apps import fixture_text
from tests.support.codemod import broken_tests, migrate, migrate_offline, write_components
from tests.support.runners import runners_for

SOURCES = {
    "theme.js": """
        import React, { useContext } from 'react';

        const ThemeContext = React.createContext(null);

        export function useTheme() {
          const theme = useContext(ThemeContext);
          if (theme === null) throw new Error('useTheme must be used within a ThemeProvider');
          return theme;
        }
        """,
    "store.js": """
        import React, { useContext } from 'react';

        const StoreContext = React.createContext(null);

        export function connect(select) {
          return (Component) => {
            function Connected(props) {
              const store = useContext(StoreContext);
              if (!store) {
                const name = `Connect(${Component.name})`;
                throw new Error(`Could not find "store" in the context of "${name}"`);
              }
              return <Component {...props} {...select(store.getState())} />;
            }
            Connected.displayName = `Connect(${Component.name})`;
            return Connected;
          };
        }
        """,
    "Badge.js": """
        import React from 'react';
        import { useTheme } from './theme';

        export function Badge({ label, children }) {
          const theme = useTheme();
          return (
            <span className={`badge badge-${theme}`}>
              {label}
              {children}
            </span>
          );
        }
        """,
    "Counter.js": """
        import React from 'react';
        import { connect } from './store';

        function Counter({ count }) {
          return <output>{count}</output>;
        }

        export default connect((state) => ({ count: state.count }))(Counter);
        """,
    "Card.js": """
        import React from 'react';
        import { Badge } from './Badge';
        import Counter from './Counter';
        import { useTheme } from './theme';

        function Themed() {
          return <i>{useTheme()}</i>;
        }

        export function Card({ title, isNew, onOpen, themed = false }) {
          return (
            <div className="card">
              <h2 className="card-title">{title}</h2>
              {isNew && (
                <Badge label="new">
                  <em className="badge-hint">just in</em>
                </Badge>
              )}
              <Counter />
              {themed && <Themed />}
              <button type="button" onClick={onOpen}>
                Open
              </button>
            </div>
          );
        }
        """,
}

CARD_SUITE = fixture_text("codemod/unrendered_children/card_suite.tsx")

THEMED_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import { Card } from './Card';

it('shows its title in a theme', () => {
  const wrapper = shallow(<Card title="Hello" themed />);
  expect(wrapper.find('.card-title').text()).toBe('Hello');
});
"""


@pytest.fixture(scope="module")
def cards(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Cards", SOURCES)


async def test_the_capture_names_the_children_that_do_not_render(
    app_copy: Path, cards: Path
) -> None:
    file = "src/components/Cards/Card.test.js"
    (app_copy / file).write_text(CARD_SUITE.lstrip())
    capture = await capture_dom(runners_for(app_copy), file, workspace_root=app_copy)
    # What the capture does leaves the Enzyme test as it was: it passes, and nothing React
    # warned about while the capture rendered the children alone reached the test.
    assert (capture.tests_passed, capture.tests_failed) == (3, 0), capture.error
    badge = {
        "name": "Badge",
        "error": "useTheme must be used within a ThemeProvider",
        "dived": False,
    }
    counter = {
        "name": "Connect(Counter)",
        "error": 'Could not find "store" in the context of "Connect(Counter)"',
        "dived": False,
    }
    by_test = {r.test: [c.model_dump() for c in r.unrendered] for r in capture.renders}
    assert by_test["<Card> shows its title"] == [counter]
    assert by_test["<Card> marks new cards with a badge"] == [badge, counter]
    # The queries fit the tree with those children stubbed: the hint Badge was given renders.
    hint = next(r for r in capture.records if r.selector == ".badge-hint")
    assert [(q.method, q.args) for q in hint.queries][:1] == [("Text", ["just in"])]


async def test_children_a_shallow_test_never_rendered_are_stubbed_and_keep_its_intent(
    app_copy: Path, cards: Path
) -> None:
    file = "src/components/Cards/Card.test.js"
    content = await migrate(app_copy, file, CARD_SUITE)  # fully passing, nothing untranslated
    assert (
        "jest.mock('./Badge', () => jest.requireActual('../../recordProps')"
        ".mockRecordingProps(jest.requireActual('./Badge'), "
        "['Badge'], ['Badge']));" in content
    )
    assert (
        "jest.mock('./Counter', () => jest.requireActual('../../recordProps')"
        ".mockRecordingProps(jest.requireActual('./Counter'), "
        "['default'], ['default']));" in content
    )
    assert "// testmend: The shallow test never rendered Badge and Connect(Counter)" in content
    assert "still renders as before" not in content  # Badge is recorded, and stubbed
    assert "expect(recordedProps(Badge)[0].label).toBe('new');" in content
    for correct, broken, test in [
        (
            '<h2 className="card-title">{title}</h2>',
            '<h2 className="card-title">x</h2>',
            "shows its title",
        ),
        ('label="new"', 'label="old"', "marks new cards with a badge"),
        ("just in", "just out", "marks new cards with a badge"),
        ("onClick={onOpen}", "onClick={() => {}}", "opens"),
    ]:
        failing = await broken_tests(app_copy, file, cards / "Card.js", correct, broken)
        assert failing == [f"<Card> {test}"], correct


async def test_a_child_that_cannot_be_stubbed_is_said_and_fails(
    app_copy: Path, cards: Path
) -> None:
    """``Themed`` is defined in Card's own module: a mock of that module would not reach
    Card's reference to it. The migration says so and its test fails; it never passes
    without the check it had."""
    file = "src/components/Cards/Themed.test.js"
    (app_copy / file).write_text(THEMED_SUITE.lstrip())
    result = await migrate_offline(app_copy, file)
    assert result.status == "failed" and not result.tests_pass
    assert "useTheme must be used within a ThemeProvider" in Path(result.report_path).read_text()
    assert (
        "// testmend: The shallow test never rendered Themed; rendered, it needs what the test "
        "never set up (useTheme must be used within a ThemeProvider). It cannot be stubbed (the "
        "component under test does not import it from a module of its own)"
    ) in result.content
    # Counter, which can be, is stubbed as in the other suite.
    assert "jest.mock('./Counter'" in result.content


MIXED_SUITE = fixture_text("codemod/unrendered_children/mixed_suite.tsx")


def test_a_child_the_files_full_renders_render_is_not_stubbed() -> None:
    """``jest.mock`` stands for the whole file: stubbing Badge for the shallow test would stub
    it in the ``mount`` test too, which renders it inside its provider and checks it. The
    note says why it is left; converter only (the capture is given)."""
    badge = UnrenderedChild(name="Badge", error="useTheme must be used within a ThemeProvider")
    dom = DomCapture(
        file="src/components/Cards/Mixed.test.js",
        renders=[RenderRecord(line=7, column=19, test="shows its title", unrendered=[badge])],
    )
    options = CodemodOptions(
        jest_dom_global=True, component_children={"Badge": ["./Badge", "Badge"]}
    )
    result = convert_enzyme_test(
        MIXED_SUITE.lstrip(), path="src/components/Cards/Mixed.test.js", options=options, dom=dom
    )
    assert "jest.mock('./Badge'" not in result.content
    assert (
        "It cannot be stubbed (the file's full renders render it, and a mock would stub it "
        "there too)" in result.content
    )
    # Without the full render, it is.
    shallow_only = MIXED_SUITE.split("it('shows its badge")[0]
    result = convert_enzyme_test(
        shallow_only.lstrip(), path="src/components/Cards/Mixed.test.js", options=options, dom=dom
    )
    assert (
        "jest.mock('./Badge', () => jest.requireActual('../../recordProps')"
        ".mockRecordingProps(jest.requireActual('./Badge'), "
        "['Badge'], ['Badge']));" in result.content
    )
    # The component under test may name it otherwise (`import { Badge as Tag }`).
    renamed = options.model_copy(update={"component_children": {"Tag": ["./Badge", "Badge"]}})
    result = convert_enzyme_test(
        shallow_only.lstrip(), path="src/components/Cards/Mixed.test.js", options=renamed, dom=dom
    )
    assert "mockRecordingProps(jest.requireActual('./Badge'), ['Badge'], ['Badge'])" in (
        result.content
    )


LINKS = """
    function LinksBase({ location }) {
      return (
        <nav aria-label="Pages">
          <Link to="/orders">Orders</Link>
          <span>at {location.pathname}</span>
        </nav>
      );
    }
"""

# The routed child in a module of its own (a stub can replace it), and inside the page's own
# module (none can).
ROUTED_SOURCES = {
    "Links.js": f"""
        import React from 'react';
        import {{ Link, withRouter }} from 'react-router-dom';
        {textwrap.indent(textwrap.dedent(LINKS.replace("LinksBase", "Links")), "        ")}
        export default withRouter(Links);
        """,
    "Home.js": """
        import React from 'react';
        import Links from './Links';

        export default function Home() {
          return (
            <main>
              <h1>Home</h1>
              <Links />
            </main>
          );
        }
        """,
}
INLINE_ROUTED_SOURCES = {
    "Home.js": f"""
        import React from 'react';
        import {{ Link, withRouter }} from 'react-router-dom';
        {textwrap.indent(textwrap.dedent(LINKS), "        ")}
        const Links = withRouter(LinksBase);

        export default function Home() {{
          return (
            <main>
              <h1>Home</h1>
              <Links />
            </main>
          );
        }}
        """,
}

ROUTED_SUITE = """
import React from 'react';
import { Link } from 'react-router-dom';
import { shallow } from 'enzyme';
import Home from './Home';

describe('Home', () => {
  it('has a title', () => {
    const root = shallow(<Home />);
    expect(root.find('h1').text()).toBe('Home');
  });
});
"""


async def test_children_that_need_a_router_render_inside_a_memory_router(app_copy: Path) -> None:
    """A shallow test of a page whose child is ``withRouter(…)`` never needed a router; rendered
    in full, the child throws outside one. Where no stub can replace it (it is the page's own
    module's) and react-router-dom is installed, the render goes inside a ``<MemoryRouter>``
    (its import joins the file's own import of the package, whose ``Link`` only the Enzyme code
    used), and the result passes under real jest."""
    folder = write_components(app_copy / "src/components/RoutedHome", INLINE_ROUTED_SOURCES)
    file = str((folder / "Home.test.js").relative_to(app_copy))
    content = await migrate(app_copy, file, ROUTED_SUITE)
    assert "import { MemoryRouter } from 'react-router-dom';" in content
    assert "<MemoryRouter><Home /></MemoryRouter>" in content
    assert "Link" not in content and "cannot be stubbed" not in content


async def test_children_that_need_a_router_are_stubbed_where_a_stub_can_replace_them(
    app_copy: Path,
) -> None:
    """The same child in a module of its own is stubbed, as any child the shallow test never
    rendered: rendered inside a router it would run what it does on mount (a connected child
    fetching, in addons-code-manager's Navbar), which the original never ran."""
    folder = write_components(app_copy / "src/components/StubbedHome", ROUTED_SOURCES)
    file = str((folder / "Home.test.js").relative_to(app_copy))
    content = await migrate(app_copy, file, ROUTED_SUITE)
    assert "MemoryRouter" not in content
    assert "jest.mock('./Links'" in content, content


DIVED_SUITE = """
import React from 'react';
import { shallowUntilTarget } from '../test-helpers';
import Page, { PageBase } from './Page';

it('shows where it is', () => {
  const root = shallowUntilTarget(<Page />, PageBase, { shallowOptions: routerContext() });
  expect(root.find('h1').text()).toBe('At /');
});
"""


def test_a_component_the_test_dived_into_is_never_stubbed_but_may_need_a_router() -> None:
    """addons-code-manager's ``shallowUntilTarget(<SlowPageAlert />, SlowPageAlertBase, {
    shallowOptions })``, its router in the shallow render's legacy context: the capture marks
    ``withRouter(PageBase)`` as dived into. No stub replaces what the test rendered, even from
    a module of its own; rendered in full it needs a router, so the render goes inside a
    ``<MemoryRouter>``; a child it never rendered is still stubbed. Converter only (the capture
    is given)."""
    page = UnrenderedChild(
        name="withRouter(PageBase)",
        error="Invariant failed: You should not use <withRouter(PageBase) /> outside a <Router>",
        dived=True,
    )
    badge = UnrenderedChild(name="Connect(BadgeBase)", error='Could not find "store"')
    dom = DomCapture(
        file="src/pages/Page.test.js",
        renders=[
            RenderRecord(line=7, column=16, test="shows where it is", unrendered=[page, badge])
        ],
    )
    options = CodemodOptions(
        jest_dom_global=True,
        router_installed=True,
        enzyme_helper_paths=["src/test-helpers"],
        enzyme_helper_renders={"shallowUntilTarget": "shallow"},
        component_children={
            "Page": ["./Page", "default"],
            "PageBase": ["./Page", "default"],
            "Badge": ["./Badge", "default"],
            "BadgeBase": ["./Badge", "default"],
        },
    )
    result = convert_enzyme_test(
        DIVED_SUITE.lstrip(), path="src/pages/Page.test.js", options=options, dom=dom
    )
    assert "<MemoryRouter><Page /></MemoryRouter>" in result.content, result.content
    assert "jest.mock('./Page'" not in result.content
    assert "jest.mock('./Badge'" in result.content
    assert "cannot be stubbed" not in result.content


def routed_page(*, line: int, column: int) -> tuple[DomCapture, CodemodOptions]:
    """addons-code-manager's pages: the capture saw the component the test dived into
    (``withRouter(PageBase)``) throw outside a router, at the render at ``line``; the project's
    ``shallowUntilTarget`` renders it."""
    page = UnrenderedChild(
        name="withRouter(PageBase)",
        error="Invariant failed: You should not use <withRouter(PageBase) /> outside a <Router>",
        dived=True,
    )
    dom = DomCapture(
        file="src/pages/Page.test.js",
        renders=[
            RenderRecord(line=line, column=column, test="shows where it is", unrendered=[page])
        ],
    )
    options = CodemodOptions(
        jest_dom_global=True,
        router_installed=True,
        enzyme_helper_paths=["src/test-helpers"],
        enzyme_helper_renders={"shallowUntilTarget": "shallow"},
        component_children={"Page": ["./Page", "default"], "PageBase": ["./Page", "default"]},
    )
    return dom, options


MOUNTED_SUITE = """
import React from 'react';
import { mount } from 'enzyme';
import { shallowUntilTarget } from '../test-helpers';
import Page, { PageBase } from './Page';

const renderWithMount = () => mount(<Page />, createContextWithFakeRouter());

it('shows where it is', () => {
  const root = shallowUntilTarget(<Page />, PageBase, { shallowOptions: routerContext() });
  expect(root.find('h1').text()).toBe('At /');
});

it('shows where it is when mounted', () => {
  const root = renderWithMount();
  expect(root.find('h1').text()).toBe('At /');
});
"""


def test_a_mount_whose_options_gave_the_router_renders_inside_the_memory_router() -> None:
    """addons-code-manager's GlobalLinterMessages: the shallow render needs a router (the
    capture saw the component dived into throw outside one), and the file also mounts it with
    a router in legacy context that a helper of the project's makes
    (``createContextWithFakeRouter()``). Those options are dropped; the mount goes inside the
    same ``<MemoryRouter>``, with a note, instead of throwing outside a router. Where the file
    needs no router, options no provider stands for are only dropped, with a note."""
    dom, options = routed_page(line=9, column=16)
    path = "src/pages/Page.test.js"
    result = convert_enzyme_test(MOUNTED_SUITE.lstrip(), path=path, options=options, dom=dom)
    assert result.content.count("<MemoryRouter><Page /></MemoryRouter>") == 2, result.content
    notes = [n.message for n in result.notes if n.kind == "review"]
    assert (
        "dropped the mount() options createContextWithFakeRouter(); a <MemoryRouter> gives the "
        "router this file's components need, at /" in notes
    )
    unrouted = convert_enzyme_test(MOUNTED_SUITE.lstrip(), path=path, options=options)
    assert "MemoryRouter" not in unrouted.content
    assert "dropped the mount() options" in [n.message for n in unrouted.notes]


LOCATED_SUITE = """
import React from 'react';
import {
  createContextWithFakeRouter,
  createFakeHistory,
  createFakeLocation,
  shallowUntilTarget,
} from '../test-helpers';
import Page, { PageBase } from './Page';

const render = ({ location = createFakeLocation(), ...props } = {}) =>
  shallowUntilTarget(<Page {...props} />, PageBase, {
    shallowOptions: createContextWithFakeRouter({ location }),
  });

it('highlights the message the location names', () => {
  const location = createFakeLocation({ search: '?uid=1' });
  const root = render({ location });
  expect(root.find('h1').text()).toBe('At /');
});

it('shows where it is', () => {
  const history = createFakeHistory();
  const shallowOptions = createContextWithFakeRouter({ history, location: createFakeLocation() });
  const root = shallowUntilTarget(<Page />, PageBase, { shallowOptions });
  expect(root.find('h1').text()).toBe('At /');
});

it('shows the history\\'s location', () => {
  const root = shallowUntilTarget(<Page />, PageBase, {
    shallowOptions: createContextWithFakeRouter({ location: null }),
  });
  expect(root.find('h1').text()).toBe('At /');
});
"""


def test_the_location_the_options_gave_the_router_is_where_the_memory_router_starts() -> None:
    """addons-code-manager's LinterMessage, SlowPageAlert, CodeView, KeyboardShortcuts…: the
    router in legacy context (react-router 4) is given a location
    (``createContextWithFakeRouter({ location })``, in the options or in a value declared
    before), and the component reads it (a message highlighted by the query string). The
    ``<MemoryRouter>`` that replaces those options starts at that location; a ``null`` one
    gives none (the router's own, at /)."""
    dom, options = routed_page(line=11, column=2)
    path = "src/pages/Page.test.js"
    result = convert_enzyme_test(LOCATED_SUITE.lstrip(), path=path, options=options, dom=dom)
    content = result.content
    assert (
        "<MemoryRouter initialEntries={[location]}><Page {...props} /></MemoryRouter>" in content
    ), content
    assert (
        "<MemoryRouter initialEntries={[createFakeLocation()]}><Page /></MemoryRouter>" in content
    ), content
    assert "<MemoryRouter><Page /></MemoryRouter>" in content, content
    notes = [n.message for n in result.notes if n.kind == "review"]
    assert any(note.endswith("at the location they gave (location)") for note in notes), notes


HISTORY_SUITE = """
import React from 'react';
import {
  createContextWithFakeRouter,
  createFakeHistory,
  createFakeLocation,
  shallowUntilTarget,
} from './test-helpers';
import Page, { PageBase } from './Page';

const render = ({ history = createFakeHistory(), location = createFakeLocation() } = {}) =>
  shallowUntilTarget(<Page />, PageBase, {
    shallowOptions: createContextWithFakeRouter({ history, location }),
  });

it('goes home', () => {
  const history = createFakeHistory();
  const root = render({ history, location: createFakeLocation({ pathname: '/away' }) });
  expect(root.find('h1').text()).toBe('At /away');
  root.find('button').simulate('click');
  expect(history.push).toHaveBeenCalledWith('/home');
});
"""

HISTORY_SOURCES = {
    "Page.js": """
        import React from 'react';
        import { withRouter } from 'react-router-dom';

        export function PageBase({ history, location }) {
          return (
            <main>
              <h1>At {location.pathname}</h1>
              <button type="button" onClick={() => history.push('/home')}>
                Home
              </button>
            </main>
          );
        }

        export default withRouter(PageBase);
        """,
    # addons-code-manager's fakes: `listen` is a bare jest.fn(), which returns nothing.
    "test-helpers.js": """
        export const createFakeLocation = (props = {}) => ({
          hash: '', key: 'key', pathname: '/', search: '', state: undefined, ...props,
        });

        export const createFakeHistory = ({ location = createFakeLocation() } = {}) => ({
          action: 'PUSH', block: jest.fn(), createHref: jest.fn(), go: jest.fn(),
          goBack: jest.fn(), goForward: jest.fn(), length: 1, listen: jest.fn(), location,
          push: jest.fn(), replace: jest.fn(),
        });

        export const createContextWithFakeRouter = ({ history, location }) => ({
          context: { router: { history, route: { location, match: {} } } },
        });

        export const shallowUntilTarget = () => {
          throw new Error('the Enzyme helper, which the migrated test no longer calls');
        };
        """,
}


async def test_the_history_the_options_gave_the_router_is_the_one_a_router_navigates_with(
    app_copy: Path,
) -> None:
    """addons-code-manager's SlowPageAlert, DiffView, VersionChooser: react-router 4's router in
    legacy context is given a fake history and a location beside it
    (``createContextWithFakeRouter({ history, location })``), and the test asserts what the
    component pushed (``history.push``). Before react-router 6 the render goes inside a
    ``<Router>`` with that history, at that location; the fake's ``listen`` (a bare
    ``jest.fn()``) would leave the router nothing to call at unmount, so the one it gets
    returns a function in its place. Converted with the capture given (react-router 4 is not
    the example app's), then run by the app's real jest (react-router 5): it passes, and a
    component that pushes elsewhere fails it. From react-router 6 on, a ``<MemoryRouter>``."""
    folder = write_components(app_copy / "src/components/HistoryPage", HISTORY_SOURCES)
    file = "src/components/HistoryPage/Page.test.js"
    dom, options = routed_page(line=11, column=2)
    helpers = ["src/components/HistoryPage/test-helpers"]
    options = options.model_copy(update={"router_major": 5, "enzyme_helper_paths": helpers})
    result = convert_enzyme_test(HISTORY_SUITE.lstrip(), path=file, options=options, dom=dom)
    content = result.content
    router = (
        "<Router history={{ ...history, location, "
        "listen: (listener) => history.listen(listener) || (() => undefined) }}>"
    )
    assert f"{router}<Page /></Router>" in content, content
    assert "import { Router } from 'react-router-dom';" in content
    assert any("a fake history's `jest.fn()`" in n.message for n in result.notes)
    (app_copy / file).write_text(content)
    run = await runners_for(app_copy).run_tests(file)
    assert (run.suite_error, run.passed_count, run.failed_count) == (None, 1, 0), run.suite_error
    assert await broken_tests(
        app_copy, file, folder / "Page.js", "history.push('/home')", "history.push('/')"
    ) == ["goes home"]
    later = options.model_copy(update={"router_major": 6})
    routed = convert_enzyme_test(HISTORY_SUITE.lstrip(), path=file, options=later, dom=dom)
    assert "<MemoryRouter initialEntries={[location]}><Page /></MemoryRouter>" in routed.content


SHELF_SOURCES = {
    "configureStore.js": """
        import { createStore } from 'redux';

        const books = (state = { count: 0 }, action) =>
          action.type === 'add' ? { count: state.count + 1 } : state;

        export default function configureStore() {
          return createStore(books);
        }
        """,
    "Shelf.js": """
        import React from 'react';
        import { connect } from 'react-redux';

        function CountBase({ count }) {
          return <output>{count} books</output>;
        }
        const Count = connect((state) => ({ count: state.count }))(CountBase);

        export default function Shelf({ title }) {
          return (
            <section>
              <h2>{title}</h2>
              <Count />
            </section>
          );
        }
        """,
}

SHELF_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import configureStore from './configureStore';
import Shelf from './Shelf';

describe('Shelf', () => {
  it('starts with no books', () => {
    const store = configureStore();
    expect(store.getState().count).toBe(0);
  });

  it('shows its title', () => {
    const root = shallow(<Shelf title="Novels" />);
    expect(root.find('h2').text()).toBe('Novels');
  });
});
"""


async def test_children_that_need_a_store_render_inside_a_provider_of_the_tests_store(
    app_copy: Path,
) -> None:
    """A connected child in the component's own module (no stub can replace it) throws outside
    a redux ``<Provider>``, which the shallow test never needed. The file makes its stores with
    ``configureStore()``: the render goes inside a ``<Provider>`` of such a store, and the
    result passes under real jest and still fails when the title is not shown."""
    folder = write_components(app_copy / "src/components/Shelf", SHELF_SOURCES)
    file = str((folder / "Shelf.test.js").relative_to(app_copy))
    content = await migrate(app_copy, file, SHELF_SUITE)
    assert "import { Provider } from 'react-redux';" in content
    assert '<Provider store={configureStore()}><Shelf title="Novels" /></Provider>' in content
    assert "cannot be stubbed" not in content
    failing = await broken_tests(app_copy, file, folder / "Shelf.js", "<h2>{title}</h2>", "<h2 />")
    assert failing == ["Shelf shows its title"]


TALLY_SOURCES = {
    "Tally.js": """
        export default function Tally({ items, children }) {
          return children({ count: items.length });
        }
        """,
}

TALLY_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';
import Tally from './Tally';

const render = ({ children = jest.fn(), items = [] } = {}) =>
  shallow(<Tally items={items}>{children}</Tally>);

describe('Tally', () => {
  it('counts its items for what it renders', () => {
    const children = jest.fn();
    render({ children, items: ['a', 'b'] });
    expect(children).toHaveBeenCalledWith({ count: 2 });
  });

  it('renders with what it is given by default', () => {
    expect(render().isEmptyRender()).toBe(true);
  });
});
"""


async def test_a_render_prop_mock_returns_null_where_react_refuses_undefined(
    app_copy: Path,
) -> None:
    """A render prop given as a bare ``jest.fn()`` (``children``, in 7 tests of
    addons-code-manager's LinterProvider, in visx's Chord, reactstrap's PopperContent): the
    component returns what it returns, ``undefined``, which a shallow render let pass and
    React 17's full render refuses ("Nothing was returned from render"). On the example app
    (React 17) the mocks return null: the result passes under real jest and still fails when
    the count is wrong."""
    folder = write_components(app_copy / "src/components/Tally", TALLY_SOURCES)
    file = str((folder / "Tally.test.js").relative_to(app_copy))
    content = await migrate(app_copy, file, TALLY_SUITE)
    assert "const children = jest.fn().mockReturnValue(null);" in content
    assert "({ children = jest.fn().mockReturnValue(null), items = [] } = {})" in content
    failing = await broken_tests(
        app_copy, file, folder / "Tally.js", "count: items.length", "count: items.length + 1"
    )
    assert failing == ["Tally counts its items for what it renders"]

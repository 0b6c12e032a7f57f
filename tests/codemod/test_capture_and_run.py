"""DOM capture and converted files under the example app's real jest (slower)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from testmend.codemod import capture_dom, convert_enzyme_test, detect_conventions
from testmend.codemod.models import CodemodResult, DomCapture
from testmend.config import load_config
from testmend.runners import ProjectRunners, TestRunResult
from testmend.runners.setup_files import find_jest_config, write_wrapper_config
from tests.support.apps import fixture_text
from tests.support.codemod import migrate_offline


def runners_for(root: Path) -> ProjectRunners:
    return ProjectRunners(load_config(root, environ={}), cwd=root)


def leftovers(root: Path) -> list[str]:
    return [p.name for p in root.iterdir() if p.name.startswith(".testmend-capture")]


async def converted_and_run(
    app: Path, file: str, suite: str
) -> tuple[DomCapture, CodemodResult, TestRunResult]:
    """``suite`` written at ``file`` in ``app``: captured, converted with the project's
    conventions and that capture, and the result run by real jest; the file goes afterwards."""
    runners = runners_for(app)
    (app / file).write_text(suite.lstrip())
    try:
        capture = await capture_dom(runners, file, workspace_root=app)
        assert capture.error is None, capture.error
        options = detect_conventions(app)
        result = convert_enzyme_test(suite.lstrip(), path=file, options=options, dom=capture)
        (app / file).write_text(result.content)
        run = await runners.run_tests(file)
    finally:
        (app / file).unlink()
    return capture, result, run


async def captured(app: Path, file: str, suite: str) -> DomCapture:
    """The capture of ``suite`` written at ``file`` in ``app``; the file goes afterwards."""
    (app / file).write_text(suite)
    try:
        return await capture_dom(runners_for(app), file, workspace_root=app)
    finally:
        (app / file).unlink()


async def test_capture_records_queries_and_html(app_copy: Path) -> None:
    file = "src/components/Countdown/Countdown.test.tsx"
    capture = await capture_dom(runners_for(app_copy), file, workspace_root=app_copy)
    assert capture.error is None, capture.error
    assert capture.tests_passed == 7
    assert capture.user_event_ready is True  # jsdom 20: user-event 14 can run here
    assert leftovers(app_copy) == []
    toggle = [r for r in capture.records if r.selector == "#countdown-toggle" and r.count == 1]
    assert toggle and toggle[0].queries[0].method == "Role"
    assert toggle[0].queries[0].args[0] == "button"
    assert toggle[0].elements[0].tag == "button"
    first = capture.records[0]
    assert (first.line, first.column) == (30, 20)  # the `find` of line 30
    assert first.test == "Countdown counts down once per second"
    assert "countdown__time" in capture.html_by_test[first.test]
    # Where the toggle is gone (count 0), a query for it where it was there (its name changes:
    # Start, Pause), which the capture saw find nothing here too.
    [gone] = [r for r in capture.records if r.selector == "#countdown-toggle" and r.count == 0]
    query = gone.absent_queries[0]
    assert (query.method, query.args[0]) == ("Role", "button")
    assert query.args[1] == {"name": {"$regex": "^(?:Pause|Start)$", "flags": ""}}


async def test_capture_of_shallow_renders(app_copy: Path) -> None:
    file = "src/components/Pagination/Pagination.test.tsx"
    capture = await capture_dom(runners_for(app_copy), file, workspace_root=app_copy)
    pages = next(r for r in capture.records if r.selector == "button.pagination__page")
    assert pages.shallow and pages.count == 5
    assert pages.queries and pages.queries[0].all
    assert [q[0].args[1] for q in pages.element_queries][:2] == [
        {"name": "Page 1"},
        {"name": "Page 2"},
    ]


async def test_shallow_finds_of_elements_holding_inputs_are_found_in_the_html(
    app_copy: Path,
) -> None:
    """A shallow find's elements are located in the render's HTML by their markup. React writes
    ``<input/>`` where the DOM serializes ``<input>``: a form (anything holding an input, an
    img, a br) must still be found, so that it gets its query and its submit button."""
    file = "src/components/SignupForm/SignupForm.test.tsx"
    capture = await capture_dom(runners_for(app_copy), file, workspace_root=app_copy)
    [form] = [r for r in capture.records if r.selector == "form" and r.shallow]
    assert (form.queries[0].method, form.queries[0].args) == ("Role", ["form", {"name": "Sign up"}])
    assert form.submit_queries[0].args == ["button", {"name": "Create account"}]
    [inputs] = [r for r in capture.records if r.selector == "input"]
    assert inputs.shallow and [e.tag for e in inputs.elements] == ["input"] * 4


async def test_capture_keeps_records_of_a_failing_test(app_copy: Path) -> None:
    file = "src/Broken.test.tsx"
    capture = await captured(
        app_copy,
        file,
        textwrap.dedent(
            """
        import { mount } from 'enzyme';

        it('fails after a find', () => {
          const wrapper = mount(<button type="button">Go</button>);
          expect(wrapper.find('button').text()).toBe('Go');
          throw new Error('boom');
        });
        """
        ),
    )
    assert capture.error and "failed" in capture.error
    assert capture.records and capture.records[0].queries[0].args == ["button", {"name": "Go"}]
    assert leftovers(app_copy) == []


async def test_capture_under_a_create_react_app_test_script(app_copy: Path) -> None:
    """react-scripts (and react-app-rewired, craco) pass a --config of their own after ours,
    which wins: the capture goes in by the CLI's setup option instead, after the app's own
    ``src/setupTests``. The runner here does what react-scripts' test script does."""
    script = app_copy / "scripts" / "react-scripts"
    script.parent.mkdir(exist_ok=True)
    script.write_text(
        textwrap.dedent(
            """\
            #!/usr/bin/env node
            // Like Create React App's `react-scripts test`: its own config, passed last.
            const path = require('path');
            const config = require(path.resolve('jest.config.js'));
            const argv = process.argv.slice(3);
            argv.push('--config', JSON.stringify({ ...config, rootDir: process.cwd() }));
            require('jest').run(argv);
            """
        )
    )
    script.chmod(0o755)
    runners = ProjectRunners(
        load_config(
            app_copy,
            environ={},
            editor_settings={"commands": {"test": f"{script} test --watchAll=false"}},
        ),
        cwd=app_copy,
    )
    file = "src/components/Countdown/Countdown.test.tsx"
    try:
        capture = await capture_dom(runners, file, workspace_root=app_copy)
    finally:
        script.unlink()
    assert capture.error is None, capture.error
    assert capture.tests_passed == 7
    assert any(r.selector == "#countdown-toggle" and r.queries for r in capture.records)
    assert leftovers(app_copy) == []


async def test_capture_of_a_file_that_does_not_compile(app_copy: Path) -> None:
    file = "src/Syntax.test.tsx"
    (app_copy / file).write_text("import { mount } from 'enzyme';\nit('x', () => {\n")
    try:
        capture = await capture_dom(runners_for(app_copy), file, workspace_root=app_copy)
    finally:
        (app_copy / file).unlink()
    assert capture.error and capture.records == []
    assert leftovers(app_copy) == []


def test_wrapper_configs(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"jest": {"testEnvironment": "jsdom"}}')
    assert find_jest_config(tmp_path) == (None, {"testEnvironment": "jsdom"})
    wrapper = write_wrapper_config(tmp_path, tmp_path / "setup.js", "t1")
    assert wrapper.suffix == ".cjs" and '"testEnvironment": "jsdom"' in wrapper.read_text()
    (tmp_path / "jest.config.ts").write_text("export default {};\n")
    wrapper = write_wrapper_config(tmp_path, tmp_path / "setup.js", "t2")
    assert wrapper.suffix == ".ts" and 'import base from "./jest.config"' in wrapper.read_text()
    (tmp_path / "jest.config.ts").unlink()
    (tmp_path / "jest.config.mjs").write_text("export default {};\n")
    wrapper = write_wrapper_config(tmp_path, tmp_path / "setup.js", "t3")
    assert wrapper.suffix == ".mjs"
    (tmp_path / "jest.config.mjs").unlink()
    (tmp_path / "jest.config.json").write_text('{"roots": ["src"]}')
    wrapper = write_wrapper_config(tmp_path, tmp_path / "setup.js", "t4")
    assert '"roots": ["src"]' in wrapper.read_text()


# A suite in styles the example app does not use: JS-like helpers, chained finds, lists,
# filter, describe.each, beforeAll, require-free TS with exists()/length checks.
OWN_SUITE = fixture_text("codemod/capture_and_run/own_suite.tsx")


async def test_own_suite_converts_and_passes(app_copy: Path) -> None:
    file = "src/components/TodoList/Own.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, OWN_SUITE)
    assert result.enzyme_free and result.untranslated_count == 0
    assert result.test_names_before == result.test_names_after
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error
    assert run.passed_count == 6


async def test_migrate_offline_on_example_file(app_copy: Path) -> None:
    """The whole offline pipeline, as ``testmend migrate --offline`` runs it: the capture
    verified queries, the snapshot is recorded again, every check passes."""
    file = "src/components/Pagination/Pagination.test.tsx"
    result = await migrate_offline(app_copy, file)
    assert result.status == "succeeded", result.reasons
    assert result.summary.tests_passing == result.summary.tests_total == 7
    assert list(result.extra_files) == [
        "src/components/Pagination/__snapshots__/Pagination.test.tsx.snap"
    ]
    assert result.summary.enzyme_free and result.type_messages == [] == result.lint_messages
    assert "screen.getByRole(" in result.content  # queries from the capture


async def test_node_access_left_says_what_the_element_is_and_what_would_make_it_queryable(
    app_copy: Path,
) -> None:
    """Countdown's root ``<div className="countdown countdown--done">`` has no role, name or
    test id: its class check keeps the node access, with a finding that names the element the
    capture saw and what would let a query select it; never an eslint-disable comment."""
    file = "src/components/Countdown/Countdown.test.tsx"
    result = await migrate_offline(app_copy, file)
    assert result.summary.tests_passing == result.summary.tests_total == 7
    fallbacks = [f.message for f in result.codemod_findings if f.kind == "fallback"]
    assert fallbacks == [
        "CSS selector '.countdown': no role, label, text or test id query matched the same "
        'elements; the <div class="countdown countdown--done"> it selects would be queryable '
        "with a role with an accessible name (aria-label or aria-labelledby), or a data-testid"
    ]
    assert [m.rule for m in result.lint_messages] == ["testing-library/no-node-access"]
    assert "eslint-disable" not in result.content


async def test_an_absence_check_of_what_no_test_renders_says_why_it_has_no_query(
    app_copy: Path,
) -> None:
    """UserMenu's user has no avatar in any test, so ``find('img')`` never matched: no element
    was there to check a query on, and the finding says that instead of naming one."""
    file = "src/components/UserMenu/UserMenu.test.tsx"
    result = await migrate_offline(app_copy, file)
    assert result.summary.tests_passing == result.summary.tests_total == 7
    fallbacks = [f.message for f in result.codemod_findings if f.kind == "fallback"]
    assert fallbacks == [
        "CSS selector 'img': no role, label, text or test id query matched the same elements;"
        " it selected nothing in any run of this file's tests, so no element was there to"
        " check a query on"
    ]
    assert "expect(document.querySelector('img')).not.toBeInTheDocument();" in result.content


async def test_an_assertion_on_enzyme_bookkeeping_dropped_is_no_lost_assertion(
    app_copy: Path,
) -> None:
    """Modal's suite reads ``wrapper.props().title``, the prop it passed itself: the codemod
    drops that assertion and says why, and the inventory takes that as the test's reason for
    one assertion fewer (the result is accepted, not sent to review)."""
    file = "src/components/Modal/Modal.test.tsx"
    result = await migrate_offline(app_copy, file)
    assert result.status == "succeeded", result.reasons
    assert result.summary.tests_passing == result.summary.tests_total == 6
    assert "expect(screen.queryByTestId('modal-overlay')).not.toBeInTheDocument();" in (
        result.content
    )


HOST_NODES_SUITE = """
import { mount } from 'enzyme';

function Input({ className, label }: { className: string; label: string }) {
  return (
    <div className="field">
      <label htmlFor="name">{label}</label>
      <input id="name" className={className} />
    </div>
  );
}

it('renders the control', () => {
  const wrapper = mount(<Input className="form-control" label="Name" />);
  const control = wrapper.find('.form-control').hostNodes();
  expect(control).toHaveLength(1);
  expect(control.prop('id')).toBe('name');
});
"""


async def test_host_nodes_of_a_class_a_component_also_takes_are_queried(app_copy: Path) -> None:
    """typeahead's ``find('.form-control').hostNodes()``: the class matches the component that
    takes it as a prop (whose DOM node is its wrapper) and the input that has it; the query is
    for what ``hostNodes()`` kept, the input."""
    file = "src/components/HostNodes.test.tsx"
    capture, result, run = await converted_and_run(app_copy, file, HOST_NODES_SUITE)
    [record] = [r for r in capture.records if r.selector == ".form-control"]
    assert [e.tag for e in record.elements] == ["div", "input"] and record.queries == []
    assert "screen.getAllByRole('textbox', { name: 'Name' })" in result.content
    assert "querySelector" not in result.content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


async def test_a_component_that_renders_nothing_queryable_is_counted_by_its_recording(
    app_copy: Path,
) -> None:
    """addons-code-manager's style: ``expect(root.find(FontAwesomeIcon)).toHaveLength(1)``, a
    library's component that renders nothing a query finds. Its mounted instances are counted
    through the recording helper, written beside the tests and imported with the file's own
    modules (import/order), and the result is accepted by the project's jest and eslint."""
    folder = app_copy / "src/components/Loading"
    folder.mkdir()
    (folder / "Icon.tsx").write_text(fixture_text("codemod/capture_and_run/icon.tsx"))
    (folder / "Loading.tsx").write_text(fixture_text("codemod/capture_and_run/loading.tsx"))
    file = "src/components/Loading/Loading.test.tsx"
    (app_copy / file).write_text(fixture_text("codemod/capture_and_run/loading_suite.tsx"))
    result = await migrate_offline(app_copy, file)
    assert result.status == "succeeded", result.reasons
    assert result.summary.tests_passing == result.summary.tests_total == 2
    assert "expect(recordedProps(Icon)).toHaveLength(1);" in result.content
    assert "expect(recordedProps(Icon)).toHaveLength(0);" in result.content
    assert "counted the instances of Icon" in result.content
    assert [p for p in result.extra_files if "recordProps" in p]
    assert result.lint_messages == [] and result.type_messages == []


# A shallow suite in the style of react-bootstrap-typeahead and reactstrap: assertions on the
# root wrapper (type, classes, attributes), setProps with a spread, simulate() with event
# objects whose preventDefault/stopPropagation are mocks the test looks at afterwards, and a
# prop read in the shared setup that only one test uses.
CLOSE_BUTTON = fixture_text("codemod/capture_and_run/close_button.tsx")
SHALLOW_SUITE = fixture_text("codemod/capture_and_run/shallow_suite.tsx")


async def test_shallow_root_and_event_objects_pass_and_keep_their_intent(app_copy: Path) -> None:
    folder = app_copy / "src/components/Close"
    folder.mkdir()
    (folder / "Close.js").write_text(CLOSE_BUTTON.lstrip())
    file = "src/components/Close/Close.test.js"
    runners = runners_for(app_copy)
    result = convert_enzyme_test(
        SHALLOW_SUITE.lstrip(), path=file, options=detect_conventions(app_copy)
    )
    assert result.enzyme_free
    # A prop read in the shared setup is left for a person; only the test reading it fails.
    assert [n.message for n in result.notes if n.kind == "untranslated"] == [
        "uses the Enzyme wrapper in a way testmend cannot translate",
        "depends on code that was left untranslated above",
    ]
    (app_copy / file).write_text(result.content)
    run = await runners.run_tests(file)
    assert run.suite_error is None
    [left] = run.failing()
    assert left.full_name == "<Close> handles clicks itself"
    assert "testmend: untranslated Enzyme code" in left.failure_messages[0]
    assert run.passed_count == 4
    # Each behaviour the Enzyme suite checks, broken in turn: the migrated suite notices.
    for correct, broken, test in [
        ("e.stopPropagation();", "", "stops the click from propagating"),
        ("e.keyCode === 8", "e.keyCode === 9", "prevents the default backspace"),
        ("'close close-lg'", "'close'", "renders a large one"),
        ('"Clear"', '"Clean"', "renders a clear button"),
    ]:
        (folder / "Close.js").write_text(CLOSE_BUTTON.lstrip().replace(correct, broken))
        run = await runners.run_tests(file)
        assert run.suite_error is None
        failing = [t.full_name for t in run.failing()]
        assert failing == ["<Close> handles clicks itself", f"<Close> {test}"], correct


SVG_SHAPE = fixture_text("codemod/capture_and_run/svg_shape.tsx")

SVG_SUITE = fixture_text("codemod/capture_and_run/svg_suite.tsx")


def component_and_test(root: Path, name: str, component: str, suite: str) -> tuple[Path, str]:
    """``src/components/<name>/<name>.js`` and its Enzyme test beside it: (folder, test)."""
    folder = root / "src/components" / name
    folder.mkdir()
    (folder / f"{name}.js").write_text(component.lstrip())
    file = f"src/components/{name}/{name}.test.js"
    (root / file).write_text(suite.lstrip())
    return folder, file


async def test_components_rendering_svg_elements_render_inside_an_svg(app_copy: Path) -> None:
    """A shallow test of a component whose root is an SVG element (<g>, <line>) has no DOM;
    rendered for real outside an <svg>, React makes unknown HTML elements and warns. The
    capture sees the root's tag at each render call, and the migration renders inside one.
    A root that is another component's element (a <Group> adding its own class) gets the
    class it was given, among others."""
    folder, file = component_and_test(app_copy, "Shape", SVG_SHAPE, SVG_SUITE)
    runners = runners_for(app_copy)
    capture = await capture_dom(runners, file, workspace_root=app_copy)
    assert capture.error is None, capture.error
    assert {r.tag for r in capture.renders} == {"g"}
    assert {r.host for r in capture.renders} == {False, None}  # shallow: <Group>; static
    result = convert_enzyme_test(
        SVG_SUITE.lstrip(), path=file, options=detect_conventions(app_copy), dom=capture
    )
    assert result.enzyme_free and result.untranslated_count == 0
    assert "render(<svg><Shape {...props} /></svg>)" in result.content
    assert "rerender(<svg><Shape width={7} /></svg>)" in result.content
    assert "<svg><Animated /></svg>" in result.content
    assert ".container.querySelector('svg > *')).toHaveClass('shape extra')" in result.content
    (app_copy / file).write_text(result.content)
    run = await runners.run_tests(file)
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error
    assert run.passed_count == 5
    # The class on the group and the width still matter.
    for correct, broken, test in [
        ("'shape', className", "'shape'", "adds its class to the group"),
        ("width={width}", "width={10}", "follows its width"),
    ]:
        (folder / "Shape.js").write_text(SVG_SHAPE.lstrip().replace(correct, broken))
        run = await runners.run_tests(file)
        assert [t.full_name for t in run.failing()] == [f"<Shape /> {test}"], correct


async def test_capture_finds_css_selectors_without_css_escape(app_copy: Path) -> None:
    """Older jsdom (jest 25 and before) has no CSS.escape: component selectors still get a
    verified CSS selector (with their classes and ids escaped)."""
    file = "src/NoCss.test.js"
    capture = await captured(
        app_copy,
        file,
        textwrap.dedent(
            """
        import React from 'react';
        import { mount } from 'enzyme';

        const Row = () => <div className="row x:y" />;
        const Cell = () => <span id="cell:1" />;

        it('finds them', () => {
          window.CSS = undefined;
          const wrapper = mount(<div><Row /><Cell /></div>);
          expect(wrapper.find(Row)).toHaveLength(1);
          expect(wrapper.find(Cell)).toHaveLength(1);
        });
        """
        ),
    )
    assert capture.error is None, capture.error
    assert {r.selector: r.css for r in capture.records} == {
        "Row": "div.row",
        "Cell": "#cell\\:1",
    }


PAGER = fixture_text("codemod/capture_and_run/pager.tsx")

PAGER_SUITE = fixture_text("codemod/capture_and_run/pager_suite.tsx")


async def test_children_of_a_component_root_and_two_renders_in_one_test(app_copy: Path) -> None:
    """reactstrap's style. On ``mount(<Pager />)`` Enzyme's ``children()``/``childAt(0)`` are
    what the component rendered (context providers left out), which is the root wrapper's own
    DOM node, not its DOM children; one step further the DOM cannot tell a component from an
    element, and the capture does: what ``childAt(0).childAt(0)`` selected there (``Pages``'s
    ``Pager``, then its ``nav``) is queried as it saw it. Two renders in one test (``small``,
    ``large``) stay
    variables (``view`` and ``utils``, as the lint names them) rather than both destructuring
    ``container``."""
    folder, file = component_and_test(app_copy, "Pager", PAGER, PAGER_SUITE)
    runners = runners_for(app_copy)
    original = await runners.run_tests(file)
    assert original.success and original.passed_count == 4
    capture = await capture_dom(runners, file, workspace_root=app_copy)
    assert capture.error is None, capture.error
    result = convert_enzyme_test(
        PAGER_SUITE.lstrip(), path=file, options=detect_conventions(app_copy), dom=capture
    )
    assert result.enzyme_free
    assert [n.message for n in result.notes if n.kind == "untranslated"] == []
    assert (
        "expect(screen.getByRole('navigation', { name: 'pages' })).toHaveClass('pager-light');"
        in result.content
    )
    # Named as Testing Library's lint wants render results named (view, utils).
    assert 'const view = render(<Pager size="sm" />);' in result.content
    assert (
        "expect(screen.getByRole('main', { name: 'pages' }).localName).toBe('main');"
        in result.content
    )
    # Each render's list is searched in its own container: both are in the document.
    assert "expect(within(view.container).getByRole('list'))" in result.content
    (app_copy / file).write_text(result.content)
    run = await runners.run_tests(file)
    assert run.suite_error is None
    assert run.failing() == [] and run.passed_count == 4
    # The tag, the theme's class and the size's class still matter.
    for correct, broken, tests in [
        ("tag: Tag = 'nav'", "tag: _tag, Tag = 'nav'", ["renders a custom tag"]),
        (
            "className={`pager-${theme}`}",
            'className="pager"',
            ["renders a custom tag", "renders pages"],
        ),
        ("size && `pagination-${size}`", "size && 'pagination-sm'", ["renders sizes"]),
    ]:
        (folder / "Pager.js").write_text(PAGER.lstrip().replace(correct, broken))
        run = await runners.run_tests(file)
        failing = sorted(t.full_name for t in run.failing())
        assert failing == sorted(f"Pager {test}" for test in tests), (correct, failing)


async def test_a_gone_container_is_queried_by_the_named_element_inside_it(app_copy: Path) -> None:
    """``expect(wrapper.find('.menu').exists()).toBe(false)`` on a ``div`` no query selects: where
    another test rendered it, the first element inside that a role and a name select stands for
    it, verified to find nothing where the container is gone."""
    file = "src/Menu.test.tsx"
    capture = await captured(
        app_copy,
        file,
        textwrap.dedent(
            """
        import React, { useState } from 'react';
        import { mount } from 'enzyme';

        function Menu() {
          const [user, setUser] = useState<string | null>('Ada');
          if (!user) return <p>Signed out</p>;
          return (
            <div className="menu">
              <span aria-hidden="true">A</span>
              <button type="button" onClick={() => setUser(null)}>Sign out {user}</button>
            </div>
          );
        }

        it('shows the menu', () => {
          const wrapper = mount(<Menu />);
          expect(wrapper.find('button').text()).toBe('Sign out Ada');
        });

        it('signs out', () => {
          const wrapper = mount(<Menu />);
          wrapper.find('button').simulate('click');
          expect(wrapper.find('.menu').exists()).toBe(false);
        });
        """
        ),
    )
    assert capture.error is None, capture.error
    [gone] = [r for r in capture.records if r.selector == ".menu"]
    assert gone.count == 0
    assert [(q.method, q.args) for q in gone.absent_queries] == [
        ("Role", ["button", {"name": "Sign out Ada"}])
    ]


ITEMS_SUITE = """
import React from 'react';
import { mount } from 'enzyme';

function Item({ title, open }: { title: string; open: boolean }) {
  return (
    <div className={open ? 'item item--open' : 'item'}>
      <h3>{title}</h3>
      <span className={`badge badge--${title.toLowerCase()}`}>{title.toLowerCase()}</span>
      {open && <p>More about {title}</p>}
    </div>
  );
}

function Items() {
  return (
    <section>
      <Item title="Shipping" open />
      <Item title="Returns" open={false} />
      <Item title="Warranty" open={false} />
    </section>
  );
}

describe('Items', () => {
  it('lists every item', () => {
    const wrapper = mount(<Items />);
    expect(wrapper.find(Item)).toHaveLength(3);
  });

  it('opens the first', () => {
    const wrapper = mount(<Items />);
    expect(wrapper.find('.item').first().hasClass('item--open')).toBe(true);
  });

  it('badges the last', () => {
    const wrapper = mount(<Items />);
    expect(wrapper.find('.badge').last().hasClass('badge--warranty')).toBe(true);
  });
});
"""


async def test_items_no_query_selects_are_counted_by_their_headings(app_copy: Path) -> None:
    """``find(Item)).toHaveLength(3)`` on `div`s no query selects: each item's heading (the element
    in the same place inside each) is counted instead, and the converted test passes under real
    jest; a class read on an item stays on the item, never on its heading. ``last()`` is the
    element the capture's count says, by its own query."""
    file = "src/components/Items.test.tsx"
    capture, result, run = await converted_and_run(app_copy, file, ITEMS_SUITE)
    [items] = [r for r in capture.records if r.test == "Items lists every item"]
    assert [(q.method, q.args) for q in items.inner_queries] == [("Role", ["heading"])]
    assert "expect(screen.getAllByRole('heading')).toHaveLength(3);" in result.content
    assert "getAllByRole('heading')[0]).toHaveClass" not in result.content
    assert "expect(screen.getByText('warranty')).toHaveClass('badge--warranty');" in (
        result.content
    )
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


FORM_SUITE = """
import React, { useState } from 'react';
import { mount } from 'enzyme';

function Subscribe({ onSubscribe }: { onSubscribe: (email: string) => void }) {
  const [email, setEmail] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (email) onSubscribe(email);
      }}
    >
      <label htmlFor="email">Email</label>
      <input id="email" value={email} onChange={(event) => setEmail(event.target.value)} />
      <button type="submit" disabled={!email}>Subscribe</button>
    </form>
  );
}

describe('Subscribe', () => {
  it('subscribes the address', () => {
    const onSubscribe = jest.fn();
    const wrapper = mount(<Subscribe onSubscribe={onSubscribe} />);
    wrapper.find('input').simulate('change', { target: { value: 'ada@example.com' } });
    wrapper.find('form').simulate('submit');
    expect(onSubscribe).toHaveBeenCalledWith('ada@example.com');
  });

  it('ignores an empty form', () => {
    const onSubscribe = jest.fn();
    const wrapper = mount(<Subscribe onSubscribe={onSubscribe} />);
    wrapper.find('form').simulate('submit');
    expect(onSubscribe).not.toHaveBeenCalled();
  });
});
"""


async def test_a_form_is_submitted_by_clicking_its_submit_button(app_copy: Path) -> None:
    """``find('form').simulate('submit')``: a form has no role without a name, so a user's way
    in, a click on its one submit button, is what the result does. Where that button is
    disabled (the test submits what no user could), the ``submit`` event is fired at it, from
    which it bubbles to the form as the original's did: no node access for the lint to reject
    (the example app's ``TodoList``, which refuses an empty todo)."""
    file = "src/components/Subscribe.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, FORM_SUITE)
    subscribes, ignores = result.content.split("it('ignores an empty form'")
    assert "click(screen.getByRole('button', { name: 'Subscribe' }))" in subscribes
    assert "submit" not in subscribes.split("it('subscribes the address'")[1]
    assert "fireEvent.submit(screen.getByRole('button', { name: 'Subscribe' }));" in ignores
    assert "querySelector" not in result.content, result.content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error
    assert run.passed_count == 2

    # The event reaches the form's handler through the disabled button: without the handler's
    # own guard, the empty form subscribes, and the test that submits it fails.
    (app_copy / file).write_text(
        result.content.replace("if (email) onSubscribe(email);", "onSubscribe(email);")
    )
    try:
        unguarded = await runners_for(app_copy).run_tests(file)
    finally:
        (app_copy / file).unlink()
    assert [t.full_name for t in unguarded.failing()] == ["Subscribe ignores an empty form"]


async def test_a_gone_element_is_queried_as_it_was_earlier_in_the_same_test(
    app_copy: Path,
) -> None:
    """The only place ``.notice`` ever matched is earlier in the test that checks it is gone (no
    find of it there): what that test rendered at its earlier find gives the query."""
    file = "src/Notice.test.tsx"
    capture = await captured(
        app_copy,
        file,
        textwrap.dedent(
            """
        import React, { useState } from 'react';
        import { mount } from 'enzyme';

        function Notice() {
          const [shown, setShown] = useState(true);
          if (!shown) return <p>Nothing new</p>;
          return (
            <div className="notice" role="alert">
              <p>Saved</p>
              <button type="button" onClick={() => setShown(false)}>Dismiss</button>
            </div>
          );
        }

        it('dismisses the notice', () => {
          const wrapper = mount(<Notice />);
          expect(wrapper.find('.notice p').text()).toBe('Saved');
          wrapper.find('button').simulate('click');
          expect(wrapper.find('.notice').exists()).toBe(false);
        });
        """
        ),
    )
    assert capture.error is None, capture.error
    [gone] = [r for r in capture.records if r.selector == ".notice"]
    assert gone.count == 0
    assert [(q.method, q.args) for q in gone.absent_queries] == [("Role", ["alert"])]


FILTER_SUITE = """
import React, { useState } from 'react';
import { mount } from 'enzyme';

function Repositories() {
  const [deleted, setDeleted] = useState(false);
  return (
    <div>
      <h3>Installed repositories</h3>
      <h3>Global repositories</h3>
      <button type="button">Edit</button>
      <button type="button" onClick={() => setDeleted(true)}>Delete</button>
      {deleted && <p>Deleted</p>}
    </div>
  );
}

it('deletes through the button whose text says so', () => {
  const wrapper = mount(<Repositories />);
  expect(
    wrapper.find('h3').filterWhere((h: any) => h.text().includes('Installed')).exists(),
  ).toBe(true);
  wrapper.find('button').filterWhere((b) => b.text() === 'Delete').simulate('click');
  expect(wrapper.find('p').text()).toBe('Deleted');
});
"""


async def test_filter_where_on_the_text_is_the_element_with_that_text(app_copy: Path) -> None:
    """``find('button').filterWhere((b) => b.text() === 'Delete')``: of the elements the capture
    saw, the one whose text the predicate accepts, by its own query."""
    file = "src/components/Repositories.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, FILTER_SUITE)
    assert result.enzyme_free and result.untranslated_count == 0, result.content
    assert "getByRole('button', { name: 'Delete' })" in result.content
    # `h3` names the level as well as the role.
    heading = "getByRole('heading', { name: 'Installed repositories', level: 3 })"
    assert heading in result.content, result.content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


HANDLER_SUITE = """
import React, { useState } from 'react';
import { mount } from 'enzyme';

function Param(props: { onChange: (value: string) => void; onSave: () => Promise<void> }) {
  const [size, setSize] = useState('small');
  const [agreed, setAgreed] = useState(false);
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        await props.onSave();
      }}
    >
      <label htmlFor="name">Name</label>
      <input
        id="name"
        onChange={(event) => {
          if (event.currentTarget.reportValidity()) props.onChange(event.currentTarget.value);
        }}
      />
      <label htmlFor="size">Size</label>
      <select id="size" value={size} onChange={(event) => setSize(event.target.value)}>
        <option value="small">Small</option>
        <option value="large">Large</option>
      </select>
      <p>Size: {size}</p>
      <label>
        <input
          type="checkbox"
          checked={agreed}
          onChange={(event) => setAgreed(event.target.checked)}
        />
        Agree
      </label>
      <button type="submit">Save</button>
    </form>
  );
}

describe('Param', () => {
  it('hands on a valid name', () => {
    const onChange = jest.fn();
    const wrapper = mount(<Param onChange={onChange} onSave={jest.fn()} />);
    const input = wrapper.find('#name');
    const event = {
      currentTarget: { value: 'foo', reportValidity: jest.fn(() => true) },
    } as unknown as React.FormEvent<HTMLInputElement>;
    (input.prop('onChange') as any)(event);
    expect(onChange).toHaveBeenCalledWith('foo');
  });

  it('keeps an invalid name', () => {
    const onChange = jest.fn();
    const wrapper = mount(<Param onChange={onChange} onSave={jest.fn()} />);
    (wrapper.find('#name').prop('onChange') as any)({
      currentTarget: { value: 'foo', reportValidity: () => false },
    });
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows the chosen size', () => {
    const wrapper = mount(<Param onChange={jest.fn()} onSave={jest.fn()} />);
    (wrapper.find('select').prop('onChange') as any)({ target: { value: 'large' } });
    wrapper.update();
    expect(wrapper.find('p').text()).toBe('Size: large');
  });

  it('toggles the agreement', () => {
    const agreed = false;
    const wrapper = mount(<Param onChange={jest.fn()} onSave={jest.fn()} />);
    const box = wrapper.find('input').findWhere((i) => i.prop('type') === 'checkbox');
    expect(box.prop('checked')).toBe(agreed);
    (box.prop('onChange') as any)({ target: { checked: !agreed } });
    wrapper.update();
    expect(wrapper.find('input[type="checkbox"]').prop('checked')).toBe(!agreed);
  });

  it('saves', async () => {
    const onSave = jest.fn(() => Promise.resolve());
    const wrapper = mount(<Param onChange={jest.fn()} onSave={onSave} />);
    const form = wrapper.find('form');
    await (form.prop('onSubmit') as (e: any) => Promise<void>)({ preventDefault: jest.fn() });
    expect(onSave).toHaveBeenCalled();
  });
});
"""


async def test_an_elements_event_handler_called_directly_is_its_event_fired(
    app_copy: Path,
) -> None:
    """``(input.prop('onChange') as any)(event)`` (kubeapps' params, forms and selects): React
    calls the same handler when the event is fired at the element. What the handler read on
    Enzyme's mock ``currentTarget`` goes onto the element (``target``), its mock methods too; a
    form's ``onSubmit`` is a click on its submit button, as a user submits it; a checkbox's
    ``onChange`` a click, and its ``checked`` prop compared with a value is its property."""
    file = "src/components/Param.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, HANDLER_SUITE)
    content = result.content
    assert "prop('on" not in content and "throw new Error" not in content, content
    assert "{ target: event.currentTarget }" in content
    assert "target: { value: 'foo', reportValidity: () => false }" in content
    assert "click(screen.getByRole('button', { name: 'Save' }))" in content
    assert "const form" not in content  # read by nothing once the click submits the form
    # The capture saw what findWhere selected. A checkbox's onChange is React's answer to a
    # click; its `checked` prop is the property.
    toggles = content.split("it('toggles the agreement'")[1].split("it('saves'")[0]
    assert "click(box)" in toggles and "toHaveAttribute" not in toggles, toggles
    assert "expect((box as HTMLInputElement).checked).toBe(agreed);" in toggles
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error
    assert run.passed_count == 5


CHILDREN_SUITE = """
import React from 'react';
import { mount, shallow } from 'enzyme';

function Cell(props: { children: React.ReactNode }) {
  return <td className="cell">{props.children}</td>;
}

function Row(props: { values: string[] }) {
  return (
    <table>
      <tbody>
        <tr>
          {props.values.map((value) => (
            <Cell key={value}>{value}</Cell>
          ))}
        </tr>
      </tbody>
    </table>
  );
}

function Menu(props: { items: string[] }) {
  return (
    <ul className="menu">
      {props.items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

function Toolbar() {
  return (
    <Frame>
      <span className="tool tool--cut" />
      <span className="tool tool--paste" />
    </Frame>
  );
}

function Frame(props: { children: React.ReactNode }) {
  return <div className="frame">{props.children}</div>;
}

describe('Row', () => {
  it('renders its tools in a frame', () => {
    const wrapper = mount(<Toolbar />);
    expect(wrapper.childAt(0).children()).toHaveLength(1);
    expect(wrapper.childAt(0).childAt(0).children()).toHaveLength(2);
  });

  it('renders a cell per value', () => {
    const wrapper = mount(<Row values={['cpu', 'memory']} />);
    expect(wrapper.find('tr').children()).toHaveLength(2);
    expect(wrapper.find('tr').childAt(1).text()).toBe('memory');
  });

  it('lists the items of a shallow menu', () => {
    const wrapper = shallow(<Menu items={['Open', 'Close']} />);
    expect(wrapper.children()).toHaveLength(2);
    expect(wrapper.childAt(0).text()).toBe('Open');
  });
});
"""


async def test_children_and_child_at_are_queried_as_the_capture_saw_them(app_copy: Path) -> None:
    """kubeapps' ``find('tr').childAt(i)`` and reactstrap's ``childAt()`` of what a component
    rendered: the capture records what they selected (here ``Cell`` components, whose DOM
    nodes are the cells), and a query verified to select the same elements stands for them,
    instead of ``children[i]`` (node access) or a note that the DOM cannot say."""
    file = "src/components/Row.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, CHILDREN_SUITE)
    assert result.enzyme_free and result.untranslated_count == 0, result.content
    content = result.content
    assert "expect(screen.getAllByRole('cell')).toHaveLength(2);" in content
    assert "expect(screen.getAllByRole('listitem')).toHaveLength(2);" in content
    assert "getByRole('cell', { name: 'memory' })).toHaveTextContent(/^memory$/);" in content
    assert "children[" not in content and "firstElementChild" not in content, content
    # Toolbar's root is Frame, a component: the DOM alone cannot say what Enzyme's children of
    # it are (Frame's one child is its div, the div's are the spans); the capture saw them,
    # which no query selects and its CSS does.
    assert "expect(document.querySelectorAll('div.frame')).toHaveLength(1);" in content
    assert "expect(document.querySelectorAll('span.tool')).toHaveLength(2);" in content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


SPACED_SUITE = """
import React from 'react';
import { mount } from 'enzyme';

function Description({ lines }: { lines: string[] }) {
  return <p className="description">{lines.join(' ')}</p>;
}

describe('Description', () => {
  it('keeps the whitespace of what it shows', () => {
    const lines = ['  lots    of    space'];
    const wrapper = mount(<Description lines={lines} />);
    expect(wrapper.find('.description').text()).toContain(lines[0]);
    expect(wrapper.find('.description').text()).toBe('  lots    of    space');
    expect(wrapper.find('.description').text()).toContain('lots');
  });
});
"""


async def test_text_with_runs_of_whitespace_is_compared_as_enzyme_read_it(app_copy: Path) -> None:
    """addons-code-manager's ``toIncludeText(description[0])`` where the description is
    ``'  lots    of    space'``: Enzyme's ``text()`` is the raw text; jest-dom's
    ``toHaveTextContent`` collapses the element's whitespace but not the expected string's, so
    it failed. A value with runs of whitespace, or one only the run knows, is compared with
    ``textContent``; a literal spelled with single spaces keeps ``toHaveTextContent``."""
    file = "src/components/Description.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, SPACED_SUITE)
    content = result.content
    assert ".textContent).toContain(lines[0]);" in content
    assert ".textContent).toBe('  lots    of    space');" in content
    assert ").toHaveTextContent('lots');" in content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


SUMMARY_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';

function Summary({ comments }: { comments: string[] }) {
  return (
    <form className="summary">
      <textarea aria-label="Summary" readOnly value={`\\n${comments.join('\\n\\n')}\\n`} />
    </form>
  );
}

describe('Summary', () => {
  const renderComments = (comments: string[]) => {
    const root = shallow(<Summary comments={comments} />);
    return String(root.find('textarea').prop('value')).trim();
  };

  it('renders no comments', () => {
    expect(renderComments([])).toEqual('');
  });

  it('renders comments apart', () => {
    expect(renderComments(['first', 'second'])).toEqual('first\\n\\nsecond');
  });
});
"""


async def test_a_form_controls_value_read_in_a_helper_is_its_dom_value(app_copy: Path) -> None:
    """addons-code-manager's ``String(root.find('textarea').prop('value')).trim()`` returned by
    a helper of the file: a read inside a larger expression, translated in place, the value
    prop of a form control as the DOM property React sets."""
    file = "src/components/Summary.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, SUMMARY_SUITE)
    assert result.untranslated_count == 0, result.content
    assert (
        "return String((screen.getByRole('textbox', { name: 'Summary' }) as "
        "HTMLTextAreaElement).value).trim();" in result.content
    ), result.content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


SHAPES_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';

function Shapes({ widths }: { widths: number[] }) {
  return (
    <div className="shapes">
      {widths.map((width, i) => (
        <div key={i} className="shape" style={{ width: `${width}%` }} />
      ))}
    </div>
  );
}

describe('Shapes', () => {
  it('sizes each shape', () => {
    const widths = [25, 75];
    const root = shallow(<Shapes widths={widths} />);
    const shapes = root.find('.shape');
    expect(shapes.at(0).prop('style')).toEqual({ width: `${widths[0]}%` });
    expect(shapes.at(1).prop('style')).toEqual({ width: '75%' });
  });
});
"""


async def test_a_style_object_of_strings_is_the_elements_style(app_copy: Path) -> None:
    """addons-code-manager's ``toHaveProp('style', { width: `${p}%` })`` on an element: each
    value as the element's style has it (``toHaveStyle``), where it was left untranslated."""
    file = "src/components/Shapes.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, SHAPES_SUITE)
    assert result.untranslated_count == 0, result.content
    assert ".toHaveStyle({ width: `${widths[0]}%` });" in result.content
    assert ".toHaveStyle({ width: '75%' });" in result.content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error
    # A shape sized otherwise fails it, as it failed the original.
    (app_copy / file).write_text(result.content.replace("`${width}%`", "`${width + 1}%`"))
    try:
        broken = await runners_for(app_copy).run_tests(file)
    finally:
        (app_copy / file).unlink()
    assert broken.suite_error is None and [t.full_name for t in broken.failing()] == [
        "Shapes sizes each shape"
    ]


PANEL_SUITE = """
import React from 'react';
import { mount } from 'enzyme';

function Panel({ maxHeight, title }: { maxHeight: string; title: string }) {
  return (
    <section aria-label={title}>
      <ul className="panel-list" style={{ maxHeight }}>
        <li>One</li>
      </ul>
    </section>
  );
}

function getList(wrapper) {
  return wrapper.find('.panel-list');
}

describe('Panel', () => {
  it('limits the height of its list', () => {
    const getMaxHeight = (wrapper) => getList(wrapper).prop('style').maxHeight;
    const root = mount(<Panel maxHeight="200px" title="Results" />);
    expect(getMaxHeight(root)).toBe('200px');
  });
});
"""


async def test_a_value_a_test_reads_through_its_own_helper_is_read_where_it_is_called(
    app_copy: Path,
) -> None:
    """typeahead's ``const getMaxHeight = (wrapper) => getMenu(wrapper).prop('style')
    .maxHeight`` inside a test, called with the render (``getMaxHeight(menu)``), its body going
    through another helper's parameter: the call reads as the value itself, where it is called
    (the helper goes); before, the helper and the assertion on it stayed untranslated."""
    file = "src/components/Panel.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, PANEL_SUITE)
    assert result.untranslated_count == 0, result.content
    assert "getMaxHeight" not in result.content and "getList" not in result.content
    assert "style.maxHeight).toBe('200px');" in result.content, result.content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


ROOTS_SUITE = """
import React, { useState } from 'react';
import { mount, shallow } from 'enzyme';

function Toggle({ label, onToggle }: { label: string; onToggle: () => void }) {
  const [left, setLeft] = useState(false);
  return (
    <button
      type="button"
      title={label}
      className={left ? 'toggle toggle--left' : 'toggle'}
      onClick={() => {
        setLeft(!left);
        onToggle();
      }}
    >
      {label}
    </button>
  );
}

function Badge({ fresh }: { fresh: boolean }) {
  return <span role="status" className={fresh ? 'badge badge--new' : 'badge'}>new</span>;
}

function Scroller() {
  return <div className="scroller"><table className="grid">Yo!</table></div>;
}

function Frame({ wide }: { wide: boolean }) {
  return <div className={wide ? 'frame frame--wide' : 'frame'}><Badge fresh /></div>;
}

describe('roots', () => {
  it('turns when clicked', () => {
    const onToggle = jest.fn();
    const wrapper = mount(<Toggle label="Collapse" onToggle={onToggle} />);
    wrapper.simulate('click');
    expect(onToggle).toHaveBeenCalledTimes(1);
    expect(wrapper.getDOMNode()).toHaveClass('toggle--left');
  });

  it('shows its label as a title', () => {
    const wrapper = mount(<Toggle label="Expand" onToggle={jest.fn()} />);
    expect(wrapper.getDOMNode()).not.toHaveClass('toggle--left');
    expect(wrapper.getDOMNode()).toHaveAttribute('title', 'Expand');
  });

  it('marks a fresh badge', () => {
    const root = shallow(<Badge fresh />);
    expect(root.hasClass('badge--new')).toBe(true);
  });

  const renderToggle = (label: string) => mount(<Toggle label={label} onToggle={jest.fn()} />);

  it('turns from a helper', () => {
    const wrapper = renderToggle('One');
    wrapper.simulate('click');
    expect(wrapper.getDOMNode()).toHaveClass('toggle--left');
  });

  it('turns back from a helper', () => {
    const wrapper = renderToggle('Two');
    wrapper.simulate('click');
    wrapper.simulate('click');
    expect(wrapper.getDOMNode()).not.toHaveClass('toggle--left');
  });

  it('scrolls a table', () => {
    const root = shallow(<Scroller />);
    expect(root.hasClass('scroller')).toBe(true);
  });

  it('widens a frame', () => {
    const root = mount(<Frame wide />);
    expect(root.getDOMNode()).toHaveClass('frame--wide');
  });
});
"""


async def test_a_render_root_is_reached_by_the_query_that_selected_it_alone(
    app_copy: Path,
) -> None:
    """A test that clicks or checks the root of its render (`wrapper.simulate('click')`,
    `root.hasClass(…)`), as in the suites of component libraries and apps: the capture records
    the queries that select the root alone, when it rendered and at the end of each test, and
    the root is reached by the first one every run of its render agrees on (the role and name
    of a button, the role of a status) instead of `container.firstElementChild`, which Testing
    Library's lint rejects. A root no query selects (a plain `div`) stays reached
    through the container."""
    file = "src/components/Roots.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, ROOTS_SUITE)
    assert result.enzyme_free and result.untranslated_count == 0, result.content
    content = result.content
    collapse = "screen.getByRole('button', { name: 'Collapse' })"
    assert f"await user.click({collapse});" in content
    assert f"expect({collapse}).toHaveClass('toggle--left');" in content
    expand = "screen.getByRole('button', { name: 'Expand' })"
    assert f"expect({expand}).not.toHaveClass('toggle--left');" in content
    assert f"expect({expand}).toHaveAttribute('title', 'Expand');" in content
    assert "expect(screen.getByRole('status')).toHaveClass('badge--new');" in content
    # A helper renders 'One' in one test and 'Two' in the next: only the role is common.
    assert "renderToggle('Two');\n    await user.click(screen.getByRole('button'));" in content
    assert "expect(container.firstElementChild).toHaveClass('frame--wide');" in content
    # reactstrap's `<Table responsive>Yo!</Table>`: parsed as HTML, the text inside the table
    # moves before it, so the div would have it and `getByText` select the div; in React's DOM
    # it stays in the table. HTML the parser changes gives no root query.
    assert "expect(container.firstElementChild).toHaveClass('scroller');" in content
    assert content.count("firstElementChild") == 2, content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


DETACHED_SUITE = """
import React, { useEffect } from 'react';
import { mount } from 'enzyme';

function Outside({ onOutside }: { onOutside: () => void }) {
  useEffect(() => {
    document.addEventListener('click', onOutside);
    return () => document.removeEventListener('click', onOutside);
  }, [onOutside]);
  return <p>Listening</p>;
}

describe('Outside', () => {
  it('stops listening once detached', () => {
    const element = document.createElement('div');
    document.body.appendChild(element);
    const onOutside = jest.fn();
    const wrapper = mount(<Outside onOutside={onOutside} />, { attachTo: element });
    document.body.click();
    expect(onOutside).toHaveBeenCalledTimes(1);
    wrapper.detach();
    document.body.click();
    expect(onOutside).toHaveBeenCalledTimes(1);
    document.body.removeChild(element);
  });
});
"""


async def test_a_render_detached_from_the_tests_node_is_unmounted(app_copy: Path) -> None:
    """reactstrap's `mount(…, { attachTo: element })` … `wrapper.detach()` (65 times in its
    Dropdown and tooltip tests): detaching unmounts the tree from the node, so what it did on
    mount (a document listener) is undone; the result unmounts the render there, and the
    second click is not heard."""
    file = "src/components/Outside.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, DETACHED_SUITE)
    assert result.enzyme_free and result.untranslated_count == 0, result.content
    assert "    unmount();\n    document.body.click();" in result.content, result.content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error


VERSIONS_SUITE = """
import React from 'react';
import { shallow } from 'enzyme';

const Form = {
  Label: ({ children }: { children: React.ReactNode }) => (
    <label htmlFor="version">{children}</label>
  ),
};

function Versions({ versions }: { versions: { id: number; name: string }[] }) {
  return (
    <div>
      <Form.Label>Version</Form.Label>
      <select id="version">
        {versions.map((version) => (
          <option key={version.id} value={version.id}>
            {version.name}
          </option>
        ))}
      </select>
    </div>
  );
}

describe('Versions', () => {
  const versions = [
    { id: 123, name: '1.0' },
    { id: 124, name: '2.0' },
  ];

  it('lists the versions', () => {
    const root = shallow(<Versions versions={versions} />);
    expect(root.find('option').at(0).prop('value')).toBe(versions[0].id);
    expect(root.find('option').at(1).prop('value')).toEqual(124);
  });

  it('labels them', () => {
    const root = shallow(<Versions versions={versions} />);
    expect(root.find(Form.Label)).toHaveLength(1);
  });
});
"""


async def test_an_options_value_prop_is_its_dom_string_and_a_compound_component_no_selector(
    app_copy: Path,
) -> None:
    """addons-code-manager's VersionSelect: ``<option value={version.id}>`` had the number as
    its prop; the DOM has its string, which the assertion compares (jest-dom reads a number
    only from a number input). ``find(Form.Label)`` (react-bootstrap's compound components,
    ``components.Button``) selects a component, never a CSS selector: emitted as one, it threw
    a SyntaxError in the browser's selector engine."""
    file = "src/components/Versions.test.tsx"
    _capture, result, run = await converted_and_run(app_copy, file, VERSIONS_SUITE)
    content = result.content
    assert (
        "expect(screen.getAllByRole('option')[0]).toHaveValue(String(versions[0].id));" in content
    ), content
    assert "expect(screen.getAllByRole('option')[1]).toHaveValue('124');" in content
    assert "querySelector" not in content
    assert "expect(screen.getAllByText('Version')).toHaveLength(1);" in content
    assert run.success, [t.failure_messages for t in run.failing()] or run.suite_error

"""The codemod, source in → source out (fast: no jest)."""

from __future__ import annotations

import re
import textwrap

import pytest

from testmend.assets import read_asset
from testmend.codemod import (
    CapturedElement,
    CapturedQuery,
    CodemodOptions,
    DomCapture,
    FindRecord,
    HelperMapping,
    RenderHelper,
    convert_enzyme_test,
    is_enzyme_free,
)
from testmend.codemod.convert import USER_EVENT_UNREADY
from testmend.codemod.models import CodemodResult
from testmend.codemod.translate.state import commonjs
from testmend.js_syntax import parse
from tests.support.apps import fixture_text

PLAIN = CodemodOptions(jest_dom_global=True)


def convert(source: str, path: str = "src/X.test.tsx", **kwargs: object) -> CodemodResult:
    options = kwargs.pop("options", PLAIN)
    assert isinstance(options, CodemodOptions)
    dom = kwargs.pop("dom", None)
    assert dom is None or isinstance(dom, DomCapture)
    return convert_enzyme_test(
        textwrap.dedent(source).lstrip(), path=path, options=options, dom=dom
    )


def fixture(name: str) -> str:
    """A file of ``tests/fixtures/codemod/convert``: an Enzyme test, or what the codemod makes
    of it."""
    return fixture_text(f"codemod/convert/{name}")


def body(result: CodemodResult) -> str:
    return result.content


def test_imports_render_text_and_click() -> None:
    result = convert(fixture("imports_render_text_and_click.tsx"))
    assert result.content == fixture("imports_render_text_and_click.expected.tsx")
    assert result.enzyme_free and result.changed
    assert result.tests_before == result.tests_after == 1
    assert result.tests[0].status == "converted"
    assert [n.kind for n in result.notes] == ["removed"]


def test_commonjs_require_javascript_file() -> None:
    result = convert(
        fixture("commonjs_require_javascript_file.js"),
        path="src/Toggle.test.js",
    )
    assert "require('@testing-library/react')" in result.content
    assert "const { fireEvent, render, screen } = require('@testing-library/react');" in (
        result.content
    )
    assert "fireEvent.click(screen.getByRole('button'));" in result.content
    assert "expect(document.querySelector('.on')).toBeInTheDocument();" in result.content
    assert "expect(document.querySelector('.off')).not.toBeInTheDocument();" in result.content
    assert "!" not in result.content.split("test(")[1].split("(document")[0]
    assert result.enzyme_free
    assert any(n.kind == "fallback" for n in result.notes)


def test_adapter_setup_and_to_json_snapshot() -> None:
    result = convert(fixture("adapter_setup_and_to_json_snapshot.tsx"))
    content = result.content
    assert "Adapter" not in content and "configure" not in content and "toJson" not in content
    assert 'const { asFragment } = render(<Card title="a" />);' in content
    assert "expect(asFragment()).toMatchSnapshot();" in content
    assert any(n.kind == "review" for n in result.notes)
    assert result.enzyme_free


def test_inline_render_snapshot() -> None:
    result = convert(fixture("inline_render_snapshot.tsx"))
    assert "expect(render(<Card />).asFragment()).toMatchSnapshot();" in result.content


def test_let_wrapper_in_before_each_with_set_props_and_unmount() -> None:
    result = convert(fixture("let_wrapper_in_before_each_with_set_props_and_unmount.tsx"))
    content = result.content
    # The render in beforeEach becomes a function each test calls (no-render-in-lifecycle),
    # its result named as Testing Library's lint expects.
    assert "let wrapper" not in content and "beforeEach" not in content
    assert "import { render, screen } from '@testing-library/react';" in content
    assert (
        '  function renderBadge() {\n    return render(<Badge count={1} label="Inbox" />);\n  }\n'
    ) in content
    assert "it('updates', () => {\n    const view = renderBadge();\n" in content
    assert "afterEach" not in content
    assert 'view.rerender(<Badge count={2} label="Inbox" />);' in content
    assert 'view.rerender(<Badge count={2} tone="warn" />);' in content
    assert "expect(document.querySelector('.badge__count')).toHaveTextContent('2');" in content
    assert "screen.debug();" in content
    assert "BadgeProps" not in content


def test_unused_wrapper_variable_is_dropped() -> None:
    result = convert(fixture("unused_wrapper_variable_is_dropped.tsx"))
    assert "let wrapper" not in result.content
    assert "    render(<Panel />);" in result.content
    assert "expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(/^Title$/);" in (
        result.content
    )


def test_state_instance_and_set_state_go_through_a_ref_with_a_review_note() -> None:
    """Enzyme allows state()/setState()/instance() only on class components, so the rendered
    element takes a ref to the instance; setState and method calls run inside act. A review
    note says it reads internals (once per test), and tests without them get no ref. In
    TypeScript the ref's instance is read through ``?.`` where the code is an assertion's
    subject or a call as a statement (lint often forbids ``!``); handed on as a value, it
    keeps the ``!`` its type needs."""
    result = convert(
        fixture("state_instance_and_set_state_go_through_a_ref_with_a_review_note.tsx")
    )
    lines = [line.strip() for line in result.content.splitlines()]
    for line in [
        "import { act, render } from '@testing-library/react';",
        "import { createRef } from 'react';",
        "const wrapperRef = createRef<Clock>();",
        "render(<Clock ref={wrapperRef} />);",
        "const instance = wrapperRef.current!;",
        "instance.tick();",
        "act(() => {",
        "wrapperRef.current?.tick();",
        "wrapperRef.current?.setState({ seconds: 3 });",
        "expect(wrapperRef.current?.state.seconds).toBe(4);",
        "expect(wrapperRef.current).toBeInstanceOf(Clock);",
        "render(<Clock />);",
    ]:
        assert line in lines, line
    assert "throw new Error(" not in result.content
    review = [n for n in result.notes if n.kind == "review"]
    assert len(review) == 1 and review[0].test == "Clock ticks"
    assert "internals" in review[0].message
    assert [t.status for t in result.tests] == ["converted", "converted"]


def test_the_instance_under_a_strict_mode_or_a_provider_is_its_one_child() -> None:
    """Enzyme's tree leaves out ``StrictMode``, fragments and context providers: the root of
    ``mount(<StrictMode><Collapse /></StrictMode>)`` is the Collapse, and ``instance()`` its
    instance. The ref goes on that child (on the ``StrictMode`` or the ``Provider`` it would
    stay empty), also in a re-render."""
    source = """
        import React from 'react';
        import { mount } from 'enzyme';

        it('is strict', () => {
          const wrapper = mount(
            <React.StrictMode>
              <Collapse />
            </React.StrictMode>,
          );
          expect(wrapper.instance()).toBeTruthy();
        });

        it('clicks through its context', () => {
          const wrapper = mount(
            <Context.Provider value={{ toggle }}>
              <Item>Click me</Item>
            </Context.Provider>,
          );
          wrapper.instance().onClick({});
          wrapper.setProps({ value: { toggle: other } });
          expect(wrapper.instance().props.children).toBe('Click me');
        });
        """
    content = convert(source, path="src/Item.test.js").content
    assert "<Collapse ref={wrapperRef} />" in content
    assert "<React.StrictMode>" in content and "StrictMode ref=" not in content
    assert content.count("<Item ref={wrapperRef}>Click me</Item>") == 2, content
    assert "<Context.Provider value={{ toggle: other }}>" in content
    assert "Provider value={{ toggle }} ref" not in content
    assert "wrapperRef.current.onClick({});" in content


def test_set_props_re_renders_the_element_the_test_rendered_there() -> None:
    """A ``wrapper`` the tests render different elements into: ``setProps`` in a test
    re-renders the element that test rendered last (or the ``beforeEach`` around it did), never
    another test's. In a function the tests share (reactstrap's ``toggle``), which one it holds
    depends on the caller: it stays untranslated rather than re-render the wrong one (the
    callbacks of one test dropped for the children of another). A test that renders into the
    variable its setup function's render went to declares it with ``let``."""
    source = """
        import { mount } from 'enzyme';

        describe('Collapse', () => {
          let wrapper;
          const toggle = () => {
            wrapper.setProps({ isOpen: true });
          };

          beforeEach(() => {
            wrapper = mount(<Collapse navbar />);
          });

          it('opens', () => {
            wrapper.setProps({ isOpen: true });
          });

          it('forwards callbacks', () => {
            wrapper = mount(<Collapse onEnter={onEnter} />);
            wrapper.setProps({ isOpen: true });
            toggle();
          });

          it('renders children', () => {
            wrapper = mount(<Collapse><p>hello</p></Collapse>);
            wrapper.setProps({ isOpen: false });
          });
        });
        """
    content = convert(source, path="src/Collapse.test.js").content
    opens = content[content.index("it('opens'") : content.index("it('forwards")]
    assert "rerender(<Collapse navbar isOpen />);" in opens, content
    forwards = content[content.index("it('forwards") : content.index("it('renders")]
    assert "rerender(<Collapse onEnter={onEnter} isOpen />);" in forwards
    # The test renders into it again: the render its setup function returns is a let.
    assert "let view = renderCollapse();" in forwards
    renders = content[content.index("it('renders") :]
    assert "<p>hello</p>" in renders and "isOpen={false}" in renders
    shared = content[: content.index("function renderCollapse")]
    assert "may hold any of the elements the tests render into it" in shared
    assert "// wrapper.setProps({ isOpen: true });" in shared


def test_set_props_on_an_element_a_variable_holds_clones_it_with_the_props_merged() -> None:
    """reactstrap's ``const didMount = (component) => { const wrapper = mount(component);
    wrapper.setProps({ fakefield: 'fakeToUpdate' }); return wrapper; }``: the element is the
    parameter's, whatever each test passes; ``cloneElement`` merges the new props over its
    own, as Enzyme's ``setProps`` does, and keeps its key and ref; also from a function inside
    the one that rendered it. ``instance()`` of what such a function returns is the instance of
    the element the test handed it: the ref goes there."""
    source = """
        import React from 'react';
        import { mount } from 'enzyme';

        const didMount = (component) => {
          const wrapper = mount(component);
          wrapper.setProps({ fakefield: 'fakeToUpdate', 'data-x': 1 });
          wrapper.setProps({ open: true });
          return wrapper;
        };

        it('mounts', () => {
          const element = <Modal isOpen />;
          const wrapper = mount(element);
          const update = () => wrapper.setProps({ isOpen: false });
          update();
          didMount(<Modal isOpen />);
        });

        it('closes on escape', () => {
          const wrapper = didMount(<Modal isOpen />);
          const instance = wrapper.instance();
          const spy = jest.spyOn(wrapper.instance(), 'close');
          instance.handleEscape({ keyCode: 27 });
          expect(spy).toHaveBeenCalled();
        });
        """
    result = convert(source, path="src/Modal.test.js")
    content = result.content
    assert (
        "view.rerender(React.cloneElement(component, { fakefield: 'fakeToUpdate', "
        "'data-x': 1 }));" in content
    )
    assert (
        "view.rerender(React.cloneElement(component, { fakefield: 'fakeToUpdate', "
        "'data-x': 1, open: true }));" in content
    )
    # Inside the function that rendered it, a function of its own reaches the same variable.
    assert "rerender(React.cloneElement(element, { isOpen: false }));" in content
    # The instance of what the test hands the function: a ref on that element.
    assert "didMount(<Modal isOpen ref={wrapperRef} />);" in content
    assert "const instance = wrapperRef.current;" in content
    # A read of it inside a larger value: translated in place.
    assert "const spy = jest.spyOn(wrapperRef.current, 'close');" in content
    assert "testmend: untranslated Enzyme code" not in content


def test_class_internals_of_a_component_found_inside_stay_untranslated() -> None:
    result = convert(fixture("class_internals_of_a_component_found_inside_stay_untranslated.tsx"))
    assert "// const modal = wrapper.find(Modal).instance();" in result.content
    assert "createRef" not in result.content
    assert result.tests[0].status == "partial"


def test_prop_has_class_and_props_object() -> None:
    result = convert(fixture("prop_has_class_and_props_object.tsx"))
    content = result.content
    assert "const trigger = document.querySelector('#trigger');" in content
    assert "expect(trigger).toHaveAttribute('aria-expanded', 'false');" in content
    assert "expect(trigger).toBeEnabled();" in content
    assert content.count("expect(trigger).toBeEnabled();") == 2
    assert "expect(trigger).toHaveClass('menu__trigger');" in content
    assert "expect(document.querySelector('input')).toHaveValue('x');" in content
    assert "expect(document.querySelector('input')).toBeChecked();" in content
    assert "expect(document.querySelector('a')).toHaveAttribute('href', '/home');" in content
    assert "expect(document.querySelector('img')).not.toHaveAttribute('alt');" in content
    assert "expect(document.querySelector('#trigger')).toHaveAttribute('aria-label', 'Open');" in (
        content
    )
    assert "\n  expect(document.querySelector('#trigger')).toHaveAttribute('title', 'Open');" in (
        content
    )
    assert "reads the event handler prop onClick" in content


def test_lists_length_first_last_and_map() -> None:
    result = convert(fixture("lists_length_first_last_and_map.tsx"))
    content = result.content
    assert "const items = screen.getAllByRole('listitem');" in content
    assert "expect(items[0]).toHaveTextContent(/^a$/);" in content
    assert "expect(items[items.length - 1]).toHaveTextContent(/^c$/);" in content
    assert "expect(screen.getAllByRole('listitem')).toHaveLength(3);" in content
    assert "expect(document.querySelectorAll('.empty')).toHaveLength(0);" in content
    assert (
        "expect(Array.from(screen.getAllByRole('listitem'), (node) => node.textContent))"
        ".toEqual(['a', 'b', 'c']);" in content
    )
    assert (
        "Array.from(screen.getAllByRole('listitem')).filter((element) => "
        "element.matches('.done'))" in content
    )


def test_untranslatable_enzyme_apis() -> None:
    result = convert(fixture("untranslatable_enzyme_apis.tsx"))
    content = result.content
    assert "checks for a React element (containsMatchingElement())" in content
    # Field comes from the module of the rendered Form: a mock could not record its props.
    assert "reads the props of Field, which comes from the module of the rendered" in content
    assert "throw new Error('testmend:" in content
    assert result.tests[0].status == "partial"
    assert result.untranslated_count == 4


def test_change_events_and_payloads() -> None:
    result = convert(fixture("change_events_and_payloads.tsx"))
    content = result.content
    assert (
        "fireEvent.change(document.querySelector('input[name=\"email\"]')!, "
        "{ target: { value: 'a@b.c' } });" in content
    )
    assert "fireEvent.click(screen.getByRole('checkbox'));" in content
    assert "fireEvent.submit(document.querySelector('form')!);" in content
    assert "fireEvent.keyDown(document.querySelectorAll('input')[0], { key: 'Enter' });" in content
    assert "fireEvent.mouseEnter(document.querySelector('.row')!);" in content


def test_a_handler_called_with_a_value_no_event_carries_is_not_fired() -> None:
    """``(input.prop('onChange') as any)('grace')``: no event carries a bare string, so none is
    fired with it as its init (``fireEvent.change(el, 'grace')`` fires an empty change); the
    call is left for a person, as is the ``const`` it was read into."""
    result = convert(
        """
        import { mount } from 'enzyme';
        import { Search } from './Search';

        it('searches', () => {
          const wrapper = mount(<Search />);
          (wrapper.find('input').prop('onChange') as any)('grace');
          const onBlur = wrapper.find('input').prop('onBlur') as (v: string) => void;
          onBlur('ada');
        });
        """
    )
    content = result.content
    assert "fireEvent" not in content and "user." not in content, content
    assert "// (wrapper.find('input').prop('onChange') as any)('grace');" in content, content
    assert "// const onBlur = wrapper.find('input').prop('onBlur')" in content, content
    assert "// onBlur('ada');" in content, content
    assert result.tests[0].status == "partial"


def test_user_event_style() -> None:
    options = CodemodOptions(
        jest_dom_global=True,
        event_style="userEvent",
        user_event_installed=True,
        user_event_major=14,
    )
    result = convert(
        fixture("user_event_style.tsx"),
        options=options,
    )
    content = result.content
    assert "import userEvent from '@testing-library/user-event';" in content
    assert "it('searches', async () => {\n  const user = userEvent.setup();" in content
    # Without a DOM capture nothing says the input is one a user types in: fireEvent.
    assert "fireEvent.change(document.querySelector('input')!, { target: { value: 'cats' } });" in (
        content
    )
    assert "await user.click(screen.getByRole('button'));" in content


def test_jest_dom_import_when_not_global() -> None:
    result = convert(
        fixture("jest_dom_import_when_not_global.tsx"),
        options=CodemodOptions(),
    )
    # An inline render is queried in its own container (a screen query would drop the render).
    assert "expect(render(<A />).container.querySelector('p')).toBeInTheDocument();" in (
        result.content
    )
    assert result.content.startswith("import '@testing-library/jest-dom';\n")
    result = convert(
        fixture("jest_dom_import_when_not_global_2.tsx"),
        options=CodemodOptions(),
    )
    assert result.content.startswith("import '@testing-library/jest-dom';\n")


def test_project_render_helper_and_helper_mapping() -> None:
    options = CodemodOptions(
        jest_dom_global=True,
        render_helper=RenderHelper(
            module="@/test-utils",
            path="src/test-utils.tsx",
            render_name="render",
            custom_render_names=["renderWithProviders"],
            reexports_rtl=True,
        ),
        helper_mappings=[
            HelperMapping(
                enzyme_name="mountWithProviders",
                enzyme_module="@/enzyme-test-utils",
                render_name="renderWithProviders",
                render_module="@/test-utils",
            )
        ],
        enzyme_helper_modules=["@/enzyme-test-utils"],
    )
    result = convert(
        fixture("project_render_helper_and_helper_mapping.tsx"),
        path="src/components/Nav/Nav.test.tsx",
        options=options,
    )
    content = result.content
    assert content.startswith("import { render, renderWithProviders, screen } from '@/test-utils';")
    assert "renderWithProviders(<Nav />, { user: null });" in content
    assert "dropped the mount() options { attachTo: document.body }" in content
    assert "    render(<Nav />);" in content or "  render(<Nav />);" in content
    assert result.enzyme_free
    # The helper module's render is Enzyme; its other exports (fakes, fixtures) are not.
    helper = "import { mountWithProviders } from '@/enzyme-test-utils';"
    assert not is_enzyme_free(helper, "a.ts", options)
    assert is_enzyme_free("import { fakeUser } from '@/enzyme-test-utils';", "a.ts", options)


def test_relative_render_helper_specifier() -> None:
    options = CodemodOptions(
        render_helper=RenderHelper(
            module="./src/testing/render",
            path="src/testing/render.tsx",
            render_name="renderUi",
            reexports_rtl=False,
        ),
    )
    result = convert(
        fixture("relative_render_helper_specifier.tsx"),
        path="src/components/A/A.test.tsx",
        options=options,
    )
    assert "import { renderUi } from '../../testing/render';" in result.content
    assert "  renderUi(<A />);" in result.content


def test_helper_function_with_wrapper_parameter() -> None:
    result = convert(fixture("helper_function_with_wrapper_parameter.tsx"))
    content = result.content
    assert "function fill(selector: string, value: string) {" in content
    assert "fireEvent.change(document.querySelector(selector)!, { target: { value } });" in content
    assert "  fill('#name', 'Ada');" in content
    assert "ReactWrapper" not in content


def test_helper_returning_wrapper_keeps_render_result() -> None:
    result = convert(fixture("helper_returning_wrapper_keeps_render_result.tsx"))
    content = result.content
    assert "Promise<RenderResult>" in content
    # The act around the render goes (RTL wraps it); the wait for pending updates stays.
    assert "  const view = render(element);\n  await act(() => Promise.resolve());\n" in content
    # A render is never null: the assertion the Enzyme wrapper needed goes.
    assert "return view;" in content and "view!" not in content
    assert 'wrapper.rerender(<Users role="admin" />);' in content
    assert "  await mountAndWait(<Users />);\n  expect(screen.getAllByRole('listitem'))" in content


def test_describe_each_before_all_and_chained_find() -> None:
    result = convert(
        fixture("describe_each_before_all_and_chained_find.jsx"),
        path="src/Tabs.test.jsx",
    )
    content = result.content
    assert result.tests_before == result.tests_after == 2
    assert result.test_names_before == result.test_names_after
    assert (
        "expect(Array.from(document.querySelector('.tabs .panel').children)).toHaveLength(2);"
        in (content)
    )
    assert (
        "expect(document.querySelectorAll('.tabs .tab')[1]).not.toHaveClass('active');" in content
    )
    assert "expect(document.querySelector('.tab')).toBeInTheDocument();" in content
    assert "let wrapper;" not in content


def test_html_empty_render_and_root_text() -> None:
    result = convert(fixture("html_empty_render_and_root_text.tsx"))
    content = result.content
    assert "const { container, rerender } = render(<Maybe show={false} />);" in content
    assert content.count("expect(container).toBeEmptyDOMElement();") == 2
    assert "rerender(<Maybe show={true} />);" in content or "rerender(<Maybe show />);" in content
    assert "expect(container).toHaveTextContent('shown');" in content
    assert "// testmend: removed an assertion on the props the test itself passed" in content
    # Said per test, so the inventory takes it as the reason the test makes fewer assertions.
    [(test, [reason])] = result.dropped_assertions.items()
    assert reason.startswith("removed an assertion on the props the test itself passed")
    assert test in [t.name for t in result.tests]
    assert "expect(screen.getByRole('paragraph').outerHTML).toContain('<b>');" in content or (
        "expect(document.querySelector('p').outerHTML).toContain('<b>');" in content
    )
    assert "throw new Error" not in content


def test_the_html_read_into_a_variable_is_the_renders() -> None:
    """kubeapps' ``const html = wrapper.html(); expect(html).toContain(…)``: the HTML the
    render made, as the assertion on ``html()`` itself reads it."""
    source = (
        "import { mount } from 'enzyme';\n"
        "import Notes from './Notes';\n\n"
        "it('drops comments', () => {\n"
        "  const wrapper = mount(<Notes />);\n"
        "  const html = wrapper.html();\n"
        "  expect(html).not.toContain('a comment');\n"
        "});\n"
    )
    content = convert(source).content
    assert "const { container } = render(<Notes />);" in content, content
    assert "const html = container.innerHTML;" in content, content
    assert "throw new Error" not in content


def test_jest_enzyme_matchers() -> None:
    result = convert(fixture("jest_enzyme_matchers.tsx"))
    content = result.content
    assert "expect(document.querySelector('.x')).toBeInTheDocument();" in content
    assert "expect(document.querySelector('.x')).toHaveTextContent(/^hi$/);" in content
    assert "expect(document.querySelector('.x')).toHaveClass('on');" in content
    # jest-enzyme takes a class with its selector dot too; jest-dom would read the dot as part
    # of the class name.
    assert "expect(document.querySelector('.x')).toHaveClass('on big');" in content
    assert "expect(document.querySelector('.x')).toHaveClass(styles.active);" in content
    assert "expect(document.querySelector('.x')).not.toHaveClass(`${styles.size}-large`);" in (
        content
    )
    assert "expect(screen.getByRole('button')).toBeDisabled();" in content
    assert "expect(document.querySelector('a')).toHaveAttribute('href', '/');" in content


# --- DOM capture --------------------------------------------------------------------------------


def _record(
    line: int,
    column: int,
    selector: str,
    test: str,
    *queries: CapturedQuery,
    count: int = 1,
    css: str | None = None,
    elements: list[CapturedElement] | None = None,
) -> FindRecord:
    return FindRecord(
        line=line,
        column=column,
        selector=selector,
        test=test,
        count=count,
        elements=elements or [CapturedElement(tag="div", text="x")] * count,
        queries=list(queries),
        css=css,
    )


def test_dom_capture_queries_replace_css_and_components() -> None:
    source = """
    import { mount } from 'enzyme';
    import { Item, List } from './List';

    describe('List', () => {
      it('shows items', () => {
        const wrapper = mount(<List />);
        expect(wrapper.find('.title').text()).toBe('Groceries');
        expect(wrapper.find(Item)).toHaveLength(2);
        wrapper.find('.remove').first().simulate('click');
        expect(wrapper.find(Item).exists()).toBe(false);
        expect(wrapper.find('.wrapper')).toHaveLength(1);
      });
    });
    """
    role_heading = CapturedQuery(method="Role", args=["heading", {"name": "Groceries"}])
    text_q = CapturedQuery(method="Text", args=["Groceries"])
    items = CapturedQuery(method="Role", args=["listitem"], all=True)
    remove = CapturedQuery(
        method="Role", args=["button", {"name": {"$regex": "^Remove ", "flags": ""}}], all=True
    )
    name = "List shows items"
    dom = DomCapture(
        file="src/X.test.tsx",
        records=[
            _record(7, 24, ".title", name, role_heading, text_q),
            _record(8, 24, "Item", name, items, count=2),
            _record(9, 20, ".remove", name, remove, count=2),
            _record(10, 24, "Item", name, count=0),
            _record(11, 24, ".wrapper", name, count=1, css="div.wrapper"),
        ],
    )
    result = convert(source, dom=dom)
    content = result.content
    assert (
        "expect(screen.getByRole('heading', { name: 'Groceries' })).toHaveTextContent(" in content
    )
    assert "expect(screen.getAllByRole('listitem')).toHaveLength(2);" in content
    assert "fireEvent.click(screen.getAllByRole('button', { name: /^Remove / })[0]);" in content
    assert "expect(screen.queryAllByRole('listitem')).toHaveLength(0);" in content
    assert "expect(document.querySelectorAll('.wrapper')).toHaveLength(1);" in content
    assert result.dom_queries_used == 4


def test_dom_capture_text_queries_become_presence_checks() -> None:
    source = """
    import { mount } from 'enzyme';
    import { Status } from './Status';

    it('says hello', () => {
      const wrapper = mount(<Status />);
      expect(wrapper.find('.message').text()).toBe('Hello there');
      expect(wrapper.find('.message').text()).toBe('Hello  there');
    });
    """
    hello = CapturedQuery(method="Text", args=["Hello there"])
    dom = DomCapture(
        file="x",
        records=[
            _record(5, 22, ".message", "says hello", hello),
            _record(6, 22, ".message", "says hello", hello),
        ],
    )
    result = convert(source, dom=dom)
    assert "expect(screen.getByText('Hello there')).toBeInTheDocument();" in result.content
    # The Text query collapses whitespace; Enzyme's text() did not: the raw text is compared.
    assert "expect(screen.getByText('Hello there').textContent).toBe('Hello  there');" in (
        result.content
    )


def test_dom_capture_component_css() -> None:
    source = """
    import { mount } from 'enzyme';
    import { Row, Table } from './Table';

    it('has rows', () => {
      const wrapper = mount(<Table />);
      expect(wrapper.find(Row)).toHaveLength(2);
    });
    """
    dom = DomCapture(file="x", records=[_record(6, 18, "Row", "has rows", count=2, css="div.row")])
    result = convert(source, dom=dom)
    assert "expect(document.querySelectorAll('div.row')).toHaveLength(2);" in result.content
    assert "stands for the component Row" in result.content
    assert "Row" not in result.content.split("\n")[1]


def test_a_find_inside_a_list_of_elements_is_a_descendant_selector() -> None:
    """reactstrap's ``find('.accordion-collapse.collapse')`` selects the ``Collapse`` component
    and its ``div`` (both have the class): Enzyme finds under each, which a descendant selector
    says. No query selects either list, so CSS it stays, both selectors kept."""
    source = """
    import { mount } from 'enzyme';
    import { AccordionBody } from './AccordionBody';

    it('renders its body', () => {
      const wrapper = mount(<AccordionBody />);
      const body = wrapper.find('.accordion-collapse.collapse');
      expect(body.find('.accordion-body').length).toBe(1);
    });
    """
    name = "renders its body"
    dom = DomCapture(
        file="x",
        records=[
            _record(6, 23, ".accordion-collapse.collapse", name, count=2),
            _record(7, 15, ".accordion-body", name, count=1),
        ],
    )
    result = convert(source, dom=dom)
    assert (
        "expect(document.querySelectorAll('.accordion-collapse.collapse .accordion-body'))"
        ".toHaveLength(1);" in result.content
    ), result.content
    assert result.untranslated_count == 0


def test_a_find_chained_on_a_query_searches_under_the_selector_it_stands_for() -> None:
    """The capture verified a role query for ``.accordion-header`` (two headings); the find
    chained on it is a CSS one, so it searches under ``.accordion-header``, which selected the
    same elements."""
    source = """
    import { mount } from 'enzyme';
    import { AccordionHeader } from './AccordionHeader';

    it('is closed', () => {
      const wrapper = mount(<AccordionHeader />);
      expect(wrapper.find('.accordion-header').find('.collapsed').length).toBe(1);
      expect(wrapper.find('.accordion-header').at(1).find('.collapsed').length).toBe(0);
    });
    """
    name = "is closed"
    headings = CapturedQuery(method="Role", args=["heading"], all=True)
    dom = DomCapture(
        file="x",
        records=[
            _record(6, 17, ".accordion-header", name, headings, count=2),
            _record(6, 42, ".collapsed", name, count=1),
            _record(7, 17, ".accordion-header", name, headings, count=2),
        ],
    )
    content = convert(source, dom=dom).content
    assert (
        "expect(document.querySelectorAll('.accordion-header .collapsed')).toHaveLength(1);"
        in content
    ), content
    # One of the list: not the same as under every match. (Its `.collapsed` has no record:
    # the records of the other find on its line, `.accordion-header`, are not its own; taking
    # them asserted no heading at all.)
    assert "// testmend: find() inside a list of elements" in content
    assert "toHaveLength(0)" not in content


def test_chained_finds_keep_both_selectors_whatever_their_syntax() -> None:
    """A CSS-module class (a template literal) chained with a tag: joining only string literals
    dropped the outer selector (``'br'`` anywhere in the document). A selector list cannot be
    joined by a space, so it stays untranslated."""
    source = """
    import { mount } from 'enzyme';
    import styles from './styles.module.scss';
    import { Message } from './Message';

    it('breaks lines', () => {
      const root = mount(<Message />);
      expect(root.find(`.${styles.description}`).find('br')).toHaveLength(2);
      expect(root.find('.a').find(`.${styles.b}`)).toHaveLength(1);
      expect(root.find('.a, .b').find('br')).toHaveLength(1);
    });
    """
    content = convert(source).content
    assert "document.querySelectorAll(`.${styles.description} br`)).toHaveLength(2);" in content
    assert "document.querySelectorAll(`.a .${styles.b}`)).toHaveLength(1);" in content
    assert "// testmend: chained find() with a selector list (a comma)" in content


# --- errors and bookkeeping ----------------------------------------------------------------------


def test_not_an_enzyme_file() -> None:
    result = convert("import { render } from '@testing-library/react';\nit('a', () => {});\n")
    assert result.error and "not an Enzyme test" in result.error
    assert not result.changed and result.enzyme_free


def test_syntax_error() -> None:
    result = convert("import { mount } from 'enzyme';\nit('a', () => {\n")
    assert result.error and "syntax" in result.error
    assert result.content.startswith("import { mount }")


@pytest.mark.parametrize("path", ["a.test.ts", "a.test.js", "a.test.jsx", "a.test.tsx"])
def test_grammars(path: str) -> None:
    source = (
        "import { mount } from 'enzyme';\n"
        "it('a', () => {\n  const w = mount(null);\n  w.find('.a').simulate('click');\n});\n"
    )
    result = convert_enzyme_test(source, path=path, options=PLAIN)
    bang = "!" if path.endswith(("ts", "tsx")) else ""
    assert f"fireEvent.click(document.querySelector('.a'){bang});" in result.content


def test_untouched_code_stays_byte_identical() -> None:
    source = fixture("untouched_code_stays_byte_identical.expected.tsx").lstrip()
    result = convert_enzyme_test(source, path="a.test.tsx", options=PLAIN)
    for line in [
        'import {   helper } from "./helper"; // spacing kept',
        "const  weird = helper( 1,2 ) ;",
        "  expect(weird).toBe( 3 );",
    ]:
        assert line in result.content


# --- less common shapes -------------------------------------------------------------------------


def test_values_outside_assertions() -> None:
    result = convert(fixture("values_outside_assertions.tsx"))
    content = result.content
    assert "const label = document.querySelector('.label')!.textContent;" not in content
    assert "const label = document.querySelector('.label').textContent;" in content
    assert "const count = screen.queryAllByRole('listitem').length;" in content
    assert "const shown = (document.querySelector('.x') !== null);" in content
    assert "const names = Array.from(screen.getAllByRole('listitem'), (li) => li.textContent);" in (
        content
    )
    assert "const on = document.querySelector('.x').classList.contains('on');" in content
    assert "const node = document.querySelector('input');" in content
    assert "document.querySelector('input').focus();" in content
    assert "screen.debug();" in content
    assert "toHaveBeenCalledWith(document.querySelector('.pick').textContent);" in content


def test_object_selectors_closest_parent_child_at_and_is() -> None:
    result = convert(fixture("object_selectors_closest_parent_child_at_and_is.tsx"))
    content = result.content
    assert "expect(screen.getByTestId('row')).toBeInTheDocument();" in content
    assert "document.querySelector('.a.b[tabindex=\"0\"]')" in content
    assert "expect(document.querySelector('.cell').closest('tr')).toHaveClass('sel');" in content
    assert "expect(document.querySelector('.cell').parentElement).toHaveClass('sel');" in content
    assert "expect(screen.getByRole('list').children[1]).toHaveTextContent(/^b$/);" in content
    assert "expect(document.querySelector('.cell').matches('td')).toBe(true);" in content
    assert "selects by a prop value that is not a literal" in content
    assert (
        "expect(document.querySelector('input').getAttribute('placeholder')).toMatch(/name/);"
        in (content)
    )
    assert "expect(document.querySelector('input')).toHaveAttribute('maxlength', '3');" in content
    assert "expect(document.querySelector('input')).toHaveAttribute('required');" in content
    assert "toHaveAttribute('data-x', String(value));" in content
    assert (
        "expect(document.querySelector('input')).toHaveAttribute('aria-label', 'Name');" in content
    )


def test_require_destructuring_namespace_and_expression_callbacks() -> None:
    options = CodemodOptions(
        jest_dom_global=True,
        helper_mappings=[
            HelperMapping(enzyme_name="mountIt", render_name="renderIt", render_module="./utils")
        ],
        enzyme_helper_modules=["./enzyme-utils"],
    )
    result = convert(
        fixture("require_destructuring_namespace_and_expression_callbacks.js"),
        path="src/a.test.js",
        options=options,
    )
    content = result.content
    assert "const { fireEvent, render, within } = require('@testing-library/react');" in content
    assert "const { renderIt } = require('./utils');" in content
    assert "enzyme" not in content.split("it('works'")[0]
    # Three renders in one test: each one's finds are searched in its own container.
    assert (
        "[1, 2].forEach(() => { fireEvent.click(within(view.container).getByRole('button')); });"
        in content
    )
    assert "const utils = renderIt(<A />);" in content
    assert "expect(utils.asFragment()).toMatchSnapshot();" in content
    assert "expect(third.container.querySelector('p')).toBeInTheDocument();" in content
    assert "const { createRef } = require('react');" in content
    assert "const view = render(<A ref={wrapperRef} />);" in content
    assert "expect(wrapperRef.current.state.x).toBe(1);" in content
    assert result.enzyme_free
    assert "require('./enzyme-utils')" not in content


def test_misc_untranslatable_shapes() -> None:
    result = convert(fixture("misc_untranslatable_shapes.tsx"))
    content = result.content
    for message in [
        "reads the rendered component or tag name",
        "uses the Enzyme wrapper in a way testmend cannot translate",
        "simulate() with a computed event name",
        "reads the style prop",
        "compares the Enzyme wrapper itself",
        "compares all props of an element",
        "find() inside a list of elements",
    ]:
        assert message in content, message
    # Two renders in the test (wrapper, child): the wrapper's finds stay in its container (the
    # render result is named as Testing Library's lint expects).
    assert "fireEvent.click(view.container.querySelector('.a')!);" in content
    # Translated since: dive() (the full render renders the child), text children.
    assert "render(<A />);" in content and ".dive()" not in content
    assert "expect(view.container.querySelector('.a')).toHaveTextContent(/^x$/);" in content
    assert "view.rerender(<A {...nextProps} />);" in content
    assert result.tests[0].status == "partial"


def test_snapshot_of_html_and_debug_and_child_snapshot() -> None:
    result = convert(fixture("snapshot_of_html_and_debug_and_child_snapshot.tsx"))
    content = result.content
    assert content.count("expect(asFragment()).toMatchSnapshot();") == 2
    assert "expect(document.querySelector('.a')).toMatchSnapshot();" in content
    assert "expect(document.querySelectorAll('.a').length).toBeGreaterThan(0);" in content
    assert "expect(document.querySelector('.a')?.textContent).toEqual(" in content
    assert "expect(document.querySelector('.a')).not.toBeInTheDocument();" in content
    assert "expect(screen.getAllByRole('listitem')[0]).toBeInTheDocument();" in content
    assert "expect(document.querySelector('.b')).toBeInTheDocument();" in content


def test_the_root_wrapper_is_the_element_the_component_rendered() -> None:
    """RTL's container is a div around the render: assertions on the root wrapper go to its
    first element, or ``.not.toHaveClass`` on the container would pass without testing."""
    result = convert(
        fixture("the_root_wrapper_is_the_element_the_component_rendered.js"),
        path="src/Close.test.js",
    )
    content = result.content
    assert "expect(view.container.firstElementChild.localName).toBe('button');" in content
    assert "expect(view.container.firstElementChild).toHaveClass('close');" in content
    assert "expect(view.container.firstElementChild).not.toHaveClass('close-lg');" in content
    # A shallow root's props are its rendered element's: attributes are checked, not dropped.
    assert (
        "expect(view.container.firstElementChild).toHaveAttribute('aria-label', 'Clear');"
        in content
    )
    assert "// testmend: reads the event handler prop onClick" in content
    assert "fireEvent.click(view.container.firstElementChild);" in content
    assert "expect(view.container).toHaveClass" not in content


def test_mount_root_props_are_the_tests_own_and_are_dropped() -> None:
    result = convert(fixture("mount_root_props_are_the_tests_own_and_are_dropped.tsx"))
    lines = [line.strip() for line in result.content.splitlines()]
    assert "// expect(wrapper.prop('label')).toBe('x');" in lines
    assert "expect(wrapper.prop('label')).toBe('x');" not in lines
    assert "removed an assertion on the props the test itself passed" in result.content
    assert result.tests[0].status == "converted"


def test_event_objects_with_mocks_reach_the_handler() -> None:
    """``simulate(ev, { preventDefault: mock })`` calls the mock in Enzyme; a fireEvent init
    dict never would, so the mocks are put on the dispatched event (a jasmine spy object's
    too: reactstrap's ``createSpyObj('e', ['preventDefault'])``)."""
    result = convert(
        fixture("event_objects_with_mocks_reach_the_handler.js"),
        path="src/Field.test.js",
    )
    content = result.content
    assert (
        "fireEvent(document.querySelector('input'), Object.assign(createEvent.keyDown("
        "document.querySelector('input'), backspace), "
        "{ preventDefault: backspace.preventDefault }));" in content
    )
    assert (
        "Object.assign(createEvent.click(document.querySelector('input'), { button: 1 }), "
        "{ stopPropagation: stop })" in content
    )
    # An inline jest.fn() nobody can look at is dropped, as before.
    assert "fireEvent.submit(document.querySelector('input'));" in content
    # jasmine's spy object (``createSpyObj(name, [methods])``): every method a mock, none
    # of them data for the event's init.
    assert (
        "Object.assign(createEvent.click(document.querySelector('input')), "
        "{ preventDefault: e.preventDefault })" in content
    )
    assert (
        "Object.assign(createEvent.mouseDown(document.querySelector('input')), "
        "{ stopPropagation: event.stopPropagation })" in content
    )
    assert "import { createEvent, fireEvent, render }" in content


def test_untranslated_shared_setup_fails_only_the_tests_that_use_it() -> None:
    """A value set up in beforeEach that cannot be translated: the tests that read it fail on
    testmend's throw, the others still run (a throw in the hook would fail them all)."""
    result = convert(
        fixture("untranslated_shared_setup_fails_only_the_tests_that_use_it.js"),
        path="src/Menu.test.js",
    )
    content = result.content
    hook = content[content.index("beforeEach") : content.index("it('reads")]
    assert "// elements = wrapper.find('li').getElements();" in hook and "throw" not in hook
    reads = content[content.index("it('reads") : content.index("it('shows")]
    assert "depends on code that was left untranslated above" in reads and "throw" in reads
    shows = content[content.index("it('shows") :]
    assert "throw" not in shows
    assert [t.status for t in result.tests] == ["partial", "converted"]


def test_helpers_taking_a_wrapper_are_translated_where_they_are_called() -> None:
    """``expect(isActive(wrapper))``: the call stays, the helper's body is translated and the
    wrapper argument goes with the parameter. A helper left with untranslated code throws
    where that code was, failing only the tests that call it."""
    result = convert(
        fixture("helpers_taking_a_wrapper_are_translated_where_they_are_called.js"),
        path="src/Token.test.js",
    )
    content = result.content
    assert (
        "function isActive() {\n"
        "  // testmend: CSS selector '.token': no role, label, text or test id query matched "
        "the same elements\n"
        "  return document.querySelector('.token').classList.contains('active');\n}"
    ) in content
    assert "expect(isActive()).toBe(false);" in content
    helper = content[content.index("function label") : content.index("describe(")]
    assert "// return wrapper.find('.token').instance().label;\n  throw new Error(" in helper
    assert content.count("throw new Error") == 1


def test_a_helper_throws_once_where_its_untranslated_code_starts() -> None:
    """What follows a helper's first untranslated statement in the same block never runs:
    it is commented out with its reason, and no second throw follows it."""
    result = convert(
        """
        import { mount } from 'enzyme';
        import { Token } from './Token';

        function label(wrapper) {
          const token = wrapper.find('.token').instance();
          const text = token.label;
          return text.trim();
        }

        describe('Token', () => {
          let token;
          beforeEach(() => {
            token = mount(<Token />);
          });

          it('has a label', () => {
            expect(label(token)).toBe('x');
          });
        });
        """,
        path="src/Token.test.js",
    )
    helper = result.content[
        result.content.index("function label") : result.content.index("describe(")
    ]
    assert helper.count("throw new Error(") == 1, helper
    assert helper.index("throw new Error(") < helper.index("// const text = token.label;")
    assert "// return text.trim();" in helper


def test_a_helper_returning_a_selection_reads_as_that_selection_at_its_calls() -> None:
    """``getMatches(wrapper)`` returns a wrapper its callers count, index and read: each call
    is the same selection written inline (through the capture of the helper's ``find`` when
    there is one), and the helper goes. Returning one DOM element from it instead would
    change what the callers test."""
    result = convert(
        fixture("a_helper_returning_a_selection_reads_as_that_selection_at_its_calls.js"),
        path="src/Highlighter.test.js",
    )
    content = result.content
    assert "getMatches" not in content and "getFirst" not in content
    assert "expect(document.querySelectorAll('mark')).toHaveLength(0);" in content
    assert "const matches = document.querySelectorAll('mark');" in content
    assert "expect(matches).toHaveLength(2);" in content
    assert "expect(matches[1]).toHaveClass('rbt-highlight-text');" in content
    assert "expect(document.querySelectorAll('mark')[0]).toHaveTextContent(/^i$/);" in content
    assert "throw new Error" not in content
    assert {n.kind for n in result.notes} >= {"removed"}


def test_a_helper_passed_around_is_not_read_as_a_selection() -> None:
    """A selection helper used other than as a one-argument call (passed to ``map``) cannot be
    expanded where it is used: it stays, and throws for the tests that reach it."""
    result = convert(
        fixture("a_helper_passed_around_is_not_read_as_a_selection.js"),
        path="src/List.test.js",
    )
    assert "function items" in result.content
    assert "testmend: untranslated Enzyme code" in result.content


def test_the_roots_of_a_shallow_fragment_are_its_nodes() -> None:
    """A shallow root that rendered a fragment counts and indexes its top-level nodes (text
    nodes too, as Enzyme does); a full render's root is always one node, so counting it is
    dropped with a note rather than translated into something that could differ."""
    result = convert(
        fixture("the_roots_of_a_shallow_fragment_are_its_nodes.js"),
        path="src/Highlighter.test.js",
    )
    content = result.content
    assert "expect(container.childNodes).toHaveLength(5);" in content
    assert "expect(container.childNodes[0]).toHaveTextContent(/^Cal$/);" in content
    assert "expect(Array.from(container.childNodes).slice(-1)[0]).toHaveTextContent(/^a$/);" in (
        content
    )
    assert "// expect(wrapper.length).toBe(1);" in content
    assert any(n.kind == "removed" and "root" in n.message for n in result.notes)
    assert "expect(container).toHaveTextContent(/^California$/);" in content
    assert "throw new Error" not in content


def test_set_props_re_renders_inside_the_providers_the_render_put_around_it() -> None:
    """A render with a store in Enzyme's legacy context renders inside a ``<Provider>``; its
    ``setProps`` re-rendered the bare element, another tree: remounted, and without the store
    (react-redux throws). The re-render goes inside the same providers, also for an element a
    variable holds; where the store is a name the test cannot reach (made in the
    ``beforeEach``), the line stays untranslated."""
    source = """
        import { mount } from 'enzyme';
        import * as React from 'react';
        import configureStore from './configureStore';
        import Navbar from './Navbar';

        it('re-renders in the test', () => {
          const store = configureStore();
          const root = mount(<Navbar title="a" />, { context: { store } });
          root.setProps({ title: 'b' });
          const element = <Navbar title="c" />;
          const held = mount(element, { context: { store } });
          held.setProps({ title: 'd' });
        });

        describe('with a hook', () => {
          let root;
          beforeEach(() => {
            const store = configureStore();
            root = mount(<Navbar title="a" />, { context: { store } });
          });

          it('re-renders', () => {
            root.setProps({ title: 'b' });
          });
        });
        """
    options = CodemodOptions(jest_dom_global=True, redux_installed=True)
    result = convert(source, path="src/Navbar.test.js", options=options)
    content = result.content
    assert '<Provider store={store}><Navbar title="b" /></Provider>' in content
    assert (
        "rerender(<Provider store={store}>{React.cloneElement(element, { title: 'd' })}" in content
    )
    assert 'rerender(<Navbar title="b" />)' not in content
    assert [n.message for n in result.notes if n.kind == "untranslated"] == [
        "setProps() re-renders an element that uses names declared where it was rendered "
        "(store), out of reach here"
    ]


def test_set_props_on_a_render_helper_inside_providers_re_renders_inside_them() -> None:
    """addons-code-manager's ``render({ store, ...moreProps })`` returns
    ``shallowUntilTarget(<Navbar {...props} />, NavbarBase, { shallowOptions: { context: {
    store } } })``: the helper's render goes inside a ``<Provider>``, so does its ``setProps``'s
    re-render. A helper whose declared return type says what it returns keeps it: its
    ``setProps`` stays untranslated."""
    source = """
        import * as React from 'react';
        import { ShallowWrapper } from 'enzyme';
        import configureStore from '../../configureStore';
        import { shallowUntilTarget } from '../../test-helpers';
        import Navbar, { NavbarBase } from '.';

        const render = ({ store = configureStore(), ...moreProps } = {}) => {
          const props = { _fetchVersion: jest.fn(), ...moreProps };
          return shallowUntilTarget(<Navbar {...props} />, NavbarBase, {
            shallowOptions: { context: { store } },
          });
        };

        const renderTyped = (): ShallowWrapper => shallowUntilTarget(<Navbar />, NavbarBase);

        it('loads data on update', () => {
          const root = render();
          root.setProps({ path: 'x' });
          const next = { path: 'z' };
          root.setProps(next);
          root.setProps({
            path: 'w',
            version: 2,
          });
          const typed = renderTyped();
          typed.setProps({ path: 'y' });
        });
        """
    options = CodemodOptions(
        jest_dom_global=True,
        redux_installed=True,
        enzyme_helper_paths=["src/test-helpers"],
        enzyme_helper_renders={"shallowUntilTarget": "shallow"},
    )
    result = convert(source, path="src/components/Navbar/index.spec.tsx", options=options)
    content = result.content
    assert (
        "  let element = <Navbar {...props} />;\n"
        "  const view = rtlRender(<Provider store={store}>{element}</Provider>);\n"
        "  return {\n"
        "    ...view,\n"
        "    setProps: (next: Record<string, unknown>) => {\n"
        "      element = React.cloneElement(element, next);\n"
        "      view.rerender(<Provider store={store}>{element}</Provider>);\n"
        "    },\n"
        "  };\n"
    ) in content
    # Enzyme's root was NavbarBase, which updated whatever the props; connect() lets a
    # re-render through only with a prop that changed (test_app_styles runs it).
    assert "view.setProps({ path: 'x', rerendered: {} });" in content
    assert "view.setProps({ ...next, rerendered: {} });" in content
    assert "view.setProps({\n    path: 'w',\n    version: 2,\n    rerendered: {},\n  });" in content
    assert [n.message for n in result.notes if n.kind == "untranslated"] == [
        "setProps() on a render whose element testmend cannot see"
    ]


def test_set_props_with_new_children_rerenders_them_between_the_tags() -> None:
    result = convert(
        fixture("set_props_with_new_children_rerenders_them_between_the_tags.js"),
        path="src/Highlighter.test.js",
    )
    content = result.content
    assert "rerender(<Highlighter search=\"foo\">{''}</Highlighter>);" in content
    assert 'rerender(<Token label="x">{<span>new</span>}</Token>);' in content
    assert "throw new Error" not in content


def test_a_bare_div_selector_searches_inside_the_render() -> None:
    """``find('div')`` in the document would find RTL's own container first."""
    result = convert(
        fixture("a_bare_div_selector_searches_inside_the_render.js"),
        path="src/Token.test.js",
    )
    content = result.content
    assert "expect(view.container.querySelector('div')).toHaveClass('rbt-token');" in content
    assert (
        "return wrapper.container.querySelector('div').classList.contains('disabled');" in content
    )
    assert "expect(isDisabled(view)).toBe(true);" in content
    assert "view.container.querySelector('.rbt-token > div')" in content
    assert "throw new Error" not in content


def test_reads_combined_in_an_expression_are_each_translated() -> None:
    result = convert(
        fixture("reads_combined_in_an_expression_are_each_translated.js"),
        path="src/Token.test.js",
    )
    content = result.content
    assert "document.querySelector('.rbt-token').classList.contains('removeable') &&" in content
    assert "document.querySelectorAll('button.close').length === 1" in content
    assert "expect(Number(document.querySelector('.count').textContent)).toBe(0);" in content
    assert "throw new Error" not in content


def test_set_props_with_a_spread_or_a_variable_merges_in_order() -> None:
    """Enzyme merges setProps over the current props; later JSX attributes win, so spreads and
    variables go after the element's own attributes, in the order the test set them."""
    result = convert(
        fixture("set_props_with_a_spread_or_a_variable_merges_in_order.js"),
        path="src/Menu.test.js",
    )
    lines = [line.strip() for line in result.content.splitlines()]
    assert 'rerender(<Menu {...props} label="x" {...props} loading={false} />);' in lines
    assert 'rerender(<Menu {...props} {...props} loading={false} label="y" />);' in lines
    assert 'rerender(<Menu {...props} {...props} loading={false} label="y" {...props} />);' in lines


def test_an_instance_assigned_in_shared_setup_goes_through_the_ref() -> None:
    result = convert(
        fixture("an_instance_assigned_in_shared_setup_goes_through_the_ref.js"),
        path="src/Clock.test.js",
    )
    lines = [line.strip() for line in result.content.splitlines()]
    assert "const wrapperRef = createRef();" in lines
    assert "render(<Clock ref={wrapperRef} />);" in lines
    assert "instance = wrapperRef.current;" in lines
    assert "throw new Error(" not in result.content


def test_imported_selection_helpers_read_as_their_selection() -> None:
    """Helpers from the tests' own module are expanded like local ones, those that read what
    they select (``.prop('value')``) too; the names no code uses any more leave the import,
    the module itself is untouched (other tests use it)."""
    options = CodemodOptions(
        jest_dom_global=True,
        selection_helpers={
            "src/__tests__/helpers": {
                "getPaginator": "function getPaginator(wrapper) { return "
                "wrapper.find('.rbt-menu-pagination-option').hostNodes(); }",
                "getMenu": "function getMenu(wrapper) { return wrapper.find('.rbt-menu'); }",
                "getHint": "function getHint(wrapper) { return "
                "wrapper.find('.rbt-input-hint').prop('value'); }",
            }
        },
    )
    result = convert(
        fixture("imported_selection_helpers_read_as_their_selection.js"),
        path="src/__tests__/components/TypeaheadMenu.test.js",
        options=options,
    )
    content = result.content
    assert "import { TestProvider } from '../helpers';" in content
    assert (
        "expect(document.querySelectorAll('.rbt-menu-pagination-option')).toHaveLength(1);"
        in content
    )
    assert "function getPaginator" not in content and "function paginator" not in content
    # A helper that reads what it selected is the same chain inline: the module's getHint
    # still wants an Enzyme wrapper, so no call of it may stay.
    assert "expect(document.querySelector('.rbt-input-hint')).toHaveValue('Alabama');" in content
    assert "getHint" not in content
    assert "throw new Error" not in content
    assert content.rstrip().endswith("});")


def test_event_helper_calls_expand_on_their_own_lines_and_never_run_an_argument_twice() -> None:
    """A call of an imported event helper is its statement with the call's arguments, at the
    call's place and on as many lines as the call had: the capture's records (the helper's
    ``find`` at the call, a later ``find`` of the test) still meet their code. An argument the
    statement writes twice that is a call (``keyDown(wrapper, nextKey())``) would run twice,
    so that call stays, untranslated."""
    options = CodemodOptions(
        jest_dom_global=True,
        action_helpers={
            "src/__tests__/helpers": {
                "keyDown": "function keyDown(wrapper, value, props) { wrapper.find('input')"
                ".simulate('keyDown', { ...props, keyCode: value, which: value }); }"
            }
        },
    )
    source = """
        import { mount } from 'enzyme';
        import { keyDown } from '../helpers';

        it('keys', () => {
          const wrapper = mount(<Field />);
          keyDown(
            wrapper,
            13,
            { shiftKey: true },
          );
          keyDown(wrapper, nextKey());
          expect(wrapper.find('input').prop('value')).toBe('');
        });
        """
    field = CapturedQuery(method="Role", args=["textbox", {"name": "Note"}])
    labelled = CapturedQuery(method="LabelText", args=["Note"])
    dom = DomCapture(
        file="src/__tests__/components/Field.test.js",
        records=[_record(6, 3, "input", "keys", field), _record(12, 24, "input", "keys", labelled)],
    )
    result = convert(
        source, path="src/__tests__/components/Field.test.js", options=options, dom=dom
    )
    content = result.content
    assert (
        "fireEvent.keyDown(screen.getByRole('textbox', { name: 'Note' }), "
        "{ shiftKey: true, keyCode: 13, which: 13 });"
    ) in content
    assert "expect(screen.getByLabelText('Note')).toHaveValue('');" in content
    assert "// keyDown(wrapper, nextKey());" in content
    assert "../helpers" not in content  # no call of the module's left to run


def test_a_props_object_that_selected_components_is_never_an_attribute_selector() -> None:
    """reactstrap's ``find({ body: true })`` selects the ``<Media body>`` components: ``body``
    is their prop, not an attribute of what they render, so ``[body="true"]`` would find
    nothing. Where the capture saw the find select components, the CSS it verified for what
    they render is used (none: untranslated); where it selected elements, their attributes
    are what the props were (``{ 'aria-hidden': 'true' }``)."""
    source = """
        import { shallow } from 'enzyme';

        it('renders', () => {
          const wrapper = shallow(<Media><Media body /><Media heading /></Media>);
          expect(wrapper.find({ body: true }).length).toBe(1);
          expect(wrapper.find({ 'aria-hidden': 'true' }).length).toBe(1);
          expect(wrapper.find({ heading: true }).length).toBe(1);
        });
        """
    body = _record(5, 18, '{"body":true}', "renders", css="div.media-body")
    hidden = _record(6, 18, '{"aria-hidden":"true"}', "renders")
    heading = _record(7, 18, '{"heading":true}', "renders")
    body, heading = (r.model_copy(update={"components": ["Media"]}) for r in (body, heading))
    hidden = hidden.model_copy(update={"components": [None]})
    dom = DomCapture(file="src/Media.test.js", records=[body, hidden, heading])
    result = convert(source, path="src/Media.test.js", dom=dom)
    content = result.content
    assert "expect(document.querySelectorAll('div.media-body')).toHaveLength(1);" in content
    assert "expect(document.querySelectorAll('[aria-hidden=\"true\"]')).toHaveLength(1);" in (
        content
    )
    assert "[body=" not in content and "[heading=" not in content
    assert any(
        "selects components by their props ({ heading: true })" in n.message for n in result.notes
    ), [n.message for n in result.notes]


def test_a_function_returning_a_shallow_render_is_read_inline() -> None:
    """visx's style: ``const LineWrapper = (props = {}) => shallow(<Line {...props} />)`` then
    ``LineWrapper().find('line')`` and ``LineWrapper({…}).prop('strokeLinecap')``. The function
    returns a render; a call's selections are searched in that render's container (a
    screen query would drop the render), and the root's props, a shallow render's, are the
    rendered element's attributes (SVG names as React writes them). Never removed as
    bookkeeping, as a mount's would be."""
    result = convert(
        fixture("a_function_returning_a_shallow_render_is_read_inline.tsx"),
        path="packages/visx-shape/test/Line.test.tsx",
    )
    content = result.content
    assert "const LineWrapper = (restProps = {}) => render(<Line {...restProps} />);" in content
    assert "expect(LineWrapper().container.querySelectorAll('line')).toHaveLength(1);" in content
    assert (
        "expect(LineWrapper().container.firstElementChild).toHaveAttribute('class', 'visx-line');"
        in content
    )
    assert (
        "expect(LineWrapper({ rounded: true }).container.firstElementChild)"
        ".toHaveAttribute('stroke-linecap', 'round');" in content
    )
    assert "toHaveAttribute('viewBox', '0 0 1 1');" in content
    # The file's own RTL import is reused, not repeated.
    assert content.count("from '@testing-library/react'") == 1
    assert not [
        n for n in result.notes if n.kind in ("removed", "untranslated") and "prop" in n.message
    ]
    assert "throw new Error" not in content


def test_a_function_returning_a_mount_keeps_dropping_root_props() -> None:
    result = convert(
        fixture("a_function_returning_a_mount_keeps_dropping_root_props.js"),
        path="packages/visx-shape/test/Line.test.js",
    )
    assert any(n.kind == "removed" for n in result.notes)


def test_dive_is_the_full_render_itself() -> None:
    """``shallow(<AxisBottom />).dive()`` and ``wrapper.dive().prop('className')`` (visx):
    a full render already rendered the child a shallow render dives into; its props are what
    the child rendered."""
    result = convert(
        fixture("dive_is_the_full_render_itself.tsx"),
        path="packages/visx-axis/test/AxisBottom.test.tsx",
    )
    content = result.content
    assert "render(<AxisBottom label={label} />);" in content
    assert ".dive()" not in content
    assert "expect(text.textContent).toEqual(label);" in content
    assert "toHaveAttribute('class', 'visx-glyph');" in content
    assert "throw new Error" not in content


def test_a_render_assigned_again_unmounts_the_one_before() -> None:
    """``token = mount(…)`` in a nested beforeEach or later in a test replaces the wrapper:
    Enzyme's finds no longer see the earlier render. In RTL both would stay in the document
    and screen queries would find the earlier one first, so the earlier render is unmounted."""
    result = convert(
        fixture("a_render_assigned_again_unmounts_the_one_before.js"),
        path="src/T.test.js",
    )
    content = body(result)
    assert content.count(".unmount();") == 2
    assert "beforeEach(() => {\n  token = render(<Token>a</Token>);" in content
    assert (
        "  beforeEach(() => {\n    token.unmount();\n    token = render(<Token onClick={f}>a"
        in content
    )
    assert (
        "click(document.querySelector('.rbt-token'));\n    token.unmount();\n"
        "    token = render(<Token>b" in content
    )
    assert "other.unmount" not in content


def test_keys_of_the_style_prop_are_read_on_the_elements_style() -> None:
    """reactstrap's and typeahead's style: one key of an element's style prop, compared or
    returned by a helper. React wrote each key to the element's own style."""
    result = convert(
        fixture("keys_of_the_style_prop_are_read_on_the_elements_style.js"),
        path="src/Menu.test.js",
    )
    content = body(result)
    assert "expect(screen.getByRole('list').style.backgroundColor).toBe('black');" in content
    assert "expect(screen.getByRole('list').style.maxHeight).toEqual('100px');" in content
    assert "return screen.getByRole('list').style[key];" in content
    # The DOM normalises values ('#fff' reads 'rgb(255, 255, 255)'): not negated.
    assert [n.message for n in result.notes if n.kind == "untranslated"] == [
        "compares a style value with .not; use toHaveStyle"
    ]


def test_a_render_declared_and_rendered_again_in_the_same_test_is_unmounted_first() -> None:
    """visx's style: ``let wrapper = shallow(…)``, then ``wrapper = shallow(…)`` with other
    props. The variable stays (a destructured ``const { container }`` could not be assigned
    again), and the earlier render leaves the document before the next one."""
    result = convert(
        fixture("a_render_declared_and_rendered_again_in_the_same_test_is_unmounted_first.js"),
        path="src/Axis.test.js",
    )
    content = body(result)
    assert "  let view = render(<Axis values={[]} />);\n" in content
    assert "  view.unmount();\n  view = render(<Axis values={[2]} />);\n" in content


def test_a_render_expected_to_throw_or_not_is_the_same_render() -> None:
    result = convert(
        fixture("a_render_expected_to_throw_or_not_is_the_same_render.tsx"),
        path="src/T.test.tsx",
    )
    content = body(result)
    assert result.enzyme_free and result.untranslated_count == 0
    assert "expect(() =>\n    render(\n      <Rows width={10} />,\n    )).not.toThrow();" in content
    assert "expect(() => render(<Rows />)).toThrow('width');" in content


def test_jsx_attributes_named_like_reserved_words_in_a_javascript_file() -> None:
    """``<Fade in={…}>`` (react-transition-group's prop) and ``<FormGroup switch>`` are valid
    JSX that the JavaScript grammar rejects; the file is migrated, not left unchanged."""
    result = convert(
        fixture("jsx_attributes_named_like_reserved_words_in_a_javascript_file.js"),
        path="src/__tests__/FormGroup.spec.js",
    )
    assert result.error is None and result.changed and result.enzyme_free
    assert result.content == fixture(
        "jsx_attributes_named_like_reserved_words_in_a_javascript_file.expected.tsx"
    )


def test_a_note_quoting_source_over_several_lines_stays_one_comment_line() -> None:
    """reactstrap's Carousel passes enzyme's `context` option over several lines; the note
    quoting it was one `//` line followed by the rest of the object as code (a syntax error)."""
    result = convert(
        fixture("a_note_quoting_source_over_several_lines_stays_one_comment_line.js"),
        path="src/__tests__/CarouselItem.spec.js",
    )
    assert result.enzyme_free and result.error is None
    [note_line] = [ln for ln in result.content.splitlines() if "dropped the mount() options" in ln]
    assert note_line.strip() == (
        "// testmend: dropped the mount() options { context: { direction: 'end' }, }; "
        "pass a `wrapper` render option if the component needs providers"
    )
    assert "context:" not in result.content.replace(note_line, "")
    assert not parse(result.content, "a.js").root_node.has_error
    assert all("\n" not in note.message for note in result.notes)


def test_an_indexed_div_of_a_full_render_is_searched_inside_its_container() -> None:
    """typeahead's style: ``wrapper.find('div').first()`` is the component's own root, not
    RTL's container (itself a div) that a document-wide search would find first."""
    result = convert(
        fixture("an_indexed_div_of_a_full_render_is_searched_inside_its_container.js"),
        path="src/Typeahead.test.js",
    )
    assert "expect(container.querySelectorAll('div')[0].style.display)" in body(result)


def test_props_of_what_a_mounted_component_rendered_are_its_attributes() -> None:
    """``mount(<Button />).childAt(0)`` is the element Button rendered: its props are what
    the component does (the DOM's attributes), unlike the root's own props, which the test
    passed itself."""
    result = convert(
        fixture("props_of_what_a_mounted_component_rendered_are_its_attributes.js"),
        path="src/Button.test.js",
    )
    content = body(result)
    assert "expect(container.firstElementChild).toHaveAttribute('type', 'button');" in content
    assert "// expect(wrapper.prop('color')).toBe('primary');" in content


def _captured_finds(source: str, test: str, elements: dict[str, CapturedElement]) -> DomCapture:
    """A capture of every ``find('selector')`` of ``source`` (one element each, with a role
    query for buttons), as the capture would record them for ``test``."""
    records = []
    for number, line in enumerate(source.splitlines(), 1):
        for match in re.finditer(r"\.find\('([^']+)'\)", line):
            selector = match.group(1)
            element = elements.get(selector, CapturedElement(tag="div"))
            queries = (
                [CapturedQuery(method="Role", args=["button"])] if element.tag == "button" else []
            )
            records.append(
                _record(number, match.start() + 2, selector, test, *queries, elements=[element])
            )
    return DomCapture(file="src/X.test.tsx", records=records)


def test_user_events_where_the_capture_shows_what_the_user_acts_on() -> None:
    """With user-event 14: typing into what the capture shows is a text input, selecting in a
    select, clicks; the helper that acts becomes async and its calls awaited; an act around a
    click goes; a keydown with a hand-made key, and a click in a callback that cannot wait,
    stay fireEvent."""
    source = fixture("user_event_helpers.tsx")
    elements = {
        "input": CapturedElement(tag="input", attributes={"type": "text"}),
        "select": CapturedElement(tag="select"),
        "button": CapturedElement(tag="button", text="Go"),
    }
    options = CodemodOptions(
        jest_dom_global=True, event_style="userEvent", user_event_installed=True
    )
    dom = _captured_finds(source, "Search searches", elements)
    dom = dom.model_copy(
        update={
            "records": [
                *dom.records,
                *_captured_finds(source, "Search retries", elements).records,
            ]
        }
    )
    content = convert(source, options=options, dom=dom).content
    assert "async function search(text: string) {\n  const user = userEvent.setup();" in content
    assert "await user.clear(document.querySelector('input')!);" in content
    assert "await user.type(document.querySelector('input')!, 'cats');" in content
    assert "it('searches', async () => {" in content
    assert "    await search('cats');" in content
    # The act around the click goes: user-event waits for the updates itself.
    assert "act(" not in content.split("it('retries'")[1].split("forEach")[0]
    assert "    await user.click(screen.getByRole('button'));\n" in content
    assert "[1, 2].forEach(() => { fireEvent.click(screen.getByRole('button')); });" in content
    assert "await user.selectOptions(screen.getByRole('combobox'), 'dogs');" in content
    assert "fireEvent.keyDown(document.querySelector('input')!, { key: 'Enter' });" in content


def test_user_event_waits_on_fake_timers() -> None:
    source = (
        "import { mount } from 'enzyme';\nimport { Clock } from './Clock';\n\n"
        "it('ticks', () => {\n  jest.useFakeTimers();\n  const wrapper = mount(<Clock />);\n"
        "  wrapper.find('button').simulate('click');\n});\n"
    )
    options = CodemodOptions(
        jest_dom_global=True, event_style="userEvent", user_event_installed=True
    )
    dom = _captured_finds(source, "ticks", {"button": CapturedElement(tag="button")})
    content = convert(source, options=options, dom=dom).content
    assert "const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });" in content
    assert "await user.click(screen.getByRole('button'));" in content


def test_a_local_render_helper_keeps_its_name_and_calls_testing_librarys_render() -> None:
    """``const render = (props) => shallow(<X {...props} />)`` must not become a call of
    itself: Testing Library's render comes in under another name."""
    source = (
        "import * as React from 'react';\nimport { shallow } from 'enzyme';\n"
        "import ToggleButton from '.';\n\n"
        "describe('ToggleButton', () => {\n"
        "  const render = (props = {}) => shallow(<ToggleButton {...props} />);\n\n"
        "  it('renders', () => {\n    const root = render({ label: 'Go' });\n"
        "    expect(root.find('button')).toHaveLength(1);\n  });\n});\n"
    )
    content = convert(source).content
    assert "import { render as rtlRender, screen } from '@testing-library/react';" in content
    assert "const render = (props = {}) => rtlRender(<ToggleButton {...props} />);" in content
    assert "import * as React from 'react';" in content  # the JSX is its use


def test_a_type_import_fits_the_projects_typescript() -> None:
    """``import { render, type RenderResult }`` needs TypeScript 4.5 (and Babel 7.16): older
    projects get the type in an ``import type`` of its own."""
    source = fixture("helper_returning_wrapper_keeps_render_result.tsx")
    assert "import { render, screen, type RenderResult } from" in convert(source).content
    old = CodemodOptions(jest_dom_global=True, inline_type_imports=False)
    content = convert(source, options=old).content
    assert "import type { RenderResult } from '@testing-library/react';" in content
    assert "import { render, screen } from '@testing-library/react';" in content


def test_the_recording_helper_is_a_module_of_the_result() -> None:
    """The props of a child are read through one typed module the result adds (never pasted
    into the test), reached from the jest.mock factory with jest.requireActual."""
    source = (
        "import { mount } from 'enzyme';\nimport { List } from './List';\n"
        "import { Item } from './Item';\n\n"
        "it('passes the label', () => {\n  const wrapper = mount(<List />);\n"
        "  expect(wrapper.find(Item).first().prop('label')).toBe('a');\n});\n"
    )
    options = CodemodOptions(jest_dom_global=True, support_dir="src/test-utils")
    result = convert(source, path="src/components/List.test.tsx", options=options)
    assert "import { recordedProps } from '../test-utils/recordProps';" in result.content
    # (In TypeScript the helper is asserted as itself: requireActual gives `any`.)
    assert (
        "jest.mock('./Item', () => (jest.requireActual('../test-utils/recordProps') as "
        "typeof import('../test-utils/recordProps')).mockRecordingProps("
        "jest.requireActual('./Item'), ['Item']));"
    ) in result.content
    assert "function mockRecordingProps" not in result.content
    helper = result.support_files["src/test-utils/recordProps.ts"]
    assert "export function recordedProps<P>(component: ComponentOf<P>): P[]" in helper
    assert ": any" not in helper and "<any>" not in helper
    # A CommonJS test gets the module as CommonJS.
    module = commonjs(read_asset("testmend.codemod", "assets/recordProps.js"))
    assert "const React = require('react');" in module
    assert "module.exports = { mockRecordingProps, recordedProps };" in module
    assert "export " not in module


def test_providers_from_render_options_and_a_project_helper() -> None:
    """A redux store in Enzyme's legacy context (given to ``shallow`` or to a project helper's
    own options, literally, spread from an object built before or that object's name) renders
    inside react-redux's
    ``<Provider>``; ``wrappingComponent`` wraps the
    element with its props; the helper module's fakes stay imported."""
    options = CodemodOptions(
        jest_dom_global=True,
        redux_installed=True,
        enzyme_helper_paths=["src/test-helpers"],
        enzyme_helper_renders={"shallowUntilTarget": "shallow"},
    )
    result = convert(
        fixture("providers_from_render_options.js"),
        path="src/components/Toolbar/Toolbar.test.js",
        options=options,
    )
    content = result.content
    assert result.enzyme_free
    assert "import { fakeStore } from '../../test-helpers';" in content
    assert "import { Provider } from 'react-redux';" in content
    assert "render(<Provider store={store}><Toolbar /></Provider>);" in content
    assert "render(<Provider store={fakeStore()}><Toolbar /></Provider>);" in content
    # Spread from an object declared before: read through its name, evaluated once.
    assert "render(<Provider store={context.context.store}><Toolbar /></Provider>);" in content
    # Options declared before the render and given by their name: the store they hold.
    declared = content[content.index("it('is given options declared") :]
    assert "render(<Provider store={store}><Toolbar /></Provider>);" in declared
    assert "shallowOptions" not in declared
    assert "render(<ThemeProvider {...{ theme: 'dark' }}><Toolbar /></ThemeProvider>);" in content
    assert "ToolbarBase" not in content and "shallowUntilTarget" not in content
    # Without react-redux there is no Provider to give: the options are dropped, with a note.
    plain = convert(
        fixture("providers_from_render_options.js"),
        path="src/components/Toolbar/Toolbar.test.js",
        options=options.model_copy(update={"redux_installed": False}),
    )
    assert "react-redux" not in plain.content
    assert "dropped the other arguments of shallowUntilTarget()" in [n.message for n in plain.notes]


def test_a_shallow_root_whose_type_is_null_rendered_nothing() -> None:
    """``expect(root.type()).toEqual(null)`` (or ``toBeNull()``) on a shallow render: the
    component returned null, so its render leaves the container empty; another type stays a
    tag check or untranslated."""
    result = convert(
        textwrap.dedent(
            """
            import { shallow } from 'enzyme';
            import { A } from './A';

            it('renders nothing without messages', () => {
              const root = shallow(<A messages={[]} />);
              expect(root.type()).toEqual(null);
            });

            it('renders nothing when hidden', () => {
              const root = shallow(<A hidden />);
              expect(root.type()).toBeNull();
            });

            it('renders something otherwise', () => {
              const root = shallow(<A />);
              expect(root.type()).not.toBeNull();
            });
            """
        )
    )
    content = result.content
    assert content.count("expect(container).toBeEmptyDOMElement();") == 2
    assert "reads the rendered component type (type())" in content  # the negated one stays


def test_filter_where_on_the_text_narrows_the_find_through_host_nodes() -> None:
    """``find('button').hostNodes().filterWhere((b) => b.text() === 'Delete')``: hostNodes()
    keeps the same elements, so the filter still picks, of the find's captured elements, the
    one with that text; after first() it would not be the find's elements any more."""
    source = """
    import { mount } from 'enzyme';
    import { Panel } from './Panel';

    it('deletes', () => {
      const wrapper = mount(<Panel />);
      wrapper.find('button').hostNodes().filterWhere((b) => b.text() === 'Delete').simulate(
        'click',
      );
    });
    """
    edit = [CapturedQuery(method="Role", args=["button", {"name": "Edit"}])]
    delete = [CapturedQuery(method="Role", args=["button", {"name": "Delete"}])]
    buttons = [
        CapturedElement(tag="button", text="Edit"),
        CapturedElement(tag="button", text="Delete"),
    ]
    record = _record(6, 11, "button", "deletes", count=2, elements=buttons).model_copy(
        update={"element_queries": [edit, delete]}
    )
    result = convert(source, dom=DomCapture(file="src/X.test.tsx", records=[record]))
    assert "click(screen.getByRole('button', { name: 'Delete' }))" in result.content


def test_set_props_on_an_element_over_several_lines_keeps_it_laid_out() -> None:
    """The re-rendered element goes on lines of its own, one step in from the call, its
    closing tag under its opening one: what Prettier writes and react/jsx-closing-tag-location
    asks for (a copy that kept the render site's indentation broke both)."""
    result = convert(
        fixture("set_props_on_an_element_over_several_lines_keeps_it_laid_out.js"),
        path="src/__tests__/components/Overlay.test.js",
    )
    expected = """\
    view.rerender(
      <Overlay isMenuShown={false} referenceElement={document.createElement('div')}>
        {(props) => (
          <Menu {...props} id="menu-id">
            This is the menu
          </Menu>
        )}
      </Overlay>
    );
"""
    assert expected in result.content, result.content


def test_update_inside_a_chain_reads_as_the_live_dom() -> None:
    """``wrapper.update().find(…)`` (an Enzyme idiom after timers, promises, setProps) is the
    same wrapper re-read: the queries read the live DOM, so it converts as without update()."""
    source = """
        import React from 'react';
        import { mount } from 'enzyme';
        import Fade from './Fade';

        describe('Fade', () => {
          it('shows after the timers', () => {
            const wrapper = mount(<Fade />);
            jest.runAllTimers();
            expect(wrapper.update().find('div.fade')).toHaveLength(2);
            expect(wrapper.update().find('.footer').text()).toBe('done');
            wrapper.update().find('button').simulate('click');
            expect(wrapper.find('.footer').update().text()).toBe('closed');
            wrapper.update();
          });
        });
    """
    chained = convert(source)
    assert chained.untranslated_count == 0 and chained.enzyme_free
    plain = convert(re.sub(r"\n *wrapper\.update\(\);", "", source.replace(".update().", ".")))
    assert chained.content == plain.content


def test_a_prop_the_capture_shows_as_no_attribute_is_read_from_the_recorded_props() -> None:
    """jest-enzyme's ``toHaveProp`` on a child component: an attribute only where every element
    the capture saw the find select has it (``title`` on the button); a component's own prop
    (``label``, which React would write as an attribute of some elements but the button does
    not have) is read from the recorded props of the component found by its constructor, and
    left untranslated where the find names no component (a class selector)."""
    source = """
    import { mount } from 'enzyme';
    import { Icon } from './Icon';
    import { Panel } from './Panel';
    import { Toggle } from './Toggle';

    it('passes its labels on', () => {
      const wrapper = mount(<Panel />);
      expect(wrapper.find(Toggle)).toHaveProp('title', 'Collapse');
      expect(wrapper.find(Toggle)).toHaveProp('label', 'Collapse');
      expect(wrapper.find(Icon)).toHaveProp('icon', 'angle-right');
      expect(wrapper.find('.toggle')).toHaveProp('label', 'Collapse');
      expect(wrapper.find('.toggle').prop('className')).toContain('toggle');
    });
    """
    button = CapturedElement(
        tag="button",
        attributes={"title": "Collapse", "type": "button"},
        classes=["toggle"],
        text="Collapse",
    )
    role = CapturedQuery(method="Role", args=["button", {"name": "Collapse"}])
    test = "passes its labels on"
    dom = DomCapture(
        file="x",
        records=[
            _record(line, 22, selector, test, role, elements=[button])
            for line, selector in [(8, "Toggle"), (9, "Toggle"), (11, ".toggle"), (12, ".toggle")]
        ],
    )
    result = convert(source, dom=dom)
    content = result.content
    assert (
        "expect(screen.getByRole('button', { name: 'Collapse' })).toHaveAttribute("
        "'title', 'Collapse');" in content
    )
    assert "expect(recordedProps(Toggle)[0].label).toEqual('Collapse');" in content
    assert "expect(recordedProps(Icon)[0].icon).toEqual('angle-right');" in content
    assert "toHaveAttribute('label'" not in content
    # (the capture keeps classes apart from the other attributes: `class` is there)
    assert ".getAttribute('class')).toContain('toggle');" in content
    assert [n.message for n in result.notes if n.kind == "untranslated"] == [
        "reads the prop label, which is no attribute of the <button> the capture saw it select "
        "(a component's prop, not the element's)"
    ]


def test_a_prop_of_the_component_childAt_selected_is_no_attribute_of_its_element() -> None:
    """addons-code-manager's ``ToggleButton``: ``expect(root.childAt(0)).toHaveProp('icon',
    …)`` where the capture saw ``childAt(0)`` select a ``FontAwesomeIcon`` node. ``icon`` is
    that component's prop; the ``<svg>`` it renders has no such attribute, so asserting one
    was a test that fails against the correct component. It stays for a person; a prop the
    capture shows on the element a child element is still asserted as its attribute."""
    source = """
    import { shallow } from 'enzyme';
    import { ToggleButton } from './ToggleButton';

    it('points left', () => {
      const root = shallow(<ToggleButton toggleLeft />);
      expect(root.childAt(0)).toHaveProp('icon', 'angle-double-left');
      expect(root.childAt(1)).toHaveProp('title', 'Toggle');
    });
    """
    test = "points left"

    def child_at(line: int, component: str | None, elements: list[CapturedElement]) -> FindRecord:
        record = _record(line, 24, ":childAt", test, elements=elements)
        return record.model_copy(update={"elements": elements, "components": [component]})

    dom = DomCapture(
        file="x",
        records=[
            child_at(6, "FontAwesomeIcon", []),
            child_at(7, None, [CapturedElement(tag="span", attributes={"title": "Toggle"})]),
        ],
    )
    result = convert(source, dom=dom)
    assert "toHaveAttribute('icon'" not in result.content
    assert ".children[1]).toHaveAttribute('title', 'Toggle');" in result.content
    assert [n.message for n in result.notes if n.kind == "untranslated"] == [
        "reads the prop icon of the component FontAwesomeIcon; no DOM capture shows it as an "
        "attribute of what the component rendered"
    ]


def test_a_wrapper_destructured_from_a_helpers_object_parameter_is_never_left_silently() -> None:
    """addons-code-manager's ``simulateUpdate({ root, store })`` (typed ``{ root:
    ShallowWrapper; … }``) and typeahead's style of ``search({ wrapper, query })`` (untyped,
    called with a wrapper): the Enzyme calls in such a helper's body were left as they were,
    with no note, in a file whose report said Enzyme-free. They are the wrapper's now: what
    translates is translated, the rest is a note the test fails on."""
    source = """
    import { shallow, ShallowWrapper } from 'enzyme';
    import * as React from 'react';
    import { Store } from 'redux';
    import { Navbar } from './Navbar';

    const simulateUpdate = ({ root, store }: { root: ShallowWrapper; store: Store }) => {
      root.setProps({ ...store.getState() });
    };

    function search({ wrapper, query }: { wrapper: any; query: string }) {
      wrapper.find('input').simulate('change', { target: { value: query } });
    }

    it('updates', () => {
      const store = {} as Store;
      const root = shallow(<Navbar />);
      simulateUpdate({ root, store });
      search({ wrapper: root, query: 'x' });
    });
    """
    result = convert(source)
    content = result.content
    assert "  root.setProps(" not in content
    assert "wrapper.find(" not in content
    assert "fireEvent.change(" in content
    # The call of `search` stays untranslated (it is handed the wrapper), so the translated
    # helper, which nothing else calls, is commented out beside it.
    assert "// testmend: read only by code left untranslated\n// function search(" in content
    untranslated = [(n.line, n.message) for n in result.notes if n.kind == "untranslated"]
    assert untranslated == [
        (7, "setProps() on a render whose element testmend cannot see"),
        (22, "uses the Enzyme wrapper in a way testmend cannot translate"),
    ]


def test_the_children_prop_compared_with_an_element_is_not_compared_as_text() -> None:
    """addons-code-manager's ``toHaveProp('children', topContent)`` where ``topContent`` is
    ``<div />``: Enzyme compares elements; the element's text (empty) is not what it compared,
    so the line stays for a person. A variable holding text is still compared as text."""
    source = """
    import { shallow } from 'enzyme';
    import { Shell } from './Shell';

    it('renders its parts', () => {
      const topContent = <div />;
      const title = 'Files';
      const root = shallow(<Shell topContent={topContent} title={title} />);
      expect(root.find('.top')).toHaveProp('children', topContent);
      expect(root.find('.title').prop('children')).toEqual(title);
    });
    """
    result = convert(source)
    assert [n.message for n in result.notes if n.kind == "untranslated"] == [
        "compares the children prop with a React element; assert on what it renders"
    ]
    assert "expect(document.querySelector('.title')?.textContent).toEqual(title);" in (
        result.content
    )


def test_user_event_only_where_the_test_environment_can_run_it() -> None:
    """reactstrap (react-scripts 2: jest 23, jsdom 11) with user-event 14 installed: every
    awaited user-event call threw ("e.composedPath is not a function", "document.getSelection
    is not a function"). Where the capture saw the environment lack them, events are fired
    with fireEvent, with a note saying why."""
    source = """
    import { mount } from 'enzyme';
    import { Toggle } from './Toggle';

    it('toggles', () => {
      const onToggle = jest.fn();
      const wrapper = mount(<Toggle onToggle={onToggle} />);
      wrapper.find('button').simulate('click');
      expect(onToggle).toHaveBeenCalled();
    });
    """
    options = CodemodOptions(
        jest_dom_global=True, user_event_installed=True, user_event_major=14
    ).model_copy(update={"event_style": "userEvent"})
    ready = convert(source, options=options, dom=DomCapture(file="x", user_event_ready=True))
    assert "await user.click(screen.getByRole('button'));" in ready.content
    unready = convert(source, options=options, dom=DomCapture(file="x", user_event_ready=False))
    assert "fireEvent.click(screen.getByRole('button'));" in unready.content
    assert "userEvent" not in unready.content
    assert [n.message for n in unready.notes if n.kind == "review"] == [USER_EVENT_UNREADY]


def test_child_at_on_a_render_made_where_it_is_read_keeps_the_render() -> None:
    """reactstrap's ``const wrapper = shallow(<ModalHeader tag="p">Yo!</ModalHeader>).childAt(0)``:
    the capture's query for what ``childAt(0)`` selected would drop the render the line makes
    (``screen.getByText('Yo!')`` with nothing rendered); the child is read in that render's
    container instead."""
    source = """
    import React from 'react';
    import { shallow } from 'enzyme';
    import ModalHeader from '../ModalHeader';

    it('should render custom tag', () => {
      const wrapper = shallow(<ModalHeader tag="p">Yo!</ModalHeader>).childAt(0);
      expect(wrapper.text()).toBe('Yo!');
    });
    """
    record = FindRecord(
        line=6,
        column=67,
        selector=":childAt",
        test="should render custom tag",
        count=1,
        elements=[CapturedElement(tag="p", text="Yo!")],
        queries=[CapturedQuery(method="Text", args=["Yo!"])],
    )
    result = convert(source, path="src/X.test.js", dom=DomCapture(file="x", records=[record]))
    assert (
        'const wrapper = render(<ModalHeader tag="p">Yo!</ModalHeader>).container'
        ".firstElementChild.children[0];" in result.content
    ), result.content
    assert "screen.getByText" not in result.content


def test_the_title_a_react_helmet_page_sets_is_awaited_on_the_document() -> None:
    """addons-code-manager's pages (Browse, Compare, Index: 7 tests) render react-helmet's
    ``<Helmet><title>…</title></Helmet>`` and assert ``expect(root.find('title')).toHaveText(t)``.
    Shallow, Enzyme saw the ``<title>`` element Helmet was handed; rendered, Helmet writes
    ``document.title`` on the next animation frame, so a query for a ``<title>`` found nothing
    (or a previous test's). The test waits for the document's title; a component that renders
    no Helmet keeps its element, and so does a negated check (it would pass before Helmet
    wrote anything)."""
    source = """
    import { shallow } from 'enzyme';
    import Page from './Page';

    it('sets a page title', () => {
      const name = 'x';
      const root = shallow(<Page name={name} />);
      expect(root.find('title')).toHaveText('Browse add-on version');
      expect(root.find('title').text()).toEqual(`Browse ${name}`);
      expect(root.find('title')).not.toHaveText('Other');
    });
    """
    helmet = CodemodOptions(
        jest_dom_global=True, component_children={"Helmet": ["react-helmet", "Helmet"]}
    )
    content = convert(source, options=helmet).content
    assert "it('sets a page title', async () => {" in content
    assert "await waitFor(() => expect(document.title).toBe('Browse add-on version'));" in content
    assert "await waitFor(() => expect(document.title).toBe(`Browse ${name}`));" in content
    assert "import { render, waitFor } from '@testing-library/react';" in content
    assert "expect(document.title).not" not in content
    plain = convert(source).content
    assert "document.title" not in plain and "async" not in plain


def test_functions_a_returned_object_holds_are_translated_where_they_are() -> None:
    """addons-code-manager's Browse: a setup returns ``{ …, renderAndUpdate: (props) => { const
    root = render(…); root.setProps(props); … } }`` and 15 tests call it. The returned object
    uses no wrapper itself; its function does, and is translated as a function's own
    statements are (the whole setup was a throw, "inside a larger expression"). A function
    expected to throw keeps its own rule: an event inside it stays untranslated."""
    source = """
    import { shallow } from 'enzyme';
    import Browse from './Browse';

    describe('Browse', () => {
      const render = (props = {}) => shallow(<Browse {...props} />);

      const setUpUpdate = () => {
        const store = {};
        return {
          store,
          renderAndUpdate: (props = {}) => {
            const root = render({ store });
            root.setProps(props);
            return { store };
          },
        };
      };

      it('updates', () => {
        setUpUpdate().renderAndUpdate({ path: 'x' });
      });

      it('throws on click', () => {
        expect(() => {
          const root = render();
          root.find('button').simulate('click');
        }).toThrow(/boom/);
      });
    });
    """
    result = convert(source)
    content = result.content
    assert "        const view = render({ store });\n        view.setProps(props);" in content
    assert "larger expression" not in content
    assert "    //   root.find('button').simulate('click');\n    // }).toThrow(/boom/);" in content
    assert [n.message.split(":")[0] for n in result.notes if n.kind == "untranslated"] == [
        "fires an event in a function expected to throw (or not)"
    ]


def test_a_helper_import_whose_other_names_went_unused_is_removed_whole() -> None:
    """addons-code-manager imports ``{ shallowUntilTarget, getInstance }`` from its test helpers;
    where ``getInstance(root)`` is left untranslated (a comment now), both names go unused.
    The clause that dropped the Enzyme helper and the removal of the import were two edits of
    the same text: the file began ``{ getInstance }import Thing from '.';``, which no parser
    reads. One edit now, and the import goes; a name still used keeps the import."""
    source = """
    import * as React from 'react';
    import { shallowUntilTarget, getInstance } from '../../test-helpers';
    import { spyOn, shallowUntilTarget as untilTarget } from '../../test-helpers';
    import Thing, { ThingBase } from '.';

    it('renders', () => {
      const spy = spyOn(console, 'log');
      const root = shallowUntilTarget(<Thing />, ThingBase);
      const other = untilTarget(<Thing />, ThingBase);
      const { x } = getInstance<ThingBase>(root);
      expect(x).toBe(1);
      expect(other.find('.x')).toHaveLength(1);
    });
    """
    options = CodemodOptions(
        jest_dom_global=True,
        enzyme_helper_paths=["src/test-helpers"],
        enzyme_helper_renders={"shallowUntilTarget": "shallow"},
    )
    content = convert(source, path="src/components/Thing/index.spec.tsx", options=options).content
    assert not parse(content, "index.spec.tsx").root_node.has_error, content
    assert "getInstance }" not in content
    assert "import { spyOn } from '../../test-helpers';" in content
    assert "import Thing from '.';" in content


def test_the_instance_a_helper_rendered_down_to_is_not_read_through_a_ref_on_the_element() -> None:
    """``shallowUntilTarget(<Navbar />, NavbarBase)`` (addons-code-manager's helper: shallow,
    then ``dive()`` through ``connect()`` down to the class): ``root.instance()`` is a
    NavbarBase. A ref on ``<Navbar>`` reaches the wrapper ``connect()`` made, or nothing; it
    was written, typed ``createRef<Navbar>()`` (a value, not a type) and asserted to be a
    NavbarBase. It stays untranslated with a note that says why; a render of the class itself
    keeps its ref. Each note stays on its line when two lines read the same at different
    depths (a tidied file moved the second render's note onto the first)."""
    source = """
    import * as React from 'react';
    import { shallowUntilTarget } from '../../test-helpers';
    import Navbar, { NavbarBase } from '.';

    it('renders the class', () => {
      const root = shallowUntilTarget(<Navbar />, NavbarBase);
      expect(root.instance()).toBeInstanceOf(NavbarBase);
    });

    it('gives up', () => {
      const tries = { maxTries: 2 };
      expect(() => {
        shallowUntilTarget(<Navbar />, NavbarBase, tries);
      }).toThrow(/gave up/);
    });

    it('reads its own class', () => {
      const root = shallowUntilTarget(<NavbarBase />, NavbarBase);
      expect(root.state('open')).toBe(false);
    });

    it('renders again', () => {
      let root = shallowUntilTarget(<Navbar />, NavbarBase);
      root.setProps({ open: true });
      root.unmount();
      root = shallowUntilTarget(<Navbar />, NavbarBase);
    });
    """
    options = CodemodOptions(
        jest_dom_global=True,
        enzyme_helper_paths=["src/test-helpers"],
        enzyme_helper_renders={"shallowUntilTarget": "shallow"},
    )
    result = convert(source, path="src/components/Navbar/index.spec.tsx", options=options)
    content = result.content
    assert "createRef<Navbar>" not in content and "<Navbar ref=" not in content, content
    assert "<NavbarBase ref={rootRef} />" in content
    lines = content.split("\n")
    untranslated = [n for n in result.notes if n.kind == "untranslated"]
    assert [n.message.split(":")[0] for n in untranslated] == [
        "reads the instance of NavbarBase, inside Navbar (instance())"
    ]
    assert lines[untranslated[0].line].strip().startswith("// expect(root.instance())")
    dropped = [n.line for n in result.notes if n.message.startswith("dropped the other")]
    assert content.count(".unmount();") == 1  # the test's own, none added before it
    assert len(set(dropped)) == len(dropped) == 5, dropped
    assert [lines[line - 1].strip() for line in dropped][:3] == [
        "render(<Navbar />);",
        "render(<Navbar />);",
        "render(<NavbarBase ref={rootRef} />);",
    ]


def test_set_props_on_a_render_a_setup_function_returned_under_a_key() -> None:
    """addons-code-manager's ``const { root } = loadDiffAndRender()`` (Compare, Comment,
    CommentList, Navbar), whose setup renders through the file's render helper and returns
    ``{ dispatchSpy, root }``: ``root.setProps({ … })`` re-renders through that helper's own
    ``setProps``, as on a render the test made itself. Props read from the wrapper in the new
    props (``root.instance().props``) are translated or the call is left untranslated; they
    were copied as written, and ``instance`` is no function of a Testing Library render; a
    callback among the props that calls ``setProps`` itself calls the helper's. On a render
    that went down to the class inside ``connect()``, each re-render passes a prop that changes
    (``connect()`` lets no other through), with a note."""
    source = """
    import { shallowUntilTarget } from '../../test-helpers';
    import Compare, { CompareBase } from '.';

    describe('Compare', () => {
      const render = ({ path = 'a' } = {}) =>
        shallowUntilTarget(<Compare path={path} />, CompareBase);

      const loadDiffAndRender = () => {
        const dispatchSpy = jest.fn();
        const root = render();
        return { dispatchSpy, root };
      };

      it('does not dispatch when nothing changed', () => {
        const { dispatchSpy, root } = loadDiffAndRender();
        root.setProps({ path: 'a' });
        expect(dispatchSpy).not.toHaveBeenCalled();
      });

      it('reads its own props', () => {
        const { root } = loadDiffAndRender();
        root.setProps({ ...root.instance().props, path: 'b' });
      });

      it('stays controlled', () => {
        const { root } = loadDiffAndRender();
        root.setProps({ onChange: (path) => root.setProps({ path }) });
      });

      it('does not dispatch on an update', () => {
        const { dispatchSpy, root } = loadDiffAndRender();
        root.setProps({});
        expect(dispatchSpy).not.toHaveBeenCalled();
      });
    });
    """
    options = CodemodOptions(
        jest_dom_global=True,
        enzyme_helper_paths=["src/test-helpers"],
        enzyme_helper_renders={"shallowUntilTarget": "shallow"},
    )
    result = convert(source, path="src/pages/Compare/index.spec.js", options=options)
    content = result.content
    assert "let element = <Compare path={path} />;" in content, content
    assert "    root.setProps({ path: 'a', rerendered: {} });\n    expect(dispatchSpy)" in content
    assert "// root.setProps({ ...root.instance().props, path: 'b' });" in content
    # typeahead's controlled component: the callback calls the helper's setProps too.
    assert (
        "    root.setProps({ onChange: (path) => root.setProps({ path }), rerendered: {} });"
    ) in content
    # The same props again: CompareBase updated; under connect() only a changed prop does.
    assert "    root.setProps({ rerendered: {} });\n    expect(dispatchSpy)" in content
    same = [n for n in result.notes if n.message.startswith("setProps() updated Enzyme's root")]
    assert len({n.test for n in same}) == 3, same
    assert "Enzyme's root, CompareBase, even with the props it had" in same[0].message
    assert [n.line for n in result.notes if n.kind == "untranslated"] == [
        content.split("\n").index("    // root.setProps({ ...root.instance().props, path: 'b' });")
    ]


def test_a_component_reached_through_an_object_is_never_a_css_selector() -> None:
    """Issue 33's "a component identifier is never emitted as a CSS selector":
    ``find(Form.Label)`` (react-bootstrap's compound components) and ``find(components.Button)``
    select components (left with a note where no capture shows what they render); the test's
    own object of selector strings (``selectors.Title``) and a stylesheet module's class
    (``styles.Header``) stay strings."""
    source = """
        import React from 'react';
        import { mount } from 'enzyme';
        import { Form } from 'react-bootstrap';
        import * as components from './components';
        import styles from './styles.module.scss';
        import Thing from './Thing';

        const selectors = { Title: '.title' };

        it('finds', () => {
          const wrapper = mount(<Thing />);
          expect(wrapper.find(selectors.Title)).toHaveLength(1);
          expect(wrapper.find(styles.Header)).toHaveLength(1);
          expect(wrapper.find(Form.Label)).toHaveLength(1);
          expect(wrapper.find(components.Button)).toHaveLength(1);
        });
        """
    result = convert(source, path="src/Thing.test.js")
    content = result.content
    assert "document.querySelectorAll(selectors.Title)" in content
    assert "document.querySelectorAll(styles.Header)" in content
    assert "querySelectorAll(Form" not in content and "querySelectorAll(components" not in content
    untranslated = [n.message for n in result.notes if n.kind == "untranslated"]
    assert untranslated == [
        f"selects the component {name} by its constructor or name; no DOM capture shows what "
        "it renders"
        for name in ("Form.Label", "components.Button")
    ], untranslated


def test_the_recording_stays_when_the_last_import_goes() -> None:
    """reactstrap's ``Uncontrolled``: its last import (``keyCodes``) is read only by code left
    untranslated, so the conversion removes it. The ``jest.mock`` that records ``Alert`` was
    put at that import's end and went with it: the test read ``recordedProps(Alert)`` of a
    module nothing mocked. It goes after the last import the result keeps."""
    source = """
    import React from 'react';
    import { mount } from 'enzyme';
    import { Alert, UncontrolledAlert } from '../';
    import { keyCodes } from '../utils';

    it('keeps the alert open', () => {
      const alert = mount(<UncontrolledAlert />);
      expect(alert.find(Alert).prop('isOpen')).toBe(true);
      expect(alert.find(Alert).key()).toBe(keyCodes.esc);
    });
    """
    options = CodemodOptions(component_children={"Alert": ["../Alert", "default"]})
    content = convert(source, path="src/__tests__/Uncontrolled.spec.js", options=options).content
    assert "keyCodes } from" not in content
    mock = (
        "jest.mock('../Alert', () => jest.requireActual('../recordProps')"
        ".mockRecordingProps(jest.requireActual('../Alert'), ['default']));\n\n"
    )
    kept = "import { Alert, UncontrolledAlert } from '../';\n\n"
    assert kept + "// testmend: Enzyme read" in content
    assert mock + "it('keeps the alert open', () => {" in content
    assert "expect(recordedProps(Alert)[0].isOpen).toBe(true);" in content


def test_a_name_left_untranslated_in_one_test_is_free_in_another() -> None:
    """A declaration commented out in one test taints that test's uses of the name, not
    another test's own declaration of the same name (react-bootstrap-typeahead's state
    modifier tests each declare ``const props = {…}``, and an earlier test's ``const props =
    getInput(wrapper).props()`` is left untranslated): those tests keep their assertions."""
    result = convert(
        fixture("a_name_left_untranslated_in_one_test_is_free_in_another.js"),
        path="src/Menu.test.js",
    )
    content = result.content
    reads = content[: content.index("describe('State modifiers'")]
    assert "// const props = wrapper.find('li').getElements();" in reads
    assert "depends on code that was left untranslated above" in reads
    modifiers = content[content.index("describe('State modifiers'") :]
    assert "testmend" not in modifiers
    assert "    const props = { open: false };\n" in modifiers
    assert "expect(clearMenu(state, props)).toEqual({ items: [], open: false });" in modifiers
    assert "const pick = (props) => props.open;" in modifiers
    assert [t.status for t in result.tests] == ["partial", "unchanged", "unchanged"]

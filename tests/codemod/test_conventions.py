"""detect_conventions on the example app and on small hand-made projects (no jest)."""

from __future__ import annotations

import json
from pathlib import Path

from testmend.codemod import convert_enzyme_test, detect_conventions
from tests.support.apps import EXAMPLE_APP


def test_example_app_conventions() -> None:
    options = detect_conventions(EXAMPLE_APP)
    assert options.render_helper is not None
    assert options.render_helper.module == "@/test-utils"
    assert options.render_helper.reexports_rtl
    assert "renderWithProviders" in options.render_helper.custom_render_names
    [mapping] = options.helper_mappings
    assert (mapping.enzyme_name, mapping.render_name) == (
        "mountWithProviders",
        "renderWithProviders",
    )
    assert mapping.enzyme_module == "@/enzyme-test-utils"
    assert options.enzyme_helper_modules == ["@/enzyme-test-utils"]
    assert options.jest_dom_global
    assert options.user_event_installed and options.user_event_major == 14
    assert options.rtl_major == 12


def write(root: Path, relative: str, content: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")


def test_bare_project(tmp_path: Path) -> None:
    write(
        tmp_path,
        "package.json",
        json.dumps(
            {
                "devDependencies": {"@testing-library/react": "^14.0.0", "enzyme": "^3"},
                "jest": {"setupFilesAfterEnv": ["<rootDir>/jest.setup.js"]},
            }
        ),
    )
    write(tmp_path, "jest.setup.js", "require('whatwg-fetch');\n")
    write(tmp_path, "src/A.test.js", "import { mount } from 'enzyme';\n")
    options = detect_conventions(tmp_path, events="userEvent")
    assert options.render_helper is None
    assert options.helper_mappings == []
    assert not options.jest_dom_global
    assert not options.user_event_installed
    assert options.rtl_major == 14
    assert options.event_style == "fireEvent"  # no user-event installed: the setting cannot help


def test_relative_helpers_and_jest_dom_package(tmp_path: Path) -> None:
    write(tmp_path, "package.json", json.dumps({"name": "x"}))
    write(
        tmp_path,
        "jest.config.js",
        "module.exports = { setupFilesAfterEnv: ['@testing-library/jest-dom'] };\n",
    )
    write(
        tmp_path,
        "src/testing/utils.js",
        "import { render } from '@testing-library/react';\n"
        "export function renderWithStore(ui, { store } = {}) { return render(ui); }\n",
    )
    write(
        tmp_path,
        "src/testing/enzyme.js",
        "import { mount } from 'enzyme';\n"
        "export const mountWithStore = (ui, { store } = {}) => mount(ui);\n",
    )
    write(
        tmp_path,
        "src/a/A.test.js",
        "import { mountWithStore } from '../testing/enzyme';\n"
        "import { renderWithStore } from '../testing/utils';\n",
    )
    options = detect_conventions(tmp_path)
    assert options.jest_dom_global
    assert options.render_helper is not None
    assert options.render_helper.module == "./src/testing/utils"
    assert options.render_helper.render_name == "renderWithStore"
    [mapping] = options.helper_mappings
    assert mapping.render_name == "renderWithStore"
    assert mapping.enzyme_module == "./src/testing/enzyme"


def test_selection_helpers_of_the_tests_helper_module(tmp_path: Path) -> None:
    """``__tests__/helpers.js`` (typeahead's layout): its exported one-parameter functions that
    only return a ``find`` of that parameter are selection helpers; the others (events,
    reads, several parameters) are not."""
    write(tmp_path, "package.json", json.dumps({"name": "x"}))
    write(
        tmp_path,
        "src/__tests__/helpers.js",
        """
        export function getInput(wrapper) {
          return wrapper.find('.rbt-input-main');
        }

        export function getMenuItems(wrapper) {
          // Find the <a> so we can simulate clicks.
          return wrapper.find('a.dropdown-item');
        }

        export const getTokens = (wrapper) => wrapper.find('.rbt-token');

        export function getHint(wrapper) {
          return wrapper.find('.rbt-input-hint').prop('value');
        }

        export function focus(wrapper, eventProperties) {
          getInput(wrapper).simulate('focus', eventProperties);
        }
        """,
    )
    write(
        tmp_path,
        "src/__tests__/components/Menu.test.js",
        "import { mount } from 'enzyme';\nimport { getInput } from '../helpers';\n",
    )
    options = detect_conventions(tmp_path)
    helpers = options.selection_helpers["src/__tests__/helpers"]
    assert set(helpers) == {"getInput", "getMenuItems", "getTokens", "getHint"}
    assert "wrapper.find('a.dropdown-item')" in helpers["getMenuItems"]
    assert "Find the <a>" not in helpers["getMenuItems"]


def test_event_helpers_of_the_tests_helper_module(tmp_path: Path) -> None:
    """A helper that fires one event at a selection of its wrapper parameter is read as one
    statement the test can hold: its local selection and the module's selection helpers
    inlined, the module's base event (the members a real event has, then the caller's) reduced
    to the caller's properties, a ``currentTarget`` that is the selection itself dropped. One
    that needs anything else of the module (a constant), does more than fire, or fires at
    its parameter itself (whatever a test hands it) is not one (its calls stay, as before)."""
    write(tmp_path, "package.json", json.dumps({"name": "x"}))
    write(
        tmp_path,
        "src/__tests__/helpers.ts",
        """
        import type { ReactWrapper } from 'enzyme';

        const noop = () => {};
        const MENU = '.rbt-menu';

        export function getInput(wrapper: ReactWrapper) {
          return wrapper.find('.rbt-input-main');
        }

        function getBaseEvent(properties = {}) {
          return { defaultPrevented: false, persist: noop, preventDefault: noop, ...properties };
        }

        export function focus(wrapper: ReactWrapper, eventProperties?: object) {
          getInput(wrapper).simulate('focus', getBaseEvent(eventProperties));
        }

        export const keyDown = (wrapper: ReactWrapper, value: number, props = {}) => {
          const input = getInput(wrapper);
          input.prop('onKeyDown')({
            ...getBaseEvent(props),
            currentTarget: input,
            keyCode: value,
          });
        };

        export function change(wrapper: ReactWrapper, value: string) {
          getInput(wrapper).prop('onChange')({ currentTarget: { value } });
        }

        export function clickMenu(wrapper: ReactWrapper) {
          wrapper.find(MENU).simulate('click');
        }

        export function focusTwice(wrapper: ReactWrapper) {
          focus(wrapper);
          focus(wrapper);
        }

        export function submit(form: ReactWrapper, wrapper: ReactWrapper) {
          form.simulate('submit', { target: wrapper });
        }
        """,
    )
    write(
        tmp_path,
        "src/__tests__/Menu.test.tsx",
        "import { mount } from 'enzyme';\nimport { focus } from './helpers';\n",
    )
    helpers = detect_conventions(tmp_path).action_helpers["src/__tests__/helpers"]
    assert helpers == {
        "focus": "function focus(wrapper, eventProperties) { "
        "wrapper.find('.rbt-input-main').simulate('focus', { ...eventProperties }); }",
        "keyDown": "function keyDown(wrapper, value, props = {}) { "
        "wrapper.find('.rbt-input-main').prop('onKeyDown')"
        "({ ...props, keyCode: value }); }",
        "change": "function change(wrapper, value) { "
        "wrapper.find('.rbt-input-main').prop('onChange')({ currentTarget: { value } }); }",
    }


def test_a_monorepos_packages_keep_the_shared_modules_of_their_tests(tmp_path: Path) -> None:
    """visx's layout: the jest setup at the root (``config-jest/setup``), every workspace
    package with tests of its own in ``test/``. A package's migrated tests share modules in
    that folder, never import them from the root's (``import/no-relative-packages`` rewrites
    such an import to a package name that jest cannot resolve); a package without a test folder
    of its own, or the root's tests, use the project's; a ``recordProps`` module of someone
    else's is left alone."""
    write(
        tmp_path,
        "package.json",
        json.dumps(
            {
                "name": "@viz/root",
                "workspaces": ["packages/*"],
                "jest": {"setupFilesAfterEnv": ["<rootDir>/config-jest/setup/enzyme.js"]},
            }
        ),
    )
    write(tmp_path, "config-jest/setup/enzyme.js", "require('enzyme');\n")
    write(tmp_path, "packages/shape/package.json", json.dumps({"name": "@viz/shape"}))
    write(tmp_path, "packages/shape/test/Bar.test.tsx", "import { shallow } from 'enzyme';\n")
    write(tmp_path, "packages/axis/package.json", json.dumps({"name": "@viz/axis"}))
    write(tmp_path, "packages/axis/test/recordProps.ts", "export const theirs = 1;\n")
    write(tmp_path, "packages/text/package.json", json.dumps({"name": "@viz/text"}))
    write(tmp_path, "packages/text/src/Text.test.tsx", "import { shallow } from 'enzyme';\n")
    options = detect_conventions(tmp_path)
    assert options.support_dir == "config-jest/setup"
    assert options.package_support_dirs == {
        "packages/shape": "packages/shape/test",
        "packages/axis": "packages/axis/test/testmend",
    }
    source = (
        "import { shallow } from 'enzyme';\nimport { Group } from '@viz/group';\n"
        "import { Bar } from '../src';\n\n"
        "it('passes the top', () => {\n  const wrapper = shallow(<Bar top={2} />);\n"
        "  expect(wrapper.find(Group).prop('top')).toBe(2);\n});\n"
    )
    result = convert_enzyme_test(source, path="packages/shape/test/Bar.test.tsx", options=options)
    assert "import { recordedProps } from './recordProps';" in result.content, result.content
    assert list(result.support_files) == ["packages/shape/test/recordProps.ts"]
    result = convert_enzyme_test(source, path="packages/text/src/Text.test.tsx", options=options)
    assert "from '../../../config-jest/setup/recordProps';" in result.content, result.content


KUBEAPPS_STYLE_HELPER = """
import { mount } from "enzyme";
import { render } from "@testing-library/react";
import { Provider } from "react-redux";

export const defaultStore = { getState: () => ({}) };

export const mountWrapper = (store, children) =>
  mount(<Provider store={store}>{children}</Provider>);

export function renderWithProviders(ui, { store = defaultStore } = {}) {
  return render(<Provider store={store}>{ui}</Provider>);
}
"""


def _kubeapps_style(root: Path, helper: str) -> str:
    """A project whose helper module (``helper``) tests import by the ``baseUrl`` of a
    tsconfig with block comments; the test's source."""
    write(root, "package.json", json.dumps({"name": "x"}))
    write(
        root,
        "tsconfig.json",
        '{\n  "compilerOptions": {\n    "jsx": "react-jsx" /* JSX */,\n'
        '    "baseUrl": "src" /* bare specifiers */,\n  }\n}\n',
    )
    write(root, "src/shared/specs/mountWrapper.tsx", helper)
    test = (
        'import { defaultStore, mountWrapper } from "shared/specs/mountWrapper";\n'
        'import Button from "./Button";\n\n'
        'it("renders", () => {\n'
        "  const wrapper = mountWrapper(defaultStore, <Button />);\n"
        '  expect(wrapper.find("button")).toHaveLength(1);\n'
        "});\n"
    )
    write(root, "src/Button.test.tsx", test)
    return test


def test_a_helper_module_of_both_kinds_found_by_the_base_url_tests_import_it_by(
    tmp_path: Path,
) -> None:
    """kubeapps' ``shared/specs/mountWrapper``: an Enzyme ``mountWrapper(store, element)``
    beside an RTL ``renderWithProviders`` in one module. Its Enzyme render is an Enzyme helper
    (a test that renders through it is no Enzyme-free test), whose twin testmend writes into
    the module: the same definition, rendering with Testing Library."""
    test = _kubeapps_style(tmp_path, KUBEAPPS_STYLE_HELPER)
    options = detect_conventions(tmp_path)
    assert options.render_helper is not None
    assert options.render_helper.render_name == "renderWithProviders"
    assert "shared/specs/mountWrapper" in options.enzyme_helper_modules
    [mapping] = options.helper_mappings
    assert (mapping.enzyme_name, mapping.render_name) == ("mountWrapper", "renderWrapper")
    assert mapping.render_path == "src/shared/specs/mountWrapper.tsx"
    assert mapping.twin is not None and mapping.twin.startswith(KUBEAPPS_STYLE_HELPER.rstrip())
    assert (
        "export const renderWrapper = (store, children) =>\n"
        "  render(<Provider store={store}>{children}</Provider>);" in mapping.twin
    ), mapping.twin

    result = convert_enzyme_test(test, path="src/Button.test.tsx", options=options)
    assert result.enzyme_free, result.error
    assert "renderWrapper(defaultStore, <Button />);" in result.content, result.content
    assert 'import { defaultStore, renderWrapper } from "shared/specs/mountWrapper";' in (
        result.content
    )
    assert result.support_files["src/shared/specs/mountWrapper.tsx"] == mapping.twin
    # The module's RTL render is not Enzyme: a test taking only it is not converted.
    rtl_only = 'import { renderWithProviders } from "shared/specs/mountWrapper";\n'
    other = convert_enzyme_test(rtl_only, path="src/Other.test.tsx", options=options)
    assert other.enzyme_free and not other.changed, other.error


def test_a_helper_that_uses_the_wrapper_it_mounts_gets_no_twin_and_its_tests_are_refused(
    tmp_path: Path,
) -> None:
    """A helper that calls the wrapper's methods before returning it (``wrapper.update()``)
    would hand its callers something else than a render result: no twin; a test rendering
    through it is refused in one sentence, not converted into a call that drops the store."""
    helper = KUBEAPPS_STYLE_HELPER.replace(
        "export const mountWrapper = (store, children) =>\n"
        "  mount(<Provider store={store}>{children}</Provider>);",
        "export const mountWrapper = (store, children) => {\n"
        "  const wrapper = mount(<Provider store={store}>{children}</Provider>);\n"
        "  wrapper.update();\n"
        "  return wrapper;\n"
        "};",
    )
    assert helper != KUBEAPPS_STYLE_HELPER
    test = _kubeapps_style(tmp_path, helper)
    options = detect_conventions(tmp_path)
    assert options.helper_mappings == []
    assert options.enzyme_helper_renders == {"mountWrapper": "mount"}
    result = convert_enzyme_test(test, path="src/Button.test.tsx", options=options)
    assert not result.changed and not result.enzyme_free
    assert result.error is not None and "mountWrapper()" in result.error, result.error
    assert "takes the element after other arguments" in result.error


def test_two_helpers_of_one_module_get_their_twins_in_one_text_of_it(tmp_path: Path) -> None:
    """Each result carries the helper's module whole: with two helpers, a result using one and
    a result using the other must carry the same module, or applying both would conflict."""
    helper = (
        "import { mount } from 'enzyme';\n"
        "import { Provider } from 'react-redux';\n\n"
        "export const mountWrapper = (store, children) =>\n"
        "  mount(<Provider store={store}>{children}</Provider>);\n\n"
        "export function mountBare(children) {\n"
        "  return mount(children);\n"
        "}\n"
    )
    _kubeapps_style(tmp_path, helper)
    options = detect_conventions(tmp_path)
    twins = {m.enzyme_name: m for m in options.helper_mappings}
    assert {n: m.render_name for n, m in twins.items()} == {
        "mountWrapper": "renderWrapper",
        "mountBare": "renderBare",
    }
    module = twins["mountWrapper"].twin
    assert module is not None and module == twins["mountBare"].twin
    assert module.count("import { render } from '@testing-library/react';") == 1, module
    assert "export function renderBare(children) {\n  return render(children);\n}" in module
    assert "export const renderWrapper = (store, children) =>" in module

"""The dependency tree of a test file: on the example app and on synthetic projects (relative
imports, index files, tsconfig paths, jest moduleNameMapper)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testmend.project import (
    DependencyNode,
    DependencyTree,
    FileMissingError,
    GrepMatch,
    ImportInfo,
    ModuleResolver,
    NotAFileError,
    _walk,
    component_under_test,
    dependency_tree,
    find_example_tests,
    find_mocks,
    glob_files,
    grep,
    list_dir,
    mock_patterns,
    read_file,
    render_dependency_tree,
    tests_of_dependencies,
)
from testmend.project.children import component_children
from tests.support.apps import EXAMPLE_APP

USER_LIST_TEST = "src/components/UserList/__tests__/UserList.test.tsx"


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return root


def by_path(tree: list[DependencyNode]) -> dict[str, DependencyNode]:
    return {node.path: node for node in tree}


def imports_of(node: DependencyNode) -> dict[str, ImportInfo]:
    return {imp.specifier: imp for imp in node.imports}


@pytest.fixture
def escape_layout(tmp_path: Path) -> Path:
    """A project with a file, a folder and a symlinked file/folder that lead outside it."""
    outside = tmp_path / "outside"
    write(outside, {"secret.ts": "export const secret = 'x';\n", "dir/leak.test.ts": "leak\n"})
    root = write(
        tmp_path / "project",
        {
            "src/a.ts": "export const a = 1;\n",
            "src/a.test.ts": "import { a } from './a';\njest.mock('./a');\n",
        },
    )
    (root / "src" / "link.ts").symlink_to(outside / "secret.ts")
    (root / "src" / "linkdir").symlink_to(outside / "dir", target_is_directory=True)
    return root


# -- the example app --------------------------------------------------------------------------


def test_dependency_tree_of_the_user_list_test() -> None:
    tree = dependency_tree(EXAMPLE_APP, USER_LIST_TEST)
    assert isinstance(tree, DependencyTree) and not tree.truncated
    assert tree[0].path == USER_LIST_TEST
    nodes = by_path(tree)
    assert set(nodes) == {
        USER_LIST_TEST,
        "src/api/users.ts",
        "src/types/models.ts",
        "src/components/UserList/UserList.tsx",
        "src/components/UserList/UserListItem.tsx",
        "src/api/client.ts",
        "src/hooks/useAsync.ts",
    }
    test_imports = imports_of(tree[0])
    assert test_imports["@/api/users"] == ImportInfo(
        specifier="@/api/users", resolved="src/api/users.ts", names=["fetchUsers"], kind="alias"
    )
    assert test_imports["enzyme"] == ImportInfo(
        specifier="enzyme", resolved=None, names=["mount", "ReactWrapper"], kind="package"
    )
    assert test_imports["../UserList"].resolved == "src/components/UserList/UserList.tsx"
    assert test_imports["../UserList"].kind == "relative"
    assert test_imports["@/types/models"].names == ["type User"]
    assert tree[0].exports == []

    component = nodes["src/components/UserList/UserList.tsx"]
    css = imports_of(component)["./UserList.css"]
    # CSS is mapped to a stub by jest's moduleNameMapper: listed, never walked into.
    assert (css.kind, css.resolved, css.names) == ("alias", "src/__mocks__/styleMock.js", [])
    assert "src/__mocks__/styleMock.js" not in nodes
    assert component.exports == ["type UserListProps", "UserList", "default"]
    assert nodes["src/api/client.ts"].exports == ["ApiError", "request"]
    # The models module comes before the files that only the component needs (breadth first).
    order = [n.path for n in tree]
    assert order.index("src/types/models.ts") < order.index("src/hooks/useAsync.ts")

    text = str(tree)
    assert "import '@/api/users' -> src/api/users.ts (alias): fetchUsers" in text
    assert "exports: type UserListProps, UserList, default" in text


def test_barrels_and_identity_obj_proxy_in_the_example_app() -> None:
    tree = dependency_tree(EXAMPLE_APP, "src/App.tsx", max_depth=2)
    nodes = by_path(tree)
    app = imports_of(tree[0])
    assert app["@/components/Counter"].resolved == "src/components/Counter/index.ts"
    barrel = nodes["src/components/Counter/index.ts"]
    assert imports_of(barrel)["./Counter"].names == ["Counter", "default", "type CounterProps"]
    assert barrel.exports == ["Counter", "default", "type CounterProps"]
    assert "src/components/Counter/Counter.tsx" in nodes
    modal = imports_of(nodes["src/components/Modal/Modal.tsx"])
    css_module = next(i for s, i in modal.items() if s.endswith(".module.css"))
    assert (css_module.kind, css_module.resolved) == ("package", None)
    # max_depth=2: the components (depth 2) are listed with their imports, not followed.
    assert "src/components/UserList/UserList.tsx" in nodes
    assert imports_of(nodes["src/components/UserList/UserList.tsx"])["@/api/users"].resolved == (
        "src/api/users.ts"
    )
    assert "src/api/users.ts" not in nodes and len(tree) == 35 and not tree.truncated


def test_find_mocks_and_mock_patterns_in_the_example_app() -> None:
    source = (EXAMPLE_APP / USER_LIST_TEST).read_text()
    mocks = find_mocks(source, USER_LIST_TEST)
    assert [(m.module, m.factory, m.line, m.kind) for m in mocks] == [
        ("@/api/users", False, 8, "module")
    ]
    assert mocks[0].code == "jest.mock('@/api/users');"
    toast = mock_patterns(EXAMPLE_APP, "src/components/Toast/Toast.test.tsx")
    assert toast == ["jest.useFakeTimers();"]


def test_find_example_tests_in_the_example_app() -> None:
    found = find_example_tests(EXAMPLE_APP)
    # Toast.test.tsx only imports '@/test-utils', which re-exports Testing Library.
    assert list(found) == [
        "src/components/LoginForm/LoginForm.test.tsx",
        "src/components/SearchBox/SearchBox.test.tsx",
        "src/components/Toast/Toast.test.tsx",
    ]
    assert not found.truncated
    near = find_example_tests(EXAMPLE_APP, near="src/components/Toast/Toast.test.tsx", limit=1)
    assert list(near) == ["src/components/LoginForm/LoginForm.test.tsx"]
    assert near.truncated and "showing 1 of 2" in str(near)
    # A test that mocks the same API module is preferred as an example.
    similar = find_example_tests(EXAMPLE_APP, near="src/components/UserMenu/UserMenu.test.tsx")
    assert similar[0] == "src/components/LoginForm/LoginForm.test.tsx"


def test_tests_of_dependencies_and_component_under_test_in_the_example_app() -> None:
    tree = dependency_tree(EXAMPLE_APP, "src/App.tsx", max_depth=2)
    pairs = tests_of_dependencies(EXAMPLE_APP, tree)
    assert (
        "src/components/Counter/Counter.test.tsx",
        "src/components/Counter/Counter.tsx",
    ) in pairs
    assert (
        "src/components/Accordion/__tests__/Accordion.test.tsx",
        "src/components/Accordion/Accordion.tsx",
    ) in pairs
    assert all(not dep.endswith("index.ts") for _, dep in pairs)

    user_tree = dependency_tree(EXAMPLE_APP, USER_LIST_TEST)
    assert tests_of_dependencies(EXAMPLE_APP, user_tree) == []
    assert (
        component_under_test(EXAMPLE_APP, USER_LIST_TEST, user_tree)
        == "src/components/UserList/UserList.tsx"
    )
    counter = "src/components/Counter/Counter.test.tsx"
    assert component_under_test(EXAMPLE_APP, counter, []) == "src/components/Counter/Counter.tsx"


def test_children_of_the_component_under_test_as_a_test_reaches_them(tmp_path: Path) -> None:
    """What the component imports under capitalised names, with the specifier a jest.mock in
    the test reaches each module by (visx's style: packages, a sibling module, an index)."""
    (tmp_path / "src/chart/__tests__").mkdir(parents=True)
    (tmp_path / "src/chart/Axis.tsx").write_text("export default function Axis() { return null; }")
    (tmp_path / "src/chart/types.ts").write_text("export type Scale = number;")
    (tmp_path / "src/chart/util.ts").write_text("export const tick = 1;")
    (tmp_path / "src/chart/AxisBottom.tsx").write_text(
        "import React from 'react';\n"
        "import { Group as G } from '@visx/group';\n"
        "import Axis from './Axis';\n"
        "import type { Scale } from './types';\n"
        "import { tick } from './util';\n"
        "export default function AxisBottom() { return <G><Axis /></G>; }\n"
    )
    (tmp_path / "src/chart/index.ts").write_text(
        "export { default as AxisBottom } from './AxisBottom';\n"
    )
    test = "src/chart/__tests__/AxisBottom.test.tsx"
    (tmp_path / test).write_text("import { AxisBottom } from '..';\n")
    expected = {"React": ["react", "default"], "G": ["@visx/group", "Group"]}
    expected["Axis"] = ["../Axis", "default"]
    assert component_children(tmp_path, test, "src/chart/AxisBottom.tsx") == expected
    # The component under test found from the test's name, through the index it imports.
    tree = dependency_tree(tmp_path, test)
    assert component_children(tmp_path, test, component_under_test(tmp_path, test, tree)) == (
        expected
    )
    assert component_children(tmp_path, test, None) == {}
    assert component_children(tmp_path, test, "src/chart/Missing.tsx") == {}


def test_children_of_the_components_an_index_test_renders(tmp_path: Path) -> None:
    """A test of several components, each imported from the package's index (reactstrap's
    ``Uncontrolled.spec.js``: ``UncontrolledAlert`` renders the ``Alert`` of ``./Alert``): the
    component under test is the index, which imports nothing itself, and the children are
    those of the modules it re-exports the test's names from, by either way of re-exporting
    (``export { default as X } from``, and Babel's ``export X from``). A name two of them
    import from different modules is left out; modules the test does not import are not read."""
    write(
        tmp_path,
        {
            "package.json": "{}",
            "src/Alert.js": "export default function Alert() { return null; }\n",
            "src/Toggle.js": "export default function Toggle() { return null; }\n",
            "src/Tooltip.js": "export default function Tooltip() { return null; }\n",
            "src/UncontrolledAlert.js": (
                "import React from 'react';\nimport Alert from './Alert';\n"
                "import Toggle from './Toggle';\nexport default function U() {}\n"
            ),
            "src/UncontrolledTip.js": (
                "import Tooltip from './Tooltip';\nimport { Toggle } from 'toggles';\n"
                "export default function T() {}\n"
            ),
            "src/Other.js": "import Unrelated from './Unrelated';\nexport default 1;\n",
            "src/index.js": (
                "export UncontrolledAlert from './UncontrolledAlert';\n"
                "export { default as UncontrolledTip } from './UncontrolledTip';\n"
                "export Other from './Other';\n"
            ),
            "src/__tests__/Uncontrolled.spec.js": (
                "import { UncontrolledAlert, UncontrolledTip } from '../';\n"
            ),
        },
    )
    test = "src/__tests__/Uncontrolled.spec.js"
    assert component_children(tmp_path, test, "src/index.js") == {
        "React": ["react", "default"],
        "Alert": ["../Alert", "default"],
        "Tooltip": ["../Tooltip", "default"],
    }


def test_component_children_know_what_a_default_export_wraps(tmp_path: Path) -> None:
    """A child rendered as ``Connect(CommentsBase)`` or ``withRouter(Connect(ChooserBase))``
    (React's display names of wrapped components) is the default export of the module that
    wraps it: the wrapped names lead there too (addons-code-manager's and kubeapps' connected
    components, with a cast or a variable between). So does a component exported by default
    under its own name and imported under another (``export default SidePanelBase``, imported
    as ``SidePanel``: React calls it ``SidePanelBase``)."""
    write(
        tmp_path,
        {
            "package.json": "{}",
            "src/Comments.tsx": (
                "export class CommentsBase extends React.Component {}\n"
                "export default connect(mapStateToProps)(CommentsBase);\n"
            ),
            "src/Chooser.tsx": (
                "export const ChooserBase = () => null;\n"
                "const ConnectedChooser = connect(\n  mapStateToProps,\n)(ChooserBase);\n\n"
                "export default withRouter(ConnectedChooser) as React.ComponentType<\n"
                "  Props\n>;\n"
            ),
            "src/Plain.tsx": "export default function Plain() { return null; }\n",
            "src/Panel.tsx": "export const PanelBase = () => null;\n\nexport default PanelBase;\n",
            "src/Page.tsx": (
                "import Comments from './Comments';\n"
                "import Chooser from './Chooser';\n"
                "import Plain from './Plain';\n"
                "import SidePanel from './Panel';\n"
            ),
        },
    )
    children = component_children(tmp_path, "src/Page.test.tsx", "src/Page.tsx")
    assert children == {
        "Comments": ["./Comments", "default"],
        "CommentsBase": ["./Comments", "default"],
        "Chooser": ["./Chooser", "default"],
        "ConnectedChooser": ["./Chooser", "default"],
        "ChooserBase": ["./Chooser", "default"],
        "Plain": ["./Plain", "default"],
        "SidePanel": ["./Panel", "default"],
        "PanelBase": ["./Panel", "default"],
    }


def test_file_tools_on_the_example_app(example_app: Path) -> None:
    tests = glob_files(example_app, "src/**/*.test.tsx")
    assert USER_LIST_TEST in tests and len(tests) == 13 and tests == sorted(tests)
    everything = glob_files(example_app, "**/*.js", limit=1000)
    assert everything and not any(p.startswith("node_modules/") for p in everything)
    explicit = glob_files(example_app, "node_modules/react/*.js")
    assert "node_modules/react/index.js" in explicit

    hits = grep(example_app, r"jest\.mock\(", glob="*.test.tsx")
    assert GrepMatch(path=USER_LIST_TEST, line=8, text="jest.mock('@/api/users');") in hits
    assert all(h.path.startswith("src/") for h in hits)

    text = read_file(example_app, USER_LIST_TEST, offset=8, limit=3)
    assert text.splitlines()[:2] == [
        f"{USER_LIST_TEST} (lines 8-10 of 98)",
        "   8| jest.mock('@/api/users');",
    ]
    listing = list_dir(example_app)
    assert "node_modules/  (ignored: not searched)" in listing
    assert "src/" in listing.splitlines()
    assert any(line.startswith("package.json  1.8 KB") for line in listing.splitlines())


# -- dependency trees of synthetic projects ---------------------------------------------------


def test_javascript_project_with_jsconfig_require_and_cycles(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "jsconfig.json": """{
                // comments and trailing commas, as editors write them
                "compilerOptions": {
                    "baseUrl": "src", /* block */
                    "paths": { "@lib/*": ["lib/*",], "config": ["settings/index.js"], },
                },
            }""",
            "src/a.test.js": (
                "const b = require('./b');\n"
                "const { helper, other: renamed } = require('@lib/helpers');\n"
                "require('./side-effect');\n"
                "import('./lazy').then(() => {});\n"
                "const cfg = require('config');\n"
                "const util = require('utils/format');\n"
                "const fs = require('node:fs');\n"
                "jest.mock('./b', () => ({ run: jest.fn() }));\n"
                "test('x', () => expect(b.run()).toBe(1));\n"
            ),
            "src/b.js": (
                "const { c } = require('./c');\n"
                "module.exports = { run, c, 'quoted': 1, method() {} };\n"
            ),
            "src/c.js": "const b = require('./b');\nexports.c = 1;\nmodule.exports.d = 2;\n",
            "src/lib/helpers.jsx": (
                "export const helper = 1, other = 2;\nexport default function () {}\n"
            ),
            "src/side-effect.mjs": "globalThis.x = 1;\n",
            "src/lazy.cjs": "module.exports = function lazy() {};\n",
            "src/settings/index.js": "module.exports = {};\n",
            "src/utils/format.js": "export function format() {}\n",
        },
    )
    tree = dependency_tree(root, "src/a.test.js")
    nodes = by_path(tree)
    assert list(nodes) == [
        "src/a.test.js",
        "src/b.js",
        "src/lib/helpers.jsx",
        "src/side-effect.mjs",
        "src/lazy.cjs",
        "src/settings/index.js",
        "src/utils/format.js",
        "src/c.js",
    ]
    test_imports = imports_of(tree[0])
    assert test_imports["./b"].names == ["* as b"]
    assert test_imports["@lib/helpers"].names == ["helper", "other as renamed"]
    assert test_imports["@lib/helpers"].kind == "alias"
    assert test_imports["config"].resolved == "src/settings/index.js"
    assert test_imports["utils/format"].kind == "alias"  # through baseUrl
    assert test_imports["node:fs"].kind == "package"
    assert nodes["src/b.js"].exports == ["run", "c", "quoted", "method"]
    assert nodes["src/c.js"].exports == ["c", "d"]
    assert imports_of(nodes["src/c.js"])["./b"].resolved == "src/b.js"  # the cycle, listed once
    assert nodes["src/lib/helpers.jsx"].exports == ["helper", "other", "default"]
    assert nodes["src/lazy.cjs"].exports == ["default"]
    assert tree.notes == []


def test_tsconfig_extends_and_typescript_forms(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "configs/base.json": """{
                "compilerOptions": {
                    "baseUrl": "../src", "paths": { "@/*": ["*"], "*": ["types/*"] }
                },
            }""",
            "configs/strict.json": '{ "extends": "./base", "compilerOptions": { "strict": true } }',
            "tsconfig.json": json.dumps(
                {"extends": ["@tsconfig/recommended", "./configs/strict.json", "../outside.json"]}
            ),
            "src/widget.test.ts": (
                "import type { Props } from '@/widget';\n"
                "import Default, * as everything from '@/widget';\n"
                "import legacy = require('./legacy');\n"
                "export type { Props } from '@/widget';\n"
                "export * from './reexported.js';\n"
                "export * as ns from './ns';\n"
                "import { thing } from 'thing';\n"
                "import react from 'react';\n"
                "import { missing } from '@/missing';\n"
                "import data from './data.json';\n"
                "import './missing-relative';\n"
                "import { x } from './types';\n"
            ),
            "src/widget.tsx": (
                "export interface Props { a: string }\n"
                "export type Alias = string;\n"
                "export enum Mode { A }\n"
                "export class Widget {}\n"
                "export function helper(): void;\n"
                "export function helper(x?: number) {}\n"
                "export const { one, two: [three] } = { one: 1, two: [3] };\n"
                "declare const local: number;\n"
                "export { local as renamed };\n"
                "export default Widget;\n"
            ),
            "src/legacy.ts": "export = 1;\n",
            "src/reexported.ts": "export const r = 1;\n",
            "src/ns/index.tsx": "export const n = 1;\n",
            "src/types/thing.d.ts": "export declare const thing: number;\n",
            "src/types.d.ts": "export declare function x(): void;\n",
            "src/data.json": "{}",
        },
    )
    tree = dependency_tree(root, "src/widget.test.ts")
    nodes = by_path(tree)
    imports = imports_of(tree[0])
    assert imports["@/widget"].names == ["type Props", "default as Default", "* as everything"]
    assert imports["@/widget"].resolved == "src/widget.tsx"
    assert imports["./legacy"].names == ["* as legacy"]
    assert imports["./reexported.js"].resolved == "src/reexported.ts"  # .js → .ts, as tsc does
    assert imports["./reexported.js"].names == ["*"]
    assert imports["./ns"].resolved == "src/ns/index.tsx"
    assert imports["./ns"].names == ["* as ns"]
    assert (imports["thing"].kind, imports["thing"].resolved) == ("alias", "src/types/thing.d.ts")
    assert (imports["react"].kind, imports["react"].resolved) == ("package", None)
    assert imports["@/missing"].kind == "unresolved"
    assert imports["./data.json"].resolved == "src/data.json"
    assert imports["./missing-relative"].kind == "unresolved"
    assert imports["./types"].resolved == "src/types.d.ts"
    assert tree[0].exports == ["type Props", "* from './reexported.js'", "ns"]
    assert nodes["src/widget.tsx"].exports == [
        "type Props",
        "type Alias",
        "Mode",
        "Widget",
        "helper",
        "one",
        "three",
        "renamed",
        "default",
    ]
    # .d.ts and JSON files are listed but not parsed as project source.
    assert "src/types/thing.d.ts" not in nodes and "src/data.json" not in nodes
    assert any("'@tsconfig/recommended' (a package) is not read" in n for n in tree.notes)
    assert any("'../outside.json' leaves the project" in n for n in tree.notes)


def test_tsconfig_oddities(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "tsconfig.json": '{ "extends": ["./missing.json", 3, "./loop"], "compilerOptions": 1 }',
            "loop.json": (
                '{ "extends": "./tsconfig.json", "compilerOptions": { "paths": { "x": 1 } } }'
            ),
            "a.ts": (
                "export declare const declared: number;\n"
                "export const [first, ...rest] = [1, 2];\n"
                "export const { a: { deep = 1 } } = { a: {} };\n"
                "const t = require(`./b`);\n"
                "const u = require(`./${t}`);\n"
                "const p = require('pkg');\n"
            ),
            "b.ts": "export {};\n",
            "sub/jsconfig.json": '{ "extends": 42 }',
            "sub/c.js": "import x from 'x';\n",
        },
    )
    tree = dependency_tree(root, "a.ts")
    assert tree[0].exports == ["declared", "first", "rest", "deep"]
    assert [(i.specifier, i.resolved) for i in tree[0].imports] == [("./b", "b.ts"), ("pkg", None)]
    assert any("'missing.json' does not exist" in n for n in tree.notes)
    assert dependency_tree(root, "sub/c.js")[0].imports[0].kind == "package"


def test_jest_config_forms(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "jest.config.ts": """
                import type { Config } from 'jest';
                const path = require('path');
                const mapper = {
                  '^@app/(.*)$': ['<rootDir>/nowhere/$1', '<rootDir>/app/$1'],
                  '\\\\.(css|less)$': require.resolve('identity-obj-proxy'),
                  '\\\\.svg$': path.join(__dirname, 'stubs', 'svg.js'),
                  '^config$': '<rootDir>/app/config.ts',
                  '^lodash-es$': 'lodash',
                  '^(?<name>named)/(.*)$': '<rootDir>/app/$2',
                  '[': 'broken',
                  '^gone$': '<rootDir>/gone',
                  '^rel/(.*)$': './app/$1',
                  '^abs$': '/abs/x.js',
                  '^bad-group$': '<rootDir>/app/$3',
                  '^react-dom$': '<rootDir>/node_modules/react-dom/index.js',
                  ...spread,
                };
                const config: Config = {
                  rootDir: '.',
                  moduleNameMapper: mapper,
                  moduleDirectories: ['node_modules', 'shared'],
                  modulePaths: ['<rootDir>/vendor'],
                };
                export default config;
            """,
            "app/main.test.ts": (
                "import x from '@app/x';\n"
                "import './styles.css';\n"
                "import logo from './logo.svg';\n"
                "import config from 'config';\n"
                "import { map } from 'lodash-es';\n"
                "import n from 'named/x';\n"
                "import g from 'gone';\n"
                "import r from 'rel/x';\n"
                "import a from 'abs';\n"
                "import bg from 'bad-group';\n"
                "import s from 'sharedthing';\n"
                "import v from 'vendored';\n"
                "import rd from 'react-dom';\n"
            ),
            "node_modules/react-dom/index.js": "module.exports = {};\n",
            "app/x.ts": "export const x = 1;\n",
            "app/config.ts": "export default {};\n",
            "app/index.ts": "export {};\n",
            "stubs/svg.js": "module.exports = 'svg';\n",
            "shared/sharedthing.ts": "export default 1;\n",
            "vendor/vendored.js": "module.exports = 1;\n",
        },
    )
    tree = dependency_tree(root, "app/main.test.ts")
    imports = {s: (i.kind, i.resolved) for s, i in imports_of(tree[0]).items()}
    assert imports == {
        "@app/x": ("alias", "app/x.ts"),
        "./styles.css": ("package", None),
        "./logo.svg": ("alias", "stubs/svg.js"),
        "config": ("alias", "app/config.ts"),
        "lodash-es": ("package", None),
        "named/x": ("alias", "app/x.ts"),
        "gone": ("unresolved", None),
        "rel/x": ("alias", "app/x.ts"),
        "abs": ("unresolved", None),
        "bad-group": ("alias", "app/index.ts"),
        "sharedthing": ("alias", "shared/sharedthing.ts"),
        "vendored": ("alias", "vendor/vendored.js"),
        "react-dom": ("package", None),  # mapped into node_modules: a package, not followed
    }
    nodes = by_path(tree)
    assert "stubs/svg.js" not in nodes  # a stub: listed, not followed
    assert "app/config.ts" in nodes  # a one-file alias: followed
    assert any("'[' is not usable" in n for n in tree.notes)


def test_jest_config_in_package_json_and_nested_configs(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "package.json": json.dumps(
                {
                    "name": "x",
                    "jest": {
                        "rootDir": "src",
                        "moduleNameMapper": {
                            "^~/(.*)$": "<rootDir>/$1",
                            "\\.css$": "<rootDir>/styleMock.js",
                        },
                    },
                }
            ),
            "src/a.test.js": "import b from '~/b';\nimport './a.css';\n",
            "src/b.js": "export default 1;\n",
            "src/styleMock.js": "module.exports = {};\n",
            "pkg/package.json": json.dumps({"name": "pkg"}),
            "pkg/jest.config.json": json.dumps(
                {"moduleNameMapper": {"^#/(.*)$": "<rootDir>/lib/$1"}}
            ),
            "pkg/lib/z.js": "export const z = 1;\n",
            "pkg/t.test.js": "import { z } from '#/z';\nimport b from '~/b';\n",
            "other/package.json": json.dumps({"name": "other"}),
            "other/t.test.js": "import b from '~/b';\n",
            "broken/jest.config.json": "{ not json",
            "broken/t.test.js": "import b from './b';\n",
            "weird/jest.config.json": "[1]",
            "weird/t.test.js": "import b from './b';\n",
            "toobig/jest.config.js": b"x" * (_walk.MAX_FILE_BYTES + 1),
            "toobig/t.test.js": "import b from './b';\n",
            "badroot/jest.config.js": "module.exports = { rootDir: '../..' }",
            "badroot/t.test.js": "import b from './b';\n",
        },
    )
    tree = dependency_tree(root, "src/a.test.js")
    assert [(i.kind, i.resolved) for i in tree[0].imports] == [
        ("alias", "src/b.js"),
        ("alias", "src/styleMock.js"),
    ]
    nested = dependency_tree(root, "pkg/t.test.js")[0]
    assert [(i.kind, i.resolved) for i in nested.imports] == [
        ("alias", "pkg/lib/z.js"),
        ("package", None),  # pkg has its own jest config: the root mapper does not apply
    ]
    # other/package.json has no "jest" key: the root package.json's config applies.
    assert dependency_tree(root, "other/t.test.js")[0].imports[0].resolved == "src/b.js"
    broken = dependency_tree(root, "broken/t.test.js")
    assert any("not valid JSON" in n for n in broken.notes)
    assert any(
        "expected a JSON object" in n for n in dependency_tree(root, "weird/t.test.js").notes
    )
    assert any("too large" in n for n in dependency_tree(root, "toobig/t.test.js").notes)
    assert any(
        "rootDir '../..' leaves" in n for n in dependency_tree(root, "badroot/t.test.js").notes
    )


def test_tree_limits_and_unreadable_files(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        f"src/m{i}.ts": f"import './m{i + 1}';\nimport './n{i}';\n" for i in range(8)
    }
    files.update({f"src/n{i}.ts": "export {};\n" for i in range(8)})
    files["src/start.test.ts"] = "import './m0';\nimport './bin';\n"
    files["src/bin.ts"] = b"\x00\x01binary"
    root = write(tmp_path, files)
    deep = dependency_tree(root, "src/start.test.ts", max_depth=2)
    assert [n.path for n in deep] == [
        "src/start.test.ts",
        "src/m0.ts",
        "src/m1.ts",
        "src/n0.ts",
    ]
    assert imports_of(deep[2])["./m2"].resolved == "src/m2.ts"  # listed, not followed
    assert any("binary" in note for note in deep.notes)
    few = dependency_tree(root, "src/start.test.ts", max_depth=10, max_files=4)
    assert len(few) == 3 and few.truncated
    assert "[stopped at 4 files" in str(few)
    assert render_dependency_tree([]) == "(no files)"

    with pytest.raises(NotAFileError, match="is a directory"):
        dependency_tree(root, "src")
    write(root, {"notes.md": "# x"})
    with pytest.raises(NotAFileError, match="not a JavaScript/TypeScript"):
        dependency_tree(root, "notes.md")
    with pytest.raises(FileMissingError):
        dependency_tree(root, "src/nope.test.ts")


def test_resolver_can_be_shared_and_caches(tmp_path: Path) -> None:
    root = write(tmp_path, {"a.ts": "import './b';\n", "b.ts": "export {};\n"})
    resolver = ModuleResolver(root)
    first = dependency_tree(root, "a.ts", resolver=resolver)
    assert resolver.resolve("a.ts", "./b").resolved == "b.ts"
    (root / "b.ts").unlink()
    # The shared resolver still remembers b.ts; a fresh call sees the change.
    assert dependency_tree(root, "a.ts", resolver=resolver)[0] == first[0]
    assert dependency_tree(root, "a.ts")[0].imports[0].kind == "unresolved"
    assert not resolver.is_file("../etc/passwd") and not resolver.is_file("nope/x.ts")

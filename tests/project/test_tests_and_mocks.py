"""Mocks, example tests, the tests of dependencies and the component under test; small parsing
pieces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testmend.js_syntax import unescape_js
from testmend.layout import NEVER_WALKED
from testmend.project import (
    DependencyNode,
    ImportInfo,
    ProjectToolError,
    RefusedPathError,
    _walk,
    component_under_test,
    dependency_tree,
    find_example_tests,
    find_mocks,
    glob_files,
    grep,
    is_test_file,
    list_dir,
    mock_patterns,
    read_file,
    tests_of_dependencies,
)
from testmend.project.configs import join_rel, parse_jsonc
from testmend.project.module_syntax import module_info
from testmend.workspace.paths import PathEscapeError

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


# -- mocks ------------------------------------------------------------------------------------


def test_find_mocks_patterns() -> None:
    source = """
import { api } from './api';
jest.mock('./api', () => ({
  api: jest.fn(),
}));
jest.mock('./plain');
jest.doMock('./later', undefined);
vi.mock('./vitest');
jest.mock(moduleName);
const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
beforeEach(() => {
  jest.spyOn(Storage.prototype, 'getItem');
  jest.useFakeTimers();
  global.fetch = jest.fn(() => Promise.resolve({ json: () => ({}) }));
});
window.matchMedia = jest.fn();
globalThis.IntersectionObserver = class {};
Object.defineProperty(window, 'location', { value: { href: '' } });
Object.defineProperty(thing, 'x', {});
expect(jest.spyOn(a, b)).toBeDefined();
notGlobal.fetch = 1;
jest.fn();
jest.spyOn(onlyOne);
"""
    mocks = find_mocks(source, "x.test.ts")
    assert [(m.module, m.factory, m.line, m.kind) for m in mocks] == [
        ("./api", True, 3, "module"),
        ("./plain", False, 6, "module"),
        ("./later", False, 7, "module"),
        ("./vitest", False, 8, "module"),
        ("console.error", True, 10, "spy"),
        ("Storage.prototype.getItem", False, 12, "spy"),
        ("timers", False, 13, "timers"),
        ("global.fetch", True, 14, "global"),
        ("window.matchMedia", True, 16, "global"),
        ("globalThis.IntersectionObserver", True, 17, "global"),
        ("window.location", True, 18, "global"),
        ("a.b", False, 20, "spy"),
    ]
    assert mocks[0].code == "jest.mock('./api', () => ({\n  api: jest.fn(),\n}));"
    assert mocks[4].code.startswith("const spy = jest.spyOn(console, 'error')")
    assert mocks[6].code == "jest.useFakeTimers();"
    assert mocks[11].code == "jest.spyOn(a, b)"


def test_long_mock_factories_are_cut() -> None:
    body = "\n".join(f"  f{i}: jest.fn()," for i in range(30))
    mocks = find_mocks(f"jest.mock('./big', () => ({{\n{body}\n}}));\n", "x.test.js")
    assert mocks[0].code.endswith("// … (cut)") and mocks[0].code.count("\n") == 15
    wide = "x" * 2000
    cut = find_mocks(f"jest.mock('./w', () => '{wide}');\n", "x.test.js")
    assert cut[0].code.endswith(" … (cut)") and len(cut[0].code) < 1300


def test_mock_patterns_include_sibling_tests(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "src/a.test.ts": "jest.mock('./api');\njest.useFakeTimers();\n",
            "src/b.test.ts": "jest.mock('./api');\njest.spyOn(window, 'alert');\n",
            "src/c.spec.js": "global.fetch = jest.fn();\n",
            "src/helper.ts": "jest.mock('./not-a-test');\n",
            "src/d.test.ts": b"\x00binary",
            "src/nested/e.test.ts": "jest.mock('./deeper');\n",
        },
    )
    assert mock_patterns(root, "src/a.test.ts") == [
        "jest.mock('./api');",
        "jest.useFakeTimers();",
        "jest.spyOn(window, 'alert');",
        "global.fetch = jest.fn();",
    ]
    assert mock_patterns(root, "src/a.test.ts", limit=1) == ["jest.mock('./api');"]


# -- example tests, tests of dependencies, component under test -------------------------------


def test_find_example_tests_synthetic(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "tsconfig.json": json.dumps({"compilerOptions": {"paths": {"~/*": ["./src/*"]}}}),
            "src/test-utils.js": "export * from '@testing-library/react';\n",
            "src/helpers.js": "export const h = 1;\n",
            "src/a/__tests__/direct.js": "import { render } from '@testing-library/react';\n",
            "src/a/mixed.test.js": (
                "import { shallow } from 'enzyme';\n"
                "import { render } from '@testing-library/react/pure';\n"
            ),
            "src/b/util.spec.tsx": (
                "import { render } from '~/test-utils';\nimport { h } from '~/helpers';\n"
            ),
            "src/b/other.test.tsx": "import { render } from '../test-utils';\n",
            "src/b/enzyme.test.tsx": (
                "import { shallow } from 'enzyme';\nimport { h } from '~/helpers';\n"
            ),
            "src/b/tu.test.ts": "import x from './fake.test';\nimport y from './bin-helper';\n",
            "src/b/bin-helper.js": b"\x00binary",
            "src/b/fake.test.ts": "export * from 'enzyme';\n",
            "src/c/native.test.js": "import { render } from '@testing-library/react-native';\n",
            "src/c/huge.test.js": b"x" * (_walk.MAX_FILE_BYTES + 1),
            "node_modules/pkg/rtl.test.js": "import '@testing-library/react';\n",
        },
    )
    # other.test.tsx counts through the relative '../test-utils'; the Enzyme mix comes last.
    assert list(find_example_tests(root, limit=10)) == [
        "src/a/__tests__/direct.js",
        "src/b/other.test.tsx",
        "src/b/util.spec.tsx",
        "src/a/mixed.test.js",
    ]
    near = find_example_tests(root, near="src/b/enzyme.test.tsx", limit=10)
    assert list(near) == [
        "src/b/util.spec.tsx",  # same folder and the same '~/helpers' import
        "src/b/other.test.tsx",
        "src/a/__tests__/direct.js",
        "src/a/mixed.test.js",
    ]
    # A file that does not exist yet still ranks by folder.
    assert find_example_tests(root, near="src/b/new.test.tsx", limit=2) == [
        "src/b/other.test.tsx",
        "src/b/util.spec.tsx",
    ]
    empty = find_example_tests(tmp_path / "src" / "c")
    assert empty == [] and "no test in the project uses" in str(empty)


def test_is_test_file() -> None:
    assert is_test_file("src/a.test.tsx") and is_test_file("a.spec.mjs")
    assert is_test_file("src/__tests__/helper.ts")
    assert not is_test_file("src/__tests__/snap.snap") and not is_test_file("src/a.ts")


def test_tests_of_dependencies_synthetic(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "src/Button.tsx": "export const Button = 1;\n",
            "src/Button.test.tsx": "",
            "src/Button.spec.js": "",
            "src/__tests__/Button.tsx": "",
            "src/__tests__/Button.test.ts": "",
            "src/__tests__/Other.test.ts": "",
            "src/util.ts": "",
            "src/index.ts": "",
            "src/data.json": "{}",
            "top.ts": "",
            "top.test.ts": "",
            "src/Main.test.tsx": "",
        },
    )
    (root / "src" / "__tests__" / "Button.test.js").mkdir()
    tree = [
        DependencyNode(path="src/Main.test.tsx"),
        DependencyNode(path="src/Button.tsx"),
        DependencyNode(path="src/Button.tsx"),
        DependencyNode(path="src/util.ts"),
        DependencyNode(path="src/index.ts"),
        DependencyNode(path="src/data.json"),
        DependencyNode(path="src/Button.test.tsx"),
        DependencyNode(path="top.ts"),
        DependencyNode(path="src/Main.tsx"),
    ]
    assert tests_of_dependencies(root, tree) == [
        ("src/Button.spec.js", "src/Button.tsx"),
        ("src/Button.test.tsx", "src/Button.tsx"),
        ("src/__tests__/Button.test.ts", "src/Button.tsx"),
        ("src/__tests__/Button.tsx", "src/Button.tsx"),
        ("top.test.ts", "top.ts"),
    ]
    migrating = [DependencyNode(path="top.test.ts"), DependencyNode(path="top.ts")]
    assert tests_of_dependencies(root, migrating) == []
    assert tests_of_dependencies(root, []) == []


def test_component_under_test_synthetic(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "src/Card/Card.jsx": "export default function Card() {}\n",
            "src/Card/Card.test.jsx": "import Card from './Card';\n",
            "src/Card/__tests__/Card.js": "import Card from '../Card';\n",
            "src/widgets/behaviour.test.tsx": (
                "import { Panel } from './panel';\n"
                "import { Other, helper } from './other';\n"
                "import type { Props } from './types';\n"
                "import { util } from './util';\n"
                "import './styles.css';\n"
                "import React from 'react';\n"
                "Panel; Panel; Other; util; util; util; util;\n"
            ),
            "src/widgets/panel.tsx": "export function Panel() {}\n",
            "src/widgets/other.tsx": "export function Other() {}\nexport const helper = 1;\n",
            "src/widgets/types.ts": "export interface Props {}\n",
            "src/widgets/util.ts": "export const util = 1;\n",
            "src/widgets/styles.css": "",
            "src/far/Thing.tsx": "export const Thing = 1;\n",
            "src/tests/Thing.test.tsx": "import { Thing } from '../far/Thing';\n",
            "src/lonely.test.ts": "import x from 'pkg';\n",
        },
    )
    assert component_under_test(root, "src/Card/Card.test.jsx", []) == "src/Card/Card.jsx"
    assert component_under_test(root, "src/Card/__tests__/Card.js", []) == "src/Card/Card.jsx"
    behaviour = "src/widgets/behaviour.test.tsx"
    tree = dependency_tree(root, behaviour)
    assert component_under_test(root, behaviour, tree) == "src/widgets/panel.tsx"
    assert component_under_test(root, behaviour, []) == "src/widgets/panel.tsx"
    thing = "src/tests/Thing.test.tsx"
    assert component_under_test(root, thing, dependency_tree(root, thing)) == "src/far/Thing.tsx"
    assert component_under_test(root, "src/lonely.test.ts", []) is None


# -- small pieces -----------------------------------------------------------------------------


def test_jsonc_and_js_strings() -> None:
    assert parse_jsonc('{"a": "// not a comment", /* x */ "b": [1, 2,], // tail\n}') == {
        "a": "// not a comment",
        "b": [1, 2],
    }
    assert parse_jsonc('{"a": "quote \\" inside"} /* unterminated') == {"a": 'quote " inside'}
    assert unescape_js(r"\\.css$") == r"\.css$"
    assert (
        unescape_js(
            r"\x41\u0042\u{43}\n\q\
"
        )
        == "ABC\nq"
    )
    assert join_rel(("a",), "../../x") is None and join_rel((), "/abs") is None
    assert join_rel(("a", "b"), "../c/./d") == ("a", "c", "d")


def test_template_literals_and_odd_specifiers() -> None:
    source = (
        "import a from `./tmpl`;\n"
        "const b = require(`./${name}`);\n"
        "const c = require(dynamic);\n"
        "foo.require('./not-a-require');\n"
        "jest.requireActual('./actual');\n"
    )
    info = module_info(source, "x.js")
    assert [(i.specifier, i.how) for i in info.imports] == [("./actual", "mock")]


def test_ignored_dirs_are_documented_defaults() -> None:
    assert {
        "node_modules",
        ".git",
        ".testmend",
        "coverage",
        "build",
        "dist",
    } <= NEVER_WALKED
    assert issubclass(RefusedPathError, ProjectToolError)


def test_read_roots_open_the_linked_packages_and_nothing_else(tmp_path: Path) -> None:
    """A shadow workspace links the user's node_modules: the file tools may read through that
    link when given its target as a read root; other links out stay closed."""
    packages = write(
        tmp_path / "user" / "node_modules",
        {"lib/index.d.ts": "export declare function lib(): void;\n", "lib/package.json": "{}\n"},
    )
    secret = write(tmp_path / "elsewhere", {"key.ts": "export const key = 'x';\n"})
    root = write(tmp_path / "shadow", {"src/a.ts": "export const a = 1;\n"})
    (root / "node_modules").symlink_to(packages, target_is_directory=True)
    (packages / "escape").symlink_to(secret, target_is_directory=True)
    reads = [packages.resolve()]

    with pytest.raises(PathEscapeError):
        read_file(root, "node_modules/lib/index.d.ts")
    assert "export declare function lib" in read_file(
        root, "node_modules/lib/index.d.ts", read_roots=reads
    )
    assert glob_files(root, "node_modules/lib/*", read_roots=reads) == [
        "node_modules/lib/index.d.ts",
        "node_modules/lib/package.json",
    ]
    assert [m.path for m in grep(root, "declare", glob="node_modules/**", read_roots=reads)] == [
        "node_modules/lib/index.d.ts"
    ]
    # Recursive searches from the root still skip the packages.
    assert glob_files(root, "**/*.ts", read_roots=reads) == ["src/a.ts"]
    assert "link to the installed packages" in list_dir(root, ".", read_roots=reads)
    # A link inside the packages that leads elsewhere is not a way out.
    with pytest.raises(PathEscapeError):
        read_file(root, "node_modules/escape/key.ts", read_roots=reads)
    assert "leading outside the project" in list_dir(root, "node_modules", read_roots=reads)
    with pytest.raises(PathEscapeError):
        read_file(root, "node_modules/../../elsewhere/key.ts", read_roots=reads)

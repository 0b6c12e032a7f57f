"""Project inspection for agents: file tools and dependency trees, on real files only.

The example app (``examples/react-app``) is read, never written; edge cases use small projects
built in ``tmp_path``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from testmend.js_syntax import unescape_js
from testmend.project import (
    DEFAULT_IGNORED_DIRS,
    TOOL_ERRORS,
    BinaryFileError,
    DependencyNode,
    DependencyTree,
    FileMissingError,
    FileTooLargeError,
    GrepMatch,
    ImportInfo,
    InvalidPatternError,
    ModuleResolver,
    NotAFileError,
    PathList,
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
    read_files,
    render_dependency_tree,
    tests_of_dependencies,
)
from testmend.project._config import join_rel, parse_jsonc
from testmend.project._syntax import module_info
from testmend.project.children import children_of_the_tested_component, component_children
from testmend.workspace.paths import PathEscapeError

from .conftest import EXAMPLE_APP

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
    assert children_of_the_tested_component(tmp_path, test) == expected
    assert component_children(tmp_path, test, None) == {}
    assert component_children(tmp_path, test, "src/chart/Missing.tsx") == {}


def test_file_tools_on_the_example_app() -> None:
    tests = glob_files(EXAMPLE_APP, "src/**/*.test.tsx")
    assert USER_LIST_TEST in tests and len(tests) == 13 and tests == sorted(tests)
    everything = glob_files(EXAMPLE_APP, "**/*.js", limit=1000)
    assert everything and not any(p.startswith("node_modules/") for p in everything)
    explicit = glob_files(EXAMPLE_APP, "node_modules/react/*.js")
    assert "node_modules/react/index.js" in explicit

    hits = grep(EXAMPLE_APP, r"jest\.mock\(", glob="*.test.tsx")
    assert GrepMatch(path=USER_LIST_TEST, line=8, text="jest.mock('@/api/users');") in hits
    assert all(h.path.startswith("src/") for h in hits)

    text = read_file(EXAMPLE_APP, USER_LIST_TEST, offset=8, limit=3)
    assert text.splitlines()[:2] == [
        f"{USER_LIST_TEST} (lines 8-10 of 98)",
        "   8| jest.mock('@/api/users');",
    ]
    listing = list_dir(EXAMPLE_APP)
    assert "node_modules/  (ignored: not searched)" in listing
    assert "src/" in listing.splitlines()
    assert any(line.startswith("package.json  1.5 KB") for line in listing.splitlines())


# -- file tools -------------------------------------------------------------------------------


def test_glob_patterns(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "a.ts": "",
            "src/b.tsx": "",
            "src/deep/c.test.ts": "",
            "src/deep/d.spec.js": "",
            "src/x1.ts": "",
            "src/x2.ts": "",
            "coverage/lcov.js": "",
            "build/out.js": "",
            ".git/config": "",
            ".testmend/run.json": "",
            ".env": "SECRET=1",
        },
    )
    assert glob_files(root, "**/*.ts") == ["a.ts", "src/deep/c.test.ts", "src/x1.ts", "src/x2.ts"]
    assert glob_files(root, "src/**") == [
        "src/b.tsx",
        "src/deep/c.test.ts",
        "src/deep/d.spec.js",
        "src/x1.ts",
        "src/x2.ts",
    ]
    assert glob_files(root, "src/**/*.{test,spec}.*") == [
        "src/deep/c.test.ts",
        "src/deep/d.spec.js",
    ]
    assert glob_files(root, "src/x[12].ts") == ["src/x1.ts", "src/x2.ts"]
    assert glob_files(root, "src/x[!1].ts") == ["src/x2.ts"]
    assert glob_files(root, "src/x?.ts") == ["src/x1.ts", "src/x2.ts"]
    assert glob_files(root, "src/[.ts") == []
    assert glob_files(root, "src/deep**.ts") == []
    assert glob_files(root, "./src\\b.tsx") == ["src/b.tsx"]
    assert glob_files(root, "**/*.js") == ["src/deep/d.spec.js"]  # build output skipped
    assert glob_files(root, "coverage/*.js") == ["coverage/lcov.js"]  # named explicitly
    assert glob_files(root, "**/*.js", ignored_dirs=()) == [
        "build/out.js",
        "coverage/lcov.js",
        "src/deep/d.spec.js",
    ]
    assert ".env" not in glob_files(root, "*", ignored_dirs=())
    assert glob_files(root, "missing/**/*.ts") == []

    cut = glob_files(root, "**/*", limit=2)
    assert cut == ["a.ts", "src/b.tsx"] and cut.truncated and cut.total == 6
    assert str(cut).endswith("[showing 2 of 6 files; narrow the pattern to see the rest]")

    top = glob_files(root, "*.tsx")
    assert top == [] and "use '**/*.tsx'" in str(top)
    assert str(PathList()) == "(no files)"

    with pytest.raises(RefusedPathError, match=r"'\.git'"):
        glob_files(root, ".git/*")
    with pytest.raises(InvalidPatternError, match="unclosed"):
        glob_files(root, "src/*.{ts,tsx")
    with pytest.raises(InvalidPatternError, match="empty"):
        glob_files(root, "  ")
    with pytest.raises(InvalidPatternError, match="only the root"):
        glob_files(root, ".")


def test_walk_stops_at_the_file_cap(tmp_path: Path) -> None:
    root = write(tmp_path, {f"f{i}.ts": "x = 1\n" for i in range(5)})
    capped = glob_files(root, "*.ts", max_files=3)
    assert capped.truncated and capped == ["f0.ts", "f1.ts", "f2.ts"]
    assert "the search stopped after 3 files; use a narrower folder" in str(capped)
    hits = grep(root, "x", max_files=3)
    assert hits.truncated and len(hits) == 3
    assert "the search stopped after 3 files; pass a narrower glob" in str(hits)


def test_grep(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "src/a.ts": "one\nTwo\nthree\nfour\n",
            "src/b.tsx": "two two\n" + "x" * 600 + "two\n",
            "src/img.png": b"\x89PNG\x00two",
            "node_modules/pkg/index.js": "two\n",
            ".env.local": "two=1\n",
            ".env.example": "two=\n",
            "big.ts": "two\n" + "y" * _walk.MAX_FILE_BYTES,
        },
    )
    hits = grep(root, "two")
    assert [(h.path, h.line) for h in hits] == [
        (".env.example", 1),
        ("src/b.tsx", 1),
        ("src/b.tsx", 2),
    ]
    assert hits[2].text.endswith("… [line cut: 603 characters]")
    assert "not searched" in str(hits)

    ci = grep(root, "two", ignore_case=True, glob="src/**/*.ts", context=1)
    assert ci == [GrepMatch(path="src/a.ts", line=2, text="Two", before=["one"], after=["three"])]
    assert str(ci) == "src/a.ts-1- one\nsrc/a.ts:2: Two\nsrc/a.ts-3- three"

    both = grep(root, "o", glob="a.ts", context=1)
    assert "\n--\n" in str(both)

    cut = grep(root, "o", glob="*.ts", limit=2)
    assert len(cut) == 2 and cut.truncated and "stopped at 2 matches" in str(cut)
    assert str(grep(root, "nothing-like-this", glob="src/**")) == "(no matches)"
    assert (
        str(grep(root, "nothing-like-this")) == "(no matches)\n[1 file(s) over 1.0 MB not searched]"
    )
    assert grep(root, "two", glob="node_modules/**") == [
        GrepMatch(path="node_modules/pkg/index.js", line=1, text="two")
    ]

    with pytest.raises(InvalidPatternError, match="invalid regular expression") as info:
        grep(root, "render(")
    assert isinstance(info.value, ValueError)
    with pytest.raises(InvalidPatternError, match="empty"):
        grep(root, "")
    with pytest.raises(RefusedPathError):
        grep(root, "x", glob=".git/**")


def test_read_file(tmp_path: Path) -> None:
    lines = [f"line {i}" for i in range(1, 13)]
    root = write(
        tmp_path,
        {
            "src/a.ts": "\n".join(lines) + "\n",
            "src/empty.ts": "",
            "src/long.ts": "z" * 700 + "\n",
            "img.png": b"\x89PNG\x00\x00",
            "huge.txt": "a" * (_walk.MAX_FILE_BYTES + 1),
            ".env": "KEY=1\n",
            ".git/config": "[core]\n",
        },
    )
    full = read_file(root, "src/a.ts")
    assert full.splitlines()[0] == "src/a.ts (12 lines)"
    assert full.splitlines()[1] == "   1| line 1"
    assert full.splitlines()[-1] == "  12| line 12"

    part = read_file(root, "./src/a.ts", offset=3, limit=4)
    assert part.splitlines() == [
        "src/a.ts (lines 3-6 of 12)",
        "  3| line 3",
        "  4| line 4",
        "  5| line 5",
        "  6| line 6",
        "[truncated: 6 more lines; read on with offset=7]",
    ]
    assert read_file(root, "src/a.ts", offset=0, limit=0).splitlines()[1] == "  1| line 1"
    assert "past the end" in read_file(root, "src/a.ts", offset=50)
    assert read_file(root, "src/empty.ts") == "src/empty.ts (empty file)"
    assert "[line cut: 700 characters]" in read_file(root, "src/long.ts")

    with pytest.raises(FileMissingError, match=r"'src/nope\.ts' does not exist"):
        read_file(root, "src/nope.ts")
    with pytest.raises(NotAFileError, match="is a directory"):
        read_file(root, "src")
    with pytest.raises(BinaryFileError, match="binary"):
        read_file(root, "img.png")
    with pytest.raises(FileTooLargeError, match="too large"):
        read_file(root, "huge.txt")
    with pytest.raises(RefusedPathError, match="secrets"):
        read_file(root, ".env")
    with pytest.raises(RefusedPathError, match=r"'\.git'"):
        read_file(root, ".git/config")
    assert all(issubclass(e, ValueError) for e in TOOL_ERRORS)


def test_read_file_refuses_special_files(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(NotAFileError, match="not a regular file"):
        read_file(tmp_path, "pipe")
    assert glob_files(tmp_path, "*") == []
    (tmp_path / "loop").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop")
    with pytest.raises((FileMissingError, PathEscapeError)):
        read_file(tmp_path, "loop")


def test_read_files(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            f"src/f{i}.ts": "\n".join(f"const v{j} = {j};" for j in range(30)) + "\n"
            for i in range(4)
        },
    )
    text = read_files(root, ["src/f0.ts", "src/f1.ts", "src/f0.ts", "src/missing.ts", "../x"])
    assert text.count("src/f0.ts (lines 1-30 of 30)") == 0
    assert text.count("src/f0.ts (30 lines)") == 1
    assert "src/missing.ts: error: 'src/missing.ts' does not exist" in text
    assert "../x: error: refusing path '../x'" in text

    short = read_files(root, ["src/f0.ts"], limit_per_file=5)
    assert "[truncated: 25 more lines; read on with offset=6]" in short

    budget = read_files(
        root, ["src/f0.ts", "src/f1.ts", "src/f2.ts", "src/f3.ts"], total_char_budget=1200
    )
    assert "src/f0.ts (30 lines)" in budget
    assert "[cut: the total budget of 1200 characters is used up]" in budget
    assert "[not read (character budget used up): src/f2.ts, src/f3.ts]" in budget

    almost = read_files(root, ["src/f0.ts", "src/f1.ts"], total_char_budget=len(short) + 500)
    assert "src/f0.ts (30 lines)" in almost and "used up): src/f1.ts]" in almost
    tiny = read_files(root, ["src/f0.ts", "src/f1.ts"], total_char_budget=600)
    assert "not read (character budget used up): src/f1.ts" in tiny

    many = read_files(root, [f"src/none{i}.ts" for i in range(35)])
    assert "at most 30 files per call): src/none30.ts" in many
    assert read_files(root, "src/f3.ts").startswith("src/f3.ts (30 lines)")
    assert read_files(root, []) == "(no files requested)"


def test_list_dir(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside", {"x.txt": "x"})
    root = write(
        tmp_path / "project",
        {
            "src/a.ts": "a" * 2048,
            "node_modules/pkg/index.js": "",
            ".git/HEAD": "",
            ".npmrc": "//registry:_authToken=x",
            "README.md": "hi",
        },
    )
    (root / "out").symlink_to(outside, target_is_directory=True)
    (root / "inside").symlink_to(root / "src", target_is_directory=True)
    (root / "alias.ts").symlink_to(root / "src" / "a.ts")
    (root / "empty").mkdir()
    listing = list_dir(root)
    assert listing.splitlines() == [
        ". (project root): 9 entries",
        ".git/  (internal: not readable)",
        "empty/",
        "node_modules/  (ignored: not searched)",
        "src/",
        ".npmrc  23 B  (may hold secrets: not readable)",
        "README.md  2 B",
        "alias.ts  (symlink to a file in the project)",
        "inside/  (symlink to a folder in the project)",
        "out@  (symlink leading outside the project: not followed)",
    ]
    assert list_dir(root, "src") == "src: 1 entries\na.ts  2.0 KB"
    # Symlinked files inside the root are found; symlinked folders are not walked into.
    assert glob_files(root, "**/*.ts") == ["alias.ts", "src/a.ts"]
    assert list_dir(root, "empty") == "empty: 0 entries\n(empty folder)"
    with pytest.raises(NotAFileError, match="is a file"):
        list_dir(root, "README.md")
    with pytest.raises(FileMissingError):
        list_dir(root, "nope")
    with pytest.raises(RefusedPathError):
        list_dir(root, ".git")
    with pytest.raises(PathEscapeError):
        list_dir(root, "out")


def test_list_dir_caps_entries_and_sizes(tmp_path: Path) -> None:
    write(tmp_path, {f"many/f{i:03}.ts": "" for i in range(505)})
    write(tmp_path, {"big.bin": b"\x00" * (3 * 1024 * 1024)})
    listing = list_dir(tmp_path, "many")
    assert listing.endswith("[truncated: showing 500 of 505 entries; use glob_files]")
    assert "big.bin  3.0 MB" in list_dir(tmp_path)
    assert _walk.format_size(5 * 1024**4) == "5120.0 GB"


def test_unreadable_folders_are_reported(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root can read any folder")
    locked = write(tmp_path, {"locked/a.ts": "x"}) / "locked"
    locked.chmod(0)
    try:
        with pytest.raises(FileMissingError, match="cannot be listed"):
            list_dir(tmp_path, "locked")
        assert glob_files(tmp_path, "**/*.ts") == []
    finally:
        locked.chmod(0o755)


# -- path escapes, in every function ----------------------------------------------------------


BAD_PATHS = ["../x", "/etc/passwd", "src/../../x", "~/x", "src/link.ts"]


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_every_function_refuses_paths_outside_the_root(escape_layout: Path, bad: str) -> None:
    root = escape_layout
    calls: list[Callable[[], object]] = [
        lambda: read_file(root, bad),
        lambda: dependency_tree(root, bad),
        lambda: mock_patterns(root, bad),
        lambda: find_example_tests(root, near=bad),
        lambda: component_under_test(root, bad, []),
        lambda: tests_of_dependencies(
            root, [DependencyNode(path="src/a.test.ts"), DependencyNode(path=bad)]
        ),
        lambda: component_under_test(root, "src/a.test.ts", [DependencyNode(path=bad)]),
    ]
    if bad != "src/link.ts":  # patterns and folders: lexical escapes
        calls += [
            lambda: glob_files(root, f"{bad}/*.ts"),
            lambda: grep(root, "x", glob=f"{bad}/*.ts"),
            lambda: list_dir(root, bad),
        ]
    for call in calls:
        with pytest.raises(PathEscapeError):
            call()
    assert "error: refusing path" in read_files(root, [bad])


def test_symlinks_out_of_the_root_are_never_followed(escape_layout: Path) -> None:
    root = escape_layout
    assert glob_files(root, "**/*") == ["src/a.test.ts", "src/a.ts"]
    assert grep(root, "secret|leak") == []
    assert find_example_tests(root) == []
    with pytest.raises(PathEscapeError):
        list_dir(root, "src/linkdir")
    with pytest.raises(PathEscapeError):
        glob_files(root, "src/linkdir/*")
    write(
        root,
        {"src/uses.ts": "import { secret } from './link';\nimport x from './linkdir/leak.test';\n"},
    )
    node = dependency_tree(root, "src/uses.ts")[0]
    assert [(i.specifier, i.kind, i.resolved) for i in node.imports] == [
        ("./link", "unresolved", None),
        ("./linkdir/leak.test", "unresolved", None),
    ]


def test_imports_that_leave_the_root_are_unresolved(tmp_path: Path) -> None:
    write(tmp_path, {"shared/util.ts": "export const u = 1;\n"})
    root = write(
        tmp_path / "app",
        {
            "tsconfig.json": json.dumps(
                {"compilerOptions": {"baseUrl": ".", "paths": {"@shared/*": ["../shared/*"]}}}
            ),
            "jest.config.js": (
                "module.exports = { moduleNameMapper: { '^~/(.*)$': '<rootDir>/../shared/$1' } };"
            ),
            "src/a.ts": (
                "import { u } from '../../shared/util';\n"
                "import { v } from '@shared/util';\n"
                "import { w } from '~/util';\n"
                "import abs from '/etc/passwd';\n"
                "import empty from '';\n"
            ),
        },
    )
    node = dependency_tree(root, "src/a.ts")[0]
    assert {i.specifier: (i.kind, i.resolved) for i in node.imports} == {
        "../../shared/util": ("unresolved", None),
        "@shared/util": ("unresolved", None),
        "~/util": ("unresolved", None),
        "/etc/passwd": ("unresolved", None),
        "": ("unresolved", None),
    }


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
    } <= DEFAULT_IGNORED_DIRS
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

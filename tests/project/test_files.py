"""The file tools (list, glob, grep, read) and their refusal of every path that leaves the
project."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from testmend.project import (
    TOOL_ERRORS,
    BinaryFileError,
    DependencyNode,
    FileMissingError,
    FileTooLargeError,
    GrepMatch,
    ImportInfo,
    InvalidPatternError,
    NotAFileError,
    PathList,
    RefusedPathError,
    _walk,
    component_under_test,
    dependency_tree,
    find_example_tests,
    glob_files,
    grep,
    list_dir,
    mock_patterns,
    read_file,
    read_files,
    tests_of_dependencies,
)
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

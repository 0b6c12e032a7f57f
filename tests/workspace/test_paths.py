"""The one path-resolution function: relative to the root, nothing outside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from testmend.workspace import (
    PathEscapeError,
    is_within,
    resolve_in_root,
    split_relative,
    to_relative,
)


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A project root and a directory next to it (outside the root)."""
    root = tmp_path / "project"
    outside = tmp_path / "outside"
    (root / "src" / "components").mkdir(parents=True)
    (root / "src" / "components" / "Button.tsx").write_text("export {}\n")
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    return root, outside


# -- accepted ---------------------------------------------------------------------------------


def test_resolves_relative_paths_inside_the_root(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    expected = root / "src" / "components" / "Button.tsx"
    assert resolve_in_root(root, "src/components/Button.tsx") == expected
    assert resolve_in_root(root, Path("src/components/Button.tsx")) == expected
    assert resolve_in_root(root, "src\\components\\Button.tsx") == expected
    assert resolve_in_root(root, "./src//components/./Button.tsx") == expected


def test_dot_means_the_root_itself(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    assert resolve_in_root(root, ".") == root
    assert resolve_in_root(root, "./") == root


def test_files_that_do_not_exist_yet_are_allowed(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    assert resolve_in_root(root, "src/new/dir/file.ts") == root / "src/new/dir/file.ts"


def test_relative_root_is_made_absolute(
    layout: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = layout
    monkeypatch.chdir(root.parent)
    assert resolve_in_root(Path("project"), "src") == root / "src"


def test_symlink_that_stays_inside_is_allowed(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    (root / "alias").symlink_to("src/components", target_is_directory=True)
    (root / "link.tsx").symlink_to(root / "src/components/Button.tsx")
    assert resolve_in_root(root, "alias/Button.tsx") == root / "alias/Button.tsx"
    assert resolve_in_root(root, "link.tsx") == root / "link.tsx"
    assert resolve_in_root(root, "alias/not-yet.tsx") == root / "alias/not-yet.tsx"


def test_root_given_through_a_symlink(layout: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = layout
    via = tmp_path / "via"
    via.symlink_to(root, target_is_directory=True)
    assert resolve_in_root(via, "src/components/Button.tsx") == via / "src/components/Button.tsx"
    assert to_relative(via, root / "src" / "components") == "src/components"


def test_symlink_loop_inside_is_not_an_escape(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    (root / "loop").symlink_to("loop")
    assert resolve_in_root(root, "loop") == root / "loop"


def test_extra_read_roots_allow_links_to_them(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "node_modules").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathEscapeError):
        resolve_in_root(root, "node_modules/secret.txt")
    got = resolve_in_root(root, "node_modules/secret.txt", extra_read_roots=[outside])
    assert got == root / "node_modules" / "secret.txt"


# -- refused ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("", "empty"),
        ("..", "'..'"),
        ("../outside/secret.txt", "'..'"),
        ("src/../../outside", "'..'"),
        ("src/..", "'..'"),
        ("src\\..\\..\\x", "'..'"),
        ("/etc/passwd", "absolute"),
        ("//server/share/x", "absolute"),
        ("\\\\server\\share\\x", "absolute"),
        ("\\Windows\\x", "absolute"),
        ("C:\\Windows\\x", "drive"),
        ("c:/x", "drive"),
        ("C:x", "drive"),
        ("~", "'~'"),
        ("~/x", "'~'"),
        ("~root/.ssh/id_rsa", "'~'"),
        ("src/a\x00b", "NUL"),
    ],
)
def test_lexical_escapes_are_refused(layout: tuple[Path, Path], path: str, reason: str) -> None:
    root, _ = layout
    with pytest.raises(PathEscapeError) as info:
        resolve_in_root(root, path)
    assert reason in str(info.value)
    assert repr(path) in str(info.value)
    assert info.value.path == path
    assert isinstance(info.value, ValueError)


def test_absolute_path_inside_the_root_is_still_refused(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    with pytest.raises(PathEscapeError, match="absolute"):
        resolve_in_root(root, str(root / "src"))


def test_non_text_paths_are_refused(layout: tuple[Path, Path]) -> None:
    root, _ = layout

    class BytesPath:
        def __fspath__(self) -> bytes:
            return b"src"

    with pytest.raises(PathEscapeError, match="not bytes"):
        resolve_in_root(root, BytesPath())  # type: ignore[arg-type]
    with pytest.raises(PathEscapeError, match="expected a path string"):
        resolve_in_root(root, 42)  # type: ignore[arg-type]


def test_symlinked_file_leading_outside_is_refused(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "src" / "leak.txt").symlink_to(outside / "secret.txt")
    with pytest.raises(PathEscapeError, match="symlink leads outside"):
        resolve_in_root(root, "src/leak.txt")


def test_symlinked_dir_leading_outside_is_refused(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "src" / "out").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathEscapeError, match="symlink leads outside"):
        resolve_in_root(root, "src/out")
    with pytest.raises(PathEscapeError, match="symlink leads outside"):
        resolve_in_root(root, "src/out/secret.txt")


def test_new_file_below_a_symlinked_dir_leading_outside_is_refused(
    layout: tuple[Path, Path],
) -> None:
    root, outside = layout
    (root / "out").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathEscapeError, match="symlink leads outside"):
        resolve_in_root(root, "out/new/dir/file.ts")
    assert not (outside / "new").exists()


def test_dangling_symlink_pointing_outside_is_refused(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "dangling").symlink_to(outside / "does-not-exist-yet.txt")
    with pytest.raises(PathEscapeError, match="symlink leads outside"):
        resolve_in_root(root, "dangling")


def test_chain_of_symlinks_leading_outside_is_refused(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "hop2").symlink_to(outside, target_is_directory=True)
    (root / "hop1").symlink_to("hop2", target_is_directory=True)
    with pytest.raises(PathEscapeError):
        resolve_in_root(root, "hop1/secret.txt")


def test_symlink_to_a_sibling_with_a_common_prefix_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "app"
    sibling = tmp_path / "app-private"
    root.mkdir()
    sibling.mkdir()
    (root / "x").symlink_to(sibling, target_is_directory=True)
    with pytest.raises(PathEscapeError):
        resolve_in_root(root, "x")


# -- helpers ----------------------------------------------------------------------------------


def test_split_relative() -> None:
    assert split_relative("a/b\\c/./d") == ("a", "b", "c", "d")
    assert split_relative(".") == ()
    with pytest.raises(PathEscapeError):
        split_relative("a/../b")


def test_is_within() -> None:
    assert is_within("/a/b", "/a")
    assert is_within("/a", "/a")
    assert is_within("/a", "/")
    assert not is_within("/ab", "/a")
    assert not is_within("/", "/a")


def test_to_relative(layout: tuple[Path, Path]) -> None:
    root, outside = layout
    assert to_relative(root, root / "src" / "components" / "Button.tsx") == (
        "src/components/Button.tsx"
    )
    assert to_relative(root, str(root)) == "."
    assert to_relative(root, "src\\components") == "src/components"
    assert to_relative(root, ".") == "."
    with pytest.raises(PathEscapeError, match="outside the project root"):
        to_relative(root, outside / "secret.txt")
    with pytest.raises(PathEscapeError, match="outside the project root"):
        to_relative(root, root.parent / "project-other")
    with pytest.raises(PathEscapeError, match=r"'\.\.'"):
        to_relative(root, "../x")
    with pytest.raises(PathEscapeError, match="NUL"):
        to_relative(root, str(root / "a\x00"))


def test_to_relative_through_real_paths(layout: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = layout
    via = tmp_path / "via"
    via.symlink_to(root, target_is_directory=True)
    # the root spelled through a symlink, the path spelled by its real location
    assert to_relative(via, root / "src") == "src"
    assert to_relative(root, via / "src") == "src"


def test_round_trip(layout: tuple[Path, Path]) -> None:
    root, _ = layout
    for rel in ["src", "src/components/Button.tsx", "a/b/c.ts"]:
        assert to_relative(root, resolve_in_root(root, rel)) == rel
    assert os.path.isabs(resolve_in_root(root, "src"))

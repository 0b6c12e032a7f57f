"""The shadow workspace, against real git and real directories (no mocks)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from testmend.workspace import (
    WORKSPACES_DIR_ENV,
    PathEscapeError,
    ShadowWorkspace,
    ShadowWorkspaceError,
    collect_stale_workspaces,
    create_shadow_workspace,
    default_workspaces_dir,
)
from testmend.workspace import owner as workspace_owner
from tests.support.git import git
from tests.support.workspace import git_state, make_repo, snapshot, worktrees, write


def assert_gone(ws: ShadowWorkspace, repo: Path | None = None) -> None:
    assert ws.removed
    assert not ws.container.exists()
    if repo is not None:
        assert worktrees(repo) == [str(repo.resolve())]
        assert not (repo / ".git" / "worktrees").exists()


APP_FILES = {
    "package.json": '{"name": "app"}\n',
    "src/App.tsx": "export const App = () => null;\n",
    "src/App.test.tsx": "it('renders', () => {});\n",
    "src/modified.ts": "export const v = 1;\n",
    "src/staged_then_modified.ts": "export const s = 1;\n",
    "src/deleted.ts": "gone\n",
    "src/staged_deleted.ts": "gone too\n",
    "src/old_name.ts": "export const renamed = true;\n",
    "scripts/build.sh": "#!/bin/sh\necho build\n",
    "crlf.txt": "line1\r\nline2\r\n",
    ".gitignore": "node_modules/\n*.log\nignored_dir/\n*.css\nbuild/\n.env\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path / "app", APP_FILES)
    os.chmod(path / "scripts/build.sh", 0o755)
    git(path, "add", "scripts/build.sh")
    git(path, "commit", "-q", "-m", "executable")
    return path


def dirty(repo: Path, outside: Path) -> None:
    """Uncommitted, staged, deleted, renamed, untracked and ignored changes."""
    write(repo, {"src/modified.ts": "export const v = 2; // uncommitted\n"})
    write(repo, {"src/staged_then_modified.ts": "export const s = 2;\n"})
    git(repo, "add", "src/staged_then_modified.ts")
    write(repo, {"src/staged_then_modified.ts": "export const s = 3; // on disk\n"})
    write(repo, {"src/staged_new.ts": "export const n = 1;\n"})
    git(repo, "add", "src/staged_new.ts")
    (repo / "src/deleted.ts").unlink()
    git(repo, "rm", "-q", "src/staged_deleted.ts")
    git(repo, "mv", "src/old_name.ts", "src/new_name.ts")
    write(
        repo,
        {
            "src/untracked.ts": "export const u = 1;\n",
            "src/deep/er/untracked.ts": "deep\n",
            "debug.log": "ignored\n",
            "ignored_dir/x.ts": "ignored\n",
            "src/App.css": "generated from App.scss\n",
            "build/bundle.js": "a build's output\n",
            ".env": "API_KEY=secret\n",
            ".testmend/state.db": "testmend's own state\n",
        },
    )
    write(repo, {"scripts/run.sh": "#!/bin/sh\necho run\n"})
    os.chmod(repo / "scripts/run.sh", 0o755)
    (repo / "src/link_inside.ts").symlink_to("App.tsx")
    (repo / "src/link_abs_inside.ts").symlink_to(repo / "src" / "App.tsx")
    (repo / "src/link_outside.ts").symlink_to(outside / "secret.txt")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    path = tmp_path / "outside"
    path.mkdir()
    (path / "secret.txt").write_text("secret\n")
    return path


# -- git worktree kind ------------------------------------------------------------------------


def test_worktree_reflects_committed_uncommitted_untracked_and_unsaved(
    repo: Path, outside: Path, base: Path
) -> None:
    dirty(repo, outside)
    before, git_before = snapshot(repo), git_state(repo)
    overlays = {
        "src/App.tsx": "export const App = () => 'unsaved';\n",
        "src/Unsaved.test.tsx": "it('is new and unsaved', () => {});\n",
    }
    with create_shadow_workspace(repo, overlays=overlays, base_dir=base) as ws:
        assert ws.kind == "git-worktree"
        assert ws.project_root == repo.resolve()
        assert ws.repo_root == repo.resolve()
        assert ws.root == ws.tree
        assert ws.container.parent == base.resolve()
        assert not ws.root.is_relative_to(repo)
        assert worktrees(repo) == [str(repo.resolve()), str(ws.root)]
        root = ws.root
        # committed
        assert ws.read_text("src/App.test.tsx") == APP_FILES["src/App.test.tsx"]
        assert ws.read_text("package.json") == APP_FILES["package.json"]
        # uncommitted; staged and then modified again (the working tree wins)
        assert ws.read_text("src/modified.ts") == "export const v = 2; // uncommitted\n"
        assert ws.read_text("src/staged_then_modified.ts") == "export const s = 3; // on disk\n"
        # staged new, untracked (also in new directories)
        assert ws.read_text("src/staged_new.ts") == "export const n = 1;\n"
        assert ws.read_text("src/untracked.ts") == "export const u = 1;\n"
        assert ws.read_text("src/deep/er/untracked.ts") == "deep\n"
        # deleted (staged or not), renamed
        assert not (root / "src/deleted.ts").exists()
        assert not (root / "src/staged_deleted.ts").exists()
        assert not (root / "src/old_name.ts").exists()
        assert ws.read_text("src/new_name.ts") == "export const renamed = true;\n"
        # ignored files are not copied, but for what a build step made that a test may import
        # (styles, modules, data; never in a build folder, never a secret); nor testmend's state
        assert not (root / "debug.log").exists()
        assert ws.read_text("ignored_dir/x.ts") == "ignored\n"
        assert ws.read_text("src/App.css") == "generated from App.scss\n"
        assert not (root / "build").exists()
        assert not (root / ".env").exists()
        assert not (root / ".testmend").exists()
        # file modes, exact bytes
        assert os.stat(root / "scripts/build.sh").st_mode & 0o111
        assert os.stat(root / "scripts/run.sh").st_mode & 0o111
        assert not os.stat(root / "src/untracked.ts").st_mode & 0o111
        assert (root / "crlf.txt").read_bytes() == b"line1\r\nline2\r\n"
        assert ws.read_text("crlf.txt") == "line1\r\nline2\r\n"
        # symlinks: kept when they stay inside (absolute ones made relative), else skipped
        assert os.readlink(root / "src/link_inside.ts") == "App.tsx"
        assert os.readlink(root / "src/link_abs_inside.ts") == "App.tsx"
        assert not os.path.lexists(root / "src/link_outside.ts")
        # unsaved overlays
        assert ws.read_text("src/App.tsx") == "export const App = () => 'unsaved';\n"
        assert ws.read_text("src/Unsaved.test.tsx") == "it('is new and unsaved', () => {});\n"
        # writes in the shadow stay in the shadow
        ws.write_text("src/App.test.tsx", "it('migrated', () => {});\n")
        ws.write_text("src/brand/new/File.test.tsx", "new\n")
        assert ws.read_text("src/brand/new/File.test.tsx") == "new\n"
        assert snapshot(repo) == before
    assert_gone(ws, repo)
    assert snapshot(repo) == before
    assert git_state(repo) == git_before


def test_shadow_git_status_shows_only_the_users_changes(repo: Path, base: Path) -> None:
    write(repo, {"src/modified.ts": "changed\n"})
    with create_shadow_workspace(repo, base_dir=base) as ws:
        status = git(ws.root, "status", "--porcelain")
        assert status.splitlines() == [" M src/modified.ts"]


def test_clean_repo_is_a_plain_checkout(repo: Path, base: Path) -> None:
    before = snapshot(repo)
    with create_shadow_workspace(repo, base_dir=base, run_id="clean-1") as ws:
        assert ws.run_id == "clean-1"
        assert ws.container.name == "run-clean-1"
        assert git(ws.root, "status", "--porcelain") == ""
        assert git(ws.root, "rev-parse", "HEAD") == git(repo, "rev-parse", "HEAD")
        owner = json.loads((ws.container / "owner.json").read_text())
        assert owner["pid"] == os.getpid()
        assert owner["kind"] == "git-worktree"
        assert owner["project_root"] == str(repo.resolve())
        assert owner["repo_toplevel"] == str(repo.resolve())
    assert_gone(ws, repo)
    assert snapshot(repo) == before


def test_type_changes_are_mirrored_without_following_shadow_symlinks(
    tmp_path: Path, base: Path
) -> None:
    repo = make_repo(tmp_path / "app", {"a.ts": "a\n", "real/x.ts": "x\n"})
    (repo / "lib").symlink_to("real", target_is_directory=True)
    (repo / "file_to_link").symlink_to("a.ts")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "links")
    # the user replaced the symlinked dir with a real one, and a symlink with a file
    (repo / "lib").unlink()
    write(repo, {"lib/y.ts": "y\n", "file_to_link": "now a file\n"})
    (repo / "file_to_link").unlink()
    write(repo, {"file_to_link": "now a file\n"})
    before = snapshot(repo)
    with create_shadow_workspace(repo, base_dir=base) as ws:
        assert not (ws.root / "lib").is_symlink()
        assert ws.read_text("lib/y.ts") == "y\n"
        assert not (ws.root / "real" / "y.ts").exists()
        assert not (ws.root / "file_to_link").is_symlink()
        assert ws.read_text("file_to_link") == "now a file\n"
    assert snapshot(repo) == before


def test_subdirectory_project_gets_a_sparse_checkout(tmp_path: Path, base: Path) -> None:
    mono = make_repo(
        tmp_path / "mono",
        {
            "package.json": '{"workspaces": ["packages/*"]}\n',
            "tsconfig.base.json": "{}\n",
            "docs/guide.md": "docs\n",
            "packages/other/index.ts": "other\n",
            "packages/app/package.json": '{"name": "app"}\n',
            "packages/app/src/App.tsx": "app\n",
            "packages/app/src/[id]/page.tsx": "dynamic route\n",
            ".gitignore": "node_modules/\n",
        },
    )
    write(
        mono,
        {
            "packages/app/src/App.tsx": "app, modified\n",
            "packages/app/src/untracked.ts": "untracked\n",
            "packages/other/untracked.ts": "not part of the project\n",
            "docs/guide.md": "changed outside the project\n",
            "node_modules/hoisted/index.js": "hoisted\n",
            "packages/node_modules/mid/index.js": "mid\n",
        },
    )
    config_before = (mono / ".git" / "config").read_bytes()
    project = mono / "packages" / "app"
    before = snapshot(mono)
    with pytest.raises(ShadowWorkspaceError, match="inside the project's git work tree"):
        create_shadow_workspace(project, base_dir=mono / "shadows")
    with create_shadow_workspace(project, base_dir=base) as ws:
        tree = ws.tree
        assert tree is not None
        assert ws.kind == "git-worktree"
        assert ws.root == tree / "packages" / "app"
        assert ws.repo_root == mono.resolve()
        # the project is checked out, the rest of the monorepo is not (files at the levels
        # above are, as in cone mode)
        assert ws.read_text("package.json") == '{"name": "app"}\n'
        assert ws.read_text("src/[id]/page.tsx") == "dynamic route\n"
        assert (tree / "package.json").exists()
        assert (tree / "tsconfig.base.json").exists()
        assert not (tree / "docs").exists()
        assert not (tree / "packages" / "other").exists()
        # the project's changes are mirrored, changes outside it are not
        assert ws.read_text("src/App.tsx") == "app, modified\n"
        assert ws.read_text("src/untracked.ts") == "untracked\n"
        # hoisted node_modules above the project are linked for node's resolution
        assert os.readlink(tree / "node_modules") == str((mono / "node_modules").resolve())
        assert (tree / "packages" / "node_modules" / "mid" / "index.js").read_text() == "mid\n"
        # git in the shadow sees only the project's changes, not the sparse-skipped files
        status = git(ws.root, "status", "--porcelain", "--untracked-files=no")
        assert status.splitlines() == [" M packages/app/src/App.tsx"]
    assert_gone(ws, mono)
    assert snapshot(mono) == before
    assert (mono / ".git" / "config").read_bytes() == config_before


def test_project_without_tracked_files_yet(tmp_path: Path, base: Path) -> None:
    mono = make_repo(tmp_path / "mono", {"README.md": "hi\n"})
    write(mono, {"apps/new/src/index.ts": "brand new\n"})
    with create_shadow_workspace(mono / "apps" / "new", base_dir=base) as ws:
        assert ws.kind == "git-worktree"
        assert ws.read_text("src/index.ts") == "brand new\n"


def test_project_in_a_git_ignored_directory_is_copied(tmp_path: Path, base: Path) -> None:
    repo = make_repo(tmp_path / "repo", {".gitignore": "scratch/\n"})
    write(repo, {"scratch/app/index.ts": "x\n"})
    with create_shadow_workspace(repo / "scratch" / "app", base_dir=base) as ws:
        assert ws.kind == "copy"
        assert ws.read_text("index.ts") == "x\n"


# -- node_modules -----------------------------------------------------------------------------


def add_node_modules(project: Path) -> None:
    write(
        project,
        {
            "node_modules/react/index.js": "module.exports = 'react';\n",
            "node_modules/react/node_modules/inner/index.js": "inner\n",
            "node_modules/.bin/jest": "#!/bin/sh\n",
            "packages/ui/package.json": '{"name": "ui"}\n',
            "packages/ui/node_modules/dep/index.js": "dep\n",
            ".git-like/node_modules/x.js": "x\n",
        },
    )


@pytest.mark.parametrize("kind", ["git-worktree", "copy"])
def test_node_modules_are_linked_readable_and_not_writable(
    tmp_path: Path, base: Path, kind: str
) -> None:
    project = tmp_path / "app"
    if kind == "git-worktree":
        make_repo(project, {"index.ts": "x\n", ".gitignore": "node_modules/\n"})
    else:
        write(project, {"index.ts": "x\n"})
    add_node_modules(project)
    write(project, {"packages/ui/index.ts": "ui\n"})  # untracked: creates the dir
    before = snapshot(project)
    with create_shadow_workspace(project, base_dir=base) as ws:
        assert ws.kind == kind
        assert ws.linked == [
            Path(".git-like/node_modules"),
            Path("node_modules"),
            Path("packages/ui/node_modules"),
        ]
        assert ws.link_targets == [(project / p).resolve() for p in ws.linked]
        assert os.readlink(ws.root / "node_modules") == str((project / "node_modules").resolve())
        # reads go through the links
        assert ws.read_text("node_modules/react/index.js") == "module.exports = 'react';\n"
        assert ws.read_text("packages/ui/node_modules/dep/index.js") == "dep\n"
        assert ws.resolve("node_modules/react/node_modules/inner/index.js").is_file()
        # writes are refused, also for new files and at the link itself
        for target in (
            "node_modules/react/index.js",
            "node_modules/new.js",
            "node_modules",
            "packages/ui/node_modules/dep/index.js",
        ):
            with pytest.raises(PathEscapeError, match="user's own node_modules"):
                ws.write_text(target, "oops")
        # other writes still work
        ws.write_text("packages/ui/index.ts", "ui, migrated\n")
    assert not os.path.lexists(ws.root)
    assert snapshot(project) == before


def test_a_symlinked_node_modules_is_linked_to_its_target(tmp_path: Path, base: Path) -> None:
    store = tmp_path / "store"
    write(store, {"react/index.js": "react\n"})
    project = tmp_path / "app"
    write(project, {"index.ts": "x\n"})
    (project / "node_modules").symlink_to(store, target_is_directory=True)
    with create_shadow_workspace(project, base_dir=base) as ws:
        assert ws.linked == [Path("node_modules")]
        assert os.readlink(ws.root / "node_modules") == str(store.resolve())
        assert ws.read_text("node_modules/react/index.js") == "react\n"
    assert (store / "react" / "index.js").read_text() == "react\n"


def test_committed_node_modules_are_replaced_by_the_link(tmp_path: Path, base: Path) -> None:
    project = make_repo(tmp_path / "app", {"node_modules/vendored/index.js": "committed\n"})
    write(project, {"node_modules/installed/index.js": "installed\n"})
    with create_shadow_workspace(project, base_dir=base) as ws:
        assert (ws.root / "node_modules").is_symlink()
        assert ws.read_text("node_modules/installed/index.js") == "installed\n"
    assert (project / "node_modules/vendored/index.js").read_text() == "committed\n"


# -- copy kind --------------------------------------------------------------------------------


def test_non_git_project_gets_a_filtered_copy(tmp_path: Path, base: Path, outside: Path) -> None:
    project = tmp_path / "plain"
    write(
        project,
        {
            "package.json": "{}\n",
            "src/App.tsx": "app\n",
            "src/App.test.tsx": "test\n",
            "crlf.txt": "a\r\nb\r\n",
            "bin/tool": "#!/bin/sh\n",
            "dist/bundle.js": "built\n",
            "build/out.js": "built\n",
            "coverage/lcov.info": "cov\n",
            ".next/cache": "x\n",
            ".cache/x": "x\n",
            ".turbo/x": "x\n",
            ".testmend/runs.db": "x\n",
            ".git/HEAD": "not a real repo\n",
            "src/nested/dist/x.js": "nested build output\n",
        },
    )
    os.chmod(project / "bin/tool", 0o755)
    os.mkfifo(project / "a-fifo")
    (project / "src/alias.tsx").symlink_to("App.tsx")
    (project / "src/leak").symlink_to(outside / "secret.txt")
    (project / "dist-link").symlink_to("dist", target_is_directory=True)
    (project / "dist2").symlink_to("dist", target_is_directory=True)
    before = snapshot(project)
    overlays = {"src/App.tsx": "unsaved\n"}
    with create_shadow_workspace(project, base_dir=base, overlays=overlays) as ws:
        assert ws.kind == "copy"
        assert ws.repo_root is None
        assert ws.root == ws.tree
        assert ws.root.name == "plain"
        assert ws.read_text("src/App.test.tsx") == "test\n"
        assert ws.read_text("src/App.tsx") == "unsaved\n"
        assert ws.read_text("crlf.txt") == "a\r\nb\r\n"
        assert os.stat(ws.root / "bin/tool").st_mode & 0o111
        for skipped in ("dist", "build", "coverage", ".next", ".cache", ".turbo", ".testmend"):
            assert not os.path.lexists(ws.root / skipped), skipped
        assert not (ws.root / ".git").exists()
        assert not (ws.root / "src/nested/dist").exists()
        assert not os.path.lexists(ws.root / "a-fifo")
        assert os.readlink(ws.root / "src/alias.tsx") == "App.tsx"
        assert not os.path.lexists(ws.root / "src/leak")
        assert os.readlink(ws.root / "dist2") == "dist"  # dangling in the copy: harmless
        # copies, never hard links: in-place writes (eslint --fix) must not reach the user
        copied = os.stat(ws.root / "src/App.test.tsx")
        assert copied.st_ino != os.stat(project / "src/App.test.tsx").st_ino
        assert copied.st_nlink == 1
        with open(ws.root / "src/App.test.tsx", "w") as handle:
            handle.write("written in place\n")
    assert_gone(ws)
    assert snapshot(project) == before


def test_repo_without_commits_gets_a_copy(tmp_path: Path, base: Path) -> None:
    project = tmp_path / "fresh"
    project.mkdir()
    git(project, "init", "-q")
    write(project, {"src/a.ts": "a\n"})
    with create_shadow_workspace(project, base_dir=base) as ws:
        assert ws.kind == "copy"
        assert ws.read_text("src/a.ts") == "a\n"
    assert worktrees(project) == [str(project.resolve())]


def test_without_git_installed_a_copy_is_made(
    repo: Path, base: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    empty_path = tmp_path / "empty-bin"
    empty_path.mkdir()
    monkeypatch.setenv("PATH", str(empty_path))
    with create_shadow_workspace(repo, base_dir=base) as ws:
        assert ws.kind == "copy"
        assert ws.read_text("src/App.tsx") == APP_FILES["src/App.tsx"]


# -- writes -----------------------------------------------------------------------------------


def test_write_text_is_atomic_keeps_modes_and_writes_through_inside_links(
    repo: Path, base: Path
) -> None:
    (repo / "alias.sh").symlink_to("scripts/build.sh")
    with create_shadow_workspace(repo, base_dir=base) as ws:
        path = ws.write_text("alias.sh", "#!/bin/sh\necho changed\n")
        assert path == ws.root / "alias.sh"
        assert (ws.root / "alias.sh").is_symlink()
        assert (ws.root / "scripts/build.sh").read_text() == "#!/bin/sh\necho changed\n"
        assert os.stat(ws.root / "scripts/build.sh").st_mode & 0o777 == 0o755
        ws.write_text("src/new.ts", "x\r\n")
        assert (ws.root / "src/new.ts").read_bytes() == b"x\r\n"
        assert os.stat(ws.root / "src/new.ts").st_mode & 0o777 == 0o644
        assert not [p for p in (ws.root / "src").iterdir() if p.name.startswith(".tm-")]
        with pytest.raises(IsADirectoryError):
            ws.write_text("src", "a directory")
        assert not [p for p in ws.root.iterdir() if p.name.startswith(".tm-")]
        with pytest.raises(PathEscapeError, match=r"'\.git'"):
            ws.write_text(".git", "gitdir: /somewhere/else\n")
        with pytest.raises(PathEscapeError, match=r"'\.\.'"):
            ws.write_text("../escape.ts", "x")
        with pytest.raises(PathEscapeError, match="absolute"):
            ws.write_text(str(repo / "src/App.tsx"), "x")
        with pytest.raises(PathEscapeError):
            ws.overlay({"src/ok.ts": "fine", "~/.bashrc": "no"})
        assert not (ws.root / "src/ok.ts").exists()  # overlays are all or nothing
        assert ws.relative(ws.root / "src" / "new.ts") == "src/new.ts"
    with pytest.raises(ShadowWorkspaceError, match="has been removed"):
        ws.read_text("src/App.tsx")
    ws.remove()  # idempotent


def test_shadow_symlink_to_outside_is_refused(tmp_path: Path, base: Path, outside: Path) -> None:
    repo = make_repo(tmp_path / "app", {"a.ts": "a\n"})
    (repo / "out").symlink_to(outside, target_is_directory=True)
    (repo / "secret.txt").symlink_to(outside / "secret.txt")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "committed links to the outside")
    with create_shadow_workspace(repo, base_dir=base) as ws:
        for rel in ("out/secret.txt", "out/new/file.ts", "secret.txt"):
            with pytest.raises(PathEscapeError, match="symlink leads outside"):
                ws.read_text(rel)
            with pytest.raises(PathEscapeError, match="symlink leads outside"):
                ws.write_text(rel, "pwned\n")
    assert (outside / "secret.txt").read_text() == "secret\n"
    assert not (outside / "new").exists()


# -- configuration ----------------------------------------------------------------------------


def test_base_dir_inside_the_project_is_refused(repo: Path) -> None:
    with pytest.raises(ShadowWorkspaceError, match="must be outside"):
        create_shadow_workspace(repo, base_dir=repo / ".testmend" / "workspaces")
    assert not (repo / ".testmend" / "workspaces").exists()


def test_bad_arguments(repo: Path, base: Path, tmp_path: Path) -> None:
    with pytest.raises(ShadowWorkspaceError, match="not a directory"):
        create_shadow_workspace(tmp_path / "missing", base_dir=base)
    with pytest.raises(ShadowWorkspaceError, match="invalid run id"):
        create_shadow_workspace(repo, base_dir=base, run_id="../x")
    with (
        create_shadow_workspace(repo, base_dir=base, run_id="same"),
        pytest.raises(ShadowWorkspaceError, match="already in use"),
    ):
        create_shadow_workspace(repo, base_dir=base, run_id="same")
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    with pytest.raises(ShadowWorkspaceError, match="cannot create the workspaces directory"):
        create_shadow_workspace(repo, base_dir=a_file / "sub")


def test_default_workspaces_dir(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WORKSPACES_DIR_ENV, str(tmp_path / "from-env"))
    assert default_workspaces_dir() == tmp_path / "from-env"
    with create_shadow_workspace(repo) as ws:
        assert ws.container.parent == (tmp_path / "from-env").resolve()
    monkeypatch.delenv(WORKSPACES_DIR_ENV)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    expected = tmp_path / "tmp" / f"testmend-{os.getuid()}" / "workspaces"
    assert default_workspaces_dir() == expected
    with create_shadow_workspace(repo) as ws:
        assert ws.container.parent == expected.resolve()
        assert stat.S_IMODE(os.stat(expected.parent).st_mode) == 0o700
    assert collect_stale_workspaces() == []
    os.chmod(expected.parent, 0o755)  # loosened: made private again
    with create_shadow_workspace(repo):
        assert stat.S_IMODE(os.stat(expected.parent).st_mode) == 0o700
    subprocess.run(["rm", "-rf", str(expected.parent)], check=True)
    expected.parent.symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(ShadowWorkspaceError, match="not a directory"):
        create_shadow_workspace(repo)


def test_private_dir_of_another_user_is_refused(tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("needs root to create a directory owned by someone else")
    other = tmp_path / "theirs"
    other.mkdir()
    os.chown(other, 12345, 12345)
    with pytest.raises(ShadowWorkspaceError, match="another user"):
        workspace_owner.ensure_private_dir(other)


def test_unusual_status_entries(tmp_path: Path, base: Path) -> None:
    """Nested repositories and submodules are not mirrored; files next to them are."""
    sub = make_repo(tmp_path / "sub", {"s.ts": "s\n"})
    repo = make_repo(tmp_path / "app", {"a.ts": "a\n"})
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor/sub")
    git(repo, "commit", "-q", "-m", "submodule")
    write(repo / "vendor" / "sub", {"s.ts": "changed in the submodule\n"})
    make_repo(repo / "nested", {"n.ts": "n\n"})
    write(repo, {"a.ts": "changed\n"})
    before = snapshot(repo)
    with create_shadow_workspace(repo, base_dir=base) as ws:
        assert ws.read_text("a.ts") == "changed\n"
        assert not (ws.root / "nested").exists()
        assert (ws.root / "vendor" / "sub").is_dir()
        assert not (ws.root / "vendor" / "sub" / "s.ts").exists()  # submodules not checked out
    assert snapshot(repo) == before

"""A shadow workspace removed in every way a run can end, and stale ones collected."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from testmend.workspace import (
    PathEscapeError,
    ShadowWorkspace,
    ShadowWorkspaceCancelled,
    ShadowWorkspaceError,
    collect_stale_workspaces,
    create_shadow_workspace,
    create_shadow_workspace_async,
)
from testmend.workspace import git as workspace_git
from testmend.workspace import owner as workspace_owner
from testmend.workspace import shadow as shadow_module
from tests.support.git import git
from tests.support.workspace import make_repo, snapshot, worktrees, write


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
    ".gitignore": "node_modules/\n*.log\nignored_dir/\n",
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


# -- cleanup ----------------------------------------------------------------------------------


def test_removed_after_an_exception(repo: Path, base: Path) -> None:
    before = snapshot(repo)
    with (
        pytest.raises(RuntimeError, match="boom"),
        create_shadow_workspace(repo, base_dir=base) as ws,
    ):
        ws.write_text("src/App.tsx", "changed\n")
        raise RuntimeError("boom")
    assert_gone(ws, repo)
    assert snapshot(repo) == before


def test_removed_after_keyboard_interrupt(repo: Path, base: Path) -> None:
    with pytest.raises(KeyboardInterrupt), create_shadow_workspace(repo, base_dir=base) as ws:
        raise KeyboardInterrupt
    assert_gone(ws, repo)


def test_removal_survives_a_deleted_container_and_worktree(repo: Path, base: Path) -> None:
    ws = create_shadow_workspace(repo, base_dir=base)
    subprocess.run(["rm", "-rf", str(ws.container)], check=True)
    ws.remove()
    assert_gone(ws, repo)


def test_removal_when_git_cannot_remove_the_worktree(repo: Path, base: Path) -> None:
    ws = create_shadow_workspace(repo, base_dir=base)
    git(repo, "worktree", "lock", str(ws.root))  # locked: removed all the same
    ws.remove()
    assert_gone(ws, repo)
    ws = create_shadow_workspace(repo, base_dir=base)
    (ws.root / ".git").write_text("garbage\n")  # `git worktree remove` refuses this one
    ws.remove()
    assert not ws.container.exists()
    assert_gone(ws, repo)


def test_removal_when_the_repository_is_gone(repo: Path, base: Path) -> None:
    ws = create_shadow_workspace(repo, base_dir=base)
    subprocess.run(["rm", "-rf", str(repo)], check=True)
    ws.remove()
    assert not ws.container.exists()


@contextlib.contextmanager
def undeletable(path: Path) -> Iterator[None]:
    """Make a file impossible to delete, even for root (ext4's immutable attribute)."""
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr +i is not available here: {done.stderr!r}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def test_a_failed_removal_is_reported_and_can_be_retried(repo: Path, base: Path) -> None:
    if shutil.which("chattr") is None:
        pytest.skip("needs chattr")
    ws = create_shadow_workspace(repo, base_dir=base)
    stuck = ws.root / "src" / "App.tsx"
    with undeletable(stuck):
        with pytest.raises(ShadowWorkspaceError, match="could not delete"):
            ws.remove()
        assert not ws.removed
        assert collect_stale_workspaces(base) == []  # still ours: locked
        # leaving a `with` block because of an error: the original error wins
        with pytest.raises(RuntimeError, match="original"), ws:
            raise RuntimeError("original")
        # leaving it normally: the cleanup error is raised
        with pytest.raises(ShadowWorkspaceError, match="could not delete"), ws:
            pass
        with pytest.raises(ValueError, match="original"):
            async with ws:
                raise ValueError("original")
        with pytest.raises(ShadowWorkspaceError, match="could not delete"):
            async with ws:
                pass
    ws.remove()  # retried once deletable
    assert_gone(ws, repo)


def big_repo(path: Path, files: int) -> Path:
    return make_repo(path, {f"src/m{i // 50}/f{i}.ts": f"export {i};\n" for i in range(files)})


async def test_cancelling_creation_leaves_nothing_behind(tmp_path: Path, base: Path) -> None:
    repo = big_repo(tmp_path / "big", 600)
    write(repo, {f"untracked/u{i}.ts": "u\n" for i in range(300)})
    before = snapshot(repo)
    cancelled = 0
    for delay in (0.0, 0.005, 0.02, 0.05, 0.1, 0.3):
        task = asyncio.create_task(create_shadow_workspace_async(repo, base_dir=base))
        await asyncio.sleep(delay)
        task.cancel()
        try:
            ws = await task
        except asyncio.CancelledError:
            cancelled += 1
        else:  # finished before the cancellation arrived
            ws.remove()
        assert list(base.iterdir()) == [], delay
        assert worktrees(repo) == [str(repo.resolve())]
    assert cancelled >= 2
    assert snapshot(repo) == before


async def test_cancel_arriving_as_creation_completes_removes_the_result(
    repo: Path, base: Path
) -> None:
    task = asyncio.create_task(create_shadow_workspace_async(repo, base_dir=base))
    deadline = time.monotonic() + 30
    while not any(base.glob("run-*")) and time.monotonic() < deadline:
        await asyncio.sleep(0.001)  # until the worker thread has started
    # Block the event loop until the worker has finished: its result cannot be delivered, so
    # the cancellation below reaches a creation that has in fact succeeded.
    while not any(base.glob("run-*/tree/app/src/App.tsx")) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.5)
    assert not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert list(base.iterdir()) == []
    assert worktrees(repo) == [str(repo.resolve())]


async def test_cancelling_a_run_inside_async_with_removes_the_workspace(
    repo: Path, base: Path
) -> None:
    started = asyncio.Event()
    seen: list[ShadowWorkspace] = []

    async def run() -> None:
        async with await create_shadow_workspace_async(repo, base_dir=base) as ws:
            seen.append(ws)
            ws.write_text("src/App.tsx", "in progress\n")
            started.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(run())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_gone(seen[0], repo)
    assert (repo / "src/App.tsx").read_text() == APP_FILES["src/App.tsx"]


async def test_async_with_normal_exit_and_errors(repo: Path, base: Path) -> None:
    async with await create_shadow_workspace_async(repo, base_dir=base) as ws:
        assert ws.read_text("src/App.tsx") == APP_FILES["src/App.tsx"]
    assert_gone(ws, repo)
    with pytest.raises(ValueError, match="inside"):
        async with await create_shadow_workspace_async(repo, base_dir=base) as ws2:
            raise ValueError("inside")
    assert_gone(ws2, repo)


async def test_cancel_during_async_cleanup_still_cleans_up(repo: Path, base: Path) -> None:
    ws = await create_shadow_workspace_async(repo, base_dir=base)

    async def leave() -> None:
        async with ws:
            pass

    task = asyncio.create_task(leave())
    await asyncio.sleep(0)
    task.cancel()  # lands while the removal thread runs
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_gone(ws, repo)


def test_cancel_event_stops_creation(repo: Path, base: Path) -> None:
    event = threading.Event()
    event.set()
    with pytest.raises(ShadowWorkspaceCancelled):
        create_shadow_workspace(repo, base_dir=base, cancel_event=event)
    assert not base.exists() or list(base.iterdir()) == []


def test_cancel_event_set_from_another_thread(tmp_path: Path, base: Path) -> None:
    repo = big_repo(tmp_path / "big", 500)
    write(repo, {f"untracked/u{i}.ts": "u\n" for i in range(300)})
    project = tmp_path / "plain"
    write(project, {f"d{i // 100}/f{i}.ts": "x\n" for i in range(800)})
    for target in (repo, project):
        cancelled = 0
        for delay in (0.01, 0.05, 0.2):
            event = threading.Event()
            timer = threading.Timer(delay, event.set)
            timer.start()
            try:
                ws = create_shadow_workspace(target, base_dir=base, cancel_event=event)
            except ShadowWorkspaceCancelled:
                cancelled += 1
            else:
                ws.remove()
            timer.join()
            assert list(base.iterdir()) == []
        assert cancelled >= 1, f"the event never cancelled the creation for {target.name}"
    assert worktrees(repo) == [str(repo.resolve())]


def test_failure_half_way_removes_everything(tmp_path: Path, base: Path, outside: Path) -> None:
    repo = make_repo(tmp_path / "app", {"a.ts": "a\n"})
    (repo / "out").symlink_to(outside, target_is_directory=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "link")
    with pytest.raises(ShadowWorkspaceError, match="symlink leads outside") as info:
        create_shadow_workspace(repo, base_dir=base, overlays={"out/new.ts": "x"})
    assert isinstance(info.value.__cause__, PathEscapeError)
    assert list(base.iterdir()) == []
    assert worktrees(repo) == [str(repo.resolve())]
    assert not (outside / "new.ts").exists()


def test_git_failure_removes_everything(repo: Path, base: Path) -> None:
    before = snapshot(repo)
    (repo / ".git" / "worktrees").write_text("not a directory\n")
    with pytest.raises(ShadowWorkspaceError, match="git worktree add"):
        create_shadow_workspace(repo, base_dir=base)
    assert list(base.iterdir()) == []
    assert snapshot(repo) == before


def test_git_timeout_kills_git(repo: Path) -> None:
    with pytest.raises(workspace_git.GitError, match="timed out"):
        workspace_git.run_git(["log", "-p"], cwd=repo, timeout=0)


def test_git_in_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(workspace_git.GitError, match="cannot run"):
        workspace_git.run_git(["status"], cwd=tmp_path / "missing")


# -- stale workspaces -------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from testmend.workspace import create_shadow_workspace
    ws = create_shadow_workspace(Path(sys.argv[1]), base_dir=Path(sys.argv[2]))
    print(ws.container, flush=True)
    if sys.argv[3] == "hang":
        time.sleep(600)
    """
)


def spawn_owner(project: Path, base: Path, mode: str) -> tuple[subprocess.Popen[str], Path]:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(project), str(base), mode],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line, "the child did not create a workspace"
    return proc, Path(line)


def test_stale_workspace_of_a_killed_process_is_collected(repo: Path, base: Path) -> None:
    before = snapshot(repo)
    proc, stale = spawn_owner(repo, base, "hang")
    live = create_shadow_workspace(repo, base_dir=base)
    assert collect_stale_workspaces(base) == []  # the child is alive
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert stale.exists()
    assert collect_stale_workspaces(base) == [stale]
    assert not stale.exists()
    assert live.container.exists()
    assert worktrees(repo) == [str(repo.resolve()), str(live.root)]
    live.remove()
    assert_gone(live, repo)
    assert collect_stale_workspaces(base) == []
    assert snapshot(repo) == before


def test_live_workspaces_are_removed_at_exit(repo: Path, base: Path) -> None:
    ws = create_shadow_workspace(repo, base_dir=base)
    shadow_module._remove_live_workspaces()  # what atexit runs
    assert_gone(ws, repo)
    assert workspace_owner.proc_stat(999_999_999) is None


def test_workspaces_are_removed_when_the_process_exits(repo: Path, base: Path) -> None:
    proc, container = spawn_owner(repo, base, "exit")
    assert proc.wait() == 0
    assert not container.exists()
    assert worktrees(repo) == [str(repo.resolve())]


def make_container(base: Path, name: str, owner: object | None, age: float = 0.0) -> Path:
    container = base / name
    container.mkdir(parents=True)
    (container / "tree").mkdir()
    if owner is not None:
        text = owner if isinstance(owner, str) else json.dumps(owner)
        (container / "owner.json").write_text(text)
    if age:
        then = time.time() - age
        os.utime(container, (then, then))
    return container


def test_stale_collection_rules(base: Path) -> None:
    me = {"pid": os.getpid(), "start_time": workspace_owner.proc_stat(os.getpid())[1]}  # type: ignore[index]
    reused = make_container(base, "run-reused", {"pid": os.getpid(), "start_time": "1"})
    zero_pid = make_container(base, "run-zero", {"pid": 0})
    alive = make_container(base, "run-alive", me)
    alive_any_start = make_container(base, "run-alive2", {"pid": os.getpid()})
    other_host = make_container(base, "run-host", {"pid": 999_999_999, "host": "elsewhere"})
    fresh_no_owner = make_container(base, "run-fresh", None)
    old_no_owner = make_container(base, "run-old", None, age=3600)
    fresh_corrupt = make_container(base, "run-corrupt", "{not json")
    old_corrupt = make_container(base, "run-corrupt-old", "[1, 2]", age=3600)
    stale_git = make_container(
        base,
        "run-gone-repo",
        {
            "pid": 999_999_999,
            "kind": "git-worktree",
            "repo_toplevel": str(base / "nope"),
            "tree": str(base / "run-gone-repo" / "tree"),
        },
    )
    not_ours = make_container(base, "something-else", None, age=3600)
    (base / "run-a-file").write_text("not a directory")
    removed = collect_stale_workspaces(base)
    assert sorted(removed) == sorted([reused, zero_pid, old_no_owner, old_corrupt, stale_git])
    for kept in (alive, alive_any_start, other_host, fresh_no_owner, fresh_corrupt, not_ours):
        assert kept.exists(), kept
    assert collect_stale_workspaces(base / "does-not-exist") == []


def test_zombie_owner_is_dead(base: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.time() + 10
    while workspace_owner.proc_stat(proc.pid)[0] != "Z" and time.time() < deadline:  # type: ignore[index]
        time.sleep(0.01)
    container = make_container(base, "run-zombie", {"pid": proc.pid})
    assert collect_stale_workspaces(base) == [container]
    proc.wait()


def test_a_collector_skips_a_locked_workspace(repo: Path, base: Path) -> None:
    ws = create_shadow_workspace(repo, base_dir=base)
    owner = json.loads((ws.container / "owner.json").read_text())
    owner["pid"] = 999_999_999  # would look dead, but the lock is held
    # rewriting in place keeps the locked inode
    with open(ws.container / "owner.json", "r+") as handle:
        handle.seek(0)
        handle.write(json.dumps(owner))
        handle.truncate()
    assert collect_stale_workspaces(base) == []
    ws.remove()

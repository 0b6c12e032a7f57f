"""Warm workspace slots, against real git and real directories: reused across runs with only
what changed rewritten, one run per slot, the user's tree and repository untouched."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from testmend.workspace import (
    ShadowWorkspaceCancelled,
    acquire_workspace,
    acquire_workspace_async,
    collect_stale_slots,
)
from testmend.workspace.pool import STALE_AFTER_DAYS, acquire_slot
from tests.support.git import git
from tests.support.workspace import git_state, make_repo, snapshot, worktrees, write

FILES = {
    ".gitignore": "node_modules/\n.cache/\n",
    "package.json": '{"name": "app"}\n',
    "src/App.tsx": "export const App = () => null;\n",
    "src/App.test.tsx": "it('renders', () => {});\n",
    "src/util.ts": "export const one = 1;\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    project = make_repo(tmp_path / "app", FILES)
    (project / "node_modules" / "react").mkdir(parents=True)
    (project / "node_modules" / "react" / "index.js").write_text("module.exports = {};\n")
    return project


def acquire(repo: Path, base: Path, run_id: str, slots: int = 2, **kw: object):  # type: ignore[no-untyped-def]
    return acquire_workspace(repo, run_id=run_id, slots=slots, base_dir=base, **kw)  # type: ignore[arg-type]


def test_a_second_run_gets_the_same_slot_reset_with_only_what_changed_rewritten(
    repo: Path, base: Path
) -> None:
    first = acquire(repo, base, "run-1")
    assert first.pooled and first.container.name == "slot-0"
    root = first.root
    # What the first run does: edits, a new file, a deletion, caches of its tools.
    first.write_text("src/App.test.tsx", "it('edited by the agent', () => {});\n")
    first.write_text("src/Extra.test.tsx", "new\n")
    (root / "src" / "App.tsx").unlink()
    write(root, {".cache/babel.json": "{}"})
    write(first.container, {"tmp/jest_0/haste-map": "map", "tmp/other": "x"})
    write(first.container, {"tmp/testmend-cache/tsc.tsbuildinfo": "{}"})
    first.release()
    assert first.removed and root.is_dir()  # released, not deleted

    # Meanwhile the user changes a file, adds one and deletes one (not committed).
    write(repo, {"src/util.ts": "export const one = 2;\n", "src/New.ts": "export {};\n"})
    (repo / "package.json").unlink()
    for name in ("src/util.ts", "src/New.ts"):  # older than the index: no racy-git refresh
        os.utime(repo / name, (time.time() - 10, time.time() - 10))
    git(repo, "status")  # whatever refresh the user's own git does, before the snapshot
    before, repo_state = snapshot(repo), git_state(repo)

    second = acquire(
        repo, base, "run-2", overlays={"src/App.test.tsx": "it('unsaved', () => {});\n"}
    )
    assert second.container == first.container and second.root == root
    assert second.read_text("src/App.test.tsx") == "it('unsaved', () => {});\n"  # the overlay
    assert second.read_text("src/App.tsx") == FILES["src/App.tsx"]  # the deletion undone
    assert not (root / "src" / "Extra.test.tsx").exists()  # the new file gone
    assert second.read_text("src/util.ts") == "export const one = 2;\n"  # the user's change
    assert second.read_text("src/New.ts") == "export {};\n"
    assert not (root / "package.json").exists()
    assert (root / ".cache" / "babel.json").is_file()  # ignored: a tool's cache stays
    tmp = second.container / "tmp"
    assert sorted(p.name for p in tmp.iterdir()) == ["jest_0", "testmend-cache"]
    assert (root / "node_modules").is_symlink()
    assert second.read_text("node_modules/react/index.js") == "module.exports = {};\n"
    second.release()
    assert snapshot(repo) == before and git_state(repo) == repo_state


def test_unchanged_files_keep_their_mtime_across_runs(repo: Path, base: Path) -> None:
    first = acquire(repo, base, "run-1")
    stamps = {p: (first.root / p).stat().st_mtime_ns for p in ("src/util.ts", ".gitignore")}
    first.write_text("src/App.test.tsx", "changed\n")
    first.release()
    second = acquire(repo, base, "run-2")
    assert {p: (second.root / p).stat().st_mtime_ns for p in stamps} == stamps
    assert second.read_text("src/App.test.tsx") == FILES["src/App.test.tsx"]
    second.release()


def test_concurrent_runs_get_different_slots_then_workspaces_of_their_own(
    repo: Path, base: Path
) -> None:
    a = acquire(repo, base, "run-a", slots=2)
    b = acquire(repo, base, "run-b", slots=2)
    c = acquire(repo, base, "run-c", slots=2)
    assert (a.container.name, b.container.name) == ("slot-0", "slot-1")
    assert not c.pooled and c.container.name == "run-run-c"
    a.write_text("src/App.test.tsx", "a\n")
    assert b.read_text("src/App.test.tsx") == FILES["src/App.test.tsx"]
    c.release()
    assert not c.container.exists()  # a workspace of its own is removed
    b.release()
    d = acquire(repo, base, "run-d", slots=2)
    assert d.container.name == "slot-1"
    a.release()
    d.release()


def test_a_slot_follows_a_new_commit(repo: Path, base: Path) -> None:
    acquire(repo, base, "run-1").release()
    write(repo, {"src/util.ts": "export const one = 3;\n", "src/Added.ts": "added\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    ws = acquire(repo, base, "run-2")
    assert ws.read_text("src/util.ts") == "export const one = 3;\n"
    assert ws.read_text("src/Added.ts") == "added\n"
    assert git(ws.tree, "rev-parse", "HEAD") == git(repo, "rev-parse", "HEAD")  # type: ignore[arg-type]
    ws.release()


def test_a_slot_left_broken_is_made_again(repo: Path, base: Path) -> None:
    ws = acquire(repo, base, "run-1")
    admin = Path(git(ws.tree, "rev-parse", "--git-dir").strip())  # type: ignore[arg-type]
    ws.write_text("src/App.test.tsx", "half-written\n")
    ws.release()
    (admin / "index.lock").write_text("")  # a git command killed mid-way leaves this
    again = acquire(repo, base, "run-2")
    assert again.container == ws.container
    assert again.read_text("src/App.test.tsx") == FILES["src/App.test.tsx"]
    again.release()
    assert len(worktrees(repo)) == 2  # the user's and the slot's: no leftover registration


def test_slots_deleted_from_under_git_are_made_again(repo: Path, base: Path) -> None:
    """A temp cleaner (systemd-tmpfiles, a user's rm -rf) deletes the workspaces directory:
    the slot's worktree is still registered in the user's repository, its directory gone."""
    ws = acquire(repo, base, "run-1")
    ws.release()
    subprocess.run(["rm", "-rf", str(base)], check=True)
    base.mkdir()
    again = acquire(repo, base, "run-2")
    assert again.read_text("src/App.test.tsx") == FILES["src/App.test.tsx"]
    again.release()
    assert len(worktrees(repo)) == 2  # the user's and the new slot's


def test_a_subdirectory_project_stays_sparse(tmp_path: Path, base: Path) -> None:
    mono = make_repo(
        tmp_path / "mono",
        {
            "package.json": "{}\n",
            "packages/app/package.json": "{}\n",
            "packages/app/src/App.test.tsx": "x\n",
            "packages/other/big.txt": "not wanted\n",
        },
    )
    project = mono / "packages" / "app"
    first = acquire(project, base, "run-1")
    first.write_text("src/App.test.tsx", "edited\n")
    first.release()
    second = acquire(project, base, "run-2")
    assert second.container == first.container
    assert second.read_text("src/App.test.tsx") == "x\n"
    assert second.tree is not None and (second.tree / "package.json").is_file()
    assert not (second.tree / "packages" / "other").exists()
    second.release()


def test_no_slots_or_no_git_means_a_workspace_of_the_runs_own(
    repo: Path, base: Path, tmp_path: Path
) -> None:
    ws = acquire(repo, base, "run-1", slots=0)
    assert not ws.pooled
    ws.release()
    plain = tmp_path / "plain"
    write(plain, {"a.test.js": "x\n"})
    assert acquire_slot(plain, run_id="r", slots=2, base_dir=base) is None
    own = acquire(plain, base, "run-2")
    assert own.kind == "copy" and not own.pooled
    own.release()


async def test_a_cancelled_acquisition_gives_the_slot_back(repo: Path, base: Path) -> None:
    task = asyncio.ensure_future(
        acquire_workspace_async(repo, run_id="run-1", slots=1, base_dir=base)
    )
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises((asyncio.CancelledError, ShadowWorkspaceCancelled)):
        await task
    ws = await acquire_workspace_async(repo, run_id="run-2", slots=1, base_dir=base)
    assert ws.pooled and ws.container.name == "slot-0"
    ws.release()


CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from testmend.workspace import acquire_workspace
    ws = acquire_workspace(Path(sys.argv[1]), run_id="child", slots=1, base_dir=Path(sys.argv[2]))
    ws.write_text("src/App.test.tsx", "written by a run that crashed\\n")
    print(ws.container, flush=True)
    time.sleep(600)
    """
)


def test_a_crashed_runs_slot_is_free_and_reset(repo: Path, base: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(repo), str(base)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    container = Path(child.stdout.readline().strip())
    busy = acquire(repo, base, "run-1", slots=1)
    assert not busy.pooled  # the child holds the only slot
    busy.release()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    ws = acquire(repo, base, "run-2", slots=1)
    assert ws.container == container
    assert ws.read_text("src/App.test.tsx") == FILES["src/App.test.tsx"]
    ws.release()


def test_stale_slots_are_collected_with_their_registration(
    repo: Path, base: Path, tmp_path: Path
) -> None:
    ws = acquire(repo, base, "run-1")
    busy = acquire(repo, base, "run-2")
    ws.release()
    assert collect_stale_slots(base) == []  # recently used, project there
    later = time.time() + (STALE_AFTER_DAYS + 1) * 86400
    assert collect_stale_slots(base, now=later) == [ws.container]  # the busy one stays
    assert [Path(p).name for p in worktrees(repo)] == [repo.name, busy.tree.name]  # type: ignore[union-attr]
    busy.release()
    record = json.loads((busy.container / "slot.json").read_text())
    record["project_root"] = str(tmp_path / "deleted")
    (busy.container / "slot.json").write_text(json.dumps(record))
    assert collect_stale_slots(base) == [busy.container]
    assert worktrees(repo) == [str(repo)]
    assert list(base.iterdir()) == []


def test_every_free_slot_goes_with_its_registration_before_its_folder_does(
    repo: Path, base: Path
) -> None:
    """A workspaces folder about to be deleted (the benchmark's temporary one): every free
    slot goes with its worktree's registration, so the user's repository keeps none that
    `git worktree list` would show as prunable; a slot in use stays."""
    first = acquire(repo, base, "run-1")
    busy = acquire(repo, base, "run-2")
    first.release()
    assert collect_stale_slots(base, every=True) == [first.container]
    assert [Path(p).name for p in worktrees(repo)] == [repo.name, busy.tree.name]  # type: ignore[union-attr]
    busy.release()
    assert collect_stale_slots(base, every=True) == [busy.container]
    assert worktrees(repo) == [str(repo)]
    assert not (repo / ".git" / "worktrees").exists() or not any(
        (repo / ".git" / "worktrees").iterdir()
    )

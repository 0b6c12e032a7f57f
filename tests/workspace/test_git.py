"""The shadow workspace's git commands, against real git (no mocks)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from testmend.workspace.git import (
    GitError,
    detect_git,
    start_worktree_add,
    worktree_registered,
    worktrees_lock,
)
from tests.support.workspace import make_repo


def test_worktree_adds_of_one_repository_run_one_at_a_time(tmp_path: Path) -> None:
    """Two `git worktree add` of one repository at once can fail: the second reads the
    registration the first is still writing ("failed to read .git/worktrees/app32/commondir",
    seen with --jobs 2 on a busy machine). An add waits for the repository's lock (held by
    another process or thread), runs once it is free, and frees it when it ends, also when it
    fails."""
    repo = make_repo(tmp_path / "app", {"package.json": "{}\n"})
    git = detect_git(repo)
    assert git is not None and git.common_dir == (repo / ".git").resolve()

    held = worktrees_lock(git)
    assert held is not None
    started, done = threading.Event(), threading.Event()
    tree = tmp_path / "shadow" / "app"

    def add() -> None:
        started.set()
        start_worktree_add(git, tree).finish()
        done.set()

    worker = threading.Thread(target=add)
    worker.start()
    assert started.wait(10)
    assert not done.wait(1.5)  # an unlocked add of this tiny repository ends in milliseconds
    assert not worktree_registered(repo, tree)
    os.close(held)
    worker.join(30)
    assert done.is_set() and worktree_registered(repo, tree)

    # A failing add (the folder is not empty) frees the lock too: the next one runs.
    with pytest.raises(GitError):
        start_worktree_add(git, tree).finish()
    other = tmp_path / "shadow2" / "app"
    start_worktree_add(git, other).finish()
    assert worktree_registered(repo, other)

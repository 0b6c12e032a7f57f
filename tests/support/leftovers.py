"""What runs leave in the workspaces directory: a run's own workspace is removed when it ends;
a warm slot stays for the next run, free (unlocked) once its run has ended."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def _locked(lock: Path) -> bool:
    fd = os.open(lock, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def slots(workspaces: Path) -> list[Path]:
    return sorted(workspaces.glob("pool-*/slot-*"))


def left_behind(workspaces: Path) -> list[str]:
    """Run workspaces still there and slots still held: empty once every run has ended."""
    if not workspaces.exists():
        return []
    own = [p.name for p in workspaces.iterdir() if not p.name.startswith("pool-")]
    held = [f"{s.parent.name}/{s.name}" for s in slots(workspaces) if _locked(s / "lock")]
    return own + held


def in_use(workspaces: Path) -> bool:
    """A run is working: its own workspace exists or it holds a slot."""
    return bool(left_behind(workspaces))


def foreign_worktrees(repo_git_dir: Path, workspaces: Path) -> list[str]:
    """Worktrees registered in the repository that are not warm slots under ``workspaces``."""
    admin = repo_git_dir / "worktrees"
    if not admin.is_dir():
        return []
    found = []
    for entry in admin.iterdir():
        gitdir = Path((entry / "gitdir").read_text().strip()).resolve()
        slot = gitdir.is_relative_to(workspaces.resolve()) and "/pool-" in str(gitdir)
        if not slot:
            found.append(str(gitdir))
    return found

"""Repositories and trees for the workspace tests: made, snapshotted byte for byte, and the
parts of a user's .git that must never change."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from collections.abc import Mapping
from pathlib import Path

from .git import git


def write(root: Path, files: Mapping[str, str]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode())


def make_repo(path: Path, files: Mapping[str, str]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    write(path, files)
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return path


def snapshot(root: Path) -> dict[str, tuple[int, int, str]]:
    """Every entry below root (except .git): mode, mtime and content hash or link target."""
    result: dict[str, tuple[int, int, str]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                digest = "-> " + os.readlink(path)
            elif stat.S_ISREG(st.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                digest = "dir"
            result[path.relative_to(root).as_posix()] = (st.st_mode, st.st_mtime_ns, digest)
    st = root.lstat()
    result["."] = (st.st_mode, st.st_mtime_ns, "dir")
    return result


def git_state(repo: Path) -> dict[str, bytes]:
    """The parts of the user's .git that must not change (index, HEAD, refs, config)."""
    state = {name: (repo / ".git" / name).read_bytes() for name in ("index", "HEAD", "config")}
    state["status"] = subprocess.run(
        ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"],
        cwd=repo,
        capture_output=True,
        check=True,
    ).stdout
    return state


def worktrees(repo: Path) -> list[str]:
    out = git(repo, "worktree", "list", "--porcelain")
    return [line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("worktree ")]

"""What a shadow workspace holds, as one digest: the key under which results that depend only
on the project's files (the original test's runs) are kept across runs (``runners/kept.py``).

A git workspace is HEAD plus what ``git status`` lists (the user's mirrored changes, unsaved
buffers, whatever the run has written since), plus the packages its ``node_modules`` links
lead to. The digest covers exactly that: the HEAD commit, every listed path with its content
(a symlink by its target, a deleted file as deleted), and for each linked ``node_modules`` the
install marker its package manager rewrites at every install (npm's ``.package-lock.json``,
yarn's ``.yarn-integrity`` or ``.yarn-state.yml``, pnpm's ``.modules.yaml``) with the name and
modification time of every package directory (an install that adds, removes or replaces a
package changes them). Ignored files are not in a shadow workspace (it is a checkout), so they
cannot change a result there.

Not covered, by design: edits made by hand inside ``node_modules`` that keep the directories'
times (``patch-package`` runs at install, which is covered), and whatever lies outside the
project (the network is off in the sandbox; the environment and the tools' identity are the
caller's part of the key).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Sequence
from pathlib import Path

from .git import STATUS_ARGS, GitError, build_inputs, parse_ignored, parse_status, run_git

INSTALL_MARKERS = (".package-lock.json", ".yarn-integrity", ".yarn-state.yml", ".modules.yaml")


def _file_digest(path: Path) -> bytes:
    try:
        if path.is_symlink():
            return b"link:" + os.fsencode(os.readlink(path))
        if path.is_dir():  # a nested repository: git lists it as a directory
            return b"dir"
        return hashlib.sha256(path.read_bytes()).digest()
    except FileNotFoundError:
        return b"deleted"


def installed_packages(node_modules: Path) -> bytes:
    """The identity of what ``node_modules`` holds (see the module's docstring)."""
    h = hashlib.sha256()
    for marker in INSTALL_MARKERS:
        with_marker = node_modules / marker
        if with_marker.is_file():
            h.update(marker.encode() + hashlib.sha256(with_marker.read_bytes()).digest())
    dirs = [node_modules]
    while dirs:
        directory = dirs.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                mtime = entry.stat(follow_symlinks=False).st_mtime_ns
            except OSError:
                continue
            h.update(f"{entry.path}\0{mtime}\n".encode("utf-8", "surrogateescape"))
            if directory == node_modules and entry.name.startswith("@") and entry.is_dir():
                dirs.append(Path(entry.path))  # a scope's packages
    return h.digest()


def workspace_state(
    root: Path, *, exclude: Collection[str] = (), linked: Sequence[Path] = ()
) -> str | None:
    """A digest of what the git checkout holding ``root`` (a shadow workspace's project root)
    contains, leaving out the project-relative paths in ``exclude``; ``linked``: the real
    ``node_modules`` directories its links lead to. None when git cannot say (a copied
    workspace, no git) or a listed file cannot be read: then nothing is kept."""
    try:
        head, top = run_git(["rev-parse", "HEAD", "--show-toplevel"], cwd=root).split(b"\n")[:2]
        status = run_git(STATUS_ARGS, cwd=root)
    except (GitError, OSError, ValueError):
        return None
    toplevel = Path(os.fsdecode(top))
    below = Path(os.path.relpath(root, toplevel)).as_posix()
    skipped = {name if below == "." else f"{below}/{name}" for name in exclude}
    h = hashlib.sha256(b"workspace-state 1\n" + head + b"\n")
    inputs = build_inputs(parse_ignored(status), toplevel)
    listed = sorted((set(parse_status(status)) | set(inputs)) - skipped)
    try:
        for path in listed:
            h.update(os.fsencode(path) + b"\0" + _file_digest(toplevel / path) + b"\n")
        for directory in sorted(linked):
            h.update(os.fsencode(str(directory)) + b"\0" + installed_packages(directory) + b"\n")
    except OSError:  # a file that cannot be read: the state is unknown
        return None
    return h.hexdigest()

"""Warm workspace slots: shadow workspaces with stable paths, reused across runs.

A new path per run means cold tools: jest keys its haste map and transform cache on the project's
root directory, and tsc's incremental state on its files' paths. So a git project gets a pool of
*slots* per project under the workspaces directory::

    <base_dir>/pool-<hash of the project path>/
        slot-<n>/
            lock         held (flock) by the run using the slot; free when its process ends
            slot.json    project, repository, tree, HEAD checked out, last use
            tree/<name>/ a `git worktree` of HEAD (sparse for a subdirectory), kept registered
            tmp/         the sandbox's temp dir: jest's cache (``jest_*``) and testmend's
                         (``testmend-cache``) survive from run to run, the rest is cleared

A run takes the first free slot (``flock``, so concurrent runs, in this process or another, get
different slots) and resets it to HEAD + the user's changes + the overlays, rewriting only what
differs: ``git reset --hard`` and ``git clean -fd`` undo what the last run changed (git leaves
files that match alone, ignored files such as caches stay), ``git checkout`` moves it to a new
HEAD, then the user's uncommitted and untracked files are mirrored and the node_modules links
renewed, as for a new workspace. A slot that cannot be reset (its worktree deleted, a git command
interrupted) is made again. When every slot is busy, or the project is not in git, the run gets
a new workspace of its own (``create_shadow_workspace``), as before.

A slot keeps the last run's files until its next use: nothing of the user's project is in it
that the user's checkout does not hold, and its worktree stays registered in the user's
repository (``git worktree list`` shows it). :func:`collect_stale_slots` removes the slots of
projects that are gone and those unused for ``STALE_AFTER_DAYS``, worktree registration included.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..layout import TOOL_CACHE_DIR
from .errors import ShadowWorkspaceError
from .files import Cancel, atomic_write, find_node_modules, rmtree
from .git import (
    SPARSE_CONFIG,
    GitError,
    GitProject,
    detect_git,
    mirrored_paths,
    run_git,
    sparse_checkout,
    start_git_status,
    start_worktree_add,
    unregister_worktree,
    worktree_registered,
)
from .owner import flock, prepare_base_dir, proc_stat
from .shadow import (
    ShadowWorkspace,
    create_shadow_workspace,
    link_node_modules,
    made_in_worker,
    mirror_changes,
    register_live,
    run_id_checked,
)

logger = logging.getLogger(__name__)

POOL_PREFIX = "pool-"
SLOT_PREFIX = "slot-"
SLOT_FORMAT = 1
#: Entries of a slot's temp dir kept from one run to the next (tool caches).
KEEP_IN_TMP = ("jest_", TOOL_CACHE_DIR)
#: A slot nobody used for this long is removed by :func:`collect_stale_slots`.
STALE_AFTER_DAYS = 14


def pool_dir(base: Path, project: Path) -> Path:
    digest = hashlib.sha256(os.fsencode(os.path.realpath(project))).hexdigest()[:16]
    return base / f"{POOL_PREFIX}{digest}"


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _take_free_slot(pool: Path, slots: int) -> tuple[Path, int] | None:
    """Lock the first free slot of ``pool``; return it and the fd holding its lock."""
    for index in range(slots):
        slot = pool / f"{SLOT_PREFIX}{index}"
        slot.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(slot / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        if flock(fd, blocking=False):
            return slot, fd
        os.close(fd)
    return None


def _write_lock_record(fd: int, run_id: str) -> None:
    record = {
        "pid": os.getpid(),
        "start_time": (proc_stat(os.getpid()) or (None, None))[1],
        "host": socket.gethostname(),
        "run_id": run_id,
    }
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(record).encode("utf-8"), 0)


def _clear_tmp(tmp: Path) -> None:
    tmp.mkdir(mode=0o700, exist_ok=True)
    for entry in os.scandir(tmp):
        if not entry.name.startswith(KEEP_IN_TMP):
            rmtree(Path(entry.path))


def _tree_usable(git: GitProject, tree: Path, record: Mapping[str, Any]) -> bool:
    """Whether the slot's worktree is one of this repository, for this project, registered."""
    if record.get("format") != SLOT_FORMAT or record.get("tree") != str(tree):
        return False
    if record.get("repo_toplevel") != str(git.toplevel) or record.get("subdir") != git.subdir:
        return False
    return (tree / ".git").is_file() and _registered(git, tree)


def _registered(git: GitProject, tree: Path) -> bool:
    try:
        return worktree_registered(git.toplevel, tree)
    except GitError:
        return False


def _fresh_tree(git: GitProject, tree: Path, cancel: Cancel) -> None:
    """A new worktree of HEAD at ``tree`` (whatever was there before is removed, also a
    registration left in the user's repository after its directory was deleted)."""
    if os.path.lexists(tree) or _registered(git, tree):
        with contextlib.suppress(GitError):
            unregister_worktree(git.toplevel, tree)
        rmtree(tree)
    cancel.check()
    start_worktree_add(git, tree).finish()
    cancel.check()
    if git.subdir != ".":
        sparse_checkout(git, tree)


def _reset_tree(git: GitProject, tree: Path, checked_out: str | None) -> None:
    """Undo what the last run changed, then move to the user's HEAD: only what differs is
    rewritten (git leaves matching files alone; ignored files, tool caches, stay)."""
    config = SPARSE_CONFIG if git.subdir != "." else ()
    run_git(["reset", "--hard", "--quiet"], cwd=tree, config=config)
    run_git(["clean", "-fdq"], cwd=tree, config=config)
    if checked_out != git.head:
        run_git(["checkout", "--detach", "--force", "--quiet", git.head], cwd=tree, config=config)


def acquire_slot(
    project_root: Path,
    *,
    run_id: str,
    slots: int,
    overlays: Mapping[str, str] | None = None,
    base_dir: Path | None = None,
    cancel_event: threading.Event | None = None,
) -> ShadowWorkspace | None:
    """A warm slot of the project, reset for run ``run_id``; None when there is none to give
    (not a git project, or every slot busy): the caller makes a workspace of its own."""
    cancel = Cancel(cancel_event)
    run_id_checked(run_id)
    project = Path(os.path.realpath(project_root))
    if not project.is_dir():
        raise ShadowWorkspaceError(f"the project root {str(project_root)!r} is not a directory")
    git = detect_git(project)
    if git is None:
        return None
    base = prepare_base_dir(base_dir, project, git.toplevel)
    pool = pool_dir(base, project)
    taken = _take_free_slot(pool, slots)
    if taken is None:
        logger.info("every warm slot of %s is busy; the run gets a workspace of its own", project)
        return None
    slot, fd = taken
    try:
        ws = _prepare_slot(slot, project, git, run_id, overlays, cancel)
    except BaseException:
        os.close(fd)
        raise
    ws.attach_lock(fd)
    _write_lock_record(fd, run_id)
    return ws


def _prepare_slot(
    slot: Path,
    project: Path,
    git: GitProject,
    run_id: str,
    overlays: Mapping[str, str] | None,
    cancel: Cancel,
) -> ShadowWorkspace:
    tree = slot / "tree" / (git.toplevel.name or "repo")
    root = tree if git.subdir == "." else tree.joinpath(*git.subdir.split("/"))
    record = _read_json(slot / "slot.json")
    status = start_git_status(git)
    try:
        node_modules = find_node_modules(project)
        reused = _tree_usable(git, tree, record)
        if reused:
            try:
                _reset_tree(git, tree, record.get("head"))
            except GitError as exc:  # e.g. an index.lock left by a run killed mid-command
                logger.info("the warm slot %s could not be reset (%s); making it again", slot, exc)
                reused = False
        if not reused:
            _fresh_tree(git, tree, cancel)
        changed = mirrored_paths(status.finish(), git)
    except BaseException:
        status.kill()
        raise
    _clear_tmp(slot / "tmp")
    ws = ShadowWorkspace(
        project_root=project,
        root=root,
        container=slot,
        kind="git-worktree",
        run_id=run_id,
        repo_root=git.toplevel,
        tree=tree,
        pooled=True,
    )
    mirror_changes(ws, git, changed, cancel)
    cancel.check()
    link_node_modules(ws, git, node_modules)
    if overlays:
        ws.overlay(overlays)
    record = {
        "format": SLOT_FORMAT,
        "project_root": str(project),
        "repo_toplevel": str(git.toplevel),
        "subdir": git.subdir,
        "tree": str(tree),
        "head": git.head,
        "last_used": time.time(),
        "reused": reused,
    }
    atomic_write(slot / "slot.json", json.dumps(record, indent=2).encode("utf-8"))
    register_live(ws)
    logger.debug("warm slot %s ready for run %s (%s)", slot, run_id, "reused" if reused else "new")
    return ws


def acquire_workspace(
    project_root: Path,
    *,
    run_id: str,
    slots: int,
    overlays: Mapping[str, str] | None = None,
    base_dir: Path | None = None,
    cancel_event: threading.Event | None = None,
) -> ShadowWorkspace:
    """A warm slot when ``slots`` > 0 and one is free, else a workspace of the run's own."""
    if slots > 0:
        ws = acquire_slot(
            project_root,
            run_id=run_id,
            slots=slots,
            overlays=overlays,
            base_dir=base_dir,
            cancel_event=cancel_event,
        )
        if ws is not None:
            return ws
    return create_shadow_workspace(
        project_root,
        run_id=run_id,
        overlays=overlays,
        base_dir=base_dir,
        cancel_event=cancel_event,
    )


async def acquire_workspace_async(
    project_root: Path,
    *,
    run_id: str,
    slots: int,
    overlays: Mapping[str, str] | None = None,
    base_dir: Path | None = None,
) -> ShadowWorkspace:
    """:func:`acquire_workspace` in a worker thread, safe to cancel (what it made, it gives
    back: a slot is released, a workspace of the run's own removed)."""
    return await made_in_worker(
        lambda event: acquire_workspace(
            project_root,
            run_id=run_id,
            slots=slots,
            overlays=overlays,
            base_dir=base_dir,
            cancel_event=event,
        )
    )


def collect_stale_slots(
    base_dir: Path, *, now: float | None = None, every: bool = False
) -> list[Path]:
    """Remove free slots whose project or repository is gone, or unused for
    ``STALE_AFTER_DAYS`` (``every``: all free slots, for a workspaces folder about to be
    deleted), with their worktrees' registrations in the user's repository; return the slots
    removed. A slot in use is never touched."""
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        pools = [e for e in os.scandir(base_dir) if e.name.startswith(POOL_PREFIX)]
    except OSError:
        return []
    for pool in pools:
        with contextlib.suppress(OSError):
            for entry in os.scandir(pool.path):
                if entry.name.startswith(SLOT_PREFIX) and entry.is_dir(follow_symlinks=False):
                    slot = Path(entry.path)
                    if _collect_slot(slot, now, every=every):
                        removed.append(slot)
        with contextlib.suppress(OSError):
            os.rmdir(pool.path)  # only when empty
    return removed


def _collect_slot(slot: Path, now: float, *, every: bool = False) -> bool:
    try:
        fd = os.open(slot / "lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return False
    try:
        if not flock(fd, blocking=False):
            return False
        record = _read_json(slot / "slot.json")
        project = record.get("project_root")
        repo = record.get("repo_toplevel")
        last_used = record.get("last_used")
        gone = not (isinstance(project, str) and os.path.isdir(project))
        old = not isinstance(last_used, (int, float)) or now - last_used > STALE_AFTER_DAYS * 86400
        if not (gone or old or every):
            return False
        tree = record.get("tree")
        if isinstance(repo, str) and isinstance(tree, str):
            try:
                unregister_worktree(Path(repo), Path(tree))
            except GitError as exc:
                logger.warning("could not unregister the worktree of %s: %s", slot, exc)
        why = "project gone" if gone else "unused" if old else "its workspaces folder goes"
        logger.info("removing the warm slot %s (%s)", slot, why)
        rmtree(slot)
    finally:
        os.close(fd)
    return not os.path.lexists(slot)

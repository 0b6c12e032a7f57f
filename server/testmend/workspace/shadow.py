"""The shadow workspace: where a run reads, writes and runs the project's tools.

The user's files are never written while a run is in progress. Each run gets its own
*container* directory outside the project (jest and tsc would otherwise crawl it)::

    <base_dir>/run-<run_id>/
        owner.json            pid, process start time, host, project, repo, kind (locked
                              with flock while the owning process lives)
        tree/<name>/          a `git worktree` of HEAD (or a filtered copy for non-git projects)
        tree/<name>/<subdir>  == ShadowWorkspace.root, the shadow's project root

Git projects: a detached worktree of HEAD (sparse, cone mode, when the project is a
subdirectory of the repository), then the user's uncommitted and untracked non-ignored files
are mirrored from ``git status``, then unsaved editor buffers are written, then every
``node_modules`` of the user's project (and of the directories above it, up to the repository
root, for hoisted monorepo installs) is symlinked in. Projects without git, without commits,
or without a git executable get a filtered copy instead.

Nothing here writes to the user's working tree or index: git runs with
``GIT_OPTIONAL_LOCKS=0`` (``git status`` does not refresh the index), with hooks disabled,
and without the user's ``GIT_DIR``-style environment variables. ``git worktree add`` writes
its registration under ``.git/worktrees/``, which :meth:`ShadowWorkspace.remove` deletes
again.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

from ..layout import STATE_DIR
from .errors import ShadowWorkspaceCancelled, ShadowWorkspaceError
from .files import (
    Cancel,
    atomic_write,
    copy_tree,
    find_node_modules,
    mirror_path,
    prepare_parents,
    rmtree,
)
from .git import (
    GIT_TIMEOUT_SECONDS,
    GitError,
    GitProject,
    detect_git,
    head_commit,
    mirrored_paths,
    sparse_checkout,
    start_git_status,
    start_worktree_add,
    unregister_worktree,
)
from .owner import (
    OWNER_FILE,
    OWNER_FORMAT,
    WORKSPACES_DIR_ENV,
    default_workspaces_dir,
    flock,
    prepare_base_dir,
    proc_stat,
    process_alive,
    read_owner,
    write_owner,
)
from .paths import PathEscapeError, is_within, resolve_in_root, split_relative, to_relative

__all__ = [
    "GIT_TIMEOUT_SECONDS",
    "WORKSPACES_DIR_ENV",
    "ShadowWorkspace",
    "ShadowWorkspaceCancelled",
    "ShadowWorkspaceError",
    "WorkspaceKind",
    "collect_stale_workspaces",
    "create_shadow_workspace",
    "create_shadow_workspace_async",
    "default_workspaces_dir",
]

logger = logging.getLogger(__name__)

WorkspaceKind = Literal["git-worktree", "copy"]

_CONTAINER_PREFIX = "run-"
#: A container without a readable owner.json older than this is debris from a crash.
_ORPHAN_GRACE_SECONDS = 600.0
_RUN_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


# --------------------------------------------------------------------------------------------
# the workspace


#: Workspaces not given up yet; atexit does it (also for ones their owner forgot).
_LIVE: set[ShadowWorkspace] = set()


@dataclass(eq=False)
class ShadowWorkspace:
    """One run's private copy of the project. Use as a (async) context manager."""

    #: The user's real project root (resolved).
    project_root: Path
    #: The shadow's equivalent of ``project_root``.
    root: Path
    #: The per-run directory that holds everything :meth:`remove` deletes.
    container: Path
    kind: WorkspaceKind
    run_id: str
    #: Project-relative paths of the ``node_modules`` symlinks (they point at the user's).
    linked: list[Path] = field(default_factory=list)
    #: Real paths of the linked ``node_modules`` directories (readable through the shadow).
    link_targets: list[Path] = field(default_factory=list)
    #: The git toplevel of the user's repository (``git-worktree`` kind only).
    repo_root: Path | None = None
    #: The top of the checkout or copy (``root`` is this or a subdirectory of it).
    tree: Path | None = None
    #: A warm slot of the project's pool (``workspace/pool.py``): released, not deleted.
    pooled: bool = False
    _extra_links: list[Path] = field(default_factory=list, repr=False)
    _lock_fd: int | None = field(default=None, repr=False)
    _removed: bool = field(default=False, repr=False)
    _remove_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    # -- paths -----------------------------------------------------------------------------

    def resolve(self, relative: str | os.PathLike[str], *, for_write: bool = False) -> Path:
        """Resolve a project-relative path in the shadow (see :func:`resolve_in_root`).

        Reads may go through the linked ``node_modules``. Writes may not (they would change the
        user's project), nor into ``.git``.
        """
        self._check_usable()
        if not for_write:
            return resolve_in_root(self.root, relative, extra_read_roots=self.link_targets)
        parts = split_relative(relative)
        if any(part.casefold() == ".git" for part in parts):
            raise PathEscapeError(relative, "writing inside '.git' is not allowed")
        for link in self.linked:
            if parts[: len(link.parts)] == link.parts:
                raise PathEscapeError(
                    relative,
                    f"it is inside {link.as_posix()!r}, which links to the user's own "
                    "node_modules; writing there would change the user's project",
                )
        return resolve_in_root(self.root, relative)

    def relative(self, path: Path | str) -> str:
        """The project-relative POSIX form of an absolute path inside the shadow."""
        return to_relative(self.root, path)

    def read_text(self, relative: str | os.PathLike[str]) -> str:
        """Read a UTF-8 file exactly (no newline translation)."""
        return self.resolve(relative).read_bytes().decode("utf-8")

    def write_text(self, relative: str | os.PathLike[str], content: str) -> Path:
        """Write a UTF-8 file atomically (temp file + rename), creating parent directories.

        Writing through a symlink that stays inside the shadow writes its target.
        """
        path = self.resolve(relative, for_write=True)
        target = Path(os.path.realpath(path))
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, content.encode("utf-8"))
        return path

    def overlay(self, buffers: Mapping[str, str]) -> None:
        """Write unsaved editor buffers (project-relative path → full text)."""
        for relative in buffers:  # validate all first: all or nothing
            self.resolve(relative, for_write=True)
        for relative, content in buffers.items():
            self.write_text(relative, content)

    # -- lifetime --------------------------------------------------------------------------

    @property
    def removed(self) -> bool:
        return self._removed

    def _check_usable(self) -> None:
        if self._removed:
            raise ShadowWorkspaceError(f"the shadow workspace {self.run_id!r} has been removed")

    def attach_lock(self, fd: int) -> None:
        """The fd whose lock says the workspace is in use (closed when it is given up)."""
        self._lock_fd = fd

    def release(self) -> None:
        """Give the workspace up at the end of its run: a warm slot is unlocked for the next
        run (which resets it); a workspace of the run's own is removed."""
        if not self.pooled:
            self.remove()
            return
        with self._remove_lock:
            if self._removed:
                return
            self._close_lock()
            self._removed = True
            _LIVE.discard(self)

    def _close_lock(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)
            self._lock_fd = None

    def remove(self) -> None:
        """Delete the shadow (a warm slot too) and its worktree registration.

        Idempotent; never touches the user's project files (the node_modules links are
        unlinked, not followed). Raises :class:`ShadowWorkspaceError` when something could not
        be deleted; calling it again retries.
        """
        with self._remove_lock:
            if self._removed:
                return
            if is_within(str(self.project_root), str(self.container)):
                raise ShadowWorkspaceError(  # pragma: no cover - prevented at creation
                    f"refusing to delete {self.container}: it contains the project"
                )
            for link in [*(self.root / p for p in self.linked), *self._extra_links]:
                if os.path.islink(link):
                    with contextlib.suppress(OSError):
                        os.unlink(link)
            problem = None
            if self.kind == "git-worktree" and self.repo_root is not None and self.tree:
                try:
                    unregister_worktree(self.repo_root, self.tree)
                except GitError as exc:
                    problem = str(exc)
                    logger.warning("could not unregister the worktree %s: %s", self.tree, exc)
            rmtree(self.container)
            if os.path.lexists(self.container):
                # Keep the lock (collectors leave it alone while we live) and allow a retry;
                # after this process ends, collect_stale_workspaces() removes it.
                raise ShadowWorkspaceError(
                    f"could not delete the shadow workspace {self.container}"
                    + (f" ({problem})" if problem else "")
                )
            self._close_lock()
            self._removed = True
            _LIVE.discard(self)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self.release()
        except ShadowWorkspaceError:
            if exc is None:
                raise
            logger.exception("while cleaning up after %r", exc)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        task = asyncio.ensure_future(asyncio.to_thread(self.release))
        was_cancelled = await _wait_through_cancellation(task)
        error = task.exception()
        if error is not None:
            if exc is None and not was_cancelled:
                raise error
            logger.error("while cleaning up after %r: %s", exc, error)
        if was_cancelled and exc is None:
            raise asyncio.CancelledError


async def _wait_through_cancellation(task: asyncio.Future[Any]) -> bool:
    """Wait until ``task`` is done even if we are cancelled meanwhile; return whether we were."""
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            cancelled = True
    return cancelled


def _remove_live_workspaces() -> None:
    for workspace in list(_LIVE):
        with contextlib.suppress(Exception):
            workspace.release()


def register_live(workspace: ShadowWorkspace) -> None:
    """Give ``workspace`` up at exit if its owner has not (see :meth:`ShadowWorkspace.release`)."""
    _LIVE.add(workspace)


def run_id_checked(run_id: str) -> str:
    if not _RUN_ID_RE.fullmatch(run_id):
        raise ShadowWorkspaceError(
            f"invalid run id {run_id!r}: use letters, digits, '.', '_' and '-' (max 100)"
        )
    return run_id


atexit.register(_remove_live_workspaces)


def create_shadow_workspace(
    project_root: Path,
    *,
    run_id: str | None = None,
    overlays: Mapping[str, str] | None = None,
    base_dir: Path | None = None,
    cancel_event: threading.Event | None = None,
) -> ShadowWorkspace:
    """Create the shadow workspace of one run (see the module docstring).

    ``cancel_event`` is checked between steps; once set, creation stops, removes what it made
    and raises :class:`ShadowWorkspaceCancelled`. Any failure removes what was made and raises
    :class:`ShadowWorkspaceError`.
    """
    cancel = Cancel(cancel_event)
    cancel.check()
    project = Path(os.path.realpath(project_root))
    if not project.is_dir():
        raise ShadowWorkspaceError(f"the project root {str(project_root)!r} is not a directory")
    if run_id is None:
        run_id = f"{datetime.now():%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:8]}"
    else:
        run_id_checked(run_id)
    git = detect_git(project)
    base = prepare_base_dir(base_dir, project, git.toplevel if git else None)
    container = base / f"{_CONTAINER_PREFIX}{run_id}"
    try:
        container.mkdir(mode=0o700)
    except FileExistsError:
        raise ShadowWorkspaceError(f"run id {run_id!r} is already in use ({container})") from None
    except OSError as exc:
        raise ShadowWorkspaceError(f"cannot create {container}: {exc}") from exc

    if git is not None:
        tree = container / "tree" / (git.toplevel.name or "repo")
        root = tree if git.subdir == "." else tree.joinpath(*git.subdir.split("/"))
    else:
        tree = root = container / "tree" / (project.name or "project")
    ws = ShadowWorkspace(
        project_root=project,
        root=root,
        container=container,
        kind="git-worktree" if git else "copy",
        run_id=run_id,
        repo_root=git.toplevel if git else None,
        tree=tree,
    )
    try:
        ws._lock_fd = write_owner(
            container,
            {
                "format": OWNER_FORMAT,
                "pid": os.getpid(),
                "start_time": (proc_stat(os.getpid()) or (None, None))[1],
                "host": socket.gethostname(),
                "created_at": datetime.now(UTC).isoformat(),
                "run_id": run_id,
                "project_root": str(project),
                "repo_toplevel": str(git.toplevel) if git else None,
                "tree": str(tree),
                "kind": ws.kind,
            },
        )
        _LIVE.add(ws)
        if git is not None:
            node_modules = _populate_from_git(ws, git, cancel)
        else:
            copy_tree(project, root, str(project), cancel)
            node_modules = find_node_modules(project)
        cancel.check()
        link_node_modules(ws, git, node_modules)
        cancel.check()
        if overlays:
            ws.overlay(overlays)
    except BaseException as exc:
        try:
            ws.remove()
        except BaseException as cleanup_error:  # pragma: no cover - reported, original wins
            logger.error("cleaning up the failed shadow workspace: %s", cleanup_error)
        if isinstance(exc, ShadowWorkspaceError) or not isinstance(exc, Exception):
            raise
        raise ShadowWorkspaceError(
            f"could not create the shadow workspace for {project}: {exc}"
        ) from exc
    logger.debug("shadow workspace %s ready at %s (%s)", run_id, root, ws.kind)
    return ws


def _populate_from_git(ws: ShadowWorkspace, git: GitProject, cancel: Cancel) -> list[str]:
    """Worktree + mirrored changes; return the project's node_modules (found meanwhile)."""
    assert ws.tree is not None
    # `git status` (of the user's tree), `git worktree add` (of the shadow) and the search for
    # node_modules run at the same time.
    status = start_git_status(git)
    try:
        add = start_worktree_add(git, ws.tree)
        try:
            node_modules = find_node_modules(ws.project_root)
            add.finish()
        except BaseException:
            add.kill()
            raise
        cancel.check()
        if git.subdir != ".":
            sparse_checkout(git, ws.tree)
        changed = mirrored_paths(status.finish(), git)
    except BaseException:
        status.kill()
        raise
    mirror_changes(ws, git, changed, cancel)
    return node_modules


def mirror_changes(
    ws: ShadowWorkspace, git: GitProject, changed: list[str], cancel: Cancel
) -> None:
    """Copy the user's uncommitted and untracked files (``git status`` paths) into the shadow,
    after checking that HEAD did not move while the checkout was being made."""
    if head_commit(git.toplevel) != git.head:  # pragma: no cover - a commit raced us
        raise ShadowWorkspaceError(
            "the project's HEAD moved while the shadow workspace was being made "
            "(a commit or checkout); try again"
        )
    cancel.check()
    ws.root.mkdir(parents=True, exist_ok=True)  # the project may have no tracked file yet
    project_real = str(ws.project_root)
    prefix = "" if git.subdir == "." else git.subdir + "/"
    for index, repo_rel in enumerate(changed):
        if index % 256 == 255:
            cancel.check()
        if not repo_rel.startswith(prefix):
            continue  # pragma: no cover - excluded by the pathspec
        rel = repo_rel[len(prefix) :]
        if rel.split("/", 1)[0] == STATE_DIR:  # testmend's own state is never mirrored
            continue
        mirror_path(ws.project_root, project_real, ws.root, rel)


def link_node_modules(
    ws: ShadowWorkspace, git: GitProject | None, node_modules: Sequence[str]
) -> None:
    for rel in node_modules:
        parts = rel.split("/")
        target = Path(os.path.realpath(ws.project_root.joinpath(*parts)))
        link = prepare_parents(ws.root, parts)
        if os.path.lexists(link):
            rmtree(link)
        os.symlink(target, link, target_is_directory=True)
        ws.linked.append(Path(*parts))
        ws.link_targets.append(target)
    if git is None or git.subdir == "." or ws.tree is None:
        return
    # Hoisted installs of a monorepo live above the project: link those too, so node's
    # resolution (which walks up the directories) finds them in the shadow as well.
    parts = git.subdir.split("/")
    for depth in range(len(parts)):
        above = parts[:depth]
        source = git.toplevel.joinpath(*above, "node_modules")
        if source.is_dir():
            link = prepare_parents(ws.tree, [*above, "node_modules"])
            if os.path.lexists(link):
                rmtree(link)
            os.symlink(os.path.realpath(source), link, target_is_directory=True)
            ws._extra_links.append(link)


async def create_shadow_workspace_async(
    project_root: Path,
    *,
    run_id: str | None = None,
    overlays: Mapping[str, str] | None = None,
    base_dir: Path | None = None,
) -> ShadowWorkspace:
    """:func:`create_shadow_workspace` in a worker thread, safe to cancel (see
    :func:`made_in_worker`). Use the result as ``async with``."""
    return await made_in_worker(
        lambda event: create_shadow_workspace(
            project_root,
            run_id=run_id,
            overlays=overlays,
            base_dir=base_dir,
            cancel_event=event,
        )
    )


async def made_in_worker(make: Callable[[threading.Event], ShadowWorkspace]) -> ShadowWorkspace:
    """``make(cancel_event)`` in a worker thread. If the awaiting task is cancelled, the event
    tells ``make`` to stop; this waits for the worker to finish and gives up whatever it made
    (:meth:`ShadowWorkspace.release`) before re-raising :class:`asyncio.CancelledError`."""
    event = threading.Event()
    task = asyncio.ensure_future(asyncio.to_thread(make, event))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        event.set()
        await _wait_through_cancellation(task)
        if task.exception() is None:
            release = asyncio.ensure_future(asyncio.to_thread(task.result().release))
            await _wait_through_cancellation(release)
            if release.exception() is not None:  # pragma: no cover - logged, cancel wins
                logger.error("giving up a cancelled shadow workspace: %s", release.exception())
        raise


def collect_stale_workspaces(base_dir: Path | None = None) -> list[Path]:
    """Remove the workspaces of processes that are gone; return the containers removed.

    A workspace is stale when it was made on this host, its owner.json lock is free (the
    owner holds it while alive) *and* its process is gone (pid dead, a zombie, or reused: its
    start time differs). Workspaces of live processes are never touched. Containers without a
    readable owner.json are removed only when older than a grace period (a crash during
    creation). On Windows nothing is collected (no safe liveness check without psutil).
    """
    base = Path(base_dir) if base_dir is not None else default_workspaces_dir()
    try:
        entries = [e for e in os.scandir(base) if e.name.startswith(_CONTAINER_PREFIX)]
    except OSError:
        return []
    removed: list[Path] = []
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            container = Path(entry.path)
            try:
                if _collect_one(container):
                    removed.append(container)
            except (OSError, GitError, ShadowWorkspaceError) as exc:
                logger.warning("could not collect the stale workspace %s: %s", container, exc)
    return removed


def _collect_one(container: Path) -> bool:
    owner_path = container / OWNER_FILE
    try:
        fd = os.open(owner_path, os.O_RDONLY)
    except FileNotFoundError:
        if time.time() - container.stat().st_mtime < _ORPHAN_GRACE_SECONDS:
            return False
        logger.info("removing %s: no owner record (creation crashed)", container)
        rmtree(container)
        return not os.path.lexists(container)
    try:
        if not flock(fd, blocking=False):
            return False  # the owner (or another collector) holds it
        owner = read_owner(owner_path)
        if owner is None:
            if time.time() - container.stat().st_mtime < _ORPHAN_GRACE_SECONDS:
                return False
        else:
            if owner.get("host", socket.gethostname()) != socket.gethostname():
                return False
            start_time = owner.get("start_time")
            if process_alive(owner["pid"], start_time if isinstance(start_time, str) else None):
                return False
            repo, tree = owner.get("repo_toplevel"), owner.get("tree")
            if owner.get("kind") == "git-worktree" and isinstance(repo, str) and tree:
                try:
                    unregister_worktree(Path(repo), Path(str(tree)))
                except GitError as exc:
                    logger.warning("could not unregister the stale worktree %s: %s", tree, exc)
        logger.info("removing the stale shadow workspace %s", container)
        rmtree(container)
    finally:
        os.close(fd)
    return not os.path.lexists(container)

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
import json
import logging
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

from .paths import PathEscapeError, is_within, resolve_in_root, split_relative, to_relative

if sys.platform != "win32":
    import fcntl

__all__ = [
    "COPY_SKIP_DIRS",
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

#: Environment variable that overrides the default workspaces directory.
WORKSPACES_DIR_ENV = "TESTMEND_WORKSPACES_DIR"
#: Upper bound for any single git command (a checkout of a very large repository included).
GIT_TIMEOUT_SECONDS = 300.0
#: Directory names that the filtered copy skips (``node_modules`` is linked instead).
COPY_SKIP_DIRS = frozenset(
    {".git", "node_modules", ".testmend", "coverage", "dist", "build", ".next", ".cache", ".turbo"}
)
#: Directories the node_modules search never descends into (node_modules itself is handled).
_WALK_SKIP_DIRS = frozenset({".git", ".hg", ".svn", ".testmend"})
#: Top-level project entries never mirrored from `git status` (testmend's own state).
_MIRROR_SKIP_TOP = frozenset({".testmend"})

_CONTAINER_PREFIX = "run-"
_OWNER_FILE = "owner.json"
_OWNER_FORMAT = 1
#: A container without a readable owner.json older than this is debris from a crash.
_ORPHAN_GRACE_SECONDS = 600.0
_RUN_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
#: Variables that would make git operate on another repository, index or work tree.
_GIT_ENV_DROP = frozenset(
    {
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_NAMESPACE",
        "GIT_PREFIX",
        "GIT_CONFIG",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_SPARSE_CHECKOUT",
    }
)


class ShadowWorkspaceError(RuntimeError):
    """The shadow workspace could not be created, used or removed."""


class ShadowWorkspaceCancelled(ShadowWorkspaceError):
    """Creation was cancelled (everything it had made is removed)."""


# --------------------------------------------------------------------------------------------
# git


class _GitError(Exception):
    pass


def _git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV_DROP}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    return env


class _GitProcess:
    """A running git command (hooks disabled, no prompts, own process group)."""

    def __init__(self, args: Sequence[str], *, cwd: Path, config: Sequence[str] = ()) -> None:
        cmd = ["git", "-c", f"core.hooksPath={os.devnull}"]
        for item in config:
            cmd += ["-c", item]
        cmd += args
        self.shown = "git " + " ".join(args)
        try:
            self.proc = subprocess.Popen(
                cmd,
                cwd=cwd,
                env=_git_env(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:
            raise _GitError(f"cannot run `{self.shown}` in {str(cwd)!r}: {exc}") from exc

    def finish(self, timeout: float = GIT_TIMEOUT_SECONDS) -> bytes:
        """Wait for the command; return its stdout or raise _GitError."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise _GitError(f"`{self.shown}` timed out after {timeout:g} s") from None
        except BaseException:
            self.kill()
            raise
        if self.proc.returncode != 0:
            code = self.proc.returncode
            message = err.decode("utf-8", "replace").strip() or f"exit status {code}"
            raise _GitError(f"`{self.shown}` failed: {message}")
        return out

    def kill(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(OSError):
                if sys.platform == "win32":  # pragma: no cover
                    self.proc.kill()
                else:
                    os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.communicate()


def _run_git(
    args: Sequence[str],
    *,
    cwd: Path,
    config: Sequence[str] = (),
    timeout: float = GIT_TIMEOUT_SECONDS,
) -> bytes:
    """Run git with hooks disabled, no prompts and a timeout; return stdout."""
    return _GitProcess(args, cwd=cwd, config=config).finish(timeout)


@dataclass(frozen=True)
class _GitProject:
    toplevel: Path
    subdir: str  # POSIX path of the project below toplevel, "." for the toplevel itself
    head: str


def _detect_git(project: Path) -> _GitProject | None:
    """The repository the project lives in, or None when a filtered copy must be used."""
    if shutil.which("git") is None:
        logger.info("git is not installed; using a filtered copy of %s", project)
        return None
    try:
        top_out = _run_git(["rev-parse", "--show-toplevel"], cwd=project)
    except _GitError as exc:
        logger.info("%s is not in a git work tree (%s); using a filtered copy", project, exc)
        return None
    toplevel = Path(os.path.realpath(os.fsdecode(top_out.rstrip(b"\r\n"))))
    try:
        head = _head_commit(toplevel)
    except _GitError:
        logger.info("the repository %s has no commits yet; using a filtered copy", toplevel)
        return None
    subdir = Path(os.path.relpath(project, toplevel)).as_posix()
    if subdir != "." and _git_ok(["check-ignore", "--quiet", "--", subdir], cwd=toplevel):
        logger.info("%s is ignored by git in %s; using a filtered copy", project, toplevel)
        return None
    return _GitProject(toplevel=toplevel, subdir=subdir, head=head)


def _git_ok(args: Sequence[str], *, cwd: Path) -> bool:
    try:
        _run_git(args, cwd=cwd)
    except _GitError:
        return False
    return True


def _head_commit(toplevel: Path) -> str:
    out = _run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], cwd=toplevel)
    return out.decode("ascii").strip()


def _cone_patterns(subdir: str) -> str:
    """Sparse-checkout patterns (cone mode) for one directory and the files above it."""

    def esc(name: str) -> str:
        return re.sub(r"([\\*?\[\]])", r"\\\1", name)

    lines = ["/*", "!/*/"]
    parts = subdir.split("/")
    for depth in range(1, len(parts)):
        prefix = "/".join(esc(p) for p in parts[:depth])
        lines += [f"/{prefix}/", f"!/{prefix}/*/"]
    lines.append("/" + "/".join(esc(p) for p in parts) + "/")
    return "\n".join(lines) + "\n"


def _worktree_admin_dir(tree: Path) -> Path:
    text = (tree / ".git").read_text(encoding="utf-8").strip()
    if not text.startswith("gitdir:"):
        raise ShadowWorkspaceError(f"unexpected .git file in the worktree {tree}: {text!r}")
    return (tree / text[len("gitdir:") :].strip()).resolve()


_SPARSE_CONFIG = ("core.sparseCheckout=true", "core.sparseCheckoutCone=true")


def _start_worktree_add(git: _GitProject, tree: Path) -> _GitProcess:
    tree.parent.mkdir(parents=True, exist_ok=True)
    args = ["worktree", "add", "--detach", "--quiet"]
    if git.subdir != ".":
        args.append("--no-checkout")  # checked out sparsely by _sparse_checkout()
    return _GitProcess([*args, str(tree), git.head], cwd=git.toplevel)


def _sparse_checkout(git: _GitProject, tree: Path) -> None:
    """Check out only the project's directory (and the files in the directories above it).

    A huge monorepo must not be checked out in full. `git sparse-checkout set` would turn on
    extensions.worktreeConfig in the user's repository config, so the per-worktree pattern
    file is written directly and the sparse setting is given on the command line only.
    """
    info = _worktree_admin_dir(tree) / "info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "sparse-checkout").write_text(_cone_patterns(git.subdir), encoding="utf-8")
    _run_git(["read-tree", "-mu", "HEAD"], cwd=tree, config=_SPARSE_CONFIG)


def _worktree_registered(repo: Path, tree: Path) -> bool:
    out = _run_git(["worktree", "list", "--porcelain", "-z"], cwd=repo)
    wanted = os.path.realpath(tree)
    for item in out.split(b"\0"):
        if item.startswith(b"worktree ") and os.path.realpath(os.fsdecode(item[9:])) == wanted:
            return True
    return False


def _unregister_worktree(repo: Path, tree: Path) -> None:
    """Remove the worktree and its registration in the user's repository."""
    if not repo.is_dir():
        return  # the repository is gone: nothing is registered any more
    try:
        # twice: also when locked (the worktree is ours; nobody else should have locked it)
        _run_git(["worktree", "remove", "--force", "--force", str(tree)], cwd=repo)
        return
    except _GitError as exc:
        first_error = exc
    if _worktree_registered(repo, tree):
        _rmtree(tree)
        _run_git(["worktree", "prune"], cwd=repo)
        if _worktree_registered(repo, tree):
            raise first_error


def _start_git_status(git: _GitProject) -> _GitProcess:
    """`git status` of the project: what differs between HEAD and the working tree."""
    args = [
        "--literal-pathspecs",
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--ignore-submodules=all",
        "--no-renames",  # a rename is a deletion plus an addition: both are mirrored
    ]
    if git.subdir != ".":
        args += ["--", git.subdir]
    return _GitProcess(args, cwd=git.toplevel)


def _parse_status(out: bytes) -> list[str]:
    """Paths (relative to the repository) from `git status --porcelain=v1 -z`."""
    paths: list[str] = []
    for entry in out.split(b"\0"):
        if len(entry) < 4:
            continue
        path = os.fsdecode(entry[3:])
        if path.endswith("/"):  # a nested repository shown as a directory
            continue
        paths.append(path)
    return paths


# --------------------------------------------------------------------------------------------
# filesystem helpers (none of them follows a symlink in the destination)


def _rmtree(path: Path) -> None:
    if not os.path.lexists(path):
        return
    if os.path.islink(path) or not os.path.isdir(path):
        os.unlink(path)
        return
    shutil.rmtree(path, ignore_errors=True)


def _prepare_parents(root: Path, parts: Sequence[str]) -> Path:
    """Make ``root/parts[:-1]`` real directories (replacing files/symlinks); return the path."""
    current = root
    for part in parts[:-1]:
        current = current / part
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            os.mkdir(current)
            continue
        if stat.S_ISDIR(st.st_mode):
            continue
        os.unlink(current)
        os.mkdir(current)
    return root.joinpath(*parts)


_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


def _copy_file(src: str | Path, dst: str | Path) -> None:
    """Copy a regular file's bytes and mode into a *new* file (never through a symlink).

    Leaner than shutil.copyfile (no samefile/special-file stat calls), which matters for the
    filtered copy of large trees.
    """
    src_fd = os.open(src, os.O_RDONLY | _O_NOFOLLOW | _O_BINARY)
    try:
        mode = stat.S_IMODE(os.fstat(src_fd).st_mode)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY
        dst_fd = os.open(dst, flags, 0o600)
        try:
            if sys.platform == "linux":
                while os.sendfile(dst_fd, src_fd, None, 1 << 30) > 0:
                    pass
            else:  # pragma: no cover - macOS/Windows: no file-to-file sendfile
                while chunk := os.read(src_fd, 1 << 20):
                    os.write(dst_fd, chunk)
            if hasattr(os, "fchmod"):
                os.fchmod(dst_fd, mode)
        finally:
            os.close(dst_fd)
    finally:
        os.close(src_fd)


def _copy_symlink(src: str | Path, dst: str | Path, project_real: str) -> bool:
    """Recreate a symlink if it stays inside the project; absolute targets become relative."""
    real = os.path.realpath(src)
    if not is_within(real, project_real):
        logger.info("not copying %s: the symlink leads outside the project (%s)", src, real)
        return False
    target = os.readlink(src)
    if os.path.isabs(target):
        target = os.path.relpath(real, os.path.realpath(os.path.dirname(src)))
    os.symlink(target, dst)
    return True


def _mirror_path(project: Path, project_real: str, shadow_root: Path, rel: str) -> None:
    """Make ``shadow_root/rel`` match ``project/rel`` (file, symlink or absence)."""
    parts = split_relative(rel)
    src = project.joinpath(*parts)
    dst = shadow_root.joinpath(*parts)
    try:
        st = os.lstat(src)
    except FileNotFoundError:
        if os.path.lexists(dst):
            _rmtree(dst)
        return
    if stat.S_ISDIR(st.st_mode):  # a submodule or nested repository: not mirrored
        return
    dst = _prepare_parents(shadow_root, parts)
    if os.path.lexists(dst):
        _rmtree(dst)
    if stat.S_ISLNK(st.st_mode):
        _copy_symlink(src, dst, project_real)
    elif stat.S_ISREG(st.st_mode):
        _copy_file(src, dst)


def _copy_tree(src_root: Path, dst_root: Path, project_real: str, cancel: _Cancel) -> None:
    """Filtered copy (never hardlinks: tools like `eslint --fix` write files in place)."""
    dst_root.mkdir(parents=True, exist_ok=True)
    stack: list[tuple[str, str]] = [(str(src_root), str(dst_root))]
    while stack:
        cancel.check()
        src_dir, dst_dir = stack.pop()
        with os.scandir(src_dir) as entries:
            for entry in entries:
                dst = os.path.join(dst_dir, entry.name)
                if entry.is_symlink():
                    if entry.name not in COPY_SKIP_DIRS:
                        _copy_symlink(entry.path, dst, project_real)
                elif entry.is_dir(follow_symlinks=False):
                    if entry.name not in COPY_SKIP_DIRS:
                        os.mkdir(dst)
                        stack.append((entry.path, dst))
                elif entry.is_file(follow_symlinks=False):
                    _copy_file(entry.path, dst)


def _find_node_modules(project: Path) -> list[str]:
    """POSIX relative paths of every node_modules directory of the project.

    A pruned walk: it never descends into node_modules, .git or symlinked directories, so it
    touches only the project's own directories.
    """
    found: list[str] = []
    stack: list[tuple[str, str]] = [("", str(project))]
    while stack:
        rel_dir, abs_dir = stack.pop()
        try:
            entries = os.scandir(abs_dir)
        except OSError:
            continue
        with entries:
            for entry in entries:
                name = entry.name
                rel = f"{rel_dir}/{name}" if rel_dir else name
                if name == "node_modules":
                    with contextlib.suppress(OSError):
                        if entry.is_dir():  # a real directory or a symlink to one
                            found.append(rel)
                elif name not in _WALK_SKIP_DIRS and entry.is_dir(follow_symlinks=False):
                    stack.append((rel, entry.path))
    return sorted(found)


def _atomic_write(target: Path, data: bytes) -> None:
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=".tm-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class _Cancel:
    def __init__(self, event: threading.Event | None) -> None:
        self.event = event

    def check(self) -> None:
        if self.event is not None and self.event.is_set():
            raise ShadowWorkspaceCancelled("shadow workspace creation was cancelled")


# --------------------------------------------------------------------------------------------
# owner records and liveness


def _proc_stat(pid: int) -> tuple[str, str] | None:
    """(state, start time in clock ticks since boot) from /proc, or None where unavailable."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = data[data.rindex(")") + 2 :].split()
    return fields[0], fields[19]


def _process_alive(pid: int, start_time: str | None) -> bool:
    if sys.platform == "win32":  # pragma: no cover - no safe liveness probe without psutil
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    info = _proc_stat(pid)
    if info is None:
        return True
    state, started = info
    if state in ("Z", "X"):
        return False
    return start_time is None or started == start_time


def _flock(fd: int, *, blocking: bool) -> bool:
    if sys.platform == "win32":  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def _write_owner(container: Path, record: Mapping[str, Any]) -> int:
    """Write owner.json atomically, locked; return the fd that holds the lock."""
    tmp = container / f".{_OWNER_FILE}.tmp"
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        _flock(fd, blocking=True)
        os.write(fd, json.dumps(record, indent=2).encode("utf-8"))
        os.replace(tmp, container / _OWNER_FILE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_owner(path: Path) -> dict[str, Any] | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("pid"), int):
        return None
    return record


def _user_tag() -> str:
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        return str(getuid())
    return re.sub(r"[^A-Za-z0-9._-]", "_", os.environ.get("USERNAME", "user"))  # pragma: no cover


def default_workspaces_dir() -> Path:
    """``$TESTMEND_WORKSPACES_DIR`` or ``<tmp>/testmend-<uid>/workspaces``."""
    configured = os.environ.get(WORKSPACES_DIR_ENV)
    if configured:
        return Path(os.path.abspath(os.path.expanduser(configured)))
    return Path(tempfile.gettempdir()) / f"testmend-{_user_tag()}" / "workspaces"


def _ensure_private_dir(path: Path) -> None:
    """Create ``path`` (mode 0700) and make sure it is ours and not a symlink (shared /tmp)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise ShadowWorkspaceError(f"{path} is not a directory (is it a symlink?)")
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        if st.st_uid != getuid():
            raise ShadowWorkspaceError(f"{path} belongs to another user; refusing to use it")
        if stat.S_IMODE(st.st_mode) & 0o077:
            os.chmod(path, 0o700)


def _prepare_base_dir(base_dir: Path | None, project: Path, repo: Path | None) -> Path:
    base = Path(os.path.abspath(base_dir if base_dir is not None else default_workspaces_dir()))
    real = os.path.realpath(base)
    for inside, what in ((project, "the project"), (repo, "the project's git work tree")):
        if inside is not None and is_within(real, str(inside)):
            raise ShadowWorkspaceError(
                f"the workspaces directory {str(base)!r} is inside {what} ({str(inside)!r}); "
                "it must be outside, or jest and tsc would crawl the shadow copies. "
                f"Choose another base_dir or set ${WORKSPACES_DIR_ENV}."
            )
    if base_dir is None and not os.environ.get(WORKSPACES_DIR_ENV):
        _ensure_private_dir(base.parent)
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ShadowWorkspaceError(f"cannot create the workspaces directory {base}: {exc}") from exc
    return Path(os.path.realpath(base))


# --------------------------------------------------------------------------------------------
# the workspace


#: Workspaces not removed yet; atexit removes them (also ones their owner forgot).
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
        _atomic_write(target, content.encode("utf-8"))
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

    def remove(self) -> None:
        """Delete the shadow and its worktree registration.

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
                    _unregister_worktree(self.repo_root, self.tree)
                except _GitError as exc:
                    problem = str(exc)
                    logger.warning("could not unregister the worktree %s: %s", self.tree, exc)
            _rmtree(self.container)
            if os.path.lexists(self.container):
                # Keep the lock (collectors leave it alone while we live) and allow a retry;
                # after this process ends, collect_stale_workspaces() removes it.
                raise ShadowWorkspaceError(
                    f"could not delete the shadow workspace {self.container}"
                    + (f" ({problem})" if problem else "")
                )
            if self._lock_fd is not None:
                with contextlib.suppress(OSError):
                    os.close(self._lock_fd)
                self._lock_fd = None
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
            self.remove()
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
        task = asyncio.ensure_future(asyncio.to_thread(self.remove))
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
            workspace.remove()


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
    cancel = _Cancel(cancel_event)
    cancel.check()
    project = Path(os.path.realpath(project_root))
    if not project.is_dir():
        raise ShadowWorkspaceError(f"the project root {str(project_root)!r} is not a directory")
    if run_id is None:
        run_id = f"{datetime.now():%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:8]}"
    elif not _RUN_ID_RE.fullmatch(run_id):
        raise ShadowWorkspaceError(
            f"invalid run id {run_id!r}: use letters, digits, '.', '_' and '-' (max 100)"
        )
    git = _detect_git(project)
    base = _prepare_base_dir(base_dir, project, git.toplevel if git else None)
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
        ws._lock_fd = _write_owner(
            container,
            {
                "format": _OWNER_FORMAT,
                "pid": os.getpid(),
                "start_time": (_proc_stat(os.getpid()) or (None, None))[1],
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
            _copy_tree(project, root, str(project), cancel)
            node_modules = _find_node_modules(project)
        cancel.check()
        _link_node_modules(ws, git, node_modules)
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


def _populate_from_git(ws: ShadowWorkspace, git: _GitProject, cancel: _Cancel) -> list[str]:
    """Worktree + mirrored changes; return the project's node_modules (found meanwhile)."""
    assert ws.tree is not None
    # `git status` (of the user's tree), `git worktree add` (of the shadow) and the search for
    # node_modules run at the same time.
    status = _start_git_status(git)
    try:
        add = _start_worktree_add(git, ws.tree)
        try:
            node_modules = _find_node_modules(ws.project_root)
            add.finish()
        except BaseException:
            add.kill()
            raise
        cancel.check()
        if git.subdir != ".":
            _sparse_checkout(git, ws.tree)
        changed = _parse_status(status.finish())
    except BaseException:
        status.kill()
        raise
    if _head_commit(git.toplevel) != git.head:  # pragma: no cover - a commit raced us
        raise ShadowWorkspaceError(
            "the project's HEAD moved while the shadow workspace was being created "
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
        if rel.split("/", 1)[0] in _MIRROR_SKIP_TOP:
            continue
        _mirror_path(ws.project_root, project_real, ws.root, rel)
    return node_modules


def _link_node_modules(
    ws: ShadowWorkspace, git: _GitProject | None, node_modules: Sequence[str]
) -> None:
    for rel in node_modules:
        parts = rel.split("/")
        target = Path(os.path.realpath(ws.project_root.joinpath(*parts)))
        link = _prepare_parents(ws.root, parts)
        if os.path.lexists(link):
            _rmtree(link)
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
            link = _prepare_parents(ws.tree, [*above, "node_modules"])
            if os.path.lexists(link):
                _rmtree(link)
            os.symlink(os.path.realpath(source), link, target_is_directory=True)
            ws._extra_links.append(link)


async def create_shadow_workspace_async(
    project_root: Path,
    *,
    run_id: str | None = None,
    overlays: Mapping[str, str] | None = None,
    base_dir: Path | None = None,
) -> ShadowWorkspace:
    """:func:`create_shadow_workspace` in a worker thread, safe to cancel.

    If the awaiting task is cancelled, creation is told to stop, and this waits for the worker
    to finish and removes whatever it made before re-raising :class:`asyncio.CancelledError`.
    Use the result as ``async with``.
    """
    event = threading.Event()
    task = asyncio.ensure_future(
        asyncio.to_thread(
            create_shadow_workspace,
            project_root,
            run_id=run_id,
            overlays=overlays,
            base_dir=base_dir,
            cancel_event=event,
        )
    )
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        event.set()
        await _wait_through_cancellation(task)
        if task.exception() is None:
            removal = asyncio.ensure_future(asyncio.to_thread(task.result().remove))
            await _wait_through_cancellation(removal)
            if removal.exception() is not None:  # pragma: no cover - logged, cancel wins
                logger.error("removing a cancelled shadow workspace: %s", removal.exception())
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
            except (OSError, _GitError, ShadowWorkspaceError) as exc:
                logger.warning("could not collect the stale workspace %s: %s", container, exc)
    return removed


def _collect_one(container: Path) -> bool:
    owner_path = container / _OWNER_FILE
    try:
        fd = os.open(owner_path, os.O_RDONLY)
    except FileNotFoundError:
        if time.time() - container.stat().st_mtime < _ORPHAN_GRACE_SECONDS:
            return False
        logger.info("removing %s: no owner record (creation crashed)", container)
        _rmtree(container)
        return not os.path.lexists(container)
    try:
        if not _flock(fd, blocking=False):
            return False  # the owner (or another collector) holds it
        owner = _read_owner(owner_path)
        if owner is None:
            if time.time() - container.stat().st_mtime < _ORPHAN_GRACE_SECONDS:
                return False
        else:
            if owner.get("host", socket.gethostname()) != socket.gethostname():
                return False
            start_time = owner.get("start_time")
            if _process_alive(owner["pid"], start_time if isinstance(start_time, str) else None):
                return False
            repo, tree = owner.get("repo_toplevel"), owner.get("tree")
            if owner.get("kind") == "git-worktree" and isinstance(repo, str) and tree:
                try:
                    _unregister_worktree(Path(repo), Path(str(tree)))
                except _GitError as exc:
                    logger.warning("could not unregister the stale worktree %s: %s", tree, exc)
        logger.info("removing the stale shadow workspace %s", container)
        _rmtree(container)
    finally:
        os.close(fd)
    return not os.path.lexists(container)

"""git for the shadow workspace: hooks disabled, no prompts, a timeout, never the user's index.

Every command runs with ``GIT_OPTIONAL_LOCKS=0`` (``git status`` does not refresh the user's
index), without the user's ``GIT_DIR``-style variables and in its own process group.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..layout import NEVER_WALKED, is_secret_name
from .errors import ShadowWorkspaceError
from .files import rmtree

logger = logging.getLogger(__name__)

#: Upper bound for any single git command (a checkout of a very large repository included).
GIT_TIMEOUT_SECONDS = 300.0
#: Variables that would make git operate on another repository, index or work tree.
GIT_ENV_DROP = frozenset(
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


class GitError(Exception):
    pass


def git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in GIT_ENV_DROP}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    return env


class GitProcess:
    """A running git command (hooks disabled, no prompts, own process group)."""

    def __init__(self, args: Sequence[str], *, cwd: Path, config: Sequence[str] = ()) -> None:
        cmd = ["git", "-c", f"core.hooksPath={os.devnull}"]
        for item in config:
            cmd += ["-c", item]
        cmd += args
        self.shown = "git " + " ".join(args)
        self.held: int | None = None
        """A lock's file descriptor, closed once the command has ended."""
        try:
            self.proc = subprocess.Popen(
                cmd,
                cwd=cwd,
                env=git_env(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:
            raise GitError(f"cannot run `{self.shown}` in {str(cwd)!r}: {exc}") from exc

    def finish(self, timeout: float = GIT_TIMEOUT_SECONDS) -> bytes:
        """Wait for the command; return its stdout or raise GitError."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise GitError(f"`{self.shown}` timed out after {timeout:g} s") from None
        except BaseException:
            self.kill()
            raise
        self._release()
        if self.proc.returncode != 0:
            code = self.proc.returncode
            message = err.decode("utf-8", "replace").strip() or f"exit status {code}"
            raise GitError(f"`{self.shown}` failed: {message}")
        return out

    def kill(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(OSError):
                if sys.platform == "win32":  # pragma: no cover
                    self.proc.kill()
                else:
                    os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.communicate()
        self._release()

    def _release(self) -> None:
        if self.held is not None:
            os.close(self.held)
            self.held = None


def run_git(
    args: Sequence[str],
    *,
    cwd: Path,
    config: Sequence[str] = (),
    timeout: float = GIT_TIMEOUT_SECONDS,
) -> bytes:
    """Run git with hooks disabled, no prompts and a timeout; return stdout."""
    return GitProcess(args, cwd=cwd, config=config).finish(timeout)


@dataclass(frozen=True)
class GitProject:
    toplevel: Path
    subdir: str  # POSIX path of the project below toplevel, "." for the toplevel itself
    head: str
    common_dir: Path | None = None  # the repository's .git (shared by all its worktrees)


def detect_git(project: Path) -> GitProject | None:
    """The repository the project lives in, or None when a filtered copy must be used."""
    if shutil.which("git") is None:
        logger.info("git is not installed; using a filtered copy of %s", project)
        return None
    try:
        out = run_git(["rev-parse", "--show-toplevel", "--git-common-dir"], cwd=project)
    except GitError as exc:
        logger.info("%s is not in a git work tree (%s); using a filtered copy", project, exc)
        return None
    top_out, common_out = out.rstrip(b"\r\n").split(b"\n")[:2]
    toplevel = Path(os.path.realpath(os.fsdecode(top_out.rstrip(b"\r"))))
    common = Path(os.path.realpath(project / os.fsdecode(common_out.rstrip(b"\r"))))
    try:
        head = head_commit(toplevel)
    except GitError:
        logger.info("the repository %s has no commits yet; using a filtered copy", toplevel)
        return None
    subdir = Path(os.path.relpath(project, toplevel)).as_posix()
    if subdir != "." and git_ok(["check-ignore", "--quiet", "--", subdir], cwd=toplevel):
        logger.info("%s is ignored by git in %s; using a filtered copy", project, toplevel)
        return None
    return GitProject(toplevel=toplevel, subdir=subdir, head=head, common_dir=common)


def git_ok(args: Sequence[str], *, cwd: Path) -> bool:
    try:
        run_git(args, cwd=cwd)
    except GitError:
        return False
    return True


def head_commit(toplevel: Path) -> str:
    out = run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], cwd=toplevel)
    return out.decode("ascii").strip()


def cone_patterns(subdir: str) -> str:
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


def worktree_admin_dir(tree: Path) -> Path:
    text = (tree / ".git").read_text(encoding="utf-8").strip()
    if not text.startswith("gitdir:"):
        raise ShadowWorkspaceError(f"unexpected .git file in the worktree {tree}: {text!r}")
    return (tree / text[len("gitdir:") :].strip()).resolve()


SPARSE_CONFIG = ("core.sparseCheckout=true", "core.sparseCheckoutCone=true")


def start_worktree_add(git: GitProject, tree: Path) -> GitProcess:
    """``git worktree add`` of HEAD at ``tree``, one at a time per repository (across
    processes): git registers a worktree by creating its folder under ``.git/worktrees`` and
    then writing its files, and an add running meanwhile reads that half-made registration and
    fails ("failed to read .git/worktrees/app32/commondir"). The lock is held until the command
    is finished or killed."""
    tree.parent.mkdir(parents=True, exist_ok=True)
    args = ["worktree", "add", "--detach", "--quiet"]
    if git.subdir != ".":
        args.append("--no-checkout")  # checked out sparsely by sparse_checkout()
    held = worktrees_lock(git)
    try:
        process = GitProcess([*args, str(tree), git.head], cwd=git.toplevel)
    except BaseException:
        if held is not None:
            os.close(held)
        raise
    process.held = held
    return process


def worktrees_lock(git: GitProject) -> int | None:
    """An exclusive lock (``flock``, waited for) on the repository's git folder, as a file
    descriptor to close; None where it cannot be taken (no such folder, no ``flock``): the
    add then runs unlocked, as before."""
    if git.common_dir is None or not hasattr(fcntl, "flock"):
        return None
    try:
        fd = os.open(git.common_dir, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        os.close(fd)
        return None
    return fd


def sparse_checkout(git: GitProject, tree: Path) -> None:
    """Check out only the project's directory (and the files in the directories above it).

    A huge monorepo must not be checked out in full. `git sparse-checkout set` would turn on
    extensions.worktreeConfig in the user's repository config, so the per-worktree pattern
    file is written directly and the sparse setting is given on the command line only.
    """
    info = worktree_admin_dir(tree) / "info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "sparse-checkout").write_text(cone_patterns(git.subdir), encoding="utf-8")
    run_git(["read-tree", "-mu", "HEAD"], cwd=tree, config=SPARSE_CONFIG)


def worktree_registered(repo: Path, tree: Path) -> bool:
    out = run_git(["worktree", "list", "--porcelain", "-z"], cwd=repo)
    wanted = os.path.realpath(tree)
    for item in out.split(b"\0"):
        if item.startswith(b"worktree ") and os.path.realpath(os.fsdecode(item[9:])) == wanted:
            return True
    return False


def unregister_worktree(repo: Path, tree: Path) -> None:
    """Remove the worktree and its registration in the user's repository."""
    if not repo.is_dir():
        return  # the repository is gone: nothing is registered any more
    try:
        # twice: also when locked (the worktree is ours; nobody else should have locked it)
        run_git(["worktree", "remove", "--force", "--force", str(tree)], cwd=repo)
        return
    except GitError as exc:
        first_error = exc
    if worktree_registered(repo, tree):
        rmtree(tree)
        run_git(["worktree", "prune"], cwd=repo)
        if worktree_registered(repo, tree):
            raise first_error


STATUS_ARGS = (
    "--literal-pathspecs",
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--ignored=matching",  # generated inputs of the tests (see build_inputs)
    "--ignore-submodules=all",
    "--no-renames",  # a rename is a deletion plus an addition: both are mirrored
)
"""`git status` listing every path that differs from HEAD (see :func:`parse_status`) and the
ignored ones (:func:`parse_ignored`)."""


def start_git_status(git: GitProject) -> GitProcess:
    """`git status` of the project: what differs between HEAD and the working tree."""
    args = list(STATUS_ARGS)
    if git.subdir != ".":
        args += ["--", git.subdir]
    return GitProcess(args, cwd=git.toplevel)


def parse_status(out: bytes) -> list[str]:
    """Paths (relative to the repository) from `git status --porcelain=v1 -z` that differ from
    HEAD (ignored ones left out)."""
    paths: list[str] = []
    for entry in out.split(b"\0"):
        if len(entry) < 4 or entry.startswith(b"!!"):
            continue
        path = os.fsdecode(entry[3:])
        if path.endswith("/"):  # a nested repository shown as a directory
            continue
        paths.append(path)
    return paths


_BUILD_INPUT = re.compile(
    r"\.(?:css|scss|sass|less|styl|json|js|jsx|mjs|cjs|ts|tsx|mts|cts|svg|graphql|gql|ya?ml)$"
)
MAX_BUILD_INPUTS = 5_000
MAX_BUILD_INPUT_BYTES = 1024 * 1024


def parse_ignored(out: bytes) -> list[str]:
    """The ignored paths `git status --ignored=matching` lists (a folder ends with ``/``)."""
    return [os.fsdecode(entry[3:]) for entry in out.split(b"\0") if entry.startswith(b"!! ")]


def _files_of(ignored: Sequence[str], root: Path) -> Iterator[str]:
    """The ignored files, those of an ignored folder (one the walks never skip) included."""
    for path in ignored:
        if not path.endswith("/"):
            yield path
            continue
        if any(part in NEVER_WALKED for part in path.rstrip("/").split("/")):
            continue
        for directory, folders, names in os.walk(root / path):
            folders[:] = [f for f in folders if f not in NEVER_WALKED]
            base = Path(directory).relative_to(root).as_posix()
            for name in names:
                yield f"{base}/{name}"


def build_inputs(ignored: Sequence[str], root: Path) -> list[str]:
    """The ignored files a test may import that a build step made (the CSS compiled from SCSS,
    compiled locale messages, generated code): modules, styles and data, outside the folders
    never walked, no secret, no larger than 1 MB; at most 5,000 of them. ``root``: the
    repository the paths are relative to."""
    found: list[str] = []
    for path in _files_of(ignored, root):
        parts = path.split("/")
        if any(part in NEVER_WALKED for part in parts[:-1]) or is_secret_name(parts[-1]):
            continue
        if not _BUILD_INPUT.search(parts[-1]):
            continue
        try:
            if (root / path).stat().st_size > MAX_BUILD_INPUT_BYTES:
                continue
        except OSError:
            continue
        found.append(path)
        if len(found) >= MAX_BUILD_INPUTS:
            break
    return found


def mirrored_paths(status: bytes, git: GitProject) -> list[str]:
    """What a workspace copies from the user's tree (repository-relative): every path that
    differs from HEAD, and the ignored files a build step made that tests may import
    (``git.build_inputs``: compiled CSS, compiled locales, generated modules)."""
    ignored = build_inputs(parse_ignored(status), git.toplevel)
    return [*parse_status(status), *ignored]

"""Filesystem helpers of the shadow workspace (none of them follows a symlink in the
destination)."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from ..layout import INTERNAL_DIRS, NEVER_WALKED
from .errors import ShadowWorkspaceCancelled
from .paths import is_within, split_relative

logger = logging.getLogger(__name__)


def rmtree(path: Path) -> None:
    if not os.path.lexists(path):
        return
    if os.path.islink(path) or not os.path.isdir(path):
        os.unlink(path)
        return
    shutil.rmtree(path, ignore_errors=True)


def prepare_parents(root: Path, parts: Sequence[str]) -> Path:
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


def copy_file(src: str | Path, dst: str | Path) -> None:
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


def copy_symlink(src: str | Path, dst: str | Path, project_real: str) -> bool:
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


def mirror_path(project: Path, project_real: str, shadow_root: Path, rel: str) -> None:
    """Make ``shadow_root/rel`` match ``project/rel`` (file, symlink or absence)."""
    parts = split_relative(rel)
    src = project.joinpath(*parts)
    dst = shadow_root.joinpath(*parts)
    try:
        st = os.lstat(src)
    except FileNotFoundError:
        if os.path.lexists(dst):
            rmtree(dst)
        return
    if stat.S_ISDIR(st.st_mode):  # a submodule or nested repository: not mirrored
        return
    dst = prepare_parents(shadow_root, parts)
    if os.path.lexists(dst):
        rmtree(dst)
    if stat.S_ISLNK(st.st_mode):
        copy_symlink(src, dst, project_real)
    elif stat.S_ISREG(st.st_mode):
        copy_file(src, dst)


def copy_tree(src_root: Path, dst_root: Path, project_real: str, cancel: Cancel) -> None:
    """Filtered copy, without the folders never walked (``node_modules`` is linked instead;
    never hardlinks: tools like `eslint --fix` write files in place)."""
    dst_root.mkdir(parents=True, exist_ok=True)
    stack: list[tuple[str, str]] = [(str(src_root), str(dst_root))]
    while stack:
        cancel.check()
        src_dir, dst_dir = stack.pop()
        with os.scandir(src_dir) as entries:
            for entry in entries:
                dst = os.path.join(dst_dir, entry.name)
                if entry.is_symlink():
                    if entry.name not in NEVER_WALKED:
                        copy_symlink(entry.path, dst, project_real)
                elif entry.is_dir(follow_symlinks=False):
                    if entry.name not in NEVER_WALKED:
                        os.mkdir(dst)
                        stack.append((entry.path, dst))
                elif entry.is_file(follow_symlinks=False):
                    copy_file(entry.path, dst)


def find_node_modules(project: Path) -> list[str]:
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
                elif name not in INTERNAL_DIRS and entry.is_dir(follow_symlinks=False):
                    stack.append((rel, entry.path))
    return sorted(found)


def atomic_write(target: Path, data: bytes) -> None:
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


class Cancel:
    def __init__(self, event: threading.Event | None) -> None:
        self.event = event

    def check(self) -> None:
        if self.event is not None and self.event.is_set():
            raise ShadowWorkspaceCancelled("shadow workspace creation was cancelled")

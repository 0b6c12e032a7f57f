"""Walking and reading project files safely: ignored folders, glob patterns, text detection.

Everything here takes a project root and project-relative POSIX paths; every path is checked
with :func:`testmend.workspace.paths.resolve_in_root` before it is touched.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from testmend.layout import INTERNAL_DIRS, NEVER_WALKED, is_secret_name
from testmend.project.errors import (
    BinaryFileError,
    FileMissingError,
    FileTooLargeError,
    InvalidPatternError,
    NotAFileError,
    RefusedPathError,
)
from testmend.workspace.paths import PathEscapeError, resolve_in_root, split_relative

MAX_FILE_BYTES = 1024 * 1024
"""Files larger than this are not read or searched."""
MAX_WALK_FILES = 50_000
"""A recursive walk stops after this many files (the result says so)."""
_SNIFF_BYTES = 8192


def check_allowed(relative: str, parts: tuple[str, ...]) -> None:
    """Refuse internal folders and secret files (the path is inside the root already)."""
    for part in parts:
        if part in INTERNAL_DIRS:
            raise RefusedPathError(
                f"{relative!r} is inside {part!r}, which the project tools do not read"
            )
    if parts and is_secret_name(parts[-1]):
        raise RefusedPathError(
            f"{relative!r} may hold secrets (credentials, tokens); the project tools do not read it"
        )


def rel_of(parts: tuple[str, ...]) -> str:
    return "/".join(parts) if parts else "."


def resolve(
    root: Path, relative: str, read_roots: Sequence[Path] = ()
) -> tuple[Path, str, tuple[str, ...]]:
    """Validate ``relative`` and return (absolute path, normalised relative path, parts).

    ``read_roots``: real folders outside ``root`` that symlinks in it may lead to for reading
    (a shadow workspace's linked ``node_modules``)."""
    absolute = resolve_in_root(root, relative, extra_read_roots=read_roots)
    parts = split_relative(relative)
    rel = rel_of(parts)
    check_allowed(rel, parts)
    return absolute, rel, parts


# -- glob -------------------------------------------------------------------------------------

_WILDCARD_CHARS = frozenset("*?[{")


@dataclass(frozen=True)
class GlobPattern:
    """A compiled glob: a regex over project-relative paths and the literal folder to start in."""

    source: str
    regex: re.Pattern[str]
    base: tuple[str, ...]
    anchored: bool
    """False for a pattern without ``/`` used as a filter: it then matches the file name."""

    def matches(self, relative: str) -> bool:
        if self.anchored:
            return self.regex.fullmatch(relative) is not None
        return self.regex.fullmatch(relative.rsplit("/", 1)[-1]) is not None


def _translate(pattern: str) -> str:
    out: list[str] = []
    i = 0
    n = len(pattern)
    depth = 0
    while i < n:
        ch = pattern[i]
        if ch == "*":
            if pattern.startswith("**", i):
                at_start = i == 0 or pattern[i - 1] == "/"
                j = i + 2
                if at_start and j < n and pattern[j] == "/":
                    out.append("(?:[^/]+/)*")
                    i = j + 1
                    continue
                if at_start and j == n:
                    out.append(".*")
                    i = j
                    continue
                out.append("[^/]*")
                i = j
                continue
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            j = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if j == -1:
                out.append(re.escape(ch))
            else:
                body = pattern[i + 1 : j]
                negate = body[:1] in ("!", "^")
                if negate:
                    body = body[1:]
                body = body.replace("\\", "\\\\")
                out.append(f"[{'^/' if negate else ''}{body}]")
                i = j
        elif ch == "{":
            depth += 1
            out.append("(?:")
        elif ch == "}" and depth:
            depth -= 1
            out.append(")")
        elif ch == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(ch))
        i += 1
    if depth:
        raise InvalidPatternError(f"glob {pattern!r} has an unclosed '{{'")
    return "".join(out)


@lru_cache(maxsize=256)
def compile_glob(pattern: str, *, filter_mode: bool = False) -> GlobPattern:
    """Compile ``pattern`` (``src/**/*.test.tsx``, ``*.{ts,tsx}``) for project-relative paths.

    ``**`` spans folders, ``*``/``?`` stay within one name, ``[abc]`` and ``{a,b}`` work as in
    shells. Absolute patterns and ``..`` are refused (:class:`PathEscapeError`). In
    ``filter_mode`` (grep's ``glob=``) a pattern without ``/`` matches file names anywhere.
    """
    if not isinstance(pattern, str) or not pattern.strip():
        raise InvalidPatternError("the glob pattern is empty")
    text = pattern.strip().replace("\\", "/")
    parts = split_relative(text)  # refuses absolute paths, '~', '..'
    if not parts:
        raise InvalidPatternError(f"glob {pattern!r} matches only the root folder, not files")
    base: list[str] = []
    for part in parts[:-1]:
        if any(c in _WILDCARD_CHARS for c in part):
            break
        base.append(part)
    normalised = "/".join(parts)
    try:
        regex = re.compile(_translate(normalised))
    except re.error as error:
        raise InvalidPatternError(f"glob {pattern!r} is not valid: {error}") from None
    anchored = not (filter_mode and len(parts) == 1)
    return GlobPattern(pattern, regex, tuple(base) if anchored else (), anchored)


# -- walking ----------------------------------------------------------------------------------


@dataclass
class WalkStats:
    max_files: int = MAX_WALK_FILES
    files_seen: int = 0
    capped: bool = False


def walk_files(
    root: Path,
    start: tuple[str, ...] = (),
    *,
    ignored_dirs: Collection[str] = NEVER_WALKED,
    stats: WalkStats | None = None,
    read_roots: Sequence[Path] = (),
) -> Iterator[str]:
    """Project-relative paths of the regular files under ``start``, sorted per folder.

    Raises :class:`PathEscapeError`/:class:`RefusedPathError` when ``start`` itself is outside
    the root or internal. Ignored folders below ``start`` are not entered, symlinked folders
    are never followed, symlinked files are yielded only when they stay inside the root.
    Internal folders (``.git``, ``.testmend``) and secret files are always skipped. Stops after
    ``stats.max_files`` files (default :data:`MAX_WALK_FILES`; ``stats.capped``). A ``start``
    inside one of ``read_roots`` (through a linked ``node_modules``) is walked like a folder of
    the root.
    """
    stats = stats if stats is not None else WalkStats()
    absolute, _, _ = resolve(root, rel_of(start), read_roots)  # refuses a start outside
    stack: list[tuple[Path, tuple[str, ...]]] = [(absolute, start)]
    while stack:
        folder, parts = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        subdirs: list[tuple[Path, tuple[str, ...]]] = []
        for entry in entries:
            child = (*parts, entry.name)
            try:
                is_link = entry.is_symlink()
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in ignored_dirs and entry.name not in INTERNAL_DIRS:
                        subdirs.append((Path(entry.path), child))
                    continue
                if is_link:
                    try:
                        target = resolve_in_root(root, "/".join(child), extra_read_roots=read_roots)
                    except PathEscapeError:
                        continue
                    if not target.is_file():
                        continue
                elif not entry.is_file(follow_symlinks=False):
                    continue
            except OSError:
                continue
            if is_secret_name(entry.name):
                continue
            if stats.files_seen >= stats.max_files:
                stats.capped = True
                return
            stats.files_seen += 1
            yield "/".join(child)
        stack.extend(reversed(subdirs))


# -- reading ----------------------------------------------------------------------------------


def looks_binary(head: bytes) -> bool:
    return b"\x00" in head


def read_text_file(
    root: Path,
    relative: str,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    read_roots: Sequence[Path] = (),
) -> tuple[str, str]:
    """Read a project text file: returns (normalised relative path, text).

    Raises :class:`FileMissingError`, :class:`NotAFileError`, :class:`FileTooLargeError`,
    :class:`BinaryFileError`, :class:`RefusedPathError` or :class:`PathEscapeError`.
    """
    absolute, rel, _ = resolve(root, relative, read_roots)
    try:
        info = absolute.stat()
    except FileNotFoundError:
        raise FileMissingError(f"{rel!r} does not exist") from None
    except OSError as error:
        raise FileMissingError(f"{rel!r} cannot be opened: {error.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise NotAFileError(f"{rel!r} is a directory; use list_dir or glob_files to see its files")
    if not stat.S_ISREG(info.st_mode):
        raise NotAFileError(f"{rel!r} is not a regular file")
    if info.st_size > max_bytes:
        raise FileTooLargeError(
            f"{rel!r} is too large to read ({format_size(info.st_size)}; the limit is "
            f"{format_size(max_bytes)}); use grep to find the lines you need"
        )
    data = absolute.read_bytes()
    if looks_binary(data[:_SNIFF_BYTES]):
        raise BinaryFileError(f"{rel!r} is a binary file, not text")
    return rel, data.decode("utf-8", errors="replace")


def format_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    value = float(size)
    for unit in ("KB", "MB", "GB"):
        value /= 1024
        if value < 1024 or unit == "GB":
            break
    return f"{value:.1f} {unit}"

"""File tools for agents: glob, grep, read and list, always inside the project root.

Every path and pattern is project-relative and checked with
:func:`testmend.workspace.paths.resolve_in_root`: ``..``, absolute paths and symlinks leading out
of the root raise :class:`~testmend.workspace.paths.PathEscapeError`. Recursive searches skip
:data:`NEVER_WALKED` (``node_modules``, ``.git``, ``.testmend``, ``coverage``, build
output). ``.git``/``.testmend`` and secret files (``.env``, ``.npmrc``) are never read.

Results are capped. The list results (:class:`PathList`, :class:`GrepResult`) are ordinary lists
that also carry ``truncated``/``note``; ``str(result)`` renders the text an agent should see,
including the note when something was left out.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from testmend.layout import INTERNAL_DIRS, NEVER_WALKED, is_secret_name
from testmend.project._walk import (
    MAX_FILE_BYTES,
    MAX_WALK_FILES,
    WalkStats,
    compile_glob,
    format_size,
    looks_binary,
    read_text_file,
    rel_of,
    resolve,
    walk_files,
)
from testmend.project.errors import (
    FileMissingError,
    InvalidPatternError,
    NotAFileError,
    ProjectToolError,
)
from testmend.workspace.paths import PathEscapeError, is_within, resolve_in_root

__all__ = [
    "MAX_FILE_BYTES",
    "GrepMatch",
    "GrepResult",
    "PathList",
    "glob_files",
    "grep",
    "list_dir",
    "read_file",
    "read_files",
]

MAX_LINE_CHARS = 500
"""Lines longer than this are cut in read_file and grep output (minified code)."""
MAX_READ_FILES = 30
"""read_files reads at most this many paths per call."""
MAX_LIST_ENTRIES = 500
"""list_dir shows at most this many entries."""


class PathList(list[str]):
    """Sorted project-relative paths, plus whether the list was cut.

    ``str()`` gives one path per line and a closing note when paths were left out.
    """

    truncated: bool
    total: int
    note: str | None

    def __init__(
        self,
        paths: Iterable[str] = (),
        *,
        truncated: bool = False,
        total: int | None = None,
        note: str | None = None,
    ) -> None:
        super().__init__(paths)
        self.truncated = truncated
        self.total = len(self) if total is None else total
        self.note = note

    def __str__(self) -> str:
        lines = list(self)
        if self.note:
            lines.append(f"[{self.note}]")
        return "\n".join(lines) if lines else "(no files)"


class GrepMatch(BaseModel):
    """One matching line: ``path`` is project-relative, ``line`` 1-based."""

    model_config = ConfigDict(extra="forbid")

    path: str
    line: int
    text: str
    before: list[str] = []
    """Up to ``context`` lines before the match (oldest first)."""
    after: list[str] = []
    """Up to ``context`` lines after the match."""

    def __str__(self) -> str:
        out = [
            f"{self.path}-{self.line - len(self.before) + i}- {t}"
            for i, t in enumerate(self.before)
        ]
        out.append(f"{self.path}:{self.line}: {self.text}")
        out.extend(f"{self.path}-{self.line + 1 + i}- {t}" for i, t in enumerate(self.after))
        return "\n".join(out)


class GrepResult(list[GrepMatch]):
    """The matches of :func:`grep` in path/line order, plus whether the search was cut."""

    truncated: bool
    note: str | None

    def __init__(
        self, matches: Iterable[GrepMatch] = (), *, truncated: bool = False, note: str | None = None
    ) -> None:
        super().__init__(matches)
        self.truncated = truncated
        self.note = note

    def __str__(self) -> str:
        with_context = any(m.before or m.after for m in self)
        blocks = [str(m) for m in self]
        text = ("\n--\n" if with_context else "\n").join(blocks) if blocks else "(no matches)"
        if self.note:
            text += f"\n[{self.note}]"
        return text


def _clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return f"{line[:MAX_LINE_CHARS]}… [line cut: {len(line)} characters]"


def glob_files(
    root: Path,
    pattern: str,
    *,
    limit: int = 200,
    ignored_dirs: Collection[str] = NEVER_WALKED,
    max_files: int = MAX_WALK_FILES,
    read_roots: Sequence[Path] = (),
) -> PathList:
    """Project files whose relative path matches ``pattern``, sorted, at most ``limit``.

    ``**`` spans folders (``src/**/*.test.tsx``), ``*`` and ``?`` stay in one name, ``{a,b}`` and
    ``[abc]`` work as in shells. The pattern is matched against the whole path from the root:
    ``*.ts`` means files at the top level only. Ignored folders are skipped unless the pattern's
    literal start names one (``node_modules/@types/react/*.d.ts``); with ``read_roots`` (see
    :func:`~testmend.project._walk.resolve`) such a start may lead through a linked folder.
    """
    glob = compile_glob(pattern)
    if glob.base and glob.base[0] in INTERNAL_DIRS:
        resolve(root, rel_of(glob.base))  # raises RefusedPathError with the reason
    stats = WalkStats(max_files=max_files)
    matched = [
        p
        for p in walk_files(
            root, glob.base, ignored_dirs=ignored_dirs, stats=stats, read_roots=read_roots
        )
        if glob.matches(p)
    ]
    matched.sort()
    limit = max(1, limit)
    notes: list[str] = []
    truncated = len(matched) > limit
    if truncated:
        notes.append(f"showing {limit} of {len(matched)} files; narrow the pattern to see the rest")
    if stats.capped:
        truncated = True
        notes.append(f"the search stopped after {max_files} files; use a narrower folder")
    if not matched and "/" not in pattern.strip().replace("\\", "/"):
        notes.append(
            f"no files match at the top level; patterns are matched against the whole path "
            f"from the project root, use '**/{pattern.strip()}' to search every folder"
        )
    return PathList(
        matched[:limit], truncated=truncated, total=len(matched), note="; ".join(notes) or None
    )


def grep(
    root: Path,
    pattern: str,
    *,
    glob: str | None = None,
    ignore_case: bool = False,
    limit: int = 100,
    context: int = 0,
    ignored_dirs: Collection[str] = NEVER_WALKED,
    max_files: int = MAX_WALK_FILES,
    read_roots: Sequence[Path] = (),
) -> GrepResult:
    """Lines matching the Python regular expression ``pattern``, in path and line order.

    ``glob`` restricts the files: a pattern with ``/`` is matched against the whole relative
    path (``src/**/*.tsx``), one without ``/`` against the file name (``*.test.tsx``). Binary
    files and files over 1 MB are skipped; so are ignored folders (see :func:`glob_files`).
    ``context`` adds up to that many lines before/after each match (at most 10). An invalid
    regular expression raises :class:`InvalidPatternError` (a ``ValueError``).
    """
    if not isinstance(pattern, str) or pattern == "":
        raise InvalidPatternError("the search pattern is empty")
    try:
        regex = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    except re.error as error:
        raise InvalidPatternError(
            f"invalid regular expression {pattern!r}: {error} (patterns use Python `re` syntax; "
            f"escape special characters such as ( [ . * with a backslash)"
        ) from None
    file_glob = compile_glob(glob, filter_mode=True) if glob else None
    base = file_glob.base if file_glob else ()
    if base and base[0] in INTERNAL_DIRS:
        resolve(root, rel_of(base))
    limit = max(1, limit)
    context = max(0, min(context, 10))
    stats = WalkStats(max_files=max_files)
    matches: list[GrepMatch] = []
    skipped_large = 0
    truncated = False
    root_abs = Path(os.path.abspath(root))
    walked = walk_files(root, base, ignored_dirs=ignored_dirs, stats=stats, read_roots=read_roots)
    for rel in walked:
        if file_glob is not None and not file_glob.matches(rel):
            continue
        path = root_abs / rel
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                skipped_large += 1
                continue
            data = path.read_bytes()
        except OSError:
            continue
        if looks_binary(data[:8192]):
            continue
        lines = data.decode("utf-8", errors="replace").splitlines()
        for index, line in enumerate(lines):
            if regex.search(line) is None:
                continue
            if len(matches) >= limit:
                truncated = True
                break
            matches.append(
                GrepMatch(
                    path=rel,
                    line=index + 1,
                    text=_clip(line),
                    before=[_clip(x) for x in lines[max(0, index - context) : index]],
                    after=[_clip(x) for x in lines[index + 1 : index + 1 + context]],
                )
            )
        if truncated:
            break
    notes: list[str] = []
    if truncated:
        notes.append(f"stopped at {limit} matches; there are more, narrow the pattern or the glob")
    if stats.capped:
        truncated = True
        notes.append(f"the search stopped after {max_files} files; pass a narrower glob")
    if skipped_large:
        notes.append(f"{skipped_large} file(s) over {format_size(MAX_FILE_BYTES)} not searched")
    return GrepResult(matches, truncated=truncated, note="; ".join(notes) or None)


def read_file(
    root: Path,
    path: str,
    *,
    offset: int = 1,
    limit: int = 400,
    read_roots: Sequence[Path] = (),
) -> str:
    """A text file with line numbers (``  12| code``) from line ``offset``, ``limit`` lines at most.

    The header names the file and its total line count; a closing note says how to read on when
    lines were left out. Raises :class:`FileMissingError`, :class:`NotAFileError`,
    :class:`BinaryFileError`, :class:`FileTooLargeError` (over 1 MB), :class:`RefusedPathError`
    or :class:`PathEscapeError`.
    """
    rel, text = read_text_file(root, path, read_roots=read_roots)
    lines = text.splitlines()
    total = len(lines)
    offset = max(1, offset)
    limit = max(1, limit)
    if total == 0:
        return f"{rel} (empty file)"
    if offset > total:
        return (
            f"{rel} ({total} lines)\n[offset {offset} is past the end of the file ({total} lines)]"
        )
    end = min(total, offset + limit - 1)
    width = len(str(end))
    shown = "\n".join(f"{n:>{width + 2}}| {_clip(lines[n - 1])}" for n in range(offset, end + 1))
    header = (
        f"{rel} ({total} lines)"
        if offset == 1 and end == total
        else (f"{rel} (lines {offset}-{end} of {total})")
    )
    out = f"{header}\n{shown}"
    if end < total:
        out += f"\n[truncated: {total - end} more lines; read on with offset={end + 1}]"
    return out


def read_files(
    root: Path,
    paths: Sequence[str],
    *,
    limit_per_file: int = 200,
    total_char_budget: int = 60_000,
    read_roots: Sequence[Path] = (),
) -> str:
    """Several files in one answer, each as :func:`read_file` shows it (first ``limit_per_file``
    lines), until ``total_char_budget`` characters are used.

    A file that cannot be read (missing, binary, outside the root, …) is reported in place and
    does not stop the others; files left out by the budget or the :data:`MAX_READ_FILES` cap
    are named at the end.
    """
    if isinstance(paths, str):
        paths = [paths]
    unique = list(dict.fromkeys(paths))
    selected, over_cap = unique[:MAX_READ_FILES], unique[MAX_READ_FILES:]
    parts: list[str] = []
    used = 0
    skipped: list[str] = []
    for index, path in enumerate(selected):
        try:
            body = read_file(root, path, limit=limit_per_file, read_roots=read_roots)
        except (ProjectToolError, PathEscapeError) as error:
            body = f"{path}: error: {error}"
        remaining = total_char_budget - used
        if len(body) > remaining:
            if remaining >= 500:
                cut = body[:remaining].rsplit("\n", 1)[0]
                body = (
                    f"{cut}\n[cut: the total budget of {total_char_budget} characters is used up]"
                )
                parts.append(body)
            else:
                skipped.append(path)
            skipped.extend(selected[index + 1 :])
            break
        parts.append(body)
        used += len(body)
    text = "\n\n".join(parts)
    notes: list[str] = []
    if skipped:
        notes.append(f"not read (character budget used up): {', '.join(skipped)}")
    if over_cap:
        notes.append(f"not read (at most {MAX_READ_FILES} files per call): {', '.join(over_cap)}")
    if notes:
        text += "\n\n" + "\n".join(f"[{n}]" for n in notes)
    return text or "(no files requested)"


def list_dir(root: Path, path: str = ".", *, read_roots: Sequence[Path] = ()) -> str:
    """The entries of a project folder: folders end in ``/``, files show their size.

    Ignored folders (``node_modules``, ``coverage``, …) are listed but marked and not descended;
    symlinks say where they stay or that they lead out of the project (not followed).
    """
    absolute, rel, _ = resolve(root, path, read_roots)
    try:
        info = absolute.stat()
    except FileNotFoundError:
        raise FileMissingError(f"{rel!r} does not exist") from None
    if not stat.S_ISDIR(info.st_mode):
        raise NotAFileError(f"{rel!r} is a file, not a folder; use read_file to read it")
    try:
        with os.scandir(absolute) as it:
            entries = sorted(it, key=lambda e: (not e.is_dir(follow_symlinks=False), e.name))
    except OSError as error:
        raise FileMissingError(f"{rel!r} cannot be listed: {error.strerror}") from None
    prefix = "" if rel == "." else f"{rel}/"
    rows: list[str] = []
    for entry in entries[:MAX_LIST_ENTRIES]:
        name = entry.name
        if entry.is_symlink():
            try:
                target = resolve_in_root(root, prefix + name, extra_read_roots=read_roots)
            except PathEscapeError:
                rows.append(f"{name}@  (symlink leading outside the project: not followed)")
                continue
            kind = "folder" if target.is_dir() else "file"
            if not is_within(os.path.realpath(target), os.path.realpath(root)):
                rows.append(
                    f"{name}{'/' if kind == 'folder' else ''}  (link to the installed packages: "
                    "read-only; searches skip it unless the path names it, e.g. "
                    f"{prefix}{name}/react/package.json)"
                )
                continue
            rows.append(
                f"{name}{'/' if kind == 'folder' else ''}  (symlink to a {kind} in the project)"
            )
            continue
        if entry.is_dir(follow_symlinks=False):
            if name in INTERNAL_DIRS:
                rows.append(f"{name}/  (internal: not readable)")
            elif name in NEVER_WALKED:
                rows.append(f"{name}/  (ignored: not searched)")
            else:
                rows.append(f"{name}/")
            continue
        try:
            size = format_size(entry.stat(follow_symlinks=False).st_size)
        except OSError:  # pragma: no cover - vanished between scandir and stat
            size = "?"
        secret = "  (may hold secrets: not readable)" if is_secret_name(name) else ""
        rows.append(f"{name}  {size}{secret}")
    header = f"{rel if rel != '.' else '. (project root)'}: {len(entries)} entries"
    if not entries:
        return f"{header}\n(empty folder)"
    out = header + "\n" + "\n".join(rows)
    if len(entries) > MAX_LIST_ENTRIES:
        out += (
            f"\n[truncated: showing {MAX_LIST_ENTRIES} of {len(entries)} entries; use glob_files]"
        )
    return out

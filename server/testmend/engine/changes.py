"""The files a result changes, and the one check that they are still as the run found them.

Every face uses this: the CLI and the MCP server write a result (``write_result``), the language
server turns the changes into a workspace edit; all refuse when a file changed during the run
(``changed_since``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..layout import temp_name
from ..workspace.paths import resolve_in_root
from .hunks import hunks as hunks_of
from .hunks import take
from .models import RunResult


@dataclass(frozen=True)
class FileChange:
    path: str
    """Project-relative."""
    original: str | None
    """As the run found it (None: it did not exist)."""
    updated: str | None
    """As the result has it (None: delete it)."""


def result_changes(result: RunResult) -> list[FileChange]:
    """The test file first, then the other files (a re-recorded snapshot)."""
    changes = [FileChange(result.file, result.original, result.content)]
    changes += [
        FileChange(path, result.extra_originals.get(path), text)
        for path, text in result.extra_files.items()
    ]
    return [c for c in changes if c.original != c.updated]


def changed_since(changes: Sequence[FileChange], current: Callable[[str], str | None]) -> list[str]:
    """The files whose current content (``current(path)``) is neither what the run started from
    nor what the result makes of it (a module another result added already, say)."""
    return [c.path for c in changes if current(c.path) not in (c.original, c.updated)]


def pending(
    changes: Sequence[FileChange], current: Callable[[str], str | None]
) -> list[FileChange]:
    """The changes whose file is not already as the result has it."""
    return [c for c in changes if current(c.path) != c.updated]


def on_disk(root: Path) -> Callable[[str], str | None]:
    def read(relative: str) -> str | None:
        path = resolve_in_root(root, relative)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    return read


def write_changes(root: Path, changes: Sequence[FileChange]) -> None:
    """Write every file through a temporary file and a rename (never half-written)."""
    staged: list[tuple[Path, Path | None]] = []
    try:
        for change in changes:
            target = resolve_in_root(root, change.path)
            if change.updated is None:
                staged.append((target, None))
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = temp_name(target)
            tmp.write_text(change.updated, encoding="utf-8")
            staged.append((target, tmp))
    except OSError:
        for _, written in staged:
            if written is not None:
                written.unlink(missing_ok=True)
        raise
    for target, written in staged:
        if written is None:
            target.unlink(missing_ok=True)
        else:
            written.replace(target)


def sha256_text(text: str) -> str:
    """The SHA-256 of a file's text as testmend reads and writes it (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Written:
    written: bool
    message: str
    """One sentence: what was written, or why nothing was."""
    files: list[str] = field(default_factory=list)


def write_result(
    root: Path,
    result: RunResult,
    *,
    accept_review: bool = False,
    chosen: Sequence[int] | None = None,
    expected_sha256: str | None = None,
) -> Written:
    """Write what the engine accepted (or, with ``accept_review``, what needs review), and only
    over the content the run started from. ``chosen``: only these hunks of the test file (see
    ``hunks.py``); its other files (a snapshot, a module it imports) go with it only when every
    hunk is taken. ``expected_sha256``: the caller's idea of the file's current content, which
    must also be the content the run migrated from."""
    if not (result.applies or (accept_review and result.status == "needs_review")):
        hint = " (accepting the review writes it)" if result.status == "needs_review" else ""
        return Written(False, f"not written: {result.status}{hint}")
    if chosen is not None and not chosen:
        return Written(False, "nothing to write: no hunk was chosen")
    current = on_disk(root)
    now = current(result.file)
    if expected_sha256 is not None:
        if now == result.content and chosen is None:
            return Written(False, f"nothing to write: {result.file} already has this result")
        if expected_sha256.lower() != sha256_text(result.original):
            return Written(
                False,
                f"not written: expected_sha256 is not the content {result.file} was migrated "
                "from (get_result gives it as original_sha256)",
            )
        if now is None or sha256_text(now) != expected_sha256.lower():
            return Written(False, f"not written: {result.file} changed since it was migrated")
    changes = result_changes(result)
    if chosen is not None:
        total = len(hunks_of(result.original, result.content))
        text = take(result.original, result.content, chosen)
        main = FileChange(result.file, result.original, text)
        whole = set(chosen) == set(range(total))
        changes = [main, *(changes[1:] if whole else [])]
    stale = changed_since(changes, current)
    if stale:
        return Written(False, f"not written: {stale[0]} changed on disk during the run")
    changes = pending(changes, current)
    write_changes(root, changes)
    extra = [c.path for c in changes if c.path != result.file]
    taken = "" if chosen is None else f" ({len(set(chosen))} of {total} hunks)"
    message = "written" + taken + (f" (and {', '.join(extra)})" if extra else "")
    return Written(True, message, [c.path for c in changes])

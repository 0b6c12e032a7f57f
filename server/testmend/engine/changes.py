"""The files a result changes, and the one check that they are still as the run found them.

Both faces use this: the CLI writes the changes (``write_changes``), the language server turns
them into a workspace edit; both refuse when a file changed during the run (``changed_since``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..layout import temp_name
from ..workspace.paths import resolve_in_root
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

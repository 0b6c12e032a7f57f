"""Public data types and errors of :mod:`testmend.patching`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = [
    "AppliedEdit",
    "BlockFailure",
    "EditApplyError",
    "EditFormatError",
    "EditOutcome",
    "FailureKind",
    "MatchStrategy",
    "NearestRegion",
    "PatchError",
    "SearchReplace",
]

#: Caps that keep an error message short enough to hand back to a model.
MAX_REGION_LINES = 30
MAX_LINE_CHARS = 200
MAX_DETAILED_FAILURES = 5
MAX_MESSAGE_CHARS = 8000
#: A failure shown without its closest region is cut to this length.
MAX_BRIEF_CHARS = 600


class MatchStrategy(StrEnum):
    """How an edit found its place in the file, from strictest to most lenient."""

    EXACT = "exact"
    TRAILING_WHITESPACE = "trailing_whitespace"
    WHITESPACE = "whitespace"
    REINDENT = "reindent"
    SHRINK_CONTEXT = "shrink_context"
    SIMILARITY = "similarity"
    #: Empty SEARCH on a non-empty file: the replacement is appended.
    APPEND = "append"
    #: Empty SEARCH (or a ``--- /dev/null`` diff) on an empty file.
    CREATE = "create"
    #: A diff hunk without context or removed lines, placed by its header's line number.
    LINE_NUMBER = "line_number"


class FailureKind(StrEnum):
    NOT_FOUND = "not_found"
    AMBIGUOUS = "ambiguous"
    INVALID = "invalid"


@dataclass(frozen=True)
class SearchReplace:
    """One SEARCH/REPLACE block. ``search``/``replace`` are whole lines of text.

    An empty (or whitespace-only) ``search`` appends ``replace`` to the file, or creates the
    content when the file is empty. ``path`` is the file path line written before the block,
    if the agent wrote one.
    """

    search: str
    replace: str
    path: str | None = None


@dataclass(frozen=True)
class AppliedEdit:
    """Where one block/hunk applied.

    ``start_line``..``end_line`` (1-based, inclusive) is the region it replaced, in the file as
    it was when the edit applied (after the earlier edits of the same call). An insertion
    (append, create, line-number hunk) has ``end_line == start_line - 1``. ``score`` is 1.0
    except for ``shrink_context`` (fraction of SEARCH lines kept) and ``similarity`` (ratio).
    """

    strategy: MatchStrategy
    start_line: int
    end_line: int
    index: int = 0
    score: float = 1.0
    #: The lines it replaced, as they were in the file (joined with ``\n``, no final newline).
    replaced: str = ""


@dataclass(frozen=True)
class EditOutcome:
    content: str
    applied: list[AppliedEdit] = field(default_factory=list)

    @property
    def fuzzy(self) -> list[AppliedEdit]:
        """Edits placed approximately (``shrink_context``, ``similarity``): worth a re-read."""
        lenient = {MatchStrategy.SHRINK_CONTEXT, MatchStrategy.SIMILARITY}
        return [edit for edit in self.applied if edit.strategy in lenient]

    def summary(self) -> str:
        """A short agent-readable report; it shows what approximate edits replaced."""
        count = len(self.applied)
        parts = [f"Applied {count} edit{'s' if count != 1 else ''}."]
        for edit in self.fuzzy:
            how = (
                f"similarity {edit.score:.2f}"
                if edit.strategy == MatchStrategy.SIMILARITY
                else "after dropping context lines that did not match"
            )
            region = numbered(edit.replaced.split("\n"), edit.start_line)
            parts.append(
                f"Edit {edit.index + 1} was placed approximately ({how}) at "
                f"{span(edit.start_line, edit.end_line)}; it replaced these lines, which differ "
                f"from your text:\n{cap_lines(region, MAX_REGION_LINES)}\nRe-read that part of "
                f"the file to check the result."
            )
        return "\n\n".join(parts)


@dataclass(frozen=True)
class NearestRegion:
    """The part of the file most similar to a SEARCH text (or hunk's old lines)."""

    start_line: int
    end_line: int
    #: The region's lines, each prefixed with its 1-based line number (``"  12 | code"``).
    text: str
    #: difflib ratio between the SEARCH text and the region, over tokens (whitespace ignored).
    score: float
    #: A short diff, ``-`` SEARCH line / ``+`` file line, of where they differ.
    diff: str = ""


@dataclass(frozen=True)
class BlockFailure:
    """Why one block/hunk did not apply. ``index`` is 0-based; messages count from 1."""

    index: int
    kind: FailureKind
    reason: str
    nearest: NearestRegion | None = None
    #: For ambiguous matches: the competing regions, 1-based inclusive line ranges.
    candidates: tuple[tuple[int, int], ...] = ()
    #: How the block is named in messages (``"block 2 of 3"``, ``"hunk 1 of 2 (@@ ... @@)"``).
    label: str = ""


class PatchError(ValueError):
    """Base class: an edit proposed by the agent that could not be used."""


class EditFormatError(PatchError):
    """The edit text could not be parsed (or names another file). Nothing was applied."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(message if line is None else f"line {line} of the edit: {message}")


class EditApplyError(PatchError):
    """At least one block/hunk did not apply; the content was left untouched."""

    def __init__(
        self,
        failures: Sequence[BlockFailure],
        *,
        total: int,
        unit: str = "SEARCH/REPLACE block",
        would_apply: Sequence[AppliedEdit] = (),
    ) -> None:
        self.failures = list(failures)
        self.total = total
        self.unit = unit
        #: The edits that did match (they were not applied either).
        self.would_apply = list(would_apply)
        super().__init__(self.render())

    def render(self) -> str:
        """The agent-readable message: every failed block's reason; the closest regions of as
        many as fit in :data:`MAX_MESSAGE_CHARS` (at most :data:`MAX_DETAILED_FAILURES`)."""
        plural = "s" if self.total != 1 else ""
        header = (
            f"Edit rejected: {len(self.failures)} of {self.total} {self.unit}{plural} did not "
            f"apply, so nothing was applied (the file is unchanged)."
        )
        footer = ""
        if self.total > 1:
            footer = (
                f"Resend all {self.total} {self.unit}s, with the failed ones fixed, in one edit."
            )
        room = MAX_MESSAGE_CHARS - len(header) - len(footer) - 4
        parts = [header]
        for number, failure in enumerate(self.failures):
            brief = _brief(failure)
            later = (len(self.failures) - number - 1) * (MAX_BRIEF_CHARS + 2)
            detailed = _render_failure(failure) if number < MAX_DETAILED_FAILURES else brief
            if len(detailed) + 2 + later <= room:
                chosen = detailed
            elif len(brief) + 2 <= room:
                chosen = brief
            else:
                parts.append(f"… and {len(self.failures) - number} more failed {self.unit}s.")
                break
            parts.append(chosen)
            room -= len(chosen) + 2
        if footer:
            parts.append(footer)
        message = "\n\n".join(parts)
        if len(message) > MAX_MESSAGE_CHARS:  # pragma: no cover - the budget above prevents it
            suffix = "\n… (message truncated)"
            message = message[: MAX_MESSAGE_CHARS - len(suffix)].rstrip() + suffix
        return message


def _label(failure: BlockFailure) -> str:
    label = failure.label or f"#{failure.index + 1}"
    return f"{label[:1].upper()}{label[1:]}"


def _brief(failure: BlockFailure) -> str:
    text = f"{_label(failure)}: {failure.reason}"
    return text if len(text) <= MAX_BRIEF_CHARS else text[: MAX_BRIEF_CHARS - 1] + "…"


def _render_failure(failure: BlockFailure) -> str:
    lines = [f"{_label(failure)}: {failure.reason}"]
    nearest = failure.nearest
    if nearest is not None:
        lines.append(
            f"Closest region in the file: {span(nearest.start_line, nearest.end_line)} "
            f"(similarity {nearest.score:.2f}):"
        )
        lines.append(cap_lines(nearest.text, MAX_REGION_LINES))
        if nearest.diff:
            lines.append("Where your text differs (- yours, + file):")
            lines.append(cap_lines(nearest.diff, 12))
    return "\n".join(lines)


def span(start: int, end: int) -> str:
    """``"line 7"`` or ``"lines 7-9"`` (1-based, inclusive)."""
    return f"line {start}" if start >= end else f"lines {start}-{end}"


def numbered(lines: Sequence[str], first: int) -> str:
    """``lines`` prefixed with 1-based line numbers starting at ``first``."""
    width = len(str(first + max(len(lines) - 1, 0)))
    return "\n".join(f"{first + k:>{width}} | {line}" for k, line in enumerate(lines))


def cap_lines(text: str, limit: int) -> str:
    lines = text.split("\n")
    shown = [
        line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 1] + "…"
        for line in lines[:limit]
    ]
    if len(lines) > limit:
        shown.append(f"… ({len(lines) - limit} more lines)")
    return "\n".join(shown)

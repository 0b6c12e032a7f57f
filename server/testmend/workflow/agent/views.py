"""What an agent is shown of the candidate: all of it, line-numbered, when it fits its budget;
else an outline and the regions last changed. And what an edit changed, for the edit's reply.

Line numbers are the patcher's (``prompts.with_line_numbers``), so the numbers an agent reads
are the ones its edits and errors speak of.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from ...patching.lines import text_to_lines
from .prompts import CHARS_PER_TOKEN, with_line_numbers

Span = tuple[int, int]
"""1-based, inclusive line numbers in the new text."""

REGION_CONTEXT = 3
"""Unchanged lines shown around a change."""
MAX_REGION_LINES = 60
"""An edit's reply shows at most this many lines of what it changed."""

_OUTLINE = re.compile(
    r"^\s*(?:(?:describe|it|test|beforeEach|afterEach|beforeAll|afterAll)(?:\.\w+)*\s*\("
    r"|(?:export\s+)?(?:async\s+)?function\b|(?:export\s+)?(?:const|let)\s+\w+\s*=\s*(?:async\s*)?\("
    r"|jest\.mock\()"
)


def changed_spans(old: str, new: str) -> list[Span]:
    """The lines of ``new`` that differ from ``old``; a pure deletion is the line after it."""
    before, after = text_to_lines(old), text_to_lines(new)
    spans: list[Span] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, _a1, _a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if b2 > b1:
            spans.append((b1 + 1, b2))
        else:  # lines removed: the line that now follows them
            line = min(b1 + 1, max(len(after), 1))
            spans.append((line, line))
    return spans


def _widen(spans: Sequence[Span], context: int, last: int) -> list[Span]:
    """The spans with ``context`` lines either side, overlapping ones merged."""
    merged: list[Span] = []
    for start, end in sorted(spans):
        start, end = max(1, start - context), min(last, end + context)
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _numbered(lines: list[str], span: Span) -> str:
    """Lines ``span`` numbered exactly as the whole file's numbering shows them."""
    start, end = span
    width = len(str(len(lines)))
    return "\n".join(f"{n:>{width}} | {lines[n - 1]}" for n in range(start, end + 1))


def region_text(text: str, spans: Sequence[Span], *, max_lines: int = MAX_REGION_LINES) -> str:
    """The numbered lines of ``text`` around ``spans``, at most ``max_lines`` of them."""
    lines = text_to_lines(text)
    if not lines or not spans:
        return ""
    parts: list[str] = []
    shown = 0
    regions = _widen(spans, REGION_CONTEXT, len(lines))
    for index, (start, end) in enumerate(regions):
        room = max_lines - shown
        if room <= 0:
            parts.append(f"[… {len(regions) - index} more changed regions not shown …]")
            break
        end = min(end, start + room - 1)
        parts.append(_numbered(lines, (start, end)))
        shown += end - start + 1
    return "\n…\n".join(parts)


def changed_region(old: str, new: str) -> tuple[str, list[Span]]:
    """What an edit changed, as the new text's numbered lines (with context), and the spans."""
    spans = changed_spans(old, new)
    return region_text(new, spans), spans


def outline_entries(text: str) -> list[tuple[int, str]]:
    """The file's skeleton: its tests, hooks, helpers and mocks, with their line numbers."""
    return [
        (n, line.rstrip()[:160])
        for n, line in enumerate(text_to_lines(text), 1)
        if _OUTLINE.match(line)
    ]


def outline(text: str, *, near: int = 1, max_chars: int | None = None) -> str:
    """The skeleton, numbered; when longer than ``max_chars``, the entries around line
    ``near`` (where the agent works), saying what was left out."""
    width = len(str(len(text_to_lines(text))))
    rows = [f"{n:>{width}} | {line}" for n, line in outline_entries(text)]
    if max_chars is None or sum(len(r) + 1 for r in rows) <= max_chars:
        return "\n".join(rows)
    numbers = [n for n, _ in outline_entries(text)]
    centre = min(range(len(rows)), key=lambda i: abs(numbers[i] - near)) if rows else 0
    low = high = centre
    size = len(rows[centre]) + 1 if rows else 0
    room = max_chars - 80  # the two "… entries above/below" lines
    while True:
        grown = False
        for index in (high + 1, low - 1):
            if 0 <= index < len(rows) and size + len(rows[index]) + 1 <= room:
                size += len(rows[index]) + 1
                low, high = min(low, index), max(high, index)
                grown = True
        if not grown:
            break
    shown = rows[low : high + 1]
    if low:
        shown.insert(0, f"[… {low} entries above …]")
    if high < len(rows) - 1:
        shown.append(f"[… {len(rows) - 1 - high} entries below …]")
    return "\n".join(shown)


def candidate_view(text: str, *, budget_tokens: int, focus: Sequence[Span] = ()) -> str:
    """The whole candidate, line-numbered, when it fits ``budget_tokens``; else its outline
    and the regions around ``focus`` (the last edit), saying how to read the rest."""
    whole = with_line_numbers(text)
    budget_chars = budget_tokens * CHARS_PER_TOKEN
    if len(whole) <= budget_chars:
        return whole
    lines = text_to_lines(text)
    note = (
        f"[{len(lines)} lines, too long to show whole: the region last changed, then the "
        "file's outline. Read any other part with read_file (offset, limit) before you edit it.]"
    )
    heading = "Region last changed:" if focus else "Start of the file:"
    spans = list(focus) or [(1, min(len(lines), 40))]
    room_lines = max(10, budget_chars // 2 // 60)
    region = f"{heading}\n{region_text(text, spans, max_lines=room_lines)}"
    room = budget_chars - len(note) - len(region) - len("\n\n\n\nOutline:\n")
    skeleton = outline(text, near=spans[0][0], max_chars=max(room, 0))
    return f"{note}\n\n{region}\n\nOutline:\n{skeleton}"

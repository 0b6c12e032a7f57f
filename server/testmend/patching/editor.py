"""Final results to an LSP editor: minimal TextEdits, and applying them as an editor would.

The package does not import it (``from testmend.patching.editor import text_edits``): it needs
``lsprotocol``, whose types take a noticeable part of a second to import, and only the
language server and its tests use it.

LSP positions count lines split at ``\\r\\n``, ``\\n`` or ``\\r`` (not at U+2028 or form feeds)
and characters in UTF-16 code units, so an emoji (outside the BMP) counts as two.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from lsprotocol.types import Position, Range, TextEdit

__all__ = ["apply_text_edits", "text_edits", "utf16_len"]

_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_LSP_BREAK = re.compile(r"\r\n|\r|\n")


def utf16_len(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _end_position(lines: Sequence[str]) -> Position:
    """The position just past the document's last character."""
    if not lines:
        return Position(line=0, character=0)
    last = lines[-1]
    if _LSP_BREAK.search(last[-1:]):
        return Position(line=len(lines), character=0)
    return Position(line=len(lines) - 1, character=utf16_len(last))


def text_edits(original: str, updated: str) -> list[TextEdit]:
    """Minimal line-based edits turning ``original`` into ``updated`` (difflib opcodes).

    Ranges are in ``original``'s coordinates, do not overlap, and are sorted; apply them all
    at once (as one ``WorkspaceEdit``), not one after another.
    """
    old = _LSP_LINE.findall(original)
    new = _LSP_LINE.findall(updated)
    edits: list[TextEdit] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start = Position(line=i1, character=0) if i1 < len(old) else _end_position(old)
        end = Position(line=i2, character=0) if i2 < len(old) else _end_position(old)
        edits.append(TextEdit(range=Range(start=start, end=end), new_text="".join(new[j1:j2])))
    return edits


def _offset(text: str, starts: Sequence[int], position: Position) -> int:
    """The string index of an LSP position (a character past the line's end means its end)."""
    if position.line >= len(starts):
        raise ValueError(f"line {position.line} is past the end of the document")
    begin = starts[position.line]
    stop = starts[position.line + 1] if position.line + 1 < len(starts) else len(text)
    content = text[begin:stop].rstrip("\r\n")
    units = 0
    for index, char in enumerate(content):
        if units == position.character:
            return begin + index
        units += 2 if ord(char) > 0xFFFF else 1
        if units > position.character:
            raise ValueError(f"{position} points inside a surrogate pair")
    return begin + len(content)


def apply_text_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply LSP ``edits`` (all relative to ``text``, non-overlapping) as an editor would."""
    starts = [0, *(match.end() for match in _LSP_BREAK.finditer(text))]
    spans = []
    for order, edit in enumerate(edits):
        begin = _offset(text, starts, edit.range.start)
        end = _offset(text, starts, edit.range.end)
        if end < begin:
            raise ValueError(f"edit {order} has its end before its start: {edit.range}")
        spans.append((begin, end, order, edit.new_text))
    spans.sort()
    out: list[str] = []
    cursor = 0
    for begin, end, order, new_text in spans:
        if begin < cursor:
            raise ValueError(f"edit {order} overlaps another edit")
        out.append(text[cursor:begin])
        out.append(new_text)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)

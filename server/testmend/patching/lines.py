"""Line model shared by the appliers: file text as lines plus each line's own ending.

Files are split on ``\\n`` only (a ``\\r`` right before it belongs to the ending), never with
:meth:`str.splitlines`, which would also split on form feeds and U+2028 inside JS strings.
Unchanged lines keep their own ending; new lines get the file's dominant newline; and an edit
never changes whether the file ends with a newline unless told so (``\\ No newline``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Document", "is_blank", "newline_of", "text_to_lines"]


FENCE = re.compile(r"^\s*(?:```|~~~)[\w+.#-]*\s*$")
"""A Markdown code fence line (models wrap edits and diffs in them)."""


def is_blank(line: str) -> bool:
    return not line.strip()


def newline_of(text: str) -> str:
    """The newline mostly used in ``text`` (CRLF only when it dominates)."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf > text.count("\n") - crlf else "\n"


def text_to_lines(text: str) -> list[str]:
    """Agent-supplied text (search, replace, hunk body) as lines without endings.

    CRLF and CR-LF mixes become plain lines; one final newline does not add an empty line.
    """
    if not text:
        return []
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


@dataclass
class Document:
    """A mutable working copy of a file; ``texts[k]`` is line k (0-based) without its ending."""

    texts: list[str] = field(default_factory=list)
    endings: list[str] = field(default_factory=list)
    newline: str = "\n"

    @classmethod
    def parse(cls, content: str, *, fallback_newline: str = "\n") -> Document:
        """Split ``content``; ``fallback_newline`` is the newline of a file that has none yet."""
        texts: list[str] = []
        endings: list[str] = []
        parts = content.split("\n")
        for part in parts[:-1]:
            if part.endswith("\r"):
                texts.append(part[:-1])
                endings.append("\r\n")
            else:
                texts.append(part)
                endings.append("\n")
        if parts[-1]:
            texts.append(parts[-1])
            endings.append("")
        crlf, lf = endings.count("\r\n"), endings.count("\n")
        newline = fallback_newline if crlf == lf == 0 else "\r\n" if crlf > lf else "\n"
        return cls(texts, endings, newline)

    def render(self) -> str:
        return "".join(text + ending for text, ending in zip(self.texts, self.endings, strict=True))

    def __len__(self) -> int:
        return len(self.texts)

    def splice(
        self, start: int, end: int, new_texts: Sequence[str], *, final_newline: bool | None = None
    ) -> None:
        """Replace lines ``[start, end)`` with ``new_texts``.

        ``final_newline`` (only meaningful when the edit reaches the end of the file) forces
        whether the file ends with a newline; ``None`` keeps the file's current state.
        """
        at_eof = end == len(self.texts)
        had_lines = bool(self.texts)
        ended_with_newline = not had_lines or self.endings[-1] != ""
        self.texts[start:end] = list(new_texts)
        self.endings[start:end] = [self.newline] * len(new_texts)
        if not self.texts or not at_eof:
            return
        # every line but the last must end with a newline (the old last line may be in the middle
        # now, after an append); the last one follows the file's previous state unless told
        for k in range(max(0, start - 1), len(self.endings) - 1):
            if self.endings[k] == "":
                self.endings[k] = self.newline
        if final_newline is None:
            final_newline = ended_with_newline
        if final_newline:
            if self.endings[-1] == "":
                self.endings[-1] = self.newline
        else:
            self.endings[-1] = ""

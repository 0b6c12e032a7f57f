"""A result's change as numbered hunks, and the file with only some of them taken.

The hunks are those of the unified diff (three lines of context; a hunk is a group of changes
whose contexts touch), numbered from 0 in the order they appear. Taking some hunks keeps the
original's lines everywhere else, so the text a person accepts is exactly the original with the
changes they chose.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

CONTEXT = 3


@dataclass(frozen=True)
class Hunk:
    index: int
    """From 0, in the diff's order: what ``take`` and the faces' ``hunks`` arguments name."""
    original_start: int
    """First line of the original it covers (1-based; the diff's ``-a,b``)."""
    original_lines: int
    updated_start: int
    updated_lines: int
    text: str
    """The hunk as unified diff text, its ``@@`` header first."""
    changed_at: int = 1
    """The first line of the updated text that this hunk changes (1-based; for a hunk that
    only deletes, the line after the deletion)."""

    @property
    def header(self) -> str:
        return self.text.split("\n", 1)[0]


def _groups(a: list[str], b: list[str]) -> list[list[tuple[str, int, int, int, int]]]:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return list(matcher.get_grouped_opcodes(CONTEXT)) if a != b else []


def hunks(original: str, updated: str) -> list[Hunk]:
    """The hunks that turn ``original`` into ``updated``."""
    a, b = original.splitlines(keepends=True), updated.splitlines(keepends=True)
    found = []
    for index, group in enumerate(_groups(a, b)):
        first, last = group[0], group[-1]
        i1, i2, j1, j2 = first[1], last[2], first[3], last[4]
        change = next(op for op in group if op[0] != "equal")
        lines = [f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n"]
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                lines += [" " + _line(x) for x in a[a1:a2]]
                continue
            lines += ["-" + _line(x) for x in a[a1:a2]]
            lines += ["+" + _line(x) for x in b[b1:b2]]
        found.append(
            Hunk(
                index=index,
                original_start=i1 + 1 if i2 > i1 else i1,
                original_lines=i2 - i1,
                updated_start=j1 + 1 if j2 > j1 else j1,
                updated_lines=j2 - j1,
                text="".join(lines),
                changed_at=min(change[3] + 1, max(len(b), 1)),
            )
        )
    return found


def take(original: str, updated: str, chosen: Iterable[int]) -> str:
    """``original`` with the changes of the hunks ``chosen`` made (indexes from :func:`hunks`);
    every other line as the original has it. An index that names no hunk is a ``KeyError``."""
    a, b = original.splitlines(keepends=True), updated.splitlines(keepends=True)
    groups = _groups(a, b)
    wanted = set(chosen)
    unknown = sorted(i for i in wanted if not 0 <= i < len(groups))
    if unknown:
        raise KeyError(f"no hunk {unknown[0]}: the change has {len(groups)} (0–{len(groups) - 1})")
    out: list[str] = []
    position = 0
    for index, group in enumerate(groups):
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                continue
            out += a[position:a1]
            out += b[b1:b2] if index in wanted else a[a1:a2]
            position = a2
    out += a[position:]
    return "".join(out)


def _range(start: int, end: int) -> str:
    length = end - start
    first = start + 1 if length else start
    return f"{first}" if length == 1 else f"{first},{length}"


def _line(text: str) -> str:
    return text if text.endswith("\n") else text + "\n\\ No newline at end of file\n"

"""SEARCH/REPLACE blocks: parsing the agent's text and applying the blocks atomically.

Format (aider-like; 5–9 marker characters; an optional file path line and code fences around
a block are tolerated, as are CRLF line endings)::

    src/components/Counter/Counter.test.tsx
    ```tsx
    <<<<<<< SEARCH
    lines copied from the file
    =======
    the lines to put instead
    >>>>>>> REPLACE
    ```
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._paths import clean_path, same_file
from .lines import FENCE, Document, is_blank, newline_of, text_to_lines
from .matcher import NoMatch, locate
from .model import (
    AppliedEdit,
    BlockFailure,
    EditApplyError,
    EditFormatError,
    EditOutcome,
    MatchStrategy,
    SearchReplace,
)

__all__ = ["apply_search_replace", "parse_search_replace_blocks"]

_SEARCH = re.compile(r"^\s*<{5,9}\s*SEARCH\b.*$", re.IGNORECASE)
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_REPLACE = re.compile(r"^\s*>{5,9}\s*REPLACE\b.*$", re.IGNORECASE)
_CONFLICT_LIKE = re.compile(r"^\s*<{3,}")
_PATH_LINE = re.compile(
    r"^(?:(?:file|path)\s*:\s*)?(?P<path>(?:[\w.@$()\[\]-]+[/\\])*[\w.@$()\[\]-]*\w\.[A-Za-z0-9]+)$",
    re.IGNORECASE,
)

FORMAT_REMINDER = (
    "Expected one or more blocks like:\n"
    "<<<<<<< SEARCH\n"
    "exact lines from the file\n"
    "=======\n"
    "replacement lines\n"
    ">>>>>>> REPLACE"
)


def _strip_fences(lines: list[str]) -> list[str]:
    if len(lines) >= 2 and FENCE.match(lines[0]) and FENCE.match(lines[-1]):
        return lines[1:-1]
    return lines


def _as_text(lines: Sequence[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def _path_before(lines: Sequence[str], marker: int, floor: int) -> str | None:
    """The file path written on the line before a SEARCH marker (or before its fence)."""
    k = marker - 1
    if k >= floor and FENCE.match(lines[k]):
        k -= 1
    if k < floor:
        return None
    candidate = clean_path(lines[k]).rstrip(":").strip()
    matched = _PATH_LINE.match(candidate)
    return matched.group("path") if matched else None


def parse_search_replace_blocks(text: str) -> list[SearchReplace]:
    """All SEARCH/REPLACE blocks in ``text``, in order.

    Raises :class:`EditFormatError` (with the 1-based line of the problem) for an unterminated
    block, a missing or repeated ``=======`` divider, a stray ``>>>>>>> REPLACE``, or when the
    text holds no block at all.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    blocks: list[SearchReplace] = []
    state = "outside"
    opened = 0  # 0-based line of the current block's SEARCH marker
    search: list[str] = []
    replace: list[str] = []
    path: str | None = None
    floor = 0  # first line after the previous block; a path line cannot come from before

    def where() -> str:
        return f"block {len(blocks) + 1} (opened at line {opened + 1})"

    for number, line in enumerate(lines):
        if state == "outside":
            if _SEARCH.match(line):
                state, opened, search, replace = "search", number, [], []
                path = _path_before(lines, number, floor)
            elif _REPLACE.match(line):
                raise EditFormatError(
                    f"'{line.strip()}' without a '<<<<<<< SEARCH' and '=======' before it. "
                    + FORMAT_REMINDER,
                    line=number + 1,
                )
        elif state == "search":
            if _DIVIDER.match(line):
                state = "replace"
            elif _SEARCH.match(line) or _REPLACE.match(line):
                raise EditFormatError(
                    f"{where()} is missing its '=======' divider: it must separate the SEARCH "
                    f"lines from the REPLACE lines before '{line.strip()}'.",
                    line=number + 1,
                )
            else:
                search.append(line)
        elif _REPLACE.match(line):
            blocks.append(
                SearchReplace(
                    _as_text(_strip_fences(search)), _as_text(_strip_fences(replace)), path
                )
            )
            state, floor = "outside", number + 1
        elif _SEARCH.match(line):
            raise EditFormatError(
                f"{where()} is unterminated: a new '<<<<<<< SEARCH' starts before its "
                f"'>>>>>>> REPLACE' line.",
                line=number + 1,
            )
        elif _DIVIDER.match(line):
            raise EditFormatError(
                f"{where()} has a second '=======' divider; a block has exactly one, between "
                f"its SEARCH and REPLACE lines.",
                line=number + 1,
            )
        else:
            replace.append(line)
    if state == "search":
        raise EditFormatError(
            f"{where()} is unterminated: it has no '=======' divider and no '>>>>>>> REPLACE' "
            f"line.",
            line=opened + 1,
        )
    if state == "replace":
        raise EditFormatError(
            f"{where()} is unterminated: the '>>>>>>> REPLACE' line at its end is missing.",
            line=opened + 1,
        )
    if not blocks:
        hint = ""
        if any(_CONFLICT_LIKE.match(line) for line in lines):
            hint = " (found a '<<<' line, but the marker must be '<<<<<<< SEARCH')"
        raise EditFormatError(f"no SEARCH/REPLACE block found{hint}. {FORMAT_REMINDER}")
    return blocks


def apply_search_replace(
    content: str,
    blocks: str | Sequence[SearchReplace],
    *,
    path: str | None = None,
) -> EditOutcome:
    """Apply SEARCH/REPLACE blocks (or the agent text holding them) to ``content``.

    Blocks apply in order, each to the result of the previous ones. If any block fails,
    :class:`EditApplyError` reports every failed block and nothing is applied. With ``path``,
    a block that names another file is an :class:`EditFormatError`.
    """
    parsed = parse_search_replace_blocks(blocks) if isinstance(blocks, str) else list(blocks)
    if not parsed:
        raise EditFormatError(f"no SEARCH/REPLACE blocks to apply. {FORMAT_REMINDER}")
    if path is not None:
        others = sorted({b.path for b in parsed if b.path and not same_file(b.path, path)})
        if others:
            raise EditFormatError(
                f"the blocks name {', '.join(others)}, but this edit can only change {path}. "
                f"Send blocks for {path} only."
            )
    newline = (
        newline_of(blocks)
        if isinstance(blocks, str)
        else newline_of("".join(block.replace for block in parsed))
    )
    doc = Document.parse(content, fallback_newline=newline)
    applied: list[AppliedEdit] = []
    failures: list[BlockFailure] = []
    shifted = False
    total = len(parsed)
    for index, block in enumerate(parsed):
        search = text_to_lines(block.search)
        replace = text_to_lines(block.replace)
        if all(is_blank(line) for line in search):
            strategy = MatchStrategy.APPEND if doc.texts else MatchStrategy.CREATE
            at = len(doc)
            doc.splice(at, at, replace)
            applied.append(AppliedEdit(strategy, at + 1, at, index))
            shifted = shifted or bool(replace)
            continue
        result = locate(doc.texts, search, replace)
        if isinstance(result, NoMatch):
            reason = result.reason
            if shifted:
                reason += " (Line numbers are those of the file after the earlier blocks.)"
            failures.append(
                BlockFailure(
                    index,
                    result.kind,
                    reason,
                    result.nearest,
                    result.candidates,
                    label=f"block {index + 1} of {total}",
                )
            )
            continue
        replaced = "\n".join(doc.texts[result.start : result.end])
        doc.splice(result.start, result.end, result.replacement)
        applied.append(
            AppliedEdit(
                result.strategy, result.start + 1, result.end, index, result.score, replaced
            )
        )
        shifted = shifted or len(result.replacement) != result.end - result.start
    if failures:
        raise EditApplyError(failures, total=total, would_apply=applied)
    return EditOutcome(doc.render(), applied)

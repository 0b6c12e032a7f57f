"""Unified diffs written by an agent, repaired, parsed with ``unidiff`` and applied leniently.

Agents get the bookkeeping of unified diffs wrong: hunk header counts, ``a/``/``b/`` prefixes,
missing ``---``/``+++`` headers, a context line's leading space, bare ``@@ @@`` headers. So the
text is always normalised first (the counts are re-derived from each hunk's body; a header's
line numbers are kept only as a hint), then parsed by :class:`unidiff.PatchSet`, and each hunk
is placed by the same lenient matcher as SEARCH/REPLACE blocks (its context and ``-`` lines are
the SEARCH text; its leading/trailing context lines may be dropped by ``shrink_context``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from ._paths import clean_path, same_file
from .lines import FENCE, Document, is_blank
from .matcher import NoMatch, locate
from .model import (
    AppliedEdit,
    BlockFailure,
    EditApplyError,
    EditFormatError,
    EditOutcome,
    FailureKind,
    MatchStrategy,
)

__all__ = ["apply_unified_diff"]

DEV_NULL = "/dev/null"
_NUMBERS = re.compile(r"-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?")
_GIT_HEADER = re.compile(r"^diff --git (?P<source>\S+) (?P<target>\S+)")
_BODY_PREFIXES = (" ", "+", "-", "\\")
_WHAT = "text of the hunk's context and '-' lines"


@dataclass
class _RawHunk:
    header: str
    line: int  # 1-based line of the header in the agent's text
    source_start: int | None
    source_length: int | None
    target_length: int | None
    body: list[str] = field(default_factory=list)


@dataclass
class _RawFile:
    source: str | None = None
    target: str | None = None
    hunks: list[_RawHunk] = field(default_factory=list)

    @property
    def path(self) -> str | None:
        for name in (self.target, self.source):
            if name and name != DEV_NULL:
                return clean_path(name.split("\t")[0], diff_prefix=True)
        return None


@dataclass(frozen=True)
class _Hunk:
    label: str
    source_start: int | None
    source_length: int | None
    search: list[str]
    replace: list[str]
    context: tuple[int, int]
    source_no_newline: bool
    target_no_newline: bool


def _file_name(header_line: str) -> str:
    name = header_line[4:].split("\t")[0].strip()
    return DEV_NULL if name == DEV_NULL else clean_path(name, diff_prefix=True)


def _scan(text: str) -> list[_RawFile]:
    """Split the agent's text into files and hunks, tolerating prose, fences and bad headers."""
    lines = text.replace("\r\n", "\n").split("\n")
    files: list[_RawFile] = []
    current: _RawFile | None = None
    hunk: _RawHunk | None = None
    k = 0
    while k < len(lines):
        line = lines[k]
        git = _GIT_HEADER.match(line)
        if git:
            current, hunk = _RawFile(git["source"], git["target"]), None
            files.append(current)
        elif line.startswith("--- ") and k + 1 < len(lines) and lines[k + 1].startswith("+++ "):
            source, target = _file_name(line), _file_name(lines[k + 1])
            if current is None or current.hunks:
                current = _RawFile()
                files.append(current)
            current.source, current.target, hunk = source, target, None
            k += 1
        elif line.startswith("@@"):
            if current is None:
                current = _RawFile()
                files.append(current)
            numbers = _NUMBERS.search(line)
            if numbers:
                start, old, _, new = numbers.groups()
                hunk = _RawHunk(line.strip(), k + 1, int(start), int(old or 1), int(new or 1))
            else:
                hunk = _RawHunk(line.strip(), k + 1, None, None, None)
            current.hunks.append(hunk)
        elif FENCE.match(line):
            hunk = None
        elif hunk is not None:
            hunk.body.append(line)
        k += 1
    return files


def _is_body_line(line: str) -> bool:
    return line.startswith(_BODY_PREFIXES)


def _prose_start(hunk: _RawHunk) -> int:
    """Where prose after the hunk starts: at a blank line where the header's counts are met,
    if an unprefixed (prose) line follows before the end; else the end of the body."""
    body = hunk.body
    old = new = 0
    for k, line in enumerate(body):
        if (
            (old, new) == (hunk.source_length, hunk.target_length)
            and line.strip() == ""
            and any(rest and not _is_body_line(rest) for rest in body[k + 1 :])
        ):
            return k
        kind = line[:1] if _is_body_line(line) else " "
        old += kind in " -"
        new += kind in " +"
    return len(body)


def _canonical_body(hunk: _RawHunk) -> list[str]:
    """The hunk body with prose trimmed, dropped context spaces restored; [] if no change."""
    body = hunk.body[: _prose_start(hunk)]
    end = len(body)
    while end and (body[end - 1] == "" or not _is_body_line(body[end - 1])):
        end -= 1
    out: list[str] = []
    for line in body[:end]:
        if line.startswith("\\"):
            out.append("\\ No newline at end of file")
        elif _is_body_line(line):
            out.append(line)
        else:
            out.append(" " + line)  # a context line whose leading space was lost (or blank)
    if not any(line[:1] in "+-" for line in out):
        return []
    return out


def _canonical_text(files: list[_RawFile]) -> tuple[str, list[_RawHunk]]:
    parts: list[str] = []
    kept: list[_RawHunk] = []
    for raw in files:
        bodies = [(h, _canonical_body(h)) for h in raw.hunks]
        bodies = [(h, b) for h, b in bodies if b]
        if not bodies:
            continue
        source = DEV_NULL if raw.source == DEV_NULL else "a/file"
        target = DEV_NULL if raw.target == DEV_NULL else "b/file"
        parts.append(f"--- {source}\n+++ {target}\n")
        for raw_hunk, body in bodies:
            old = sum(1 for line in body if line[:1] in " -")
            new = sum(1 for line in body if line[:1] in " +")
            start = raw_hunk.source_start or 0
            parts.append(f"@@ -{start},{old} +{start},{new} @@\n")
            parts.extend(f"{line}\n" for line in body)
            kept.append(raw_hunk)
    return "".join(parts), kept


def _parse(diff_text: str, path: str | None) -> tuple[list[_Hunk], bool]:
    """The hunks to apply and whether the diff creates the file (``--- /dev/null``)."""
    files = _scan(diff_text)
    if not any(raw.hunks for raw in files):
        raise EditFormatError(
            "no hunk found in the diff: each change must start with a line like "
            "'@@ -12,7 +12,8 @@' followed by ' ' context, '-' removed and '+' added lines."
        )
    named = sorted({raw.path for raw in files if raw.hunks and raw.path})
    if path is not None:
        others = [name for name in named if not same_file(name, path)]
        if others:
            raise EditFormatError(
                f"the diff changes {', '.join(others)}, but this edit can only change {path}. "
                f"Send a diff of {path} only."
            )
    elif len(named) > 1:
        raise EditFormatError(
            f"the diff changes {len(named)} files ({', '.join(named)}); send one diff per file."
        )
    creates = any(raw.source == DEV_NULL for raw in files if raw.hunks)
    text, raw_hunks = _canonical_text(files)
    if not raw_hunks:
        raise EditFormatError("the diff changes nothing: its hunks have no '+' or '-' lines.")
    try:
        patch = PatchSet(text)
    except UnidiffParseError as exc:  # pragma: no cover - the canonical text is well formed
        raise EditFormatError(f"could not parse the diff: {exc}") from exc
    parsed = [hunk for patched in patch for hunk in patched]
    total = len(parsed)
    hunks: list[_Hunk] = []
    for number, (hunk, raw) in enumerate(zip(parsed, raw_hunks, strict=True), start=1):
        search: list[str] = []
        replace: list[str] = []
        kinds: list[str] = []
        source_no_newline = target_no_newline = False
        for line in hunk:
            value = line.value[:-1] if line.value.endswith("\n") else line.value
            if line.line_type == "\\":
                previous = kinds[-1] if kinds else " "
                source_no_newline = source_no_newline or previous in " -"
                target_no_newline = target_no_newline or previous in " +"
                continue
            kinds.append(line.line_type)
            if line.line_type in " -":
                search.append(value)
            if line.line_type in " +":
                replace.append(value)
        changed = [k for k, kind in enumerate(kinds) if kind != " "]
        lead, trail = changed[0], len(kinds) - 1 - changed[-1]
        header = raw.header if len(raw.header) <= 60 else raw.header[:57] + "..."
        hunks.append(
            _Hunk(
                label=f"hunk {number} of {total} ({header}, line {raw.line} of the diff)",
                source_start=raw.source_start,
                source_length=raw.source_length,
                search=search,
                replace=replace,
                context=(lead, trail),
                source_no_newline=source_no_newline,
                target_no_newline=target_no_newline,
            )
        )
    return hunks, creates


def apply_unified_diff(content: str, diff_text: str, *, path: str | None = None) -> EditOutcome:
    """Apply a unified diff (one file) to ``content``; all hunks or nothing.

    ``path`` is the file being edited: file headers naming another file are an
    :class:`EditFormatError` (without it, the diff may name one file only). Hunks are placed by
    the lenient matcher, in order, each on the result of the previous ones; header line numbers
    only place hunks that have neither context nor removed lines.
    """
    hunks, creates = _parse(diff_text, path)
    if creates and content.strip():
        raise EditFormatError(
            "the diff creates the file ('--- /dev/null'), but the file already has content; "
            "write the diff against the current content."
        )
    doc = Document.parse(content, fallback_newline=_body_newline(diff_text))
    applied: list[AppliedEdit] = []
    failures: list[BlockFailure] = []
    delta = 0  # line count change of the hunks applied so far (for line-number placement)
    for index, hunk in enumerate(hunks):
        if all(is_blank(line) for line in hunk.search):
            placed = _place_by_number(doc, hunk, delta)
            if isinstance(placed, BlockFailure):
                failures.append(BlockFailure(index, placed.kind, placed.reason, label=hunk.label))
                continue
            start, end, strategy = placed
            score = 1.0
            replacement = hunk.replace
        else:
            result = locate(doc.texts, hunk.search, hunk.replace, context=hunk.context, what=_WHAT)
            if isinstance(result, NoMatch):
                failures.append(
                    BlockFailure(
                        index,
                        result.kind,
                        result.reason,
                        result.nearest,
                        result.candidates,
                        label=hunk.label,
                    )
                )
                continue
            start, end, strategy = result.start, result.end, result.strategy
            score, replacement = result.score, result.replacement
        final_newline: bool | None = None
        if hunk.target_no_newline:
            final_newline = False
        elif hunk.source_no_newline:
            final_newline = True
        replaced = "\n".join(doc.texts[start:end])
        doc.splice(start, end, replacement, final_newline=final_newline)
        applied.append(AppliedEdit(strategy, start + 1, end, index, score, replaced))
        delta += len(replacement) - (end - start)
    if failures:
        raise EditApplyError(failures, total=len(hunks), unit="hunk", would_apply=applied)
    return EditOutcome(doc.render(), applied)


def _body_newline(diff_text: str) -> str:
    """The newline of the diff's content lines (the newline for a file that has none yet)."""
    body = [
        line
        for line in diff_text.split("\n")[:-1]
        if line[:1] in " +-" and not line.startswith(("+++ ", "--- "))
    ]
    crlf = sum(1 for line in body if line.endswith("\r"))
    return "\r\n" if crlf > len(body) - crlf else "\n"


def _place_by_number(
    doc: Document, hunk: _Hunk, delta: int
) -> tuple[int, int, MatchStrategy] | BlockFailure:
    """Where a hunk with only added (and blank context) lines goes: the start of an empty file,
    else its header's line."""
    if not doc.texts:
        return 0, 0, MatchStrategy.CREATE
    if hunk.source_start is None:
        return BlockFailure(
            0,
            FailureKind.INVALID,
            "the hunk has only '+' lines and its header has no line numbers, so its place is "
            "unknown; include 2-3 unchanged context lines (prefixed with a space) around the "
            "added lines.",
        )
    # '@@ -12,0 ...' inserts after line 12; '@@ -12,3 ...' (a miscounted header) before it
    after = hunk.source_start if hunk.source_length == 0 else hunk.source_start - 1
    at = max(after, 0) + delta
    end = at + len(hunk.search)  # blank context lines, if any, must be there
    if end > len(doc) or not all(is_blank(line) for line in doc.texts[at:end]):
        where = f"after line {at}" if at <= len(doc) else f"after line {at}, past the end"
        return BlockFailure(
            0,
            FailureKind.INVALID,
            f"the hunk's only anchor is its header's line number ({where}; the file has "
            f"{len(doc)} lines) and it does not fit there; include 2-3 unchanged, non-blank "
            f"context lines around the added lines.",
        )
    return at, end, MatchStrategy.LINE_NUMBER

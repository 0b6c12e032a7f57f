"""The lenient matcher shared by SEARCH/REPLACE blocks and diff hunks.

Given the file's lines, the lines to find (``search``) and the lines to put instead
(``replace``), :func:`locate` tries, in order, and stops at the first strategy that finds
anything:

1. ``exact``
2. ``trailing_whitespace`` — lines equal once trailing whitespace is dropped
3. ``whitespace`` — same indentation, runs of inner whitespace collapsed
4. ``reindent`` — the block matches after a uniform indentation shift; the replacement is
   shifted the same way
5. ``shrink_context`` — leading/trailing lines that are unchanged (or blank) in the search
   text are dropped, fewest first, until the rest matches by 1–4
6. ``similarity`` — the window (search size ±1 line) with the highest difflib ratio over
   tokens (identifiers, numbers, punctuation; whitespace ignored), if it reaches
   :data:`SIMILARITY_THRESHOLD` and beats every non-overlapping runner-up by
   :data:`SIMILARITY_MARGIN`

Several matches found by the same strategy are an ambiguity, reported, never guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from .lines import is_blank
from .model import FailureKind, MatchStrategy, NearestRegion, numbered, span

__all__ = ["SIMILARITY_MARGIN", "SIMILARITY_THRESHOLD", "Match", "NoMatch", "locate"]

SIMILARITY_THRESHOLD = 0.9
SIMILARITY_MARGIN = 0.05
#: At most this many competing places are listed in an ambiguity message.
MAX_CANDIDATES = 6
#: Bounds the similarity search in huge or very repetitive files: token comparisons (pairs of
#: tokens considered) spent on ratios, about 0.25 s of work; the nearest-region search gets half.
RATIO_BUDGET = 3_000_000
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Match:
    start: int  # 0-based, first line replaced
    end: int  # exclusive
    replacement: list[str]
    strategy: MatchStrategy
    score: float = 1.0


@dataclass(frozen=True)
class NoMatch:
    kind: FailureKind
    reason: str
    nearest: NearestRegion | None = None
    candidates: tuple[tuple[int, int], ...] = ()


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _collapse(line: str) -> str:
    return " ".join(line.split())


def _ws_norm(line: str) -> str:
    body = line.strip()
    if not body:
        return ""
    return _indent(line) + " ".join(body.split())


def _common_indent(lines: Sequence[str]) -> str:
    indents = [_indent(line) for line in lines if not is_blank(line)]
    if not indents:
        return ""
    shortest, longest = min(indents), max(indents)
    size = 0
    while size < len(shortest) and shortest[size] == longest[size]:
        size += 1
    return shortest[:size]


def _dedent_norm(lines: Sequence[str], prefix: str) -> list[str]:
    return [_ws_norm(line[len(prefix) :]) if not is_blank(line) else "" for line in lines]


def _reindent(lines: Sequence[str], old: str, new: str) -> list[str]:
    """Move ``lines`` from indentation ``old`` to ``new`` (lines indented less: by the delta)."""
    if old == new:
        return list(lines)
    delta = len(new) - len(old)
    shifted: list[str] = []
    for line in lines:
        if is_blank(line):
            shifted.append(line)
        elif line.startswith(old):
            shifted.append(new + line[len(old) :])
        elif delta > 0:
            shifted.append(new[:delta] + line)
        else:
            indent = _indent(line)
            shifted.append(line[min(len(indent), -delta) :])
    return shifted


class _Haystack:
    """The file's lines under each normalisation, computed once per edit."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.exact = list(lines)
        self.rstrip = [line.rstrip() for line in lines]
        self.ws = [_ws_norm(line) for line in lines]
        self.collapsed = [_collapse(line) for line in lines]
        self.positions: dict[str, list[int]] = {}
        for number, key in enumerate(self.collapsed):
            self.positions.setdefault(key, []).append(number)

    def candidates(self, search: Sequence[str]) -> list[int]:
        """Starts where the search matches with all whitespace collapsed (a superset)."""
        needle = [_collapse(line) for line in search]
        anchor = next((k for k, key in enumerate(needle) if key), None)
        if anchor is None:
            return []
        size = len(needle)
        starts: list[int] = []
        for position in self.positions.get(needle[anchor], []):
            start = position - anchor
            if 0 <= start <= len(self.exact) - size and (
                self.collapsed[start : start + size] == needle
            ):
                starts.append(start)
        return starts


def _strict(hay: _Haystack, search: Sequence[str], replace: Sequence[str]) -> list[Match]:
    """Strategies 1–4; the matches of the first strategy that finds any."""
    starts = hay.candidates(search)
    if not starts:
        return []
    size = len(search)
    levels = (
        (MatchStrategy.EXACT, hay.exact, list(search)),
        (MatchStrategy.TRAILING_WHITESPACE, hay.rstrip, [line.rstrip() for line in search]),
        (MatchStrategy.WHITESPACE, hay.ws, [_ws_norm(line) for line in search]),
    )
    for strategy, keys, needle in levels:
        found = [start for start in starts if keys[start : start + size] == needle]
        if found:
            return [Match(start, start + size, list(replace), strategy) for start in found]
    old_indent = _common_indent(search)
    dedented = _dedent_norm(search, old_indent)
    matches: list[Match] = []
    for start in starts:
        window = hay.exact[start : start + size]
        new_indent = _common_indent(window)
        if _dedent_norm(window, new_indent) == dedented:
            replacement = _reindent(replace, old_indent, new_indent)
            matches.append(Match(start, start + size, replacement, MatchStrategy.REINDENT))
    return matches


def _shared_ends(search: Sequence[str], replace: Sequence[str]) -> tuple[int, int]:
    limit = min(len(search), len(replace))
    head = 0
    while head < limit and search[head] == replace[head]:
        head += 1
    tail = 0
    while tail < limit - head and search[-1 - tail] == replace[-1 - tail]:
        tail += 1
    return head, tail


def _count_blank(lines: Sequence[str]) -> int:
    count = 0
    for line in lines:
        if not is_blank(line):
            break
        count += 1
    return count


def _shrink(
    hay: _Haystack,
    search: Sequence[str],
    replace: Sequence[str],
    context: tuple[int, int] | None,
) -> list[Match]:
    """Strategy 5: drop unchanged (or blank) lines at the ends of the search, fewest first."""
    if list(search) == list(replace):
        return []  # a no-op block must match as written
    if context is None:
        shared_head, shared_tail = _shared_ends(search, replace)
        head = max(shared_head, _count_blank(search))
        tail = max(shared_tail, _count_blank(search[::-1]))
    else:
        shared_head, shared_tail = head, tail = context
    size = len(search)
    for dropped in range(1, min(head + tail, size - 1) + 1):
        found: dict[tuple[int, int], Match] = {}
        for lead in range(max(0, dropped - tail), min(dropped, head) + 1):
            trail = dropped - lead
            kept = search[lead : size - trail]
            if all(is_blank(line) for line in kept):
                continue
            kept_replace = replace[min(lead, shared_head) : len(replace) - min(trail, shared_tail)]
            for match in _strict(hay, kept, kept_replace):
                found.setdefault(
                    (match.start, match.end),
                    Match(
                        match.start,
                        match.end,
                        match.replacement,
                        MatchStrategy.SHRINK_CONTEXT,
                        round(len(kept) / size, 3),
                    ),
                )
        if found:
            return list(found.values())
    return []


def _distinct(scored: list[tuple[float, int, int]], size: int) -> list[tuple[float, int, int]]:
    """Best-first windows, dropping any that overlap a better one (same place, other size)."""
    ranked = sorted(scored, key=lambda item: (-item[0], abs(item[2] - item[1] - size), item[1]))
    kept: list[tuple[float, int, int]] = []
    for item in ranked:
        if all(item[2] <= other[1] or item[1] >= other[2] for other in kept):
            kept.append(item)
    return kept


class _TokenWindows:
    """Similarity of the search to windows of the file: a difflib ratio over tokens.

    Lines become identifier/number/punctuation tokens (whitespace ignored) plus an end-of-line
    token; a token weighs its length, so the ratio is close to a character ratio (a renamed
    long identifier costs more than a missing semicolon). It is computed hierarchically:
    difflib aligns whole lines, then matches tokens line by line inside the runs of lines that
    differ, which keeps it cheap. The weighted token multiset overlap of each window, kept up to
    date while sliding, bounds the ratio from above, so ratios are computed best-bound first and
    only while they can still matter.
    """

    def __init__(self, hay: _Haystack, search: Sequence[str]) -> None:
        self.ids: dict[str, int] = {"\n": 0}
        self.weights: list[int] = [1]
        self.lines = [self._tokens(line) for line in hay.exact]
        self.line_weights = [self._weigh(line) for line in self.lines]
        self.search_lines = [self._tokens(line) for line in search]
        self.search = [token for line in self.search_lines for token in line]
        self.search_weight = self._weigh(self.search)
        self.size = len(search)
        self.line_matcher = SequenceMatcher(None, [], self.search_lines, autojunk=False)
        self.work = 0

    def _tokens(self, line: str) -> tuple[int, ...]:
        tokens: list[int] = []
        for token in _TOKEN.findall(line):
            number = self.ids.setdefault(token, len(self.ids))
            if number == len(self.weights):
                self.weights.append(len(token))
            tokens.append(number)
        tokens.append(0)
        return tuple(tokens)

    def _weigh(self, tokens: Sequence[int]) -> int:
        return sum(self.weights[token] for token in tokens)

    def bounds(self) -> list[tuple[float, int, int]]:
        """(upper bound of the ratio, start, end) of every search-sized window, best first."""
        need = Counter(self.search)
        weights = self.weights
        size = min(self.size, len(self.lines))
        have: Counter[int] = Counter()
        common = length = 0
        out: list[tuple[float, int, int]] = []
        for end, line in enumerate(self.lines):
            for token in line:
                if have[token] < need[token]:
                    common += weights[token]
                have[token] += 1
            length += self.line_weights[end]
            start = end - size + 1
            if start > 0:
                for token in self.lines[start - 1]:
                    have[token] -= 1
                    if have[token] < need[token]:
                        common -= weights[token]
                length -= self.line_weights[start - 1]
            if start >= 0:
                out.append((2.0 * common / (length + self.search_weight), start, end + 1))
        out.sort(key=lambda item: -item[0])
        return out

    def ratio(self, start: int, end: int) -> float:
        window = self.lines[start:end]
        self.line_matcher.set_seq1(window)
        self.work += len(window) * self.size
        matched = 0
        for tag, i1, i2, j1, j2 in self.line_matcher.get_opcodes():
            if tag == "equal":
                matched += sum(self.line_weights[start + i1 : start + i2])
            elif tag == "replace":
                matched += self._match_lines(window[i1:i2], self.search_lines[j1:j2])
        return 2.0 * matched / (sum(self.line_weights[start:end]) + self.search_weight)

    def _match_lines(self, old: Sequence[tuple[int, ...]], new: Sequence[tuple[int, ...]]) -> int:
        """Matched weight of two runs of differing lines, pairing lines in order.

        Equal-length runs pair line by line; otherwise the longer run's extra lines are taken
        as one contiguous insertion at the best split point. Either way it is an order-keeping
        matching, so it never exceeds the multiset bound.
        """
        if len(old) < len(new):
            old, new = new, old
        extra = len(old) - len(new)
        head = [self._match_tokens(old[k], new[k]) for k in range(len(new))]
        if not extra:
            return sum(head)
        tail = [self._match_tokens(old[k + extra], new[k]) for k in range(len(new))]
        best = running = sum(tail)
        for k in range(len(new)):  # split after new[k]: head pairs before, tail pairs after
            running += head[k] - tail[k]
            best = max(best, running)
        return best

    def _match_tokens(self, old: Sequence[int], new: Sequence[int]) -> int:
        self.work += len(old) * len(new)
        matcher = SequenceMatcher(None, old, new, autojunk=False)
        weights = self.weights
        return sum(
            weights[token]
            for block in matcher.get_matching_blocks()
            for token in old[block.a : block.a + block.size]
        )

    def refine(self, places: Sequence[tuple[float, int, int]]) -> list[tuple[float, int, int]]:
        """The places' one-line-shorter and -longer variants, scored."""
        seen = {(start, end) for _, start, end in places}
        scored: list[tuple[float, int, int]] = []
        for _, start, end in places:
            for first, last in (
                (start, end - 1),
                (start + 1, end),
                (start - 1, end),
                (start, end + 1),
            ):
                if 0 <= first < last <= len(self.lines) and (first, last) not in seen:
                    seen.add((first, last))
                    scored.append((self.ratio(first, last), first, last))
        return scored


def _best_places(scored: list[tuple[float, int, int]], size: int) -> list[tuple[float, int, int]]:
    """The windows worth trying one line shorter and longer: the few best, and the best of the
    few best distinct places (a neighbour of a slightly worse window may win)."""
    ranked = sorted(scored, key=lambda item: -item[0])[:4]
    for place in _distinct(scored, size)[:3]:
        if place not in ranked:
            ranked.append(place)
    return ranked


def _similar(
    hay: _Haystack, search: Sequence[str], *, floor: float, margin: float
) -> tuple[list[tuple[float, int, int]], bool]:
    """Distinct windows with a ratio of at least ``floor``, best first, and whether the search
    was complete: every search-sized window that could come within ``margin`` of the best was
    scored (False when :data:`RATIO_BUDGET` ran out first, in a very repetitive file). The
    best places are then also tried one line shorter and longer."""
    windows = _TokenWindows(hay, search)
    scored: list[tuple[float, int, int]] = []
    best = 0.0
    complete = True
    for bound, start, end in windows.bounds():
        if bound < max(floor, best - margin):
            break
        if windows.work > RATIO_BUDGET:
            complete = False
            break
        ratio = windows.ratio(start, end)
        scored.append((ratio, start, end))
        best = max(best, ratio)
    scored.extend(windows.refine(_best_places(scored, len(search))))
    return _distinct([item for item in scored if item[0] >= floor], len(search)), complete


def _nearest_window(hay: _Haystack, search: Sequence[str]) -> tuple[float, int, int]:
    """The most similar window, however poor (the best found within the budget)."""
    windows = _TokenWindows(hay, search)
    best = (-1.0, 0, 0)
    for bound, start, end in windows.bounds():
        if bound <= best[0] or windows.work > RATIO_BUDGET // 2:
            break
        ratio = windows.ratio(start, end)
        if ratio > best[0]:
            best = (ratio, start, end)
    refined = [best, *windows.refine([best])]
    return max(refined, key=lambda item: (item[0], -abs(item[2] - item[1] - len(search))))


def _difference(search: Sequence[str], region: Sequence[str]) -> str:
    out: list[str] = []
    opcodes = SequenceMatcher(None, list(search), list(region), autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        out.extend(f"-{line}" for line in search[i1:i2])
        out.extend(f"+{line}" for line in region[j1:j2])
    return "\n".join(out)


def nearest_region(lines: Sequence[str], search: Sequence[str]) -> NearestRegion | None:
    """The region of ``lines`` most similar to ``search`` (None for an empty file/search)."""
    if not lines or all(is_blank(line) for line in search):
        return None
    score, start, end = _nearest_window(_Haystack(lines), search)
    region = lines[start:end]
    return NearestRegion(
        start_line=start + 1,
        end_line=end,
        text=numbered(region, start + 1),
        score=round(score, 3),
        diff=_difference(search, region),
    )


def _ranges(matches: Sequence[tuple[int, int]]) -> str:
    shown = [f"{start + 1}-{end}" if end - start > 1 else f"{start + 1}" for start, end in matches]
    if len(shown) > MAX_CANDIDATES:
        shown = [*shown[:MAX_CANDIDATES], f"… {len(shown) - MAX_CANDIDATES} more"]
    return ", ".join(shown)


_HOW = {
    MatchStrategy.TRAILING_WHITESPACE: "ignoring trailing whitespace",
    MatchStrategy.WHITESPACE: "ignoring whitespace",
    MatchStrategy.REINDENT: "ignoring indentation",
    MatchStrategy.SHRINK_CONTEXT: "once its unmatched context lines are dropped",
}


def _ambiguous(matches: Sequence[Match], what: str) -> NoMatch:
    places = sorted({(match.start, match.end) for match in matches})
    strategy = matches[0].strategy
    if strategy == MatchStrategy.EXACT:
        found = f"occurs {len(places)} times in the file"
    else:
        found = f"matches {len(places)} places in the file {_HOW[strategy]}"
    return NoMatch(
        FailureKind.AMBIGUOUS,
        f"the {what} {found} (lines {_ranges(places)}). Add unchanged lines just before or "
        f"after it so that it matches exactly one place.",
        candidates=tuple((start + 1, end) for start, end in places),
    )


def locate(
    lines: Sequence[str],
    search: Sequence[str],
    replace: Sequence[str],
    *,
    context: tuple[int, int] | None = None,
    what: str = "SEARCH text",
) -> Match | NoMatch:
    """Find where ``search`` is in ``lines``; see the module docstring for the order.

    ``context`` is the number of leading and trailing search lines that ``shrink_context``
    may drop (a diff hunk's context lines, shared with ``replace``); ``None`` derives it from
    the lines ``search`` and ``replace`` share at either end, and leading/trailing blank lines.
    ``search`` must contain a non-blank line.
    """
    if not lines:
        return NoMatch(
            FailureKind.NOT_FOUND,
            f"the file is empty, so the {what} cannot match anything; to write the whole "
            f"content, use an empty SEARCH section (or a diff with only '+' lines).",
        )
    hay = _Haystack(lines)
    found = _strict(hay, search, replace)
    if len(found) == 1:
        return found[0]
    if found:
        return _ambiguous(found, what)
    found = _shrink(hay, search, replace, context)
    if len(found) == 1:
        return found[0]
    if found:
        return _ambiguous(found, what)
    floor = SIMILARITY_THRESHOLD - SIMILARITY_MARGIN
    windows, complete = _similar(hay, search, floor=floor, margin=SIMILARITY_MARGIN)
    if windows and windows[0][0] >= SIMILARITY_THRESHOLD:
        score, start, end = windows[0]
        rivals = [w for w in windows[1:] if score - w[0] < SIMILARITY_MARGIN]
        if not complete:
            return NoMatch(
                FailureKind.AMBIGUOUS,
                f"the {what} was not found exactly, and the file has too many regions similar "
                f"to it to pick one safely (the best: {span(start + 1, end)}, similarity "
                f"{score:.2f}). Copy the lines exactly from the file.",
                candidates=tuple((s + 1, e) for _, s, e in windows[:MAX_CANDIDATES]),
            )
        if rivals:
            places = sorted((w[1], w[2]) for w in [windows[0], *rivals])
            return NoMatch(
                FailureKind.AMBIGUOUS,
                f"the {what} was not found exactly, and {len(places)} places are about "
                f"equally similar to it (lines {_ranges(places)}, similarity "
                f"{score:.2f}). Copy the lines exactly from the file and add unchanged lines "
                f"around them so that they match one place.",
                candidates=tuple((s + 1, e) for s, e in places),
            )
        replacement = _reindent(replace, _common_indent(search), _common_indent(lines[start:end]))
        return Match(start, end, replacement, MatchStrategy.SIMILARITY, round(score, 3))
    nearest = nearest_region(lines, search)
    best = f" (best similarity {nearest.score:.2f} < {SIMILARITY_THRESHOLD})" if nearest else ""
    return NoMatch(
        FailureKind.NOT_FOUND,
        f"the {what} was not found in the file, not even ignoring whitespace and indentation "
        f"or approximately{best}. Copy the lines exactly from the current file (indentation, "
        f"blank lines and comments included); re-read the file if it may have changed.",
        nearest=nearest,
    )

"""Which text query finds the element that shows a text a test asserts of what no query
selects, from the capture's texts of the page (``FindRecord.texts``): each element with text of
its own as Testing Library's text queries read it, whether it is inside what the find selected,
and all of its text."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from ..syntax import js_string, regex_escape

PageTexts = list[tuple[str, bool, str | None]]
"""One run's page: (its own text, inside the find's elements, all its text or None)."""

MIN_PIECE = 3


@dataclass(frozen=True)
class TextQuery:
    args: str
    """The text query's argument in code: ``'t'`` or ``/t/``."""
    part: bool = False
    """The element shows the text only with its children's (``Available: <b>1.0</b>``): the
    query finds it by its own part, and the text is asserted of it."""


def text_query(
    runs: list[PageTexts], wanted: str, *, whole: bool, negated: bool
) -> TextQuery | None:
    """The query, agreed on by every run, for the element of the page that shows ``wanted``
    inside what the find selected (``whole``: all its text is ``wanted``; ``negated``: that no
    element of the page shows it). None where a run disagrees or the text is written so that
    Testing Library reads it otherwise (spaces at its ends or in a row)."""
    if not runs or not wanted or wanted != " ".join(wanted.split()) or (negated and whole):
        return None
    found = {_one_run(texts, wanted, whole=whole, negated=negated) for texts in runs}
    return found.pop() if len(found) == 1 else None


def _one_run(texts: PageTexts, wanted: str, *, whole: bool, negated: bool) -> TextQuery | None:
    hits = [
        (own, inside) for own, inside, _all in texts if (own == wanted if whole else wanted in own)
    ]
    if negated:
        return None if hits else TextQuery(f"/{regex_escape(wanted)}/")
    if len(hits) == 1 and hits[0][1]:
        own = hits[0][0]
        return TextQuery(js_string(wanted) if own == wanted else f"/{regex_escape(wanted)}/")
    if hits or whole:
        return None
    return _shown_with_children(texts, wanted)


def _shown_with_children(texts: PageTexts, wanted: str) -> TextQuery | None:
    """The innermost element inside whose whole text holds ``wanted``, found by the longest
    part of its own text that is in ``wanted`` too, when that part is most of its own text
    (not a few letters that happen to be in both) and selects it alone."""
    holders = [
        (len(text), index)
        for index, (_own, inside, text) in enumerate(texts)
        if inside and text is not None and wanted in text
    ]
    if not holders:
        return None
    holders.sort()
    if len(holders) > 1 and holders[1][0] == holders[0][0]:
        return None  # two elements as deep show it: which one is the test's is not known
    index = holders[0][1]
    own = texts[index][0]
    match = SequenceMatcher(None, own, wanted, autojunk=False).find_longest_match(
        0, len(own), 0, len(wanted)
    )
    piece = own[match.a : match.a + match.size].strip()
    letters = sum(c.isalnum() for c in piece)
    if len(piece) < MIN_PIECE or letters * 2 < sum(c.isalnum() for c in own):
        return None
    selected = [i for i, (other, _inside, _all) in enumerate(texts) if piece in other]
    if selected != [index]:
        return None
    return TextQuery(f"/{regex_escape(piece)}/", part=True)

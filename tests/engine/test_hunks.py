"""A result's hunks, and the file with only some of them taken: every hunk taken is the result,
none is the original, and each taken alone changes only its own lines."""

from __future__ import annotations

import random

import pytest

from testmend.engine.hunks import hunks, take


def _edited(seed: int) -> tuple[str, str]:
    rng = random.Random(seed)
    lines = [f"line {i}\n" for i in range(60)]
    edited = list(lines)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(edited))
        kind = rng.choice("insert replace delete")
        if kind == "insert":
            edited.insert(at, f"new {rng.random()}\n")
        elif kind == "replace":
            edited[at] = f"changed {rng.random()}\n"
        elif len(edited) > 1:
            del edited[at]
    return "".join(lines), "".join(edited)


@pytest.mark.parametrize("seed", range(40))
def test_taking_hunks_gives_the_original_with_exactly_those_changes(seed: int) -> None:
    original, updated = _edited(seed)
    found = hunks(original, updated)
    assert take(original, updated, range(len(found))) == updated
    assert take(original, updated, []) == original
    for hunk in found:
        alone = take(original, updated, [hunk.index])
        (only,) = hunks(original, alone)
        assert only.text.split("\n", 1)[1] == hunk.text.split("\n", 1)[1]


def test_hunks_read_like_a_unified_diff_and_an_unknown_one_is_refused() -> None:
    original = "".join(f"line {n}\n" for n in range(1, 30))
    updated = original.replace("line 3\n", "three\n").replace("line 25\n", "twenty-five\n")
    first, second = hunks(original, updated)
    assert first.header == "@@ -1,6 +1,6 @@" and "-line 3\n+three\n" in first.text
    assert second.header == "@@ -22,7 +22,7 @@"
    assert (first.original_start, first.original_lines) == (1, 6)
    assert (first.changed_at, second.changed_at) == (3, 25)
    with pytest.raises(KeyError, match="no hunk 2"):
        take(original, updated, [2])
    assert hunks(original, original) == []


def test_a_file_without_a_final_newline_says_so() -> None:
    (hunk,) = hunks("a\nb", "a\nc")
    assert hunk.text.endswith("+c\n\\ No newline at end of file\n")
    assert take("a\nb", "a\nc", [0]) == "a\nc"

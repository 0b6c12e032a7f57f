"""Randomized properties of the patchers (fixed seeds)."""

from __future__ import annotations

import random
import textwrap

import pytest

from testmend.patching import (
    EditApplyError,
    FailureKind,
    MatchStrategy,
    SearchReplace,
    apply_search_replace,
    apply_unified_diff,
    unified_diff,
)
from testmend.patching.editor import apply_text_edits, text_edits


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def block(search: str, replace: str) -> str:
    return f"<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n"


BUTTON_TEST = dedent(
    """
    import React from 'react';
    import { shallow, mount } from 'enzyme';
    import { Button } from './Button';

    describe('<Button />', () => {
      it('renders the label', () => {
        const wrapper = shallow(<Button label="Save" />);
        expect(wrapper.find('button').text()).toBe('Save');
      });

      it('calls onClick when clicked', () => {
        const onClick = jest.fn();
        const wrapper = mount(<Button label="Save" onClick={onClick} />);
        wrapper.find('button').simulate('click');
        expect(onClick).toHaveBeenCalledTimes(1);
      });

      it('is disabled while saving', () => {
        const wrapper = shallow(<Button label="Save" saving />);
        expect(wrapper.find('button').prop('disabled')).toBe(true);
      });
    });
    """
)


# -- randomized properties (fixed seeds) -------------------------------------------------------

_PIECES = ["a", "b", "const x = 1;", "  });", "", "🎉", "é", "\t", "it('x')", "😀😀"]


def _random_text(rng: random.Random) -> str:
    lines = [
        rng.choice(_PIECES) + rng.choice(["", "", "z", "🙂"]) for _ in range(rng.randint(0, 8))
    ]
    newline = rng.choice(["\n", "\n", "\r\n", "\r"])
    text = newline.join(lines)
    if lines and rng.random() < 0.6:
        text += newline
    if rng.random() < 0.15:
        text = text.replace("\n", "\r\n", 1)  # mixed endings
    return text


def test_text_edits_round_trip_on_random_pairs() -> None:
    rng = random.Random(20240611)
    for _ in range(1500):
        original = _random_text(rng)
        updated = _random_text(rng) if rng.random() < 0.5 else _mutate(rng, original)
        edits = text_edits(original, updated)
        assert apply_text_edits(original, edits) == updated, (original, updated)


def _mutate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(lines) + 1)
        choice = rng.random()
        if choice < 0.4:
            lines.insert(k, rng.choice(_PIECES))
        elif choice < 0.7 and k < len(lines):
            del lines[k]
        elif k < len(lines):
            lines[k] = lines[k] + rng.choice(_PIECES)
    return "\n".join(lines)


def test_unified_diff_round_trips_through_apply_unified_diff() -> None:
    rng = random.Random(7)
    for _ in range(300):
        size = rng.randint(1, 30)
        lines = [f"line {k} {rng.choice(_PIECES)}" for k in range(size)]
        newline = rng.choice(["\n", "\r\n"])
        original = newline.join(lines) + (newline if rng.random() < 0.8 else "")
        changed = list(lines)
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(changed) + 1)
            if rng.random() < 0.5 or not changed:
                changed.insert(k, f"new {rng.random():.6f}")
            elif k < len(changed):
                changed[k] = f"changed {rng.random():.6f}"
        updated = newline.join(changed) + (newline if rng.random() < 0.8 else "")
        if not changed:
            updated = ""
        diff = unified_diff(original, updated, "src/x.test.tsx")
        if not diff:
            continue
        outcome = apply_unified_diff(original, diff, path="src/x.test.tsx")
        assert outcome.content == updated, (original, updated, diff)
        assert all(a.strategy == MatchStrategy.EXACT for a in outcome.applied)


def test_noop_block_must_match_as_written() -> None:
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(BUTTON_TEST, block("nothing();\n", "nothing();\n"))
    assert caught.value.failures[0].kind == FailureKind.NOT_FOUND


def test_shrinking_does_not_keep_only_blank_lines() -> None:
    content = "first();\nsecond();\n"
    with pytest.raises(EditApplyError):
        apply_search_replace(content, block("stale();\n\n", "stale();\n\nadded();\n"))


def test_ambiguity_after_shrinking() -> None:
    content = "a();\nrun();\nb();\nrun();\nc();\n"
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(content, block("stale();\nrun();\n", "stale();\ngo();\n"))
    failure = caught.value.failures[0]
    assert failure.kind == FailureKind.AMBIGUOUS
    assert "once its unmatched context lines are dropped (lines 2, 4)" in failure.reason


def test_many_occurrences_are_listed_briefly() -> None:
    content = "x();\n" * 9
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(content, block("x();\n", "y();\n"))
    assert "occurs 9 times in the file (lines 1, 2, 3, 4, 5, 6, … 3 more)" in str(caught.value)


def test_diff_prose_after_a_hunk_with_correct_counts_is_dropped() -> None:
    diff = "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n\nThis diff:\n- renames b to B\n- keeps a and c\n"
    assert apply_unified_diff("a\nb\nc\n", diff).content == "a\nB\nc\n"


def test_diff_blank_line_after_met_counts_without_prose_is_an_empty_context_line() -> None:
    diff = "@@ -1,1 +1,1 @@\n-a\n+b\n\n-c\n+d\n"  # counts met at the blank line, but no prose
    assert apply_unified_diff("a\n\nc\n", diff).content == "b\n\nd\n"


def test_search_replace_blocks_from_random_diffs_reproduce_the_update() -> None:
    import difflib

    rng = random.Random(99)
    for _ in range(200):
        lines = [
            f"  expect(value{k}).toBe({rng.randint(0, 9)});" for k in range(rng.randint(1, 25))
        ]
        changed = list(lines)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(changed) + 1)
            if rng.random() < 0.4:
                changed.insert(k, f"  added({rng.random():.6f});")
            elif k < len(changed):
                if rng.random() < 0.5:
                    del changed[k]
                else:
                    changed[k] = f"  changed({rng.random():.6f});"
        if changed == lines:
            continue
        newline = rng.choice(["\n", "\r\n"])
        original = "".join(line + newline for line in lines)
        updated = "".join(line + newline for line in changed)
        blocks = []
        matcher = difflib.SequenceMatcher(None, lines, changed, autojunk=False)
        for group in matcher.get_grouped_opcodes(2):
            i1, i2 = group[0][1], group[-1][2]
            j1, j2 = group[0][3], group[-1][4]
            search = "".join(f"{line}\n" for line in lines[i1:i2])
            replace = "".join(f"{line}\n" for line in changed[j1:j2])
            blocks.append(SearchReplace(search, replace))
        outcome = apply_search_replace(original, blocks)
        assert outcome.content == updated, (original, updated, blocks)
        assert {a.strategy for a in outcome.applied} <= {MatchStrategy.EXACT, MatchStrategy.APPEND}


def test_outcome_summary_shows_what_approximate_edits_replaced() -> None:
    exact = block("import React from 'react';\n", "import * as React from 'react';\n")
    stale = block(
        "  it('renders the button label', () => {\n"
        '    const wrapper = shallow(<Button label="Save" />);\n',
        "  it('renders the button label', () => {\n    render(<Button label=\"Save\" />);\n",
    )
    outcome = apply_search_replace(BUTTON_TEST, exact + stale)
    assert outcome.applied[0].replaced == "import React from 'react';"
    assert outcome.applied[1].replaced == '    const wrapper = shallow(<Button label="Save" />);'
    summary = outcome.summary()
    assert summary.startswith("Applied 2 edits.\n\nEdit 2 was placed approximately")
    assert "(after dropping context lines that did not match) at line 7;" in summary
    assert '7 |     const wrapper = shallow(<Button label="Save" />);' in summary
    assert apply_search_replace("a\n", block("a\n", "b\n")).summary() == "Applied 1 edit."
    similar = apply_search_replace(
        "x = compute(1, 2, 3, 4);\n", block("x = compute(1, 2, 3, 5);\n", "y\n")
    )
    assert "(similarity 0.9" in similar.summary()


def test_diff_outcome_records_replaced_lines() -> None:
    outcome = apply_unified_diff("a\nb\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n")
    assert outcome.applied[0].replaced == "a\nb\nc"

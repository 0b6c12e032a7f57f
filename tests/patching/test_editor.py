"""Results to the editor: a result as LSP text edits."""

from __future__ import annotations

import textwrap

import pytest
from lsprotocol.types import Position, Range, TextEdit

from testmend.patching import (
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


# -- results to the editor -----------------------------------------------------------------------


def test_unified_diff_is_git_style() -> None:
    diff = unified_diff("a\nb\n", "a\nc\n", "./src/App.test.tsx")
    assert diff == (
        "diff --git a/src/App.test.tsx b/src/App.test.tsx\n"
        "--- a/src/App.test.tsx\n+++ b/src/App.test.tsx\n"
        "@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    )
    assert unified_diff("same\n", "same\n", "x") == ""


def test_unified_diff_marks_missing_final_newline_and_keeps_crlf() -> None:
    diff = unified_diff("a\r\nb", "a\r\nb\r\n", "f.ts")
    assert diff.endswith("-b\n\\ No newline at end of file\n+b\r\n")


def test_text_edits_are_minimal_line_edits() -> None:
    original = BUTTON_TEST
    updated = original.replace("mount(", "render(").replace("import React from 'react';\n", "")
    edits = text_edits(original, updated)
    assert [(e.range.start.line, e.range.end.line) for e in edits] == [(0, 1), (12, 13)]
    assert (
        edits[1].new_text
        == '    const wrapper = render(<Button label="Save" onClick={onClick} />);\n'
    )
    assert apply_text_edits(original, edits) == updated
    assert text_edits(original, original) == []


def test_text_edits_count_utf16_code_units() -> None:
    original = "const label = '🎉 ok';"  # no final newline: the end position is mid-line
    updated = "const label = '🎉 ok';\nconst other = 1;\n"
    [edit] = text_edits(original, updated)
    assert edit.range.end == Position(line=0, character=22)  # 21 code points, 22 UTF-16 units
    assert apply_text_edits(original, [edit]) == updated


def test_text_edits_on_crlf_and_lone_cr() -> None:
    original = "a\r\nb\r\nc"
    updated = "a\r\nB\r\nc\r\n"
    edits = text_edits(original, updated)
    assert apply_text_edits(original, edits) == updated
    assert edits[0].range.start == Position(line=1, character=0)
    lone = "x\ry\n"  # LSP counts a lone CR as a line break
    [edit] = text_edits(lone, "x\rz\n")
    assert edit.range == Range(
        start=Position(line=1, character=0), end=Position(line=2, character=0)
    )


def test_text_edits_with_empty_documents() -> None:
    assert apply_text_edits("", text_edits("", "a\nb")) == "a\nb"
    [edit] = text_edits("a\nb\n", "")
    assert edit.range.end == Position(line=2, character=0)
    assert apply_text_edits("a\nb\n", [edit]) == ""


def test_apply_text_edits_validates_positions() -> None:
    def edit(sl: int, sc: int, el: int, ec: int, text: str = "") -> TextEdit:
        return TextEdit(
            range=Range(start=Position(line=sl, character=sc), end=Position(line=el, character=ec)),
            new_text=text,
        )

    assert apply_text_edits("ab\ncd\n", [edit(0, 1, 0, 99, "X")]) == "aX\ncd\n"  # clamped
    assert apply_text_edits("ab\n", [edit(0, 1, 0, 1, "1"), edit(0, 1, 0, 1, "2")]) == "a12b\n"
    with pytest.raises(ValueError, match="past the end"):
        apply_text_edits("ab\n", [edit(5, 0, 5, 0)])
    with pytest.raises(ValueError, match="surrogate pair"):
        apply_text_edits("🎉\n", [edit(0, 1, 0, 1)])
    with pytest.raises(ValueError, match="overlaps"):
        apply_text_edits("abcdef\n", [edit(0, 0, 0, 3), edit(0, 2, 0, 4)])
    with pytest.raises(ValueError, match="end before its start"):
        apply_text_edits("abc\n", [edit(0, 2, 0, 1)])

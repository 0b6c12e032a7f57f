"""testmend.patching: SEARCH/REPLACE blocks, unified diffs, the lenient matcher, LSP edits."""

from __future__ import annotations

import random
import textwrap

import pytest
from lsprotocol.types import Position, Range, TextEdit

from testmend.patching import (
    SIMILARITY_THRESHOLD,
    EditApplyError,
    EditFormatError,
    FailureKind,
    MatchStrategy,
    PatchError,
    SearchReplace,
    apply_search_replace,
    apply_unified_diff,
    parse_search_replace_blocks,
    unified_diff,
)
from testmend.patching.editor import apply_text_edits, text_edits
from testmend.patching.model import MAX_MESSAGE_CHARS, BlockFailure, cap_lines


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


# -- parsing SEARCH/REPLACE blocks --------------------------------------------------------------


def test_parses_blocks_with_path_line_fences_and_prose() -> None:
    text = dedent(
        """
        I will switch the imports first.

        src/components/Button/Button.test.tsx
        ```tsx
        <<<<<<< SEARCH
        import { shallow, mount } from 'enzyme';
        =======
        import { render, screen } from '@testing-library/react';
        >>>>>>> REPLACE
        ```

        Then the first test:

        <<<<<<< SEARCH
            const wrapper = shallow(<Button label="Save" />);
        =======
            render(<Button label="Save" />);
        >>>>>>> REPLACE
        """
    )
    blocks = parse_search_replace_blocks(text)
    assert blocks == [
        SearchReplace(
            "import { shallow, mount } from 'enzyme';\n",
            "import { render, screen } from '@testing-library/react';\n",
            "src/components/Button/Button.test.tsx",
        ),
        SearchReplace(
            '    const wrapper = shallow(<Button label="Save" />);\n',
            '    render(<Button label="Save" />);\n',
            None,
        ),
    ]


@pytest.mark.parametrize(
    "path_line",
    [
        "src/Button.test.tsx",
        "`src/Button.test.tsx`",
        "**src/Button.test.tsx**",
        "File: src/Button.test.tsx",
        "src/Button.test.tsx:",
        "src\\Button.test.tsx",
    ],
)
def test_path_line_variants(path_line: str) -> None:
    text = f"{path_line}\n" + block("a\n", "b\n")
    assert parse_search_replace_blocks(text)[0].path == "src/Button.test.tsx"


def test_prose_before_a_block_is_not_a_path() -> None:
    text = "Replace the import as follows.\n" + block("a\n", "b\n")
    assert parse_search_replace_blocks(text)[0].path is None


@pytest.mark.parametrize("count", [5, 7, 9])
def test_marker_lengths_from_5_to_9(count: int) -> None:
    text = f"{'<' * count} SEARCH\nold\n{'=' * count}\nnew\n{'>' * count} REPLACE\n"
    assert parse_search_replace_blocks(text) == [SearchReplace("old\n", "new\n")]


def test_crlf_agent_text_and_fences_inside_sections() -> None:
    text = (
        "<<<<<<< SEARCH\r\n```tsx\r\nold();\r\n```\r\n"
        "=======\r\n```\r\nnew();\r\n```\r\n>>>>>>> REPLACE\r\n"
    )
    assert parse_search_replace_blocks(text) == [SearchReplace("old();\n", "new();\n")]


def test_empty_sections() -> None:
    blocks = parse_search_replace_blocks("<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE")
    assert blocks == [SearchReplace("", "")]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("<<<<<<< SEARCH\nold\n", 1, "unterminated: it has no '=======' divider"),
        ("<<<<<<< SEARCH\nold\n=======\nnew\n", 1, "'>>>>>>> REPLACE' line at its end is missing"),
        ("intro\n<<<<<<< SEARCH\nold\n>>>>>>> REPLACE\n", 4, "missing its '=======' divider"),
        (
            "<<<<<<< SEARCH\nold\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
            3,
            "missing its '=======' divider",
        ),
        (
            "<<<<<<< SEARCH\nold\n=======\nnew\n<<<<<<< SEARCH\n",
            5,
            "block 1 (opened at line 1) is unterminated: a new '<<<<<<< SEARCH'",
        ),
        ("<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n", 5, "second '======='"),
        ("new\n>>>>>>> REPLACE\n", 2, "without a '<<<<<<< SEARCH'"),
    ],
)
def test_format_errors_name_the_block_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(EditFormatError) as caught:
        parse_search_replace_blocks(text)
    assert caught.value.line == line
    assert fragment in str(caught.value)
    assert str(caught.value).startswith(f"line {line} of the edit:")


def test_second_block_errors_count_blocks() -> None:
    text = block("a\n", "b\n") + "<<<<<<< SEARCH\nc\n"
    with pytest.raises(EditFormatError, match=r"block 2 \(opened at line 6\)"):
        parse_search_replace_blocks(text)


def test_no_block_at_all_explains_the_format() -> None:
    with pytest.raises(EditFormatError) as caught:
        parse_search_replace_blocks("I changed the file for you.")
    assert "no SEARCH/REPLACE block found" in str(caught.value)
    assert "<<<<<<< SEARCH" in str(caught.value)
    assert caught.value.line is None


def test_no_block_hints_at_wrong_markers() -> None:
    with pytest.raises(EditFormatError, match="must be '<<<<<<< SEARCH'"):
        parse_search_replace_blocks("<<<<<<< ORIGINAL\na\n=======\nb\n>>>>>>> UPDATED\n")
    with pytest.raises(EditFormatError, match="must be"):
        parse_search_replace_blocks("<<<<<<<<<< SEARCH\na\n")  # 10 characters


def test_stray_divider_outside_blocks_is_prose() -> None:
    text = "Title\n=======\n" + block("a\n", "b\n")
    assert len(parse_search_replace_blocks(text)) == 1


# -- the matcher, through SEARCH/REPLACE blocks --------------------------------------------------


def test_exact_match() -> None:
    edit = block(
        '    const wrapper = shallow(<Button label="Save" />);\n'
        "    expect(wrapper.find('button').text()).toBe('Save');\n",
        '    render(<Button label="Save" />);\n'
        "    expect(screen.getByRole('button')).toHaveTextContent('Save');\n",
    )
    outcome = apply_search_replace(BUTTON_TEST, edit)
    assert outcome.content == BUTTON_TEST.replace(
        '    const wrapper = shallow(<Button label="Save" />);\n'
        "    expect(wrapper.find('button').text()).toBe('Save');\n",
        '    render(<Button label="Save" />);\n'
        "    expect(screen.getByRole('button')).toHaveTextContent('Save');\n",
    )
    [applied] = outcome.applied
    assert (applied.strategy, applied.start_line, applied.end_line) == (MatchStrategy.EXACT, 7, 8)
    assert applied.score == 1.0 and applied.index == 0
    assert outcome.fuzzy == []


def test_trailing_whitespace_is_ignored() -> None:
    content = "it('a', () => {   \n  expect(x).toBe(1);\t\n});\n"
    edit = block(
        "it('a', () => {\n  expect(x).toBe(1);\n", "it('a', () => {\n  expect(x).toBe(2);\n"
    )
    outcome = apply_search_replace(content, edit)
    assert outcome.content == "it('a', () => {\n  expect(x).toBe(2);\n});\n"
    assert outcome.applied[0].strategy == MatchStrategy.TRAILING_WHITESPACE


def test_inner_whitespace_is_collapsed() -> None:
    edit = block(
        "    const onClick  =  jest.fn();\n"
        '    const wrapper = mount(<Button  label="Save" onClick={onClick} />);\n',
        '    const onClick = jest.fn();\n    render(<Button label="Save" onClick={onClick} />);\n',
    )
    outcome = apply_search_replace(BUTTON_TEST, edit)
    assert outcome.applied[0].strategy == MatchStrategy.WHITESPACE
    assert '    render(<Button label="Save" onClick={onClick} />);\n' in outcome.content
    assert "mount(<Button" not in outcome.content


def test_reindented_block_and_replacement() -> None:
    # the agent wrote the test body without the describe() indentation
    edit = block(
        dedent(
            """
            it('is disabled while saving', () => {
              const wrapper = shallow(<Button label="Save" saving />);
              expect(wrapper.find('button').prop('disabled')).toBe(true);
            });
            """
        ),
        dedent(
            """
            it('is disabled while saving', () => {
              render(<Button label="Save" saving />);
              expect(screen.getByRole('button')).toBeDisabled();
            });
            """
        ),
    )
    outcome = apply_search_replace(BUTTON_TEST, edit)
    assert outcome.applied[0].strategy == MatchStrategy.REINDENT
    assert (outcome.applied[0].start_line, outcome.applied[0].end_line) == (18, 21)
    assert (
        "  it('is disabled while saving', () => {\n"
        '    render(<Button label="Save" saving />);\n'
        "    expect(screen.getByRole('button')).toBeDisabled();\n"
        "  });\n"
    ) in outcome.content


def test_reindent_shifts_less_indented_replacement_lines_by_the_delta() -> None:
    content = "describe('x', () => {\n    it('a', () => {\n      run();\n    });\n});\n"
    # search shifted left by 2; a replacement line even less indented than the search
    edit = block("  it('a', () => {\n    run();\n", "  it('a', () => {\nrun();\n\n    go();\n")
    outcome = apply_search_replace(content, edit)
    assert outcome.applied[0].strategy == MatchStrategy.REINDENT
    assert outcome.content == (
        "describe('x', () => {\n    it('a', () => {\n  run();\n\n      go();\n    });\n});\n"
    )


def test_reindent_to_a_smaller_indentation() -> None:
    content = "  a();\n    b();\n"
    edit = block("      a();\n        b();\n", "      a();\n  c();\n        b();\n")
    outcome = apply_search_replace(content, edit)
    assert outcome.applied[0].strategy == MatchStrategy.REINDENT
    assert outcome.content == "  a();\nc();\n    b();\n"


def test_shrinking_context_drops_stale_context_lines() -> None:
    # the first context line is out of date (the agent remembered another test name)
    edit = block(
        "  it('renders the button label', () => {\n"
        '    const wrapper = shallow(<Button label="Save" />);\n'
        "    expect(wrapper.find('button').text()).toBe('Save');\n",
        "  it('renders the button label', () => {\n"
        '    render(<Button label="Save" />);\n'
        "    expect(screen.getByText('Save')).toBeInTheDocument();\n",
    )
    outcome = apply_search_replace(BUTTON_TEST, edit)
    [applied] = outcome.applied
    assert applied.strategy == MatchStrategy.SHRINK_CONTEXT
    assert (applied.start_line, applied.end_line) == (7, 8)
    assert applied.score == pytest.approx(2 / 3, abs=0.001)
    assert "  it('renders the label', () => {\n    render(" in outcome.content
    assert outcome.fuzzy == [applied]


def test_shrinking_drops_trailing_blank_search_lines() -> None:
    content = "it('a', () => {\n  run();\n});\n"
    edit = block("it('a', () => {\n  run();\n\n", "it('a', () => {\n  go();\n")
    outcome = apply_search_replace(content, edit)
    assert outcome.applied[0].strategy == MatchStrategy.SHRINK_CONTEXT
    assert outcome.content == "it('a', () => {\n  go();\n});\n"


def test_shrinking_never_drops_changed_lines() -> None:
    # only the changed line is wrong: shrinking must not reduce the search to context alone
    content = "a();\nb();\nc();\n"
    edit = block("a();\nwrong(1, 2, 3, 4, 5, 6, 7);\nc();\n", "a();\nx();\nc();\n")
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(content, edit)
    assert caught.value.failures[0].kind == FailureKind.NOT_FOUND


def test_pure_insertion_keeps_an_anchor() -> None:
    content = "import a from 'a';\nimport b from 'b';\n\nrun();\n"
    edit = block(
        "import a from 'a';\nimport b from 'b';\n",
        "import a from 'a';\nimport b from 'b';\nimport c from 'c';\n",
    )
    assert apply_search_replace(content, edit).content == (
        "import a from 'a';\nimport b from 'b';\nimport c from 'c';\n\nrun();\n"
    )
    stale = block(
        "import z from 'z';\nimport b from 'b';\n",
        "import z from 'z';\nimport c from 'c';\nimport b from 'b';\n",
    )
    outcome = apply_search_replace(content, stale)
    assert outcome.applied[0].strategy == MatchStrategy.SHRINK_CONTEXT
    assert (
        outcome.content == "import a from 'a';\nimport c from 'c';\nimport b from 'b';\n\nrun();\n"
    )


def test_similarity_window_tolerates_a_misremembered_line() -> None:
    edit = block(
        "  it('calls onClick when clicked', () => {\n"
        "    const onClick = jest.fn();\n"
        '    const wrapper = mount(<Button label="Save" onClick={onClick}/>);\n'
        "    wrapper.find('button').simulate('click');\n"
        "    expect(onClick).toHaveBeenCalledTimes(1)\n"
        "  });\n",
        "  it('calls onClick when clicked', async () => {\n"
        "    const onClick = jest.fn();\n"
        '    render(<Button label="Save" onClick={onClick} />);\n'
        "    await userEvent.click(screen.getByRole('button'));\n"
        "    expect(onClick).toHaveBeenCalledTimes(1);\n"
        "  });\n",
    )
    outcome = apply_search_replace(BUTTON_TEST, edit)
    [applied] = outcome.applied
    assert applied.strategy == MatchStrategy.SIMILARITY
    assert SIMILARITY_THRESHOLD <= applied.score < 1
    assert (applied.start_line, applied.end_line) == (11, 16)
    assert "await userEvent.click(screen.getByRole('button'));" in outcome.content
    assert "mount(" not in outcome.content


def test_similarity_window_may_be_one_line_longer() -> None:
    names = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
    lines = [f'    const {name} = render(<Item name="{name}" />);\n' for name in names]
    content = "it('renders items', () => {\n" + "".join(lines) + "});\n"
    # the agent forgot the third line
    edit = block("".join(lines[:2] + lines[3:]), "    renderAll();\n")
    outcome = apply_search_replace(content, edit)
    assert outcome.applied[0].strategy == MatchStrategy.SIMILARITY
    assert (outcome.applied[0].start_line, outcome.applied[0].end_line) == (2, 9)
    # in a 5-line block, one forgotten line is too much (ratio 0.89 < 0.9)
    with pytest.raises(EditApplyError, match=r"best similarity 0\.89 < 0\.9"):
        apply_search_replace(content, block("".join(lines[:2] + lines[3:5]), "x\n"))
    assert outcome.content == "it('renders items', () => {\n    renderAll();\n});\n"


def test_similarity_reindents_the_replacement() -> None:
    content = "describe('x', () => {\n  it('a', () => {\n    expect(value).toBe(1);\n  });\n});\n"
    edit = block(
        "it('a', () => {\n  expect(value).toBe(1)\n});\n",
        "it('a', () => {\n  expect(value).toBe(2);\n});\n",
    )
    outcome = apply_search_replace(content, edit)
    assert outcome.applied[0].strategy == MatchStrategy.SIMILARITY
    assert outcome.content == (
        "describe('x', () => {\n  it('a', () => {\n    expect(value).toBe(2);\n  });\n});\n"
    )


def test_exact_ambiguity_counts_occurrences_and_asks_for_context() -> None:
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(BUTTON_TEST, block("  });\n", "  })\n"))
    [failure] = caught.value.failures
    assert failure.kind == FailureKind.AMBIGUOUS
    assert failure.candidates == ((9, 9), (16, 16), (21, 21))
    message = str(caught.value)
    assert "occurs 3 times in the file (lines 9, 16, 21)" in message
    assert "Add unchanged lines just before or after it" in message


def test_lenient_ambiguity_says_how_it_matched() -> None:
    content = "  a();\n  b();\nx\n      a();\n      b();\n"
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(content, block("    a();\n    b();\n", "c();\n"))
    message = str(caught.value)
    assert "matches 2 places in the file ignoring indentation (lines 1-2, 4-5)" in message


def test_similarity_ambiguity_is_an_error_not_a_guess() -> None:
    content = dedent(
        """
        it('first', () => {
          expect(wrapper.find('.item').length).toBe(3);
        });
        it('second', () => {
          expect(wrapper.find('.item').length).toBe(4);
        });
        """
    )
    edit = block("  expect(wrapper.find('.item').length).toBe(5);\n", "  expect(x).toBe(5);\n")
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(content, edit)
    [failure] = caught.value.failures
    assert failure.kind == FailureKind.AMBIGUOUS
    assert failure.candidates == ((2, 2), (5, 5))
    assert "about equally similar" in failure.reason


def test_not_found_reports_the_nearest_region() -> None:
    edit = block(
        "  it('is disabled while loading', () => {\n"
        '    const wrapper = shallow(<Button label="Load" loading />);\n'
        "    expect(wrapper.find('.spinner').exists()).toBe(true);\n",
        "",
    )
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(BUTTON_TEST, edit)
    [failure] = caught.value.failures
    assert failure.kind == FailureKind.NOT_FOUND and failure.index == 0
    nearest = failure.nearest
    assert nearest is not None
    assert (nearest.start_line, nearest.end_line) == (18, 20)
    assert 0.4 < nearest.score < SIMILARITY_THRESHOLD
    assert nearest.text.splitlines()[0] == "18 |   it('is disabled while saving', () => {"
    assert "-    expect(wrapper.find('.spinner').exists()).toBe(true);" in nearest.diff
    assert "+    expect(wrapper.find('button').prop('disabled')).toBe(true);" in nearest.diff
    message = str(caught.value)
    assert message.startswith("Edit rejected: 1 of 1 SEARCH/REPLACE block did not apply")
    assert "Block 1 of 1: the SEARCH text was not found" in message
    assert "Closest region in the file: lines 18-20 (similarity" in message
    assert "Where your text differs (- yours, + file):" in message
    assert "Resend all" not in message  # a single block


def test_atomic_failure_leaves_content_unchanged_and_reports_each_failed_block() -> None:
    edits = (
        block("import { shallow, mount } from 'enzyme';\n", "import { render } from 'rtl';\n")
        + block("this line does not exist();\n", "x();\n")
        + block("    const onClick = jest.fn();\n", "    const onClick = vi.fn();\n")
        + block("  });\n", "  })\n")
    )
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(BUTTON_TEST, edits)
    error = caught.value
    assert [f.index for f in error.failures] == [1, 3]
    assert [f.kind for f in error.failures] == [FailureKind.NOT_FOUND, FailureKind.AMBIGUOUS]
    assert [e.index for e in error.would_apply] == [0, 2]
    assert error.total == 4
    message = str(error)
    assert "2 of 4 SEARCH/REPLACE blocks did not apply, so nothing was applied" in message
    assert "Block 2 of 4:" in message and "Block 4 of 4:" in message
    assert "Resend all 4 SEARCH/REPLACE blocks, with the failed ones fixed" in message
    assert isinstance(error, PatchError) and isinstance(error, ValueError)


def test_later_blocks_see_earlier_results() -> None:
    edits = block(
        "  it('renders the label', () => {\n", "  it('shows the label', () => {\n"
    ) + block("  it('shows the label', () => {\n", "  test('shows the label', () => {\n")
    outcome = apply_search_replace(BUTTON_TEST, edits)
    assert "  test('shows the label', () => {\n" in outcome.content
    assert [a.index for a in outcome.applied] == [0, 1]


def test_failure_after_a_shifting_block_says_line_numbers_include_it() -> None:
    edits = block("import React from 'react';\n", "") + block("nothing();\n", "x\n")
    with pytest.raises(EditApplyError, match="those of the file after the earlier blocks"):
        apply_search_replace(BUTTON_TEST, edits)


def test_empty_search_appends_or_creates() -> None:
    appended = apply_search_replace("a\n", block("", "b\n"))
    assert appended.content == "a\nb\n"
    assert appended.applied[0].strategy == MatchStrategy.APPEND
    assert (appended.applied[0].start_line, appended.applied[0].end_line) == (2, 1)
    created = apply_search_replace("", [SearchReplace("", "import x from 'x';\n")])
    assert created.content == "import x from 'x';\n"
    assert created.applied[0].strategy == MatchStrategy.CREATE
    blank = apply_search_replace("a\n", [SearchReplace("  \n\n", "b")])
    assert blank.content == "a\nb\n"


def test_append_keeps_a_missing_final_newline_missing() -> None:
    assert apply_search_replace("a", [SearchReplace("", "b\n")]).content == "a\nb"


def test_search_on_an_empty_file_explains_how_to_create_it() -> None:
    with pytest.raises(EditApplyError, match="the file is empty"):
        apply_search_replace("", block("x\n", "y\n"))


def test_empty_replace_deletes_and_noop_blocks_apply() -> None:
    outcome = apply_search_replace(BUTTON_TEST, block("import React from 'react';\n", ""))
    assert outcome.content == BUTTON_TEST.split("\n", 1)[1]
    noop = "  });\n\n  it('is disabled while saving', () => {\n"
    same = apply_search_replace(BUTTON_TEST, block(noop, noop))
    assert same.content == BUTTON_TEST


def test_structured_blocks_need_no_trailing_newline() -> None:
    outcome = apply_search_replace("a();\nb();\n", [SearchReplace("b();", "c();")])
    assert outcome.content == "a();\nc();\n"


def test_empty_block_list_is_a_format_error() -> None:
    with pytest.raises(EditFormatError, match="no SEARCH/REPLACE blocks"):
        apply_search_replace("a\n", [])


def test_blocks_naming_another_file_are_refused() -> None:
    text = "src/Other.test.tsx\n" + block("a\n", "b\n")
    with pytest.raises(EditFormatError, match=r"name src/Other\.test\.tsx, but this edit can only"):
        apply_search_replace("a\n", text, path="src/Button.test.tsx")
    ok = "/abs/project/src/Button.test.tsx\n" + block("a\n", "b\n")
    assert apply_search_replace("a\n", ok, path="src/Button.test.tsx").content == "b\n"


def test_crlf_file_stays_crlf() -> None:
    content = BUTTON_TEST.replace("\n", "\r\n")
    edit = block(
        "import { shallow, mount } from 'enzyme';\n",
        "import { render } from 'rtl';\nimport x from 'x';\n",
    )
    outcome = apply_search_replace(content, edit)
    assert outcome.content == content.replace(
        "import { shallow, mount } from 'enzyme';\r\n",
        "import { render } from 'rtl';\r\nimport x from 'x';\r\n",
    )
    assert "\n" not in outcome.content.replace("\r\n", "")


def test_mixed_line_endings_keep_untouched_lines() -> None:
    content = "a\r\nb\nc\r\nd\r\n"
    outcome = apply_search_replace(content, block("b\n", "B\n"))
    assert outcome.content == "a\r\nB\r\nc\r\nd\r\n"


def test_missing_final_newline_is_preserved() -> None:
    content = "it('a', () => {\n  run();\n});"
    outcome = apply_search_replace(content, block("  run();\n});\n", "  go();\n});\n"))
    assert outcome.content == "it('a', () => {\n  go();\n});"
    deleted = apply_search_replace("a\nb", block("b\n", ""))
    assert deleted.content == "a"


def test_unicode_content() -> None:
    content = "expect(screen.getByText('Gespeichert ✓ 🎉')).toBeVisible();\n"
    edit = block(content, "expect(screen.getByText('Saved 🎉')).toBeVisible();\n")
    assert apply_search_replace(content, edit).content == edit.split("=======\n")[1].split(">>>")[0]


# -- error messages ------------------------------------------------------------------------------


def test_error_message_is_capped() -> None:
    content = "".join(
        f"const value{k} = compute({k}, 'some long literal {k}');\n" for k in range(150)
    )
    search = "".join(f"const other{k} = different({k});\n" for k in range(40))
    edits = "".join(block(search, "x\n") for _ in range(8))
    with pytest.raises(EditApplyError) as caught:
        apply_search_replace(content, edits)
    message = str(caught.value)
    assert len(message) <= MAX_MESSAGE_CHARS
    assert "more lines)" in message
    assert "Block 8 of 8: the SEARCH text was not found" in message  # past the detailed ones


def test_cap_lines_shortens_long_lines() -> None:
    assert cap_lines("x" * 500, 5) == "x" * 199 + "…"


def test_huge_reasons_are_cut_and_many_failures_summarised() -> None:
    failure = BlockFailure(0, FailureKind.INVALID, "r" * (MAX_MESSAGE_CHARS + 100))
    message = str(EditApplyError([failure], total=1))
    assert len(message) <= MAX_MESSAGE_CHARS
    assert "#1: rrr" in message and message.endswith("r…")
    many = [
        BlockFailure(k, FailureKind.INVALID, "x" * 500, label=f"hunk {k + 1}") for k in range(40)
    ]
    message = str(EditApplyError(many, total=40, unit="hunk"))
    assert len(message) <= MAX_MESSAGE_CHARS
    assert "Hunk 1: xxx" in message
    assert "more failed hunks." in message
    assert message.endswith("Resend all 40 hunks, with the failed ones fixed, in one edit.")


# -- unified diffs -------------------------------------------------------------------------------


def test_applies_a_git_diff() -> None:
    updated = BUTTON_TEST.replace(
        "import { shallow, mount } from 'enzyme';", "import { render } from 'rtl';"
    )
    updated = updated.replace("    expect(onClick).toHaveBeenCalledTimes(1);\n", "")
    diff = unified_diff(BUTTON_TEST, updated, "src/Button.test.tsx")
    outcome = apply_unified_diff(BUTTON_TEST, diff, path="src/Button.test.tsx")
    assert outcome.content == updated
    assert [a.strategy for a in outcome.applied] == [MatchStrategy.EXACT] * 2


def test_repairs_wrong_counts_missing_prefixes_and_bare_headers() -> None:
    diff = dedent(
        """
        Here is the patch:
        ```diff
        --- src/Button.test.tsx
        +++ src/Button.test.tsx
        @@ -2,1 +2,1 @@
        -import { shallow, mount } from 'enzyme';
        +import { render, screen } from '@testing-library/react';
        +import userEvent from '@testing-library/user-event';
         import { Button } from './Button';

        @@ @@
           it('is disabled while saving', () => {
        -    const wrapper = shallow(<Button label="Save" saving />);
        -    expect(wrapper.find('button').prop('disabled')).toBe(true);
        +    render(<Button label="Save" saving />);
        +    expect(screen.getByRole('button')).toBeDisabled();
           });
        ```
        This replaces Enzyme in the last test.
        """
    )
    outcome = apply_unified_diff(BUTTON_TEST, diff)
    assert [a.strategy for a in outcome.applied] == [MatchStrategy.EXACT, MatchStrategy.EXACT]
    assert outcome.content.startswith(
        "import React from 'react';\n"
        "import { render, screen } from '@testing-library/react';\n"
        "import userEvent from '@testing-library/user-event';\n"
        "import { Button } from './Button';\n\n"
    )
    assert "    expect(screen.getByRole('button')).toBeDisabled();\n  });\n});\n" in outcome.content


def test_hunk_headers_are_recounted_even_when_unidiff_would_accept_them() -> None:
    # "-1,1 +1,1" is well formed but too short: unidiff would silently drop the last lines
    diff = "--- a/f.ts\n+++ b/f.ts\n@@ -1,1 +1,1 @@\n-a();\n+b();\n-c();\n+d();\n"
    assert apply_unified_diff("a();\nc();\n", diff).content == "b();\nd();\n"


def test_diff_without_file_headers_and_context_without_leading_space() -> None:
    content = "describe('x', () => {\nit('a', () => {\n  run();\n});\n});\n"
    diff = "@@ -2,3 +2,3 @@\nit('a', () => {\n-  run();\n+  go();\n});\n"
    assert apply_unified_diff(content, diff).content == content.replace("run", "go")


def test_diff_hunk_with_stale_context_shrinks() -> None:
    diff = dedent(
        """
        @@ -6,4 +6,4 @@
           it('renders the label correctly', () => {
        -    const wrapper = shallow(<Button label="Save" />);
        +    render(<Button label="Save" />);
             expect(wrapper.find('button').text()).toBe('Save');
        """
    )
    outcome = apply_unified_diff(BUTTON_TEST, diff)
    assert outcome.applied[0].strategy == MatchStrategy.SHRINK_CONTEXT
    assert (
        "  it('renders the label', () => {\n    render(<Button label=\"Save\" />);\n"
        in outcome.content
    )


def test_diff_hunk_reindented() -> None:
    diff = "@@ -1,3 +1,3 @@\n it('a', () => {\n-  run();\n+  go();\n });\n"
    content = "describe('x', () => {\n  it('a', () => {\n    run();\n  });\n});\n"
    outcome = apply_unified_diff(content, diff)
    assert outcome.applied[0].strategy == MatchStrategy.REINDENT
    assert outcome.content == content.replace("run", "go")


def test_diff_hunks_that_fail_report_header_and_leave_nothing_applied() -> None:
    diff = (
        "--- a/src/Button.test.tsx\n+++ b/src/Button.test.tsx\n"
        "@@ -1,1 +1,1 @@\n-import React from 'react';\n+import * as React from 'react';\n"
        "@@ -40,2 +40,2 @@\n-  it('does not exist at all', () => {\n+  it('x', () => {\n"
    )
    with pytest.raises(EditApplyError) as caught:
        apply_unified_diff(BUTTON_TEST, diff)
    error = caught.value
    assert error.unit == "hunk" and error.total == 2
    [failure] = error.failures
    assert failure.index == 1
    assert failure.label == "hunk 2 of 2 (@@ -40,2 +40,2 @@, line 6 of the diff)"
    message = str(error)
    assert "1 of 2 hunks did not apply" in message
    assert (
        "Hunk 2 of 2 (@@ -40,2 +40,2 @@, line 6 of the diff): "
        "the text of the hunk's context and '-' lines was not found" in message
    )
    assert "Resend all 2 hunks" in message
    assert failure.nearest is not None


def test_ambiguous_hunk() -> None:
    diff = "@@ -1 +1 @@\n-  });\n+  })\n"
    with pytest.raises(EditApplyError) as caught:
        apply_unified_diff(BUTTON_TEST, diff)
    assert caught.value.failures[0].kind == FailureKind.AMBIGUOUS


def test_diff_creates_an_empty_file() -> None:
    diff = (
        "--- /dev/null\n+++ b/src/New.test.tsx\n"
        "@@ -0,0 +1,2 @@\n+import x from 'x';\n+test('x', () => {});\n"
    )
    outcome = apply_unified_diff("", diff, path="src/New.test.tsx")
    assert outcome.content == "import x from 'x';\ntest('x', () => {});\n"
    assert outcome.applied[0].strategy == MatchStrategy.CREATE
    with pytest.raises(EditFormatError, match="already has content"):
        apply_unified_diff("existing\n", diff)


def test_diff_insertion_without_context_uses_the_line_number() -> None:
    content = "a\nb\nc\n"
    after_two = apply_unified_diff(content, "@@ -2,0 +3,1 @@\n+inserted\n")
    assert after_two.content == "a\nb\ninserted\nc\n"
    assert after_two.applied[0].strategy == MatchStrategy.LINE_NUMBER
    # a miscounted header ("-2,3") means "starting at line 2": insert before it
    assert (
        apply_unified_diff(content, "@@ -2,3 +2,4 @@\n+inserted\n").content == "a\ninserted\nb\nc\n"
    )
    # later hunks' line numbers account for the earlier hunks
    two = "@@ -1,1 +1,2 @@\n-a\n+a1\n+a2\n@@ -3,0 +4,1 @@\n+end\n"
    assert apply_unified_diff(content, two).content == "a1\na2\nb\nc\nend\n"


def test_diff_insertion_without_anchor_is_rejected() -> None:
    with pytest.raises(EditApplyError, match="its header has no line numbers"):
        apply_unified_diff("a\n", "@@ @@\n+b\n")
    with pytest.raises(EditApplyError, match="after line 7, past the end; the file has 1 lines"):
        apply_unified_diff("a\n", "@@ -7,0 +8,1 @@\n+b\n")
    with pytest.raises(EditApplyError, match="does not fit there"):
        apply_unified_diff("a\nb\n", "@@ -1,1 +1,2 @@\n \n+x\n")  # line 1 is not blank
    # blank context lines are checked and kept, not duplicated
    assert apply_unified_diff("a\n\nb\n", "@@ -2,1 +2,2 @@\n \n+x\n").content == "a\n\nx\nb\n"
    assert apply_unified_diff("", "@@ @@\n+b\n").content == "b\n"


def test_diff_no_newline_markers() -> None:
    add_newline = "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
    assert apply_unified_diff("a\nb", add_newline).content == "a\nc\n"
    drop_newline = "@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n"
    assert apply_unified_diff("a\nb\n", drop_newline).content == "a\nc"
    both = "@@ -1,2 +1,2 @@\n-a\n+x\n b\n\\ No newline at end of file\n"
    assert apply_unified_diff("a\nb", both).content == "x\nb"


def test_crlf_diff_text_on_crlf_file() -> None:
    content = "a\r\nb\r\nc\r\n"
    diff = "--- a/f\r\n+++ b/f\r\n@@ -1,3 +1,3 @@\r\n a\r\n-b\r\n+B\r\n c\r\n"
    assert apply_unified_diff(content, diff).content == "a\r\nB\r\nc\r\n"


@pytest.mark.parametrize(
    ("diff", "fragment"),
    [
        ("I could not produce a diff.", "no hunk found in the diff"),
        ("@@ -1,2 +1,2 @@\n a\n b\n", "changes nothing"),
        (
            "--- a/one.ts\n+++ b/one.ts\n@@ -1 +1 @@\n-a\n+b\n"
            "--- a/two.ts\n+++ b/two.ts\n@@ -1 +1 @@\n-a\n+b\n",
            "the diff changes 2 files (one.ts, two.ts); send one diff per file",
        ),
    ],
)
def test_diff_format_errors(diff: str, fragment: str) -> None:
    with pytest.raises(EditFormatError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        apply_unified_diff("a\nb\n", diff)


def test_diff_for_another_file_is_refused() -> None:
    diff = "--- a/src/Button.tsx\n+++ b/src/Button.tsx\n@@ -1 +1 @@\n-a\n+b\n"
    with pytest.raises(
        EditFormatError, match=r"changes src/Button\.tsx, but this edit can only change"
    ):
        apply_unified_diff("a\n", diff, path="src/Button.test.tsx")


def test_diff_repeating_file_headers_per_hunk_and_git_headers() -> None:
    diff = (
        "diff --git a/f.ts b/f.ts\nindex 83db48f..bf269f4 100644\n--- a/f.ts\n+++ b/f.ts\n"
        "@@ -1 +1 @@\n-a\n+A\n"
        "--- a/f.ts\n+++ b/f.ts\n@@ -3 +3 @@\n-c\n+C\n"
    )
    assert apply_unified_diff("a\nb\nc\n", diff, path="f.ts").content == "A\nb\nC\n"


def test_diff_hunk_body_may_contain_dashes() -> None:
    diff = "@@ -1,2 +1,2 @@\n--- decrement\n+++ increment\n x\n"
    # "--- "/"+++ " pairs are file headers; with body lines around them they still parse
    with pytest.raises(EditFormatError):
        apply_unified_diff("-- decrement\nx\n", diff)
    diff = "@@ -1,2 +1,2 @@\n x\n---i;\n+++i;\n"
    assert apply_unified_diff("x\n--i;\n", diff).content == "x\n++i;\n"


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

"""SEARCH/REPLACE blocks: parsing, the lenient matcher, and the messages of an edit that does
not apply."""

from __future__ import annotations

import textwrap

import pytest

from testmend.patching import (
    SIMILARITY_THRESHOLD,
    EditApplyError,
    EditFormatError,
    FailureKind,
    MatchStrategy,
    PatchError,
    SearchReplace,
    apply_search_replace,
    parse_search_replace_blocks,
)
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

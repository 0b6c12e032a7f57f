"""Unified diffs: parsed, repaired, applied with the lenient matcher."""

from __future__ import annotations

import textwrap

import pytest

from testmend.patching import (
    EditApplyError,
    EditFormatError,
    FailureKind,
    MatchStrategy,
    apply_unified_diff,
    unified_diff,
)


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

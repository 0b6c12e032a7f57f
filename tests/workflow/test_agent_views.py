"""What an agent is shown of the candidate and of its conversation on each model call."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from testmend.workflow.agent.prompts import CHARS_PER_TOKEN, with_line_numbers
from testmend.workflow.agent.turns import ELIDED, fit_conversation, fresh_values
from testmend.workflow.agent.views import candidate_view, changed_region, changed_spans


def long_suite(tests: int) -> str:
    body = "".join(
        f"  it('case {i}', () => {{\n    render(<Item n={{{i}}} />);\n"
        f"    expect(screen.getByText('{i}')).toBeInTheDocument();\n  }});\n"
        for i in range(tests)
    )
    head = "import { render, screen } from '@testing-library/react';\n\n"
    return f"{head}describe('Item', () => {{\n{body}}});\n"


def test_an_edit_shows_the_region_it_changed_numbered_as_the_file_is() -> None:
    old = long_suite(30)
    new = old.replace("getByText('17')", "getByRole('listitem', { name: '17' })")
    region, spans = changed_region(old, new)
    numbered = with_line_numbers(new).splitlines()
    changed_line = next(i for i, line in enumerate(numbered, 1) if "name: '17'" in line)
    assert spans == [(changed_line, changed_line)]
    # The changed line and three either side, exactly as the whole file numbers them.
    assert region.splitlines() == numbered[changed_line - 4 : changed_line + 3]
    assert "case 3'" not in region


def test_a_deletion_points_at_the_line_after_it() -> None:
    old = "a\nb\nc\nd\n"
    assert changed_spans(old, "a\nd\n") == [(2, 2)]
    assert changed_spans(old, "a\nb\nc\n") == [(3, 3)]  # the last line, when nothing follows


def test_a_candidate_that_fits_is_shown_whole() -> None:
    text = long_suite(3)
    assert candidate_view(text, budget_tokens=10_000) == with_line_numbers(text)


def test_a_long_candidate_shows_the_region_last_changed_and_an_outline_within_budget() -> None:
    old = long_suite(400)
    new = old.replace("getByText('250')", "getByText('two hundred fifty')")
    _, spans = changed_region(old, new)
    view = candidate_view(new, budget_tokens=1_500, focus=spans)
    assert len(view) <= 1_500 * CHARS_PER_TOKEN
    assert "too long to show whole" in view and "read_file" in view
    region = view.split("Region last changed:\n")[1].split("\n\nOutline:")[0]
    assert "getByText('two hundred fifty')" in region
    outline = view.split("Outline:\n")[1]
    # The skeleton only, around where the agent works, saying what it leaves out.
    assert "it('case 250'" in outline and "render(<Item" not in outline
    assert outline.startswith("[… ") and outline.endswith(" entries below …]")
    assert "it('case 0'" in candidate_view(new, budget_tokens=1_500, focus=[(5, 5)])


def test_the_prompt_shows_the_latest_check_and_the_candidate_from_state() -> None:
    values = {"candidate": "stale", "candidate_lines": "1", "previous_attempts": "old results"}
    state = {
        "candidate": "line one\nline two\n",
        "latest": {"tests": "✗ Item renders", "lint": "no-unused-vars"},
    }
    fresh = fresh_values("migrate", values, state, {"candidate": 1_000})  # type: ignore[arg-type]
    assert fresh["candidate"] == with_line_numbers("line one\nline two\n")
    assert fresh["candidate_lines"] == "2"
    assert fresh["previous_attempts"] == "✗ Item renders"  # the tests' result, not lint's


def test_older_tool_results_are_shortened_to_fit_the_window() -> None:
    big = "x" * 40_000
    messages = [HumanMessage("Make every planned test pass.")]
    for index in range(4):
        call = {"name": "run_test_file", "args": {}, "id": f"call_{index}"}
        messages += [
            AIMessage("", tool_calls=[call]),
            ToolMessage(big, tool_call_id=f"call_{index}"),
        ]
    fitted = fit_conversation(messages, context_window=32_000)
    assert [type(m) for m in fitted] == [type(m) for m in messages]
    assert [getattr(m, "tool_call_id", None) for m in fitted] == [
        getattr(m, "tool_call_id", None) for m in messages
    ]
    assert fitted[-1].content == big and fitted[-3].content == big  # the latest stay whole
    assert fitted[2].content == ELIDED
    assert sum(len(str(m.content)) for m in fitted) <= 32_000 * 0.25 * CHARS_PER_TOKEN + 2 * len(
        big
    )
    assert fit_conversation(messages, context_window=1_000_000) == messages

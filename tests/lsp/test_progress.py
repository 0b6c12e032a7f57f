"""Engine events → progress bar and log lines."""

from __future__ import annotations

from testmend.lsp.progress import ProgressState, status_payload
from testmend.workflow.events import (
    EditApplied,
    NeedsInput,
    RunFinished,
    RunStarted,
    StepFinished,
    StepStarted,
    TestTally,
    TokensUsed,
    ToolCalled,
    event_line,
)
from testmend.workflow.state import Summary

RUN = "r1"


def test_progress_percentages_rise_and_messages_name_step_tool_tally() -> None:
    state = ProgressState(title="Migrating A.test.tsx")
    assert state.update(RunStarted(run_id=RUN, file="a", mode="migrate", offline=True,
                                   start_step="research"))  # fmt: skip
    assert state.update(StepStarted(run_id=RUN, step="migrate"))
    for _ in range(20):
        state.update(ToolCalled(run_id=RUN, step="migrate", tool="run_test_file"))
    assert state.percentage == 70
    assert state.update(TestTally(run_id=RUN, step="migrate", passed=1, failed=1, total=2))
    assert state.update(EditApplied(run_id=RUN, step="migrate", source="codemod"))
    assert state.report().message == "migrate · edit by codemod · tests 1/2 passing"
    # What the run has spent so far, once a model answered (with its cost when priced).
    assert state.update(TokensUsed(run_id=RUN, step="migrate", input_tokens=1000,
                                   output_tokens=234, run_tokens=5234, cost=0.0123))  # fmt: skip
    assert state.report().message == (
        "migrate · edit by codemod · tests 1/2 passing · 5,234 tokens ($0.0123)"
    )
    spent = TokensUsed(run_id=RUN, step="lint", input_tokens=5, output_tokens=5, run_tokens=10)
    assert event_line(spent) == "lint: 10 tokens spent"
    state.update(StepStarted(run_id=RUN, step="research"))  # never goes back
    assert state.percentage == 70
    state.update(StepFinished(run_id=RUN, step="finish", outcome="done"))
    assert state.report().percentage == 100


def test_event_lines_for_clients_without_progress() -> None:
    assert event_line(StepStarted(run_id=RUN, step="lint")) == "lint …"
    assert event_line(StepFinished(run_id=RUN, step="lint", outcome="failed", detail="x")) == (
        "lint: failed — x"
    )
    assert event_line(TestTally(run_id=RUN, step="migrate", passed=2, failed=0, total=2)) == (
        "migrate: tests 2/2 passing"
    )
    needs = NeedsInput(run_id=RUN, question="help?", report_path="/r.md", options=[])
    assert event_line(needs) == "needs input: help? (report: /r.md)"
    done = RunFinished(run_id=RUN, status="failed", summary=Summary(), failure_reason="why")
    assert event_line(done) == "finished: failed — why"
    assert event_line(ToolCalled(run_id=RUN, step="lint", tool="t")) is None


def test_run_status_payload_carries_the_progress_it_adds_up_to() -> None:
    state = ProgressState(title="Migrating a.test.tsx")
    event = StepStarted(run_id=RUN, step="lint")
    state.update(event)
    payload = status_payload(RUN, "file:///a", state, event)
    assert payload == {
        "runId": RUN,
        "uri": "file:///a",
        "title": "Migrating a.test.tsx",
        "message": "lint",
        "percentage": 75,
        "done": False,
        "event": {"run_id": RUN, "type": "step_started", "step": "lint"},
    }
    state.step = "cancelled"
    ended = status_payload(RUN, "file:///a", state, None)
    assert ended["done"] is True and ended["event"] is None and ended["message"] == "cancelled"

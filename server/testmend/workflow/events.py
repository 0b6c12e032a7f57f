"""Typed events a run emits while it works: what the editor and the CLI show as progress."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .state import RunStatus, Step, Summary


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True)
    run_id: str


class RunStarted(_Event):
    type: Literal["run_started"] = "run_started"
    file: str
    mode: Literal["migrate", "fix"]
    offline: bool
    start_step: Step


class StepStarted(_Event):
    type: Literal["step_started"] = "step_started"
    step: Step


class StepFinished(_Event):
    type: Literal["step_finished"] = "step_finished"
    step: Step
    outcome: Literal["done", "failed", "skipped"]
    detail: str = ""


class ToolCalled(_Event):
    type: Literal["tool_called"] = "tool_called"
    step: Step
    tool: str
    summary: str = ""


class TestTally(_Event):
    __test__ = False

    type: Literal["test_tally"] = "test_tally"
    step: Step
    passed: int
    failed: int
    total: int


class EditApplied(_Event):
    type: Literal["edit_applied"] = "edit_applied"
    step: Step
    source: Literal["codemod", "agent", "eslint --fix"]
    detail: str = ""


class TokensUsed(_Event):
    """After each model call: what the step and the whole run have spent so far."""

    type: Literal["tokens_used"] = "tokens_used"
    step: Step
    input_tokens: int
    output_tokens: int
    run_tokens: int = 0
    cost: float | None = None
    """The run's estimated cost so far, US dollars (None: no price configured)."""


class NeedsInput(_Event):
    type: Literal["needs_input"] = "needs_input"
    question: str
    report_path: str
    options: list[str]


class TierChanged(_Event):
    """The run went on with the deterministic tier: the model failed before a candidate."""

    type: Literal["tier_changed"] = "tier_changed"
    message: str


class RunFinished(_Event):
    type: Literal["run_finished"] = "run_finished"
    status: RunStatus
    summary: Summary
    failure_reason: str | None = None


RunEvent = Annotated[
    RunStarted
    | StepStarted
    | StepFinished
    | ToolCalled
    | TestTally
    | EditApplied
    | TokensUsed
    | NeedsInput
    | TierChanged
    | RunFinished,
    Field(discriminator="type"),
]
RUN_EVENT_ADAPTER: TypeAdapter[RunEvent] = TypeAdapter(RunEvent)


def spent_text(tokens: int, cost: float | None) -> str:
    """``12,345 tokens`` or ``12,345 tokens ($0.0420)``."""
    return f"{tokens:,} tokens" + (f" (${cost:.4f})" if cost is not None else "")


def event_line(event: RunEvent) -> str | None:
    """One human line for an event worth a line in a log (the CLI's stderr, an editor without
    progress bars); None for the others."""
    if isinstance(event, StepStarted):
        return f"{event.step} …"
    if isinstance(event, TierChanged):
        return event.message
    if isinstance(event, StepFinished):
        return f"{event.step}: {event.outcome}" + (f" — {event.detail}" if event.detail else "")
    if isinstance(event, TestTally):
        return f"{event.step}: tests {event.passed}/{event.total} passing"
    if isinstance(event, EditApplied):
        return f"{event.step}: edit by {event.source}" + (
            f" ({event.detail})" if event.detail else ""
        )
    if isinstance(event, ToolCalled) and event.tool.startswith("run_"):
        return f"{event.step}: {event.tool}"
    if isinstance(event, TokensUsed):
        return f"{event.step}: {spent_text(event.run_tokens, event.cost)} spent"
    if isinstance(event, NeedsInput):
        return f"needs input: {event.question} (report: {event.report_path})"
    if isinstance(event, RunFinished):
        return f"finished: {event.status}" + (
            f" — {event.failure_reason}" if event.failure_reason else ""
        )
    return None

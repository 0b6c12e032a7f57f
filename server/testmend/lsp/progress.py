"""Engine events → work-done progress reports, log lines and ``testmend/runStatus`` payloads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from ..workflow.events import (
    EditApplied,
    RunEvent,
    RunStarted,
    StepFinished,
    StepStarted,
    TestTally,
    TierChanged,
    TokensUsed,
    ToolCalled,
    spent_text,
)

RUN_STATUS = "testmend/runStatus"
"""Custom notification: ``{"runId", "uri", "title", "message", "percentage", "done", "event"}``:
the typed event as JSON plus the progress it adds up to, so a client can show its own progress
without re-deriving it; a last one with ``done: true`` and ``event: null`` ends every run."""

STEP_PERCENT: dict[str, int] = {
    "research": 10,
    "planning": 20,
    "migrate": 30,
    "lint": 80,
    "typescript": 88,
    "review": 94,
    "finish": 100,
}
_MIGRATE_CEILING = 70


@dataclass
class ProgressState:
    """What the progress bar shows for one run; percentages never go back."""

    title: str
    step: str = ""
    percentage: int = 0
    last_tool: str = ""
    tally: str = ""
    migrate_ticks: int = 0
    spent: str = ""

    def message(self) -> str:
        parts = [self.step or "starting"]
        if self.last_tool:
            parts.append(self.last_tool)
        if self.tally:
            parts.append(self.tally)
        if self.spent:
            parts.append(self.spent)
        return " · ".join(parts)

    def update(self, event: RunEvent) -> bool:
        """Fold an event in; True when the progress bar should be updated."""
        if isinstance(event, RunStarted):
            self.step = event.start_step
            return True
        if isinstance(event, StepStarted):
            self.step = event.step
            self.last_tool = ""
            self._raise_to(STEP_PERCENT.get(event.step, self.percentage) - 5)
            return True
        if isinstance(event, StepFinished):
            self._raise_to(STEP_PERCENT.get(event.step, self.percentage))
            return True
        if isinstance(event, ToolCalled):
            self.last_tool = event.tool
            if event.step == "migrate":
                self.migrate_ticks += 1
                self._raise_to(min(_MIGRATE_CEILING, 30 + 5 * self.migrate_ticks))
            return True
        if isinstance(event, TestTally):
            self.tally = f"tests {event.passed}/{event.total} passing"
            return True
        if isinstance(event, EditApplied):
            self.last_tool = f"edit by {event.source}"
            return True
        if isinstance(event, TokensUsed):
            self.spent = spent_text(event.run_tokens, event.cost)
            return True
        if isinstance(event, TierChanged):
            self.last_tool = "the model failed: deterministic tier"
            return True
        return False

    def _raise_to(self, value: int) -> None:
        self.percentage = max(self.percentage, min(100, value))

    def report(self) -> types.WorkDoneProgressReport:
        return types.WorkDoneProgressReport(
            message=self.message(), percentage=self.percentage, cancellable=True
        )


def status_payload(
    run_id: str,
    uri: str,
    state: ProgressState,
    event: RunEvent | None,
    batch: str | None = None,
) -> dict[str, Any]:
    """A ``testmend/runStatus`` payload; ``event`` None: the run ended (``done``); ``batchId``
    when the run belongs to a folder batch."""
    return {
        "runId": run_id,
        "uri": uri,
        **({"batchId": batch} if batch else {}),
        "title": state.title,
        "message": state.message(),
        "percentage": state.percentage,
        "done": event is None,
        "event": event.model_dump(mode="json") if event is not None else None,
    }

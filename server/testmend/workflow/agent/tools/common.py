"""What every tool shares: the runtime it is given, its answer to the model (capped), the step
it runs in, the progress event it emits and the run's error tracker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.messages import ToolMessage
from langgraph.types import Command

from ....project.errors import TOOL_ERRORS
from ...context import RunDeps
from ...events import ToolCalled
from ...state import ErrorTracker, Step
from ..state import StepAgentState

Runtime = ToolRuntime[RunDeps, StepAgentState]
MAX_TOOL_OUTPUT = 12_000


def cap(text: str) -> str:
    if len(text) <= MAX_TOOL_OUTPUT:
        return text
    return text[:MAX_TOOL_OUTPUT] + f"\n[… {len(text) - MAX_TOOL_OUTPUT} characters cut …]"


def reply(runtime: Runtime, text: str, **update: Any) -> Command[Any]:
    message = ToolMessage(cap(text), tool_call_id=runtime.tool_call_id or "")
    return Command(update={**update, "messages": [message]})


def step_of(runtime: Runtime) -> Step:
    step = runtime.state.get("step", "migrate")
    return step  # type: ignore[return-value]


def emit_call(runtime: Runtime, name: str, summary: str = "") -> None:
    deps = runtime.context
    deps.emit(ToolCalled(run_id=deps.run_id, step=step_of(runtime), tool=name, summary=summary))


def tracker_of(runtime: Runtime) -> ErrorTracker:
    return ErrorTracker.model_validate(runtime.state.get("tracker") or {})


TOOL_FAILURES: tuple[type[Exception], ...] = (*TOOL_ERRORS, OSError)
"""What a tool reports to the model as ``error: …`` instead of raising."""


def guarded(call: Callable[[], str]) -> str:
    try:
        return call()
    except TOOL_FAILURES as exc:
        return f"error: {exc}"

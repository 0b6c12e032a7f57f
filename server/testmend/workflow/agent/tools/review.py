"""The reviewer's two answers: approve the result, or send concrete findings back to migrate.

A valid answer is stored as the agent's ``verdict``; the agent ends before its next model call
(``agents.StepGuard``). An answer that is not usable (no finding, an empty summary) comes back
as a message the reviewer can act on.
"""

from __future__ import annotations

from typing import Any

from langchain.tools import ToolRuntime, tool
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.types import Command

from ...context import RunDeps
from ...events import ToolCalled
from ..state import StepAgentState

Runtime = ToolRuntime[RunDeps, StepAgentState]

MAX_FINDINGS = 8
"""Findings kept from one review: the migrate agent works through them in one round."""
MAX_FINDING_CHARS = 600


def _answer(runtime: Runtime, name: str, summary: str, text: str, **update: Any) -> Command[Any]:
    deps = runtime.context
    deps.emit(ToolCalled(run_id=deps.run_id, step="review", tool=name, summary=summary[:80]))
    message = ToolMessage(text, tool_call_id=runtime.tool_call_id or "")
    return Command(update={**update, "messages": [message]})


@tool
def approve_migration(summary: str, runtime: Runtime) -> Command[Any]:
    """Approve the migrated test: every original test keeps its intent, nothing was weakened,
    and nothing in the change needs another pass. `summary`: one or two sentences on what you
    checked."""
    summary = " ".join(summary.split())
    if not summary:
        return _answer(
            runtime, "approve_migration", "", "error: say in one sentence what you checked."
        )
    return _answer(
        runtime,
        "approve_migration",
        summary,
        "Approved.",
        verdict={"verdict": "approved", "summary": summary, "findings": []},
    )


@tool
def request_changes(findings: list[str], runtime: Runtime) -> Command[Any]:
    """Send the result back to the migrate agent. Each finding names the test (or line), what
    is wrong and what to write instead, e.g. "'shows the count': asserts on the class
    `.counter__value`; query the count by its text instead"."""
    kept = [" ".join(f.split())[:MAX_FINDING_CHARS] for f in findings if f and f.strip()]
    if not kept:
        return _answer(
            runtime,
            "request_changes",
            "",
            "error: give at least one concrete finding, or approve the migration.",
        )
    kept = list(dict.fromkeys(kept))[:MAX_FINDINGS]
    return _answer(
        runtime,
        "request_changes",
        f"{len(kept)} finding(s): {kept[0]}",
        f"Sent back to the migrate agent with {len(kept)} finding(s).",
        verdict={"verdict": "changes", "summary": "", "findings": kept},
    )


REVIEW_TOOLS: list[BaseTool] = [approve_migration, request_changes]

"""What the model sees on each turn: the system prompt rendered again from the agent's state
(the candidate as it is now, the latest check results, the errors so far) and a conversation
that fits the model's context window.

A prompt rendered once at the start goes stale at the first edit: the model would edit a file it
can no longer see. ``agents.StepGuard`` calls these before every model call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from langchain_core.messages import AnyMessage, ToolMessage

from ...config import AgentName
from ...patching.lines import text_to_lines
from ..state import ErrorTracker
from ..tracking import describe_attempts
from .prompts import CONVERSATION_SHARE, estimate_tokens, render_prompt, slot_budgets
from .state import CheckKind, StepAgentState
from .views import candidate_view

LATEST_SLOT: dict[AgentName, tuple[CheckKind, str]] = {
    "migrate": ("tests", "previous_attempts"),
    "lint": ("lint", "errors"),
    "typescript": ("types", "errors"),
}
"""Which check's latest result replaces which slot of the step's prompt."""

KEEP_RECENT_MESSAGES = 4
"""The last messages (the latest call and its result) are never shortened."""
ELIDED = (
    "[an older tool result, shortened to fit the context window; the latest results are in "
    "the system prompt]"
)


def fresh_values(
    step: AgentName,
    values: Mapping[str, str | None],
    state: StepAgentState,
    budgets: dict[str, int],
) -> dict[str, str | None]:
    """The prompt's values with what the agent's state says now."""
    fresh = dict(values)
    candidate = state.get("candidate", values.get("candidate"))
    if "candidate" in values and candidate is not None:
        changed = [(int(a), int(b)) for a, b in state.get("changed") or []]
        fresh["candidate"] = candidate_view(
            candidate, budget_tokens=budgets["candidate"], focus=changed
        )
        fresh["candidate_lines"] = str(len(text_to_lines(candidate)))
    kind_slot = LATEST_SLOT.get(step)
    latest = (state.get("latest") or {}).get(kind_slot[0]) if kind_slot else None
    if kind_slot and latest:
        fresh[kind_slot[1]] = latest
    if step in ("lint", "typescript") and state.get("tracker"):
        tracker = ErrorTracker.model_validate(state["tracker"])
        fresh["previous_attempts"] = describe_attempts(tracker, step)
    return fresh


def system_prompt(
    step: AgentName,
    values: Mapping[str, str | None],
    state: StepAgentState,
    *,
    context_window: int,
    scale: float = 1.0,
) -> str:
    budgets = slot_budgets(context_window, scale)
    return render_prompt(step, fresh_values(step, values, state, budgets), budgets=budgets)


def _tokens(message: AnyMessage) -> int:
    content = message.content if isinstance(message.content, str) else str(message.content)
    calls = getattr(message, "tool_calls", None) or []
    return estimate_tokens(content) + sum(estimate_tokens(str(c.get("args", ""))) for c in calls)


def fit_conversation(
    messages: Sequence[AnyMessage], context_window: int, scale: float = 1.0
) -> list[AnyMessage]:
    """The conversation within its share of the window: older tool results are shortened
    first (the calls stay, each with its answer, as the protocol needs)."""
    budget = int(context_window * CONVERSATION_SHARE * scale)
    fitted = list(messages)
    total = sum(_tokens(m) for m in fitted)
    for index, message in enumerate(fitted[: max(len(fitted) - KEEP_RECENT_MESSAGES, 0)]):
        if total <= budget:
            break
        if isinstance(message, ToolMessage) and len(str(message.content)) > len(ELIDED):
            total -= _tokens(message) - estimate_tokens(ELIDED)
            fitted[index] = message.model_copy(update={"content": ELIDED})
    return fitted

"""Building and running one step's tool-calling agent (``langchain.agents.create_agent``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse, hook_config
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphRecursionError
from langgraph.runtime import Runtime

from ..config import AgentName
from ..llm.factory import ModelUnavailableError
from ..llm.faults import classify
from .agent_state import StepAgentState
from .context import ESCALATION_UNLOCKS_AT, SCOPE_REDUCTION_UNLOCKS_AT, RunDeps
from .prompts import render_prompt
from .state import ErrorTracker
from .tools import toolkit
from .tracking import step_attempts

# The debugging protocol: what the migrate agent is told, by how many checks have failed.
GUIDANCE: tuple[tuple[int, str], ...] = (
    (
        0,
        "Attempts 1–2: pick ONE failing test, state a hypothesis for why it fails (read the "
        "message and the component), make one focused edit, run the tests.",
    ),
    (
        SCOPE_REDUCTION_UNLOCKS_AT,
        "Attempts 3–5: your hypotheses did not hold. Instrument: add `screen.debug()` or log the "
        "DOM in the failing test, run it, read what is really rendered, then make a smaller edit. "
        "Remove the instrumentation once it passes. request_scope_reduction is now available; "
        f"escalate_for_external_help from failed check {ESCALATION_UNLOCKS_AT}.",
    ),
    (
        6,
        "Attempt 6 and later: reduce scope. Use request_scope_reduction to go back to the best "
        "candidate and fix one test at a time; if a test cannot be made to pass, "
        "escalate_for_external_help explains why to a person.",
    ),
)


def guidance_for(attempts: int) -> str:
    text = GUIDANCE[0][1]
    for threshold, line in GUIDANCE:
        if attempts >= threshold:
            text = line
    return text


class StepGuard(AgentMiddleware[StepAgentState, RunDeps]):
    """Enforces the limits between model calls and keeps the guidance current."""

    state_schema = StepAgentState

    def __init__(self, step: AgentName):
        super().__init__()
        self.step: AgentName = step

    @hook_config(can_jump_to=["end"])
    def before_model(
        self, state: StepAgentState, runtime: Runtime[RunDeps]
    ) -> dict[str, Any] | None:
        runtime.context.usage.step = self.step
        runtime.context.usage.breaker.check()
        if state.get("stop_reason") or (state.get("all_passing") and self.step != "research"):
            return {"jump_to": "end"}
        return None

    async def awrap_model_call(
        self,
        request: ModelRequest[RunDeps],
        handler: Callable[[ModelRequest[RunDeps]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        state: StepAgentState = request.state  # type: ignore[assignment]
        tracker = ErrorTracker.model_validate(state.get("tracker") or {})
        attempts = step_attempts(tracker, self.step)
        notes = [f"## Status\nChecks run in this step: {attempts}."]
        if self.step == "migrate":
            notes.append(f"## Guidance now\n{guidance_for(attempts)}")
        if state.get("focus"):
            notes.append(f"## Focus\nFix only: {state['focus'][0]!r}")
        if state.get("instructions"):
            notes.append("## A person said\n" + "\n".join(state["instructions"]))
        base = request.system_message.content if request.system_message else ""
        request = request.override(system_message=SystemMessage(f"{base}\n\n" + "\n\n".join(notes)))
        deps = request.runtime.context
        breaker = deps.usage.breaker
        while True:
            try:
                response = await handler(request)
            except Exception as exc:
                fault = classify(
                    exc,
                    model=deps.config.model.model_for(self.step) or "",
                    base_url=deps.config.model.base_url or "",
                )
                if fault is None:
                    raise
                if fault.kind == "permanent":
                    raise ModelUnavailableError(fault.message) from exc
                # Transient or garbage: counted, retried until the breaker opens.
                breaker.record_failure(fault.message)
                breaker.check()
                await asyncio.sleep(min(8.0, 0.5 * 2**breaker.consecutive_failures))
                continue
            breaker.record_success()
            return response


class AgentStalledError(RuntimeError):
    """An agent went on calling tools (reads, mostly) past the step's recursion limit."""


def recursion_limit(deps: RunDeps) -> int:
    # Each tool round trip is two graph steps; leave room for reads between checks.
    return 4 * deps.config.retry.max_total_attempts * 3 + 20


async def run_agent(
    deps: RunDeps,
    step: AgentName,
    prompt_values: Mapping[str, str | None],
    initial: Mapping[str, Any],
    *,
    task: str,
) -> StepAgentState:
    """Run the step's agent to its end and return its final state."""
    assert deps.models is not None
    system_prompt = render_prompt(step, prompt_values)
    agent = create_agent(
        deps.models(step),
        toolkit(step),
        system_prompt=system_prompt,
        middleware=[StepGuard(step)],
        state_schema=StepAgentState,
        context_schema=RunDeps,
        name=f"{step}_agent",
    )
    deps.usage.step = step
    agent_input: Any = {**initial, "step": step, "messages": [HumanMessage(task)]}
    config: RunnableConfig = {
        "recursion_limit": recursion_limit(deps),
        "callbacks": [deps.usage],
    }
    try:
        result = await agent.ainvoke(agent_input, config=config, context=deps)
    except GraphRecursionError as exc:
        raise AgentStalledError(
            f"the {step} agent kept calling tools without progress ({config['recursion_limit']} "
            "steps without finishing; the limit follows retry.maxTotalAttempts)"
        ) from exc
    return cast(StepAgentState, result)

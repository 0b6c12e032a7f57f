"""Building and running one step's tool-calling agent (``langchain.agents.create_agent``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse, hook_config
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphRecursionError
from langgraph.runtime import Runtime

from ...config import AgentName
from ...llm.factory import ModelUnavailableError
from ...llm.faults import classify
from ..context import ESCALATION_UNLOCKS_AT, SCOPE_REDUCTION_UNLOCKS_AT, RunDeps
from ..events import TokensUsed
from ..state import ErrorTracker
from ..tracking import step_attempts
from .errors import AgentStalledError
from .state import StepAgentState
from .turns import fit_conversation, system_prompt

SHRUNK_SCALE = 0.5
"""After a context-length error the prompt's parts are sized for half the window, once."""

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
    """Enforces the limits between model calls and gives each call a fresh context: the system
    prompt rendered from the agent's state as it is now, the guidance for the attempts made,
    a conversation that fits the model's window. A prompt the endpoint says is too long is
    shrunk once and sent again."""

    state_schema = StepAgentState

    def __init__(self, step: AgentName, values: Mapping[str, str | None] | None = None):
        super().__init__()
        self.step: AgentName = step
        self.values = dict(values or {})

    @hook_config(can_jump_to=["end"])
    def before_model(
        self, state: StepAgentState, runtime: Runtime[RunDeps]
    ) -> dict[str, Any] | None:
        deps = runtime.context
        deps.usage.step = self.step
        deps.usage.model = deps.config.model.model_for(self.step) or ""
        deps.usage.breaker.check()
        if state.get("stop_reason") or state.get("verdict"):
            return {"jump_to": "end"}
        if state.get("all_passing") and self.step not in ("research", "review"):
            return {"jump_to": "end"}
        spent = deps.usage.over_budget()
        if spent:
            return {"stop_reason": spent, "jump_to": "end"}
        return None

    def _notes(self, state: StepAgentState) -> str:
        tracker = ErrorTracker.model_validate(state.get("tracker") or {})
        attempts = step_attempts(tracker, self.step)
        notes = [f"## Status\nChecks run in this step: {attempts}."]
        if self.step == "migrate":
            notes.append(f"## Guidance now\n{guidance_for(attempts)}")
        if state.get("focus"):
            notes.append(f"## Focus\nFix only: {state['focus'][0]!r}")
        if state.get("instructions"):
            notes.append("## A person said\n" + "\n".join(state["instructions"]))
        return "\n\n".join(notes)

    def _request(
        self, request: ModelRequest[RunDeps], window: int, scale: float
    ) -> ModelRequest[RunDeps]:
        state: StepAgentState = request.state  # type: ignore[assignment]
        prompt = system_prompt(self.step, self.values, state, context_window=window, scale=scale)
        return request.override(
            system_message=SystemMessage(f"{prompt}\n\n{self._notes(state)}"),
            messages=fit_conversation(request.messages, window, scale),
        )

    async def awrap_model_call(
        self,
        request: ModelRequest[RunDeps],
        handler: Callable[[ModelRequest[RunDeps]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        deps = request.runtime.context
        breaker = deps.usage.breaker
        window = deps.config.model.context_window_for(self.step)
        scale = 1.0
        while True:
            try:
                response = await handler(self._request(request, window, scale))
            except Exception as exc:
                fault = classify(
                    exc,
                    model=deps.config.model.model_for(self.step) or "",
                    base_url=deps.config.model.base_url or "",
                )
                if fault is None:
                    raise
                if fault.too_long and scale == 1.0:
                    scale = SHRUNK_SCALE  # once: the window setting may be larger than the model's
                    continue
                if fault.kind == "permanent":
                    shrunk = "; a prompt sized for half the window did not fit either"
                    message = fault.message + (shrunk if fault.too_long else "")
                    raise ModelUnavailableError(message) from exc
                # Transient or garbage: counted, retried until the breaker opens.
                breaker.record_failure(fault.message)
                breaker.check()
                await asyncio.sleep(min(8.0, 0.5 * 2**breaker.consecutive_failures))
                continue
            breaker.record_success()
            self._spent(deps)
            return response

    def _spent(self, deps: RunDeps) -> None:
        usage, step = deps.usage, deps.usage.usage(self.step)
        deps.emit(
            TokensUsed(
                run_id=deps.run_id,
                step=self.step,
                input_tokens=step.input_tokens,
                output_tokens=step.output_tokens,
                run_tokens=usage.run_tokens,
                cost=usage.run_cost if usage.priced else None,
            )
        )


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
    agent_input: Any = {**initial, "step": step, "messages": [HumanMessage(task)]}
    window = deps.config.model.context_window_for(step)
    # The tools' schemas take a noticeable part of a second to build: they load with the first
    # agent, so a run without a model (the codemod alone) never builds them.
    from .tools import toolkit

    agent = create_agent(
        deps.models(step),
        toolkit(step),
        # Rendered again before every call (StepGuard): this is the first call's.
        system_prompt=system_prompt(step, prompt_values, agent_input, context_window=window),
        middleware=[StepGuard(step, prompt_values)],
        state_schema=StepAgentState,
        context_schema=RunDeps,
        name=f"{step}_agent",
    )
    deps.usage.step = step
    # The run's callbacks (token usage, a tracer) come from the engine's config; the agent
    # is a child run of its step, named and tagged for traces.
    config: RunnableConfig = {
        "recursion_limit": recursion_limit(deps),
        "run_name": f"{step} agent",
        "tags": [f"step:{step}"],
    }
    try:
        result = await agent.ainvoke(agent_input, config=config, context=deps)
    except GraphRecursionError as exc:
        raise AgentStalledError(
            f"the {step} agent kept calling tools without progress ({config['recursion_limit']} "
            "steps without finishing; the limit follows retry.maxTotalAttempts)"
        ) from exc
    _count_answers_from_before(deps, step, result["messages"])
    return cast(StepAgentState, result)


def _count_answers_from_before(deps: RunDeps, step: AgentName, messages: list[Any]) -> None:
    """An agent resumed from its checkpoint (the process died mid-agent) has answers in its
    conversation that this process never received: their tokens count too."""
    for message in messages:
        if not isinstance(message, AIMessage) or not message.usage_metadata:
            continue
        if message.id and message.id not in deps.usage.counted_messages:
            deps.usage.counted_messages.add(message.id)
            meta = message.usage_metadata
            deps.usage.record(step, int(meta["input_tokens"]), int(meta["output_tokens"]))

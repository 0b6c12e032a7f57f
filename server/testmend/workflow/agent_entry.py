"""Where the steps reach their agents.

LangChain's agent builder, the agents' middleware and their tools load with the first agent a
run builds (``agents.py``): an offline run, which builds none, does not pay for them (about a
fifth of the command line's start-up, measured with ``python -X importtime``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..config import AgentName

if TYPE_CHECKING:
    from .agent_state import StepAgentState
    from .context import RunDeps


class AgentStalledError(RuntimeError):
    """An agent went on calling tools (reads, mostly) past the step's recursion limit."""


async def run_agent(
    deps: RunDeps,
    step: AgentName,
    prompt_values: Mapping[str, str | None],
    initial: Mapping[str, Any],
    *,
    task: str,
) -> StepAgentState:
    """Run the step's agent to its end and return its final state (``agents.run_agent``)."""
    from .agents import run_agent as run

    return await run(deps, step, prompt_values, initial, task=task)

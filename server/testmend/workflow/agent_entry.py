"""Where the steps reach their agents.

LangChain's agent builder, the agents' middleware and their tools load with the first agent a
run builds (``agents.py``): an offline run, which builds none, does not pay for them (measured
with ``python -X importtime``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


class AgentStalledError(RuntimeError):
    """An agent went on calling tools (reads, mostly) past the step's recursion limit."""


if TYPE_CHECKING:  # the type checker sees the real function and its signature
    from .agents import run_agent as run_agent
else:

    async def run_agent(*args: Any, **kwargs: Any) -> Any:
        """``agents.run_agent``, imported on the first call."""
        from .agents import run_agent as run

        return await run(*args, **kwargs)

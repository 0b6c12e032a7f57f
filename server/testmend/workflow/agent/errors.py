"""What an agent's run can end in besides a result: the engine and the agent both use it."""

from __future__ import annotations


class AgentStalledError(RuntimeError):
    """An agent went on calling tools (reads, mostly) past the step's recursion limit."""

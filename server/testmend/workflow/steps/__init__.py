"""The steps of the migration graph, one module each. Each is deterministic work, then (when a
model is configured) the step's agent, then deterministic validation of what the agent left."""

from __future__ import annotations

from typing import Any

from ..state import STEPS, MigrationState, Step
from .checks import lint, typescript
from .finish import finish
from .migrate import migrate
from .planning import default_plans, planning, validate_plans
from .research import research
from .review import review


def choose_start(state: MigrationState) -> Step:
    """Enter at the requested step only when the state holds what that step needs."""
    wanted = state.start_node
    if wanted == "migrate" and state.test_plans and state.research is not None:
        return "migrate"
    if wanted in ("lint", "typescript") and state.candidate is not None:
        return wanted
    return "research"


NODES: dict[str, Any] = {
    "research": research,
    "planning": planning,
    "migrate": migrate,
    "lint": lint,
    "typescript": typescript,
    "review": review,
    "finish": finish,
}
assert tuple(NODES) == STEPS

__all__ = ["NODES", "choose_start", "default_plans", "validate_plans"]

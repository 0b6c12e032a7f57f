"""The planning step: one plan per test of the original (migrate, or keep when fixing); with a
model, the planning agent may delete a test (with a reason), add tests, or record why a test may
make fewer assertions."""

from __future__ import annotations

from langgraph.runtime import Runtime

from ...codemod import test_names
from ..agent import run_agent
from ..context import RunDeps
from ..state import MigrationState, TestPlan
from .common import Update, done, emit_start, plans_text, research_summary


def default_plans(state: MigrationState) -> list[TestPlan]:
    """One plan per test of the original file: migrate it (or keep it, when fixing)."""
    return [
        TestPlan(
            test_name=name,
            action="migrate" if state.mode == "migrate" else "keep",
            gherkin=f"Given the component as the original test sets it up\n"
            f"When the user does what the test '{name}' does\n"
            "Then the same observable outcome is asserted",
            reason="default: one migrated test per original test",
        )
        for name in test_names(state.original_content, state.test_file)
    ]


async def planning(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    emit_start(deps, "planning")
    plans = default_plans(state)
    original_names = [p.test_name for p in plans]
    if deps.models is not None and plans:
        values = {
            "test_file": state.test_file,
            "original_test": state.original_content,
            "research_context": research_summary(state),
            "test_plans": plans_text(plans),
            "user_instructions": state.user_instructions,
        }
        initial = {"test_file": state.test_file, "plans": [p.model_dump() for p in plans]}
        result = await run_agent(
            deps, "planning", values, initial, task="Plan the migration, test by test."
        )
        proposed = [TestPlan.model_validate(p) for p in result.get("plans", [])]
        plans = validate_plans(proposed, original_names)
    counts = {a: sum(p.action == a for p in plans) for a in ("migrate", "delete", "keep", "add")}
    detail = ", ".join(f"{n} {a}" for a, n in counts.items() if n) or "no tests found"
    return done(deps, state, "planning", detail, test_plans=plans)


def validate_plans(proposed: list[TestPlan], original_names: list[str]) -> list[TestPlan]:
    """Exactly one plan per original test (missing ones default to migrate), plus adds; a
    delete plan needs a reason."""
    by_name = {p.test_name: p for p in proposed}
    plans = []
    for name in original_names:
        plan = by_name.get(name)
        if (
            plan is None
            or plan.action == "add"
            or (plan.action == "delete" and not plan.reason.strip())
        ):
            plan = TestPlan(test_name=name, action="migrate", reason="no valid plan: migrate")
        plans.append(plan)
    plans.extend(p for p in proposed if p.action == "add" and p.test_name not in original_names)
    return plans

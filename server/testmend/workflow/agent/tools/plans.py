"""Research notes and plans: findings for the later agents, and one plan per test (migrate,
delete with a reason, keep, add), each with its Gherkin."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langchain.tools import tool
from langgraph.types import Command
from pydantic import BaseModel, Field

from .common import Runtime, emit_call, reply


class PlanInput(BaseModel):
    test_name: str = Field(description="full test name: describe titles and test title")
    action: Literal["migrate", "delete", "keep", "add"]
    gherkin: str | None = Field(None, description="Given/When/Then, for migrate and add")
    reason: str = ""
    fewer_assertions: str = Field(
        "", description="why the migrated test may make fewer assertions than the original"
    )


def _merge_plans(runtime: Runtime, new: Sequence[PlanInput]) -> tuple[list[dict[str, Any]], str]:
    plans = {p["test_name"]: p for p in runtime.state.get("plans", [])}
    problems = []
    for plan in new:
        if plan.action in ("migrate", "add") and not (plan.gherkin or "").strip():
            problems.append(f"{plan.test_name!r}: a {plan.action} plan needs a Gherkin plan")
            continue
        if plan.action == "delete" and not plan.reason.strip():
            problems.append(f"{plan.test_name!r}: say why the test can be deleted")
            continue
        plans[plan.test_name] = plan.model_dump()
    text = f"{len(plans)} plan(s) recorded"
    if problems:
        text += "; refused: " + "; ".join(problems)
    return list(plans.values()), text


@tool
def add_test_plan(
    test_name: str,
    action: Literal["migrate", "delete", "keep", "add"],
    runtime: Runtime,
    gherkin: str | None = None,
    reason: str = "",
    fewer_assertions: str = "",
) -> Command[Any]:
    """Record the plan for one test (replaces an earlier plan for the same name). A delete
    needs a reason; ``fewer_assertions`` says why the migrated test may assert less."""
    emit_call(runtime, "add_test_plan", f"{action}: {test_name}")
    plan = PlanInput(
        test_name=test_name,
        action=action,
        gherkin=gherkin,
        reason=reason,
        fewer_assertions=fewer_assertions,
    )
    plans, text = _merge_plans(runtime, [plan])
    return reply(runtime, text, plans=plans)


@tool
def add_multiple_test_plans(plans: list[PlanInput], runtime: Runtime) -> Command[Any]:
    """Record plans for several tests at once."""
    emit_call(runtime, "add_multiple_test_plans", f"{len(plans)} plans")
    merged, text = _merge_plans(runtime, plans)
    return reply(runtime, text, plans=merged)


@tool
def write_to_scratchpad(note: str, runtime: Runtime) -> Command[Any]:
    """Record one research finding for the planning and migrate agents."""
    emit_call(runtime, "write_to_scratchpad", note[:80])
    notes = [*runtime.state.get("scratchpad", []), note.strip()]
    return reply(runtime, f"noted ({len(notes)} notes)", scratchpad=notes)

"""The escape hatches, unlocked by failed checks: scope reduction (back to the best candidate,
one failing test at a time) and escalation to a person (a report, and the run pauses until they
answer)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from langchain.tools import tool
from langgraph.types import Command, interrupt

from ...candidate import sync_candidate
from ...context import ESCALATION_UNLOCKS_AT, SCOPE_REDUCTION_UNLOCKS_AT
from ...tracking import active_errors, step_attempts
from ..views import changed_spans
from .common import Runtime, emit_call, reply, step_of, tracker_of


def _failed_checks(runtime: Runtime) -> int:
    return step_attempts(tracker_of(runtime), step_of(runtime))


@tool
def request_scope_reduction(reason: str, runtime: Runtime) -> Command[Any]:
    """Revert the candidate to its best state so far and fix the failing tests one at a time.
    Locked until several checks have failed."""
    emit_call(runtime, "request_scope_reduction", reason[:80])
    attempts = _failed_checks(runtime)
    if attempts < SCOPE_REDUCTION_UNLOCKS_AT:
        return reply(
            runtime,
            f"error: request_scope_reduction is locked until {SCOPE_REDUCTION_UNLOCKS_AT} "
            f"checks have failed ({attempts} so far): keep debugging the current failure.",
        )
    best = runtime.state.get("best") or {}
    content = best.get("content") or runtime.state.get("candidate", "")
    sync_candidate(runtime.context, runtime.state.get("test_file", ""), content)
    failing = sorted(
        {e.message.splitlines()[0][:200] for e in active_errors(tracker_of(runtime), "migrate")}
    )
    plans = runtime.state.get("plans", [])
    passed_names = set(tracker_of(runtime).ever_passed)
    focus = [p["test_name"] for p in plans if p.get("action") in ("migrate", "add")]
    focus = [name for name in focus if name not in passed_names] or focus
    return reply(
        runtime,
        f"Scope reduced: the candidate is back to its best state ({best.get('passed', '?')} of "
        f"{best.get('total', '?')} tests passing). Fix the failing tests one at a time, in this "
        f"order: {focus}. Known failures: {failing[:5]}",
        candidate=content,
        changed=changed_spans(runtime.state.get("candidate", ""), content),
        focus=focus,
    )


@tool
def escalate_for_external_help(
    goal: str, tried: str, last_error: str, analysis: str, runtime: Runtime
) -> Command[Any]:
    """Ask a person for help: writes a report and pauses the run until they answer.
    Locked until many checks have failed."""
    emit_call(runtime, "escalate_for_external_help")
    attempts = _failed_checks(runtime)
    if attempts < ESCALATION_UNLOCKS_AT:
        return reply(
            runtime,
            f"error: escalate_for_external_help is locked until {ESCALATION_UNLOCKS_AT} checks "
            f"have failed ({attempts} so far).",
        )
    deps = runtime.context
    deps.run_dir.mkdir(parents=True, exist_ok=True)
    index = len(list(deps.run_dir.glob("escalation-*.md"))) + 1
    report = deps.run_dir / f"escalation-{index}.md"
    test_file = runtime.state.get("test_file", "")
    report.write_text(
        f"# testmend needs help with {test_file}\n\n"
        f"_{datetime.now(UTC).isoformat(timespec='seconds')}, after {attempts} failed checks_\n\n"
        f"## Goal\n{goal}\n\n## What was tried\n{tried}\n\n"
        f"## Last error\n```\n{last_error}\n```\n\n## Analysis\n{analysis}\n\n"
        "## Answer\nReply with `retry` (more attempts), `apply_partial` (keep the best result so "
        "far), `discard`, or instructions for the agent.\n",
        encoding="utf-8",
    )
    question = f"testmend is stuck migrating {test_file}: {analysis[:300]}"
    answer = interrupt(
        {
            "question": question,
            "report_path": str(report),
            "options": ["retry", "apply_partial", "discard"],
        }
    )
    text = str(answer).strip() or "retry"
    escalation = {"report_path": str(report), "question": question, "answer": text}
    if text in ("apply_partial", "discard"):
        return reply(
            runtime,
            f"The person answered {text!r}: stop now.",
            escalation=escalation,
            stop_reason=f"stopped after escalation: {text}",
        )
    # "retry" or free-text instructions: the attempt counters of this step start again.
    tracker = tracker_of(runtime)
    steps = dict(tracker.steps)
    steps.pop(step_of(runtime), None)
    errors = {
        fp: e.model_copy(update={"attempts": 0}) if e.step == step_of(runtime) else e
        for fp, e in tracker.errors.items()
    }
    instructions = list(runtime.state.get("instructions", []))
    if text != "retry":
        instructions.append(text)
    return reply(
        runtime,
        "The person answered: "
        + ("retry with more attempts." if text == "retry" else f"{text!r}. Follow it."),
        escalation=escalation,
        tracker=tracker.model_copy(update={"steps": steps, "errors": errors}).model_dump(),
        instructions=instructions,
    )

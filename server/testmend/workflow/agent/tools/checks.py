"""The checks an agent runs on the candidate: the project's jest (with the test inventory
against the original), eslint (and its automatic fixes) and tsc. Each is recorded in the error
tracker, which answers with what changed and any retry limit reached."""

from __future__ import annotations

from typing import Any

from langchain.tools import tool
from langgraph.types import Command

from ....runners import RunnerError
from ...candidate import (
    describe_lint,
    describe_test_result,
    describe_types,
    observed_test_errors,
    sync_candidate,
)
from ...events import EditApplied, TestTally
from ...state import CandidateSnapshot, Step
from ...tracking import ObservedError
from ...verify import as_errors, describe_findings, inventory_check
from ..state import CheckKind
from ..views import changed_spans
from .common import Runtime, emit_call, reply, step_of, tracker_of


def _latest(runtime: Runtime, kind: CheckKind, text: str) -> dict[str, str]:
    """The latest result of each kind of check, for the agent's prompt (``agents.StepGuard``)."""
    return {**(runtime.state.get("latest") or {}), kind: text}


def _checked(
    runtime: Runtime,
    step: Step,
    kind: CheckKind,
    observed: list[ObservedError],
    passing: list[str],
    text: str,
    clean: bool,
    update: dict[str, Any] | None = None,
) -> Command[Any]:
    """Record a check in the error tracker and answer with its feedback and any limit."""
    deps = runtime.context
    verdict = deps.record_check(
        tracker_of(runtime),
        step,
        observed,
        passing,
    )
    update = {**(update or {}), "tracker": verdict.tracker.model_dump(), "all_passing": clean}
    if verdict.feedback:
        text += "\n\n" + "\n".join(verdict.feedback)
    if verdict.limit_reason and not clean:
        text += f"\n\nLIMIT REACHED — stop now: {verdict.limit_reason}"
        update["stop_reason"] = verdict.limit_reason
    update["latest"] = _latest(runtime, kind, text)
    return reply(runtime, text, **update)


@tool
async def run_test_file(runtime: Runtime) -> Command[Any]:
    """Run the candidate test file with the project's jest; failing tests come most urgent first."""
    emit_call(runtime, "run_test_file")
    deps = runtime.context
    state = runtime.state
    test_file = state.get("test_file", "")
    candidate = state.get("candidate", "")
    sync_candidate(deps, test_file, candidate)
    try:
        result = await deps.run_tests(test_file)
    except RunnerError as exc:
        return reply(runtime, f"the test run could not complete: {exc}")
    deps.emit(
        TestTally(
            run_id=deps.run_id,
            step=step_of(runtime),
            passed=result.passed_count,
            failed=result.failed_count,
            total=len(result.tests),
        )
    )
    update: dict[str, Any] = {}
    best = state.get("best")
    if best is None or result.passed_count > best.get("passed", -1):
        update["best"] = CandidateSnapshot(
            content=candidate, passed=result.passed_count, total=len(result.tests)
        ).model_dump()
    text = describe_test_result(result)
    if result.success:
        text = "All tests pass. " + text
    focus = state.get("focus") or []
    if focus and not result.success:
        failing = {t.full_name for t in result.failing()}
        remaining = [name for name in focus if name in failing]
        update["focus"] = remaining
        if remaining:
            text += f"\n\nScope reduced: fix only {remaining[0]!r} now."
    passing = [t.full_name for t in result.tests if t.status == "passed"]
    observed = observed_test_errors(result)
    # The tests passing is not enough: every original test must still be there, checking as much.
    original = state.get("original")
    findings = (
        inventory_check(original, candidate, test_file, state.get("plans", []))[1]
        if original
        else []
    )
    if findings:
        observed += as_errors(findings)
        text += "\n\n" + describe_findings(findings)
        if result.success:
            text = "The tests pass, but the result is not accepted yet:\n" + text
    clean = result.success and not findings
    return _checked(runtime, step_of(runtime), "tests", observed, passing, text, clean, update)


@tool
async def lint_auto_fix(runtime: Runtime) -> Command[Any]:
    """Apply eslint's automatic fixes to the candidate; report the messages that remain."""
    emit_call(runtime, "lint_auto_fix")
    deps = runtime.context
    test_file = runtime.state.get("test_file", "")
    path = sync_candidate(deps, test_file, runtime.state.get("candidate", ""))
    try:
        result = await deps.runners.lint_fix(test_file)
    except RunnerError as exc:
        return reply(runtime, f"eslint could not run: {exc}")
    fixed = path.read_text(encoding="utf-8")
    text = describe_lint(result.messages)
    update: dict[str, Any] = {"candidate": fixed, "latest": _latest(runtime, "lint", text)}
    if result.changed:
        deps.emit(EditApplied(run_id=deps.run_id, step=step_of(runtime), source="eslint --fix"))
        update["changed"] = changed_spans(runtime.state.get("candidate", ""), fixed)
    return reply(
        runtime,
        ("eslint --fix changed the file. " if result.changed else "nothing to auto-fix. ") + text,
        **update,
    )


@tool
async def run_lint_check(runtime: Runtime) -> Command[Any]:
    """Run the project's eslint on the candidate."""
    emit_call(runtime, "run_lint_check")
    deps = runtime.context
    test_file = runtime.state.get("test_file", "")
    sync_candidate(deps, test_file, runtime.state.get("candidate", ""))
    try:
        result = await deps.runners.lint(test_file)
    except RunnerError as exc:
        return reply(runtime, f"eslint could not run: {exc}")
    observed = [
        ObservedError(subject=m.rule or "parse", message=m.message) for m in result.messages
    ]
    text = describe_lint(result.messages)
    return _checked(runtime, "lint", "lint", observed, [], text, result.clean)


@tool
async def run_ts_check(runtime: Runtime) -> Command[Any]:
    """Type-check the project with tsc and report the candidate's type errors."""
    emit_call(runtime, "run_ts_check")
    deps = runtime.context
    test_file = runtime.state.get("test_file", "")
    sync_candidate(deps, test_file, runtime.state.get("candidate", ""))
    try:
        result = await deps.runners.typecheck(test_file)
    except RunnerError as exc:
        return reply(runtime, f"tsc could not run: {exc}")
    observed = [ObservedError(subject=d.code, message=d.message) for d in result.diagnostics]
    text = describe_types(result.diagnostics)
    return _checked(runtime, "typescript", "types", observed, [], text, result.clean)

"""The lint and typescript steps: one algorithm, parametrised by the check.

Run the check on the candidate (lint: after ``eslint --fix``), record it in the tracker, and
(with a model) let the step's agent fix what is left; an agent's edit is kept only when the
behaviour holds: in a migration, no test that passed fails and the test inventory loses
nothing; in a fix run, no test that passed before the fix fails. A fix run first records which
tests pass before anything changes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from langgraph.runtime import Runtime

from ...codemod.wrap import Wrapped, max_len_limit, wrap_long_lines
from ...runners import LintResult, RunnerError, TypecheckResult
from ..agent import run_agent
from ..candidate import describe_lint, describe_types, sync_candidate
from ..context import RunDeps
from ..events import EditApplied
from ..state import CheckMessage, CodemodFinding, ErrorTracker, MigrationState, Step
from ..tracking import ObservedError, describe_attempts
from ..verify import passing_by_file, run_verify_tests, state_inventory, tests_after_fix
from .common import (
    Update,
    agent_initial,
    done,
    emit_start,
    fail,
    run_tests,
    tally,
)

CheckResult = LintResult | TypecheckResult


@dataclass(frozen=True)
class Check:
    step: Literal["lint", "typescript"]
    missing: str
    """The step's detail when the project has no such tool."""
    task: str
    run: Callable[[RunDeps, str], Awaitable[Any]]
    observed: Callable[[Any], list[ObservedError]]
    describe: Callable[[Any], str]
    count: Callable[[RunDeps, Any], int]
    """What holds a result back: errors, and warnings past what the project allows."""
    clean_detail: str
    left_detail: Callable[[Any], str]
    summary_key: str
    count_key: str
    messages_key: str
    messages: Callable[[Any], list[CheckMessage]]
    available: Callable[[RunDeps, str], bool]
    """Whether the project's tool says anything about the file."""
    autofix: bool = False


def _blocking_warnings(deps: RunDeps, result: LintResult) -> int:
    """Warnings count when the project's lint fails on them (``--max-warnings``): all of them
    once there are more than it allows."""
    allowed = deps.runners.commands.lint_max_warnings
    if allowed is None or result.warning_count <= allowed:
        return 0
    return result.warning_count


async def _lint(deps: RunDeps, test_file: str) -> LintResult:
    return await deps.runners.lint(test_file)


async def _types(deps: RunDeps, test_file: str) -> TypecheckResult:
    return await deps.runners.typecheck(test_file)


LINT = Check(
    step="lint",
    missing="skipped: no eslint in the project",
    task="Make the candidate lint-clean.",
    run=_lint,
    observed=lambda r: [
        ObservedError(subject=m.rule or "parse", message=m.message) for m in r.messages
    ],
    describe=lambda r: describe_lint(r.messages),
    count=lambda deps, r: r.error_count + _blocking_warnings(deps, r),
    clean_detail="lint clean",
    left_detail=lambda r: f"{r.error_count} errors, {r.warning_count} warnings left",
    summary_key="lint_summary",
    count_key="lint_errors",
    messages_key="lint_messages",
    messages=lambda r: [
        CheckMessage(
            tool="eslint",
            rule=m.rule,
            severity=m.severity,
            message=m.message,
            line=m.line,
            column=m.column,
            end_line=m.end_line,
            end_column=m.end_column,
        )
        for m in r.messages
    ],
    available=lambda deps, _file: deps.runners.commands.lint is not None,
    autofix=True,
)
TYPES = Check(
    step="typescript",
    missing="skipped: tsc does not check this file (no TypeScript, or JavaScript without checkJs)",
    task="Make the candidate type-check.",
    run=_types,
    observed=lambda r: [ObservedError(subject=d.code, message=d.message) for d in r.diagnostics],
    describe=lambda r: describe_types(r.diagnostics),
    count=lambda _deps, r: r.error_count,
    clean_detail="types clean",
    left_detail=lambda r: f"{r.error_count} type errors left",
    summary_key="type_summary",
    count_key="type_errors",
    messages_key="type_messages",
    messages=lambda r: [
        CheckMessage(
            tool="tsc",
            rule=d.code,
            severity=d.category,
            message=d.message,
            line=d.line,
            column=d.column,
        )
        for d in r.diagnostics
    ],
    available=lambda deps, file: deps.runners.type_checked(file),
)


async def _baseline(deps: RunDeps, state: MigrationState, step: Step) -> Update:
    """Fix runs: the tests that pass before the fix (once per run)."""
    if state.mode != "fix" or state.baseline_passing or not state.verify_tests:
        return {}
    sync_candidate(deps, state.test_file, state.original_content)
    results = await run_verify_tests(deps, state.verify_tests)
    for result in results.values():
        tally(deps, step, result)
    return {"baseline_passing": passing_by_file(results)}


async def keep_if_behaviour_holds(
    deps: RunDeps, state: MigrationState, before: str, after: str
) -> str:
    """An edit made for lint or types must not break tests or lose what the tests check."""
    if after == before:
        return after
    if state.mode == "fix":
        sync_candidate(deps, state.test_file, after)
        _, lost = await tests_after_fix(deps, state)
        held = not lost
    else:
        result = await run_tests(deps, state, after)
        known = len(state.fidelity.inventory_findings) if state.fidelity else 0
        _, findings = state_inventory(state, after)
        held = result.passed_count >= state.tests_passing and len(findings) <= known
    if held:
        return after
    sync_candidate(deps, state.test_file, before)
    return before


async def run_check(check: Check, state: MigrationState, deps: RunDeps) -> Update:
    step = check.step
    emit_start(deps, step, state)
    candidate = state.candidate if state.candidate is not None else state.original_content
    try:
        baseline = await _baseline(deps, state, step)
    except RunnerError as exc:
        return fail(deps, state, step, f"the tests could not run before the fix: {exc.message}")
    state = state.model_copy(update=baseline)
    if not check.available(deps, state.test_file):
        return done(deps, state, step, check.missing, candidate=candidate, **baseline)
    findings = state.codemod_findings
    try:
        path = sync_candidate(deps, state.test_file, candidate)
        result: CheckResult = await check.run(deps, state.test_file)  # often started early
        # Lines the result made too long, broken (max-len has no fixer); --fix then puts the
        # commas and indentation as the project wants them.
        # (A parse per long line: seconds for a long file, so not on the event loop.)
        wrapped = (
            await asyncio.to_thread(_wrapped, state, candidate, result) if check.autofix else None
        )
        if wrapped is not None:
            sync_candidate(deps, state.test_file, wrapped.content)
        fixable = isinstance(result, LintResult) and any(m.fixable for m in result.messages)
        if check.autofix and (fixable or wrapped is not None):
            # What --fix leaves is what a lint of the fixed file says: no third run.
            fixed = await deps.runners.lint_fix(state.test_file)
            if not fixed.changed:
                result = fixed
                if wrapped is not None:  # only whitespace moved: the tests need no new run
                    candidate, findings = wrapped.content, _moved(findings, wrapped)
                    _wrapped_event(deps, step)
            else:
                # A fixer can change what runs (import/no-relative-packages rewrites a relative
                # import to a package name jest cannot resolve): the fixed file is kept only
                # when the tests still hold on it; else the candidate and its lint stay.
                after = path.read_text(encoding="utf-8")
                if await keep_if_behaviour_holds(deps, state, candidate, after) == after:
                    candidate, result = after, fixed
                    if wrapped is not None:
                        findings = _moved(findings, wrapped)
                    deps.emit(EditApplied(run_id=deps.run_id, step=step, source="eslint --fix"))
                elif wrapped is not None:
                    # The fix is undone, the broken lines are kept (only whitespace moved).
                    candidate, findings = wrapped.content, _moved(findings, wrapped)
                    sync_candidate(deps, state.test_file, candidate)
                    result = await check.run(deps, state.test_file)
                    _wrapped_event(deps, step)
    except RunnerError as exc:
        return fail(deps, state, step, exc.message, candidate=candidate, **baseline)
    verdict = deps.record_check(state.error_tracker, step, check.observed(result), [])
    tracker = verdict.tracker
    if check.count(deps, result) and deps.models is not None:
        values = {
            "test_file": state.test_file,
            "candidate": candidate,  # rendered from the agent's state on each turn
            "errors": check.describe(result),
            "previous_attempts": describe_attempts(tracker, step),
            "user_instructions": state.user_instructions,
        }
        final = await run_agent(
            deps,
            step,
            values,
            {**agent_initial(state, candidate), "tracker": tracker.model_dump()},
            task=check.task,
        )
        tracker = ErrorTracker.model_validate(final.get("tracker") or {})
        edited = final.get("candidate", candidate)
        candidate = await keep_if_behaviour_holds(deps, state, candidate, edited)
        sync_candidate(deps, state.test_file, candidate)
        result = await check.run(deps, state.test_file)
    count = check.count(deps, result)
    detail = check.left_detail(result) if count else check.clean_detail
    if result.reused:
        detail += " (as in an earlier run: nothing it depends on changed)"
    return done(
        deps,
        state,
        step,
        detail,
        candidate=candidate,
        error_tracker=tracker,
        **{
            check.summary_key: check.describe(result) if count else "",
            check.count_key: count,
            check.messages_key: check.messages(result),
        },
        **({"codemod_findings": findings} if findings is not state.codemod_findings else {}),
        **baseline,
    )


def _wrapped(state: MigrationState, candidate: str, result: CheckResult) -> Wrapped | None:
    """The candidate with the lines eslint's ``max-len`` found too long broken, where they
    are the result's own (not the original's) and one group of each can be; None else."""
    if not isinstance(result, LintResult):
        return None
    long = [m for m in result.messages if (m.rule or "").rsplit("/", 1)[-1] == "max-len"]
    limits = {max_len_limit(m.message) for m in long}
    limit = limits.pop() if len(limits) == 1 else None
    if limit is None:
        return None
    lines = [m.line for m in long]
    return wrap_long_lines(candidate, state.test_file, limit, lines, state.original_content)


def _wrapped_event(deps: RunDeps, step: Step) -> None:
    deps.emit(
        EditApplied(
            run_id=deps.run_id, step=step, source="codemod", detail="long lines broken (max-len)"
        )
    )


def _moved(findings: list[CodemodFinding], wrapped: Wrapped) -> list[CodemodFinding]:
    """The conversion's findings at their lines in the wrapped candidate."""
    return [f.model_copy(update={"line": wrapped.line_of(f.line)}) for f in findings]


async def lint(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    return await run_check(LINT, state, runtime.context)


async def typescript(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    return await run_check(TYPES, state, runtime.context)

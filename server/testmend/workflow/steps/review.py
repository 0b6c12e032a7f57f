"""The review step, after typescript: is the result one a person can accept without re-reading?

Offline, the deterministic checks are the review: the test inventory of the result against the
original and the intent check (mutants of the component under test), computed here and kept for
finish and the engine's acceptance policy. With a model, a reviewer agent then reads the change
(a unified diff), those findings and the lint and type results, and approves or sends concrete
findings back to migrate. It may send the result back ``retry.maxReviewRounds`` times, each round
counted in the error tracker; findings still open after the last round, or a reviewer that gave
no verdict, leave the result needing review, never silently accepted.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from ...fidelity import FidelityReport
from ...patching import unified_diff
from ...project.dependencies import is_test_file
from ..agent import run_agent
from ..candidate import sync_candidate
from ..context import RunDeps
from ..state import MigrationState, ReviewState, Verdict
from ..tracking import ObservedError
from ..verify import (
    describe_findings,
    intent_check,
    intent_is_current,
    intent_short,
    state_inventory,
)
from .common import Update, agent_initial, done, emit_start, plans_text

TASK = "Review the migrated test, then answer with approve_migration or request_changes."
DIFF_CONTEXT_LINES = 3


async def result_fidelity(deps: RunDeps, state: MigrationState, candidate: str) -> FidelityReport:
    """The deterministic review: the result's test inventory against the original, and the
    intent check (run again only when the candidate changed since the last one, and only
    when its tests pass)."""
    checks_test_file = state.mode == "migrate" or is_test_file(state.test_file)
    rows, findings = state_inventory(state, candidate) if checks_test_file else ([], [])
    report = FidelityReport(rows=rows, inventory_findings=findings)
    tests_pass = state.tests_total > 0 and state.tests_passing == state.tests_total
    if state.mode == "migrate" and state.exit.status != "failed" and tests_pass:
        if state.fidelity is not None and intent_is_current(state.fidelity, candidate):
            intent = state.fidelity.intent
        else:
            sync_candidate(deps, state.test_file, candidate)
            intent = await intent_check(deps, state, candidate)
        report = report.model_copy(update={"intent": intent})
    return report


def _checks(state: MigrationState) -> str:
    lint = state.lint_summary if state.lint_errors else "clean"
    types = state.type_summary if state.type_errors else "clean"
    return (
        f"Tests: {state.tests_passing} of {state.tests_total} pass.\nLint: {lint}\nTypes: {types}"
    )


def _earlier(review: ReviewState) -> str:
    if not review.history:
        return ""
    return "\n".join(
        f"Round {n}: you sent it back with: " + "; ".join(findings)
        for n, findings in enumerate(review.history, start=1)
    )


def findings_text(findings: list[str]) -> str:
    """The reviewer's findings as the migrate agent gets them."""
    return "\n".join(f"- {finding}" for finding in findings)


async def review(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    emit_start(deps, "review", state)
    candidate = state.candidate if state.candidate is not None else state.original_content
    earlier = state.review.model_copy(update={"send_back": False})
    if state.mode == "fix":
        return done(
            deps,
            state,
            "review",
            "the tests before and after the fix are the review (finish)",
            review=earlier.model_copy(update={"verdict": "checks"}),
        )
    fidelity = await result_fidelity(deps, state, candidate)
    found = fidelity.findings()
    checked = f"{len(found)} fidelity findings; {intent_short(fidelity.intent)}"
    if deps.models is None:
        return done(
            deps,
            state,
            "review",
            f"the checks are the review: {checked}",
            fidelity=fidelity,
            review=earlier.model_copy(update={"verdict": "checks"}),
        )
    values = {
        "test_file": state.test_file,
        "original_test": state.original_content,
        "diff": unified_diff(
            state.original_content, candidate, state.test_file, context=DIFF_CONTEXT_LINES
        ),
        "checks": _checks(state),
        "findings": describe_findings(found)
        or f"No finding: every test of the original is there with its assertions; "
        f"intent check: {intent_short(fidelity.intent)}.",
        "test_plans": plans_text(state.test_plans),
        "previous_attempts": _earlier(earlier),
        "user_instructions": state.user_instructions,
    }
    final = await run_agent(
        deps, "review", values, {**agent_initial(state, candidate), "verdict": None}, task=TASK
    )
    answer = final.get("verdict") or {}
    verdict: Verdict = answer.get("verdict") or "none"
    findings: list[str] = list(answer.get("findings") or [])
    if verdict == "approved":
        return done(
            deps,
            state,
            "review",
            f"approved: {answer.get('summary', '')}",
            fidelity=fidelity,
            review=earlier.model_copy(
                update={"verdict": "approved", "summary": answer.get("summary", ""), "findings": []}
            ),
        )
    if verdict == "none":
        why = final.get("stop_reason") or "the reviewer ended without approving or sending back"
        return done(
            deps,
            state,
            "review",
            f"no verdict: {why}",
            fidelity=fidelity,
            review=earlier.model_copy(update={"verdict": "none", "summary": why, "findings": []}),
        )
    observed = [ObservedError(subject="review", message=finding) for finding in findings]
    tracker = deps.record_check(state.error_tracker, "review", observed, []).tracker
    send_back = earlier.rounds < deps.config.retry.max_review_rounds
    detail = f"{len(findings)} finding(s), " + (
        f"sent back to migrate (round {earlier.rounds + 1} of "
        f"{deps.config.retry.max_review_rounds})"
        if send_back
        else "left for a person (no review round left)"
    )
    return done(
        deps,
        state,
        "review",
        detail,
        fidelity=fidelity,
        error_tracker=tracker,
        review=earlier.model_copy(
            update={
                "verdict": "changes",
                "findings": findings,
                "send_back": send_back,
                "rounds": earlier.rounds + (1 if send_back else 0),
                "history": [*earlier.history, findings] if send_back else earlier.history,
            }
        ),
    )

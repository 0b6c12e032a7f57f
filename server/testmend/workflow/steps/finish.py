"""The finish step: the facts the engine's acceptance policy decides on, computed from the
result file and the checks, never from the plans or an agent's word.

The test inventory of the result against the original; the intent check (run again only when
the candidate changed since the last one, and only when its tests pass); for fix runs, the
tests after the fix against those before. The status it leaves is ``finished`` (or ``failed``
when a step failed): the engine decides what the result is.
"""

from __future__ import annotations

from datetime import UTC, datetime

from langgraph.runtime import Runtime

from ...codemod import is_enzyme_free
from ...fidelity import Finding, test_counts
from ...project.enzyme_helpers import EnzymeHelpers
from ..candidate import sync_candidate
from ..context import RunDeps
from ..events import StepFinished
from ..state import ExitState, MigrationState, review_left
from ..verify import intent_short, tests_after_fix
from .common import Update, emit_start, tally
from .review import result_fidelity


async def finish(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    emit_start(deps, "finish", state)
    candidate = state.candidate if state.candidate is not None else state.original_content
    update: Update = {}
    lost: list[Finding] = []
    if state.mode == "fix" and state.verify_tests and state.exit.status != "failed":
        sync_candidate(deps, state.test_file, candidate)
        results, lost = await tests_after_fix(deps, state)
        for result in results.values():
            tally(deps, "finish", result)
        update["tests_passing"] = sum(r.passed_count for r in results.values())
        update["tests_total"] = sum(len(r.tests) for r in results.values())
        state = state.model_copy(update=update)
    fidelity = await result_fidelity(deps, state, candidate)
    fidelity = fidelity.model_copy(update={"behaviour_findings": lost})
    counts = test_counts(fidelity.rows, state.mode)
    # Enzyme-free by the conventions' helpers, and by the test's imports as the pre-run check
    # reads them (a rendering function taken from a module of the workspace that renders with
    # Enzyme): a result the two disagree on is not Enzyme-free.
    enzyme_free = is_enzyme_free(
        candidate, state.test_file, deps.conventions
    ) and not EnzymeHelpers(deps.workspace_root).uses_enzyme(state.test_file, candidate)
    intent = fidelity.intent
    summary = state.exit.summary.model_copy(
        update={
            "tests_migrated": counts["migrated"],
            "tests_deleted": counts["deleted"],
            "tests_kept": counts["kept"],
            "tests_created": counts["created"],
            "patches_applied": state.successful_patches,
            "errors_encountered": len(state.error_tracker.errors),
            "tokens_used": sum(state.tokens_by_step.values()),
            "cost": sum(state.cost_by_step.values()) if deps.usage.priced else None,
            "tests_passing": state.tests_passing,
            "tests_total": state.tests_total,
            "lint_errors": state.lint_errors,
            "type_errors": state.type_errors,
            "enzyme_free": enzyme_free,
            "fidelity": intent.fidelity if intent is not None else None,
            "mutants_caught_by_original": intent.killed_by_original if intent else 0,
            "mutants_lost": len(intent.lost()) if intent else 0,
            "findings": len(fidelity.findings()),
            "review": state.review.verdict,
            "review_rounds": state.review.rounds,
        }
    )
    left = list(state.codemod_left)
    if state.tests_total and state.tests_passing < state.tests_total:
        left.append(f"{state.tests_total - state.tests_passing} test(s) still fail")
    if state.lint_errors:
        left.append(f"{state.lint_errors} lint message(s)")
    if state.type_errors:
        left.append(f"{state.type_errors} type error(s)")
    if state.mode == "migrate" and not enzyme_free:
        left.append("the file still uses Enzyme")
    left += [f.message for f in fidelity.findings()]
    left += review_left(state.review)
    failed = state.exit.status == "failed"
    exit_state = ExitState(
        status="failed" if failed else "finished",
        completed_at=datetime.now(UTC),
        failure_reason=state.exit.failure_reason if failed else None,
        summary=summary,
        left_to_do=left,
    )
    detail = f"{len(fidelity.findings())} fidelity findings"
    if state.mode == "migrate":
        detail += f"; {intent_short(intent)}"
    deps.emit(StepFinished(run_id=deps.run_id, step="finish", outcome="done", detail=detail))
    return {
        **update,
        "exit": exit_state,
        "current_step": "finish",
        "candidate": candidate,
        "fidelity": fidelity,
    }

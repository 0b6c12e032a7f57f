"""What every step does: announce itself, end (done or failed) with its tokens counted and the
re-recorded snapshot kept, and the texts the agents' prompts share."""

from __future__ import annotations

import json
from typing import Any, Literal

from ...runners import TestRunResult
from ...workspace.paths import resolve_in_root
from ..candidate import sync_candidate
from ..context import RunDeps
from ..events import StepFinished, StepStarted, TestTally
from ..state import MigrationState, Step, TestPlan

Update = dict[str, Any]


def emit_start(deps: RunDeps, step: Step, state: MigrationState | None = None) -> None:
    deps.usage.step = step
    if state is not None and state.snapshot_file:
        restore_snapshot(deps, state.snapshot_file, state.extra_files)
    if state is not None:
        restore_support_files(deps, state)
    deps.emit(StepStarted(run_id=deps.run_id, step=step))


def restore_support_files(deps: RunDeps, state: MigrationState) -> None:
    """The modules the candidate imports that the run added, in this (perhaps new) shadow
    workspace."""
    for relative in state.support_files:
        content = state.extra_files.get(relative)
        if content is not None:
            write_support_file(deps, relative, content)


def write_support_file(deps: RunDeps, relative: str, content: str) -> None:
    path = resolve_in_root(deps.workspace_root, relative)
    if path.is_file() and path.read_text(encoding="utf-8") == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")


def restore_snapshot(deps: RunDeps, snapshot: str, recorded: dict[str, str | None]) -> None:
    """Put the re-recorded snapshot (or its absence) into this (perhaps new) shadow workspace.

    Enzyme snapshots can never match a DOM render: the old file goes, and jest runs with
    ``--ci=false`` so that it records the new snapshots."""
    path = resolve_in_root(deps.workspace_root, snapshot)
    content = recorded.get(snapshot)
    if content is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    elif path.exists():
        path.unlink()
    deps.jest_args = ["--ci=false"]


def _recorded_snapshot(deps: RunDeps, state: MigrationState, update: Update) -> Update:
    snapshot = update.get("snapshot_file") or state.snapshot_file
    if not snapshot:
        return {}
    path = resolve_in_root(deps.workspace_root, snapshot)
    content = path.read_text(encoding="utf-8") if path.is_file() else None
    return {"extra_files": {**state.extra_files, snapshot: content}}


def _end_step(
    deps: RunDeps,
    state: MigrationState,
    step: Step,
    outcome: Literal["done", "failed"],
    detail: str,
    update: Update,
) -> Update:
    """What every step does when it ends, done or failed: count its tokens, say it ended, keep
    the re-recorded snapshot."""
    usage = deps.usage.usage(step)
    tokens = dict(state.tokens_by_step)
    costs = dict(state.cost_by_step)
    if usage.total:
        tokens[step] = tokens.get(step, 0) + usage.total
        costs[step] = costs.get(step, 0.0) + usage.cost
        deps.usage.by_step.pop(step, None)
    deps.emit(StepFinished(run_id=deps.run_id, step=step, outcome=outcome, detail=detail))
    result = detail if outcome == "done" else f"failed: {detail}"
    return {
        **update,
        **_recorded_snapshot(deps, state, update),
        "tokens_by_step": tokens,
        "cost_by_step": costs,
        "step_results": {**state.step_results, step: result},
        "current_step": step,
    }


def done(deps: RunDeps, state: MigrationState, step: Step, detail: str, **update: Any) -> Update:
    return _end_step(deps, state, step, "done", detail, update)


def fail(deps: RunDeps, state: MigrationState, step: Step, reason: str, **update: Any) -> Update:
    exit_state = state.exit.model_copy(update={"status": "failed", "failure_reason": reason})
    return _end_step(deps, state, step, "failed", reason, {**update, "exit": exit_state})


def tally(deps: RunDeps, step: Step, result: TestRunResult) -> None:
    deps.emit(
        TestTally(
            run_id=deps.run_id,
            step=step,
            passed=result.passed_count,
            failed=result.failed_count,
            total=len(result.tests),
        )
    )


async def run_tests(
    deps: RunDeps, state: MigrationState, content: str, step: Step = "migrate"
) -> TestRunResult:
    sync_candidate(deps, state.test_file, content)
    result = await deps.run_tests(state.test_file)
    tally(deps, step, result)
    return result


def agent_initial(state: MigrationState, candidate: str) -> dict[str, Any]:
    return {
        "test_file": state.test_file,
        "original": state.original_content,
        "candidate": candidate,
        "tracker": state.error_tracker.model_dump(),
        "best": state.best_candidate.model_dump() if state.best_candidate else None,
        "patches": state.successful_patches,
        "plans": [p.model_dump() for p in state.test_plans],
        "instructions": [],
        "all_passing": False,
        "stop_reason": None,
    }


def research_summary(state: MigrationState) -> str:
    research = state.research
    if research is None:
        return ""
    data = research.model_dump(exclude={"rendered_html"}, exclude_defaults=True)
    html = "\n".join(
        f"- {name}: {markup[:600]}" for name, markup in list(research.rendered_html.items())[:8]
    )
    text = json.dumps(data, indent=1)
    return f"{text}\n\nRendered HTML per test (from the original run):\n{html}" if html else text


def plans_text(plans: list[TestPlan]) -> str:
    return "\n".join(
        f"- [{p.action}] {p.test_name}" + (f"\n  {p.gherkin}" if p.gherkin else "") for p in plans
    )


def instructions(state: MigrationState, extra: list[str] | None = None) -> str:
    parts = [state.user_instructions or "", *(extra or [])]
    return "\n".join(p for p in parts if p)

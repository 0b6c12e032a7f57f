"""The steps of the migration graph. Each is deterministic work, then (when a model is
configured) the step's agent, then deterministic validation of what the agent left."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any, Literal

from langgraph.runtime import Runtime

from ..codemod import (
    CodemodResult,
    DomCapture,
    capture_dom,
    convert_enzyme_test,
    is_enzyme_free,
    test_names,
)
from ..codemod.offline import snapshot_file
from ..project import ModuleResolver
from ..project import dependencies as deps_mod
from ..runners import LintResult, RunnerError, TestRunResult, TypecheckResult
from ..workspace.paths import resolve_in_root
from .agents import run_agent
from .context import RunDeps
from .events import EditApplied, StepFinished, StepStarted, TestTally, TokensUsed
from .prompts import with_line_numbers
from .state import (
    STEPS,
    CandidateSnapshot,
    DependencyTest,
    ErrorTracker,
    ExitState,
    MigrationState,
    MockRequirement,
    ResearchContext,
    Step,
    TestPlan,
)
from .tools import (
    describe_lint,
    describe_test_result,
    describe_types,
    observed_test_errors,
    sync_candidate,
)
from .tracking import ObservedError

Update = dict[str, Any]


class StepFailed(Exception):
    def __init__(self, step: Step, reason: str):
        super().__init__(reason)
        self.step = step
        self.reason = reason


def _emit_start(deps: RunDeps, step: Step, state: MigrationState | None = None) -> None:
    deps.usage.step = step
    if state is not None and state.snapshot_file:
        _restore_snapshot(deps, state.snapshot_file, state.extra_files)
    deps.emit(StepStarted(run_id=deps.run_id, step=step))


def _restore_snapshot(deps: RunDeps, snapshot: str, recorded: dict[str, str | None]) -> None:
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
    if usage.total:
        tokens[step] = tokens.get(step, 0) + usage.total
        deps.emit(
            TokensUsed(
                run_id=deps.run_id,
                step=step,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
            )
        )
        deps.usage.by_step.pop(step, None)
    deps.emit(StepFinished(run_id=deps.run_id, step=step, outcome=outcome, detail=detail))
    result = detail if outcome == "done" else f"failed: {detail}"
    return {
        **update,
        **_recorded_snapshot(deps, state, update),
        "tokens_by_step": tokens,
        "step_results": {**state.step_results, step: result},
        "current_step": step,
    }


def _finish(deps: RunDeps, state: MigrationState, step: Step, detail: str, **update: Any) -> Update:
    return _end_step(deps, state, step, "done", detail, update)


def _fail(deps: RunDeps, state: MigrationState, step: Step, reason: str, **update: Any) -> Update:
    exit_state = state.exit.model_copy(update={"status": "failed", "failure_reason": reason})
    return _end_step(deps, state, step, "failed", reason, {**update, "exit": exit_state})


def _tally(deps: RunDeps, step: Step, result: TestRunResult) -> None:
    deps.emit(
        TestTally(
            run_id=deps.run_id,
            step=step,
            passed=result.passed_count,
            failed=result.failed_count,
            total=len(result.tests),
        )
    )


def _agent_initial(state: MigrationState, candidate: str) -> dict[str, Any]:
    return {
        "test_file": state.test_file,
        "candidate": candidate,
        "tracker": state.error_tracker.model_dump(),
        "best": state.best_candidate.model_dump() if state.best_candidate else None,
        "patches": state.successful_patches,
        "plans": [p.model_dump() for p in state.test_plans],
        "instructions": [],
        "all_passing": False,
        "stop_reason": None,
    }


def _research_summary(state: MigrationState) -> str:
    research = state.research
    if research is None:
        return ""
    data = research.model_dump(exclude={"rendered_html"}, exclude_defaults=True)
    html = "\n".join(
        f"- {name}: {markup[:600]}" for name, markup in list(research.rendered_html.items())[:8]
    )
    text = json.dumps(data, indent=1)
    return f"{text}\n\nRendered HTML per test (from the original run):\n{html}" if html else text


def _plans_text(plans: list[TestPlan]) -> str:
    return "\n".join(
        f"- [{p.action}] {p.test_name}" + (f"\n  {p.gherkin}" if p.gherkin else "") for p in plans
    )


def _previous_attempts(tracker: ErrorTracker, step: Step) -> str:
    errors = [e for e in tracker.errors.values() if e.step == step]
    return "\n".join(
        f"- ({e.status}, seen {e.attempts}×) {e.message.splitlines()[0][:200]}"
        + (f"; tried: {', '.join(e.fixes_tried[-3:])}" if e.fixes_tried else "")
        for e in errors[-10:]
    )


def _instructions(state: MigrationState, extra: list[str] | None = None) -> str:
    parts = [state.user_instructions or "", *(extra or [])]
    return "\n".join(p for p in parts if p)


# --- start ------------------------------------------------------------------------------------


def choose_start(state: MigrationState) -> Step:
    """Enter at the requested step only when the state holds what that step needs."""
    wanted = state.start_node
    if wanted == "migrate" and state.test_plans and state.research is not None:
        return "migrate"
    if wanted in ("lint", "typescript") and state.candidate is not None:
        return wanted
    return "research"


# --- research ---------------------------------------------------------------------------------


_MOCK_KINDS: dict[str, Any] = {
    "module": "module",
    "timers": "timers",
    "global": "browser-api",
    "spy": "other",
}


def _static_research(deps: RunDeps, state: MigrationState) -> ResearchContext:
    """What reading the project tells about the test (parses and walks: run it in a thread)."""
    root = deps.workspace_root
    resolver = ModuleResolver(root)  # one tsconfig/jest config read for every lookup
    tree = deps_mod.dependency_tree(root, state.test_file, resolver=resolver)
    mocks = deps_mod.find_mocks(state.original_content, state.test_file)
    helper = deps.conventions.render_helper
    return ResearchContext(
        dependency_tree=list(tree),
        mocks_required=[
            MockRequirement(
                module=m.module,
                reason="mocked by the original test" + (" with a factory" if m.factory else ""),
                kind=_MOCK_KINDS.get(m.kind, "other"),
            )
            for m in mocks
        ],
        mock_patterns=deps_mod.mock_patterns(root, state.test_file),
        coverage_from_dependencies=[
            DependencyTest(path=test, covers=dep)
            for dep, test in deps_mod.tests_of_dependencies(root, tree, resolver=resolver)
        ],
        example_tests=deps_mod.find_example_tests(root, near=state.test_file, resolver=resolver),
        files_to_read=[n.path for n in tree[1:6]],
        render_helper=f"{helper.render_name} from '{helper.module}'" if helper else None,
    )


async def research(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    _emit_start(deps, "research")
    root = deps.workspace_root
    # Off the event loop: the language server answers the editor while a run reads the project.
    context = await asyncio.to_thread(_static_research, deps, state)
    capture: DomCapture | None = None
    if state.mode == "migrate":
        capture = await capture_dom(deps.runners, state.test_file, workspace_root=root)
        context = context.model_copy(update={"rendered_html": capture.html_by_test})
    detail = (
        f"{len(context.dependency_tree)} files in the dependency tree, "
        f"{len(context.mocks_required)} mocks"
    )
    if capture is not None:
        detail += (
            f"; original test: {capture.tests_passed} passed, {capture.tests_failed} failed"
            + (f" ({capture.error.splitlines()[0][:120]})" if capture.error else "")
        )
    if deps.models is not None:
        values = {
            "test_file": state.test_file,
            "original_test": state.original_content,
            "research_context": context.model_dump_json(indent=1, exclude={"rendered_html"}),
            "user_instructions": state.user_instructions,
        }
        result = await run_agent(
            deps,
            "research",
            values,
            {"test_file": state.test_file, "scratchpad": []},
            task=f"Research {state.test_file} for its migration to React Testing Library.",
        )
        context = context.model_copy(update={"scratchpad": list(result.get("scratchpad", []))})
        detail += f"; {len(context.scratchpad)} research notes"
    return _finish(
        deps,
        state,
        "research",
        detail,
        research=context,
        dom_capture=capture.model_dump_json() if capture is not None else None,
    )


# --- planning ---------------------------------------------------------------------------------


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
    _emit_start(deps, "planning")
    plans = default_plans(state)
    original_names = [p.test_name for p in plans]
    if deps.models is not None and plans:
        values = {
            "test_file": state.test_file,
            "original_test": state.original_content,
            "research_context": _research_summary(state),
            "test_plans": _plans_text(plans),
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
    return _finish(deps, state, "planning", detail, test_plans=plans)


def validate_plans(proposed: list[TestPlan], original_names: list[str]) -> list[TestPlan]:
    """Exactly one plan per original test (missing ones default to migrate), plus adds."""
    by_name = {p.test_name: p for p in proposed}
    plans = []
    for name in original_names:
        plan = by_name.get(name)
        if plan is None or plan.action == "add":
            plan = TestPlan(test_name=name, action="migrate", reason="no valid plan: migrate")
        plans.append(plan)
    plans.extend(p for p in proposed if p.action == "add" and p.test_name not in original_names)
    return plans


# --- migrate ----------------------------------------------------------------------------------


async def _run_tests(deps: RunDeps, state: MigrationState, content: str) -> TestRunResult:
    sync_candidate(deps, state.test_file, content)
    result = await deps.run_tests(state.test_file)
    _tally(deps, "migrate", result)
    return result


def _retire_enzyme_snapshot(deps: RunDeps, state: MigrationState, candidate: str) -> Update:
    snapshot = snapshot_file(state.test_file)
    path = resolve_in_root(deps.workspace_root, snapshot)
    if state.snapshot_file or not path.is_file() or "toMatchSnapshot" not in candidate:
        return {}
    original = path.read_text(encoding="utf-8")
    _restore_snapshot(deps, snapshot, {})
    return {
        "snapshot_file": snapshot,
        "extra_originals": {**state.extra_originals, snapshot: original},
    }


async def migrate(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    _emit_start(deps, "migrate", state)
    capture = DomCapture.model_validate_json(state.dom_capture) if state.dom_capture else None

    def convert() -> CodemodResult:  # in a thread: conventions walk the sources, the codemod parses
        return convert_enzyme_test(
            state.original_content, path=state.test_file, options=deps.conventions, dom=capture
        )

    converted = await asyncio.to_thread(convert)
    if converted.error and not converted.enzyme_free:
        return _fail(
            deps, state, "migrate", f"the codemod could not convert the file: {converted.error}"
        )
    candidate = converted.content
    snapshot_update = _retire_enzyme_snapshot(deps, state, candidate)
    state = state.model_copy(update=snapshot_update)
    deps.emit(
        EditApplied(
            run_id=deps.run_id,
            step="migrate",
            source="codemod",
            detail=f"{len(converted.notes)} notes, {converted.untranslated_count} left to do",
        )
    )
    try:
        result = await _run_tests(deps, state, candidate)
    except RunnerError as exc:
        return _fail(deps, state, "migrate", exc.message + (f" — {exc.hint}" if exc.hint else ""))
    verdict = deps.record_check(
        state.error_tracker,
        "migrate",
        observed_test_errors(result),
        [t.full_name for t in result.tests if t.status == "passed"],
    )
    tracker = verdict.tracker
    best = CandidateSnapshot(content=candidate, passed=result.passed_count, total=len(result.tests))
    patches = state.successful_patches
    left = [f"{n.message} (line {n.line})" for n in converted.notes if n.kind == "untranslated"]
    answered: Update = {}
    if not result.success and deps.models is not None:
        agent_state = {
            **_agent_initial(state, candidate),
            "tracker": tracker.model_dump(),
            "best": best.model_dump(),
        }
        values = {
            "test_file": state.test_file,
            "original_test": state.original_content,
            "research_context": _research_summary(state),
            "test_plans": _plans_text(state.test_plans),
            "candidate": with_line_numbers(candidate),
            "candidate_lines": str(candidate.count("\n") + 1),
            "previous_attempts": describe_test_result(result),
            "user_instructions": state.user_instructions,
        }
        final = await run_agent(
            deps,
            "migrate",
            values,
            agent_state,
            task="Make every planned test pass. The current test results are under "
            "'Previous attempts'.",
        )
        candidate = final.get("candidate", candidate)
        tracker = ErrorTracker.model_validate(final.get("tracker") or {})
        patches = final.get("patches", patches)
        if final.get("best"):
            best = CandidateSnapshot.model_validate(final["best"])
        stop_reason = final.get("stop_reason")
        if final.get("instructions"):
            # What a person said when asked for help guides the later steps too.
            answered = {"user_instructions": _instructions(state, final["instructions"])}
        # Validation: the agent's word is not enough; run the tests once more.
        try:
            result = await _run_tests(deps, state, candidate)
        except RunnerError as exc:
            return _fail(deps, state, "migrate", exc.message)
        if not result.success and best.passed > result.passed_count:
            candidate = best.content
            result = await _run_tests(deps, state, candidate)
        if not result.success:
            reason = stop_reason or "the migrate agent stopped with failing tests"
            return _fail(
                deps,
                state,
                "migrate",
                f"{reason}; {result.failed_count} of {len(result.tests)} tests fail",
                candidate=candidate,
                error_tracker=tracker,
                best_candidate=best,
                successful_patches=patches,
                last_test_summary=describe_test_result(result),
                tests_passing=result.passed_count,
                tests_total=len(result.tests),
                **snapshot_update,
                **answered,
            )
    detail = f"{result.passed_count}/{len(result.tests)} tests pass"
    if converted.notes:
        detail += f"; codemod notes: {len(converted.notes)}"
    return _finish(
        deps,
        state,
        "migrate",
        detail,
        candidate=candidate,
        error_tracker=tracker,
        best_candidate=best
        if best.passed >= result.passed_count
        else CandidateSnapshot(
            content=candidate, passed=result.passed_count, total=len(result.tests)
        ),
        successful_patches=patches,
        last_test_summary=describe_test_result(result),
        tests_passing=result.passed_count,
        tests_total=len(result.tests),
        codemod_left=left if not result.success else [],
        **snapshot_update,
        **answered,
    )


# --- lint and typescript ------------------------------------------------------------------------


async def _lint_check(deps: RunDeps, state: MigrationState, content: str) -> LintResult:
    sync_candidate(deps, state.test_file, content)
    return await deps.runners.lint(state.test_file)


async def lint(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    _emit_start(deps, "lint", state)
    candidate = state.candidate if state.candidate is not None else state.original_content
    if deps.runners.commands.lint is None:
        return _finish(
            deps, state, "lint", "skipped: no eslint in the project", candidate=candidate
        )
    try:
        path = sync_candidate(deps, state.test_file, candidate)
        fixed = await deps.runners.lint_fix(state.test_file)
        if fixed.changed:
            candidate = path.read_text(encoding="utf-8")
            deps.emit(EditApplied(run_id=deps.run_id, step="lint", source="eslint --fix"))
        result = await _lint_check(deps, state, candidate)
    except RunnerError as exc:
        return _fail(deps, state, "lint", exc.message, candidate=candidate)
    tracker = state.error_tracker
    if not result.clean and deps.models is not None:
        verdict = deps.record_check(
            tracker,
            "lint",
            [ObservedError(subject=m.rule or "parse", message=m.message) for m in result.messages],
            [],
        )
        values = {
            "test_file": state.test_file,
            "candidate": with_line_numbers(candidate),
            "candidate_lines": str(candidate.count("\n") + 1),
            "errors": describe_lint(result.messages),
            "previous_attempts": _previous_attempts(verdict.tracker, "lint"),
            "user_instructions": state.user_instructions,
        }
        final = await run_agent(
            deps,
            "lint",
            values,
            {**_agent_initial(state, candidate), "tracker": verdict.tracker.model_dump()},
            task="Make the candidate lint-clean.",
        )
        tracker = ErrorTracker.model_validate(final.get("tracker") or {})
        linted = final.get("candidate", candidate)
        candidate = await _keep_if_tests_hold(deps, state, candidate, linted)
        result = await _lint_check(deps, state, candidate)
    detail = (
        "lint clean"
        if result.clean
        else f"{result.error_count} errors, {result.warning_count} warnings left"
    )
    return _finish(
        deps,
        state,
        "lint",
        detail,
        candidate=candidate,
        error_tracker=tracker,
        lint_summary="" if result.clean else describe_lint(result.messages),
        lint_errors=result.error_count + result.warning_count,
    )


async def _keep_if_tests_hold(deps: RunDeps, state: MigrationState, before: str, after: str) -> str:
    """An edit made for lint or types must not break tests that passed."""
    if after == before or state.mode == "fix":
        return after
    result = await _run_tests(deps, state, after)
    if result.passed_count >= state.tests_passing:
        return after
    sync_candidate(deps, state.test_file, before)
    return before


async def typescript(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    _emit_start(deps, "typescript", state)
    candidate = state.candidate if state.candidate is not None else state.original_content
    if deps.runners.commands.typecheck is None:
        return _finish(deps, state, "typescript", "skipped: no TypeScript", candidate=candidate)
    try:
        sync_candidate(deps, state.test_file, candidate)
        result: TypecheckResult = await deps.runners.typecheck(state.test_file)
    except RunnerError as exc:
        return _fail(deps, state, "typescript", exc.message, candidate=candidate)
    tracker = state.error_tracker
    if not result.clean and deps.models is not None:
        values = {
            "test_file": state.test_file,
            "candidate": with_line_numbers(candidate),
            "candidate_lines": str(candidate.count("\n") + 1),
            "errors": describe_types(result.diagnostics),
            "previous_attempts": _previous_attempts(tracker, "typescript"),
            "user_instructions": state.user_instructions,
        }
        final = await run_agent(
            deps,
            "typescript",
            values,
            _agent_initial(state, candidate),
            task="Make the candidate type-check.",
        )
        tracker = ErrorTracker.model_validate(final.get("tracker") or {})
        typed = final.get("candidate", candidate)
        candidate = await _keep_if_tests_hold(deps, state, candidate, typed)
        sync_candidate(deps, state.test_file, candidate)
        result = await deps.runners.typecheck(state.test_file)
    detail = "types clean" if result.clean else f"{result.error_count} type errors left"
    return _finish(
        deps,
        state,
        "typescript",
        detail,
        candidate=candidate,
        error_tracker=tracker,
        type_summary="" if result.clean else describe_types(result.diagnostics),
        type_errors=result.error_count,
    )


# --- finish -----------------------------------------------------------------------------------


async def finish(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    _emit_start(deps, "finish", state)
    candidate = state.candidate if state.candidate is not None else state.original_content
    plans = state.test_plans
    enzyme_free = is_enzyme_free(candidate, state.test_file, deps.conventions)
    summary = state.exit.summary.model_copy(
        update={
            "tests_migrated": sum(p.action == "migrate" for p in plans),
            "tests_deleted": sum(p.action == "delete" for p in plans),
            "tests_kept": sum(p.action == "keep" for p in plans),
            "tests_created": sum(p.action == "add" for p in plans),
            "patches_applied": state.successful_patches,
            "errors_encountered": len(state.error_tracker.errors),
            "tokens_used": sum(state.tokens_by_step.values()),
            "tests_passing": state.tests_passing,
            "tests_total": state.tests_total,
            "lint_errors": state.lint_errors,
            "type_errors": state.type_errors,
            "enzyme_free": enzyme_free,
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
    if state.exit.status == "failed":
        status, reason = "failed", state.exit.failure_reason
    else:
        status = "succeeded" if not left else "failed"
        reason = None if not left else "not finished: " + "; ".join(left[:6])
    exit_state = ExitState(
        status=status,
        completed_at=datetime.now(UTC),
        failure_reason=reason,
        summary=summary,
        left_to_do=left,
    )
    deps.emit(StepFinished(run_id=deps.run_id, step="finish", outcome="done", detail=status))
    return {"exit": exit_state, "current_step": "finish", "candidate": candidate}


NODES = {
    "research": research,
    "planning": planning,
    "migrate": migrate,
    "lint": lint,
    "typescript": typescript,
    "finish": finish,
}
assert tuple(NODES) == STEPS

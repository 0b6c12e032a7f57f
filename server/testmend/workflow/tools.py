"""The agents' tools. Each works in the shadow workspace, never outside the project root, and
runs only the configured test / lint / typecheck commands.

Tools that change what the run knows return a LangGraph ``Command`` with the state update and
the ``ToolMessage`` the model sees. Failures the agent can act on (a path outside the project, an
edit that does not apply, a tool that could not run) come back as messages, not exceptions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from langchain.tools import ToolRuntime, tool
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.types import Command, interrupt
from pydantic import BaseModel, Field

from ..patching import EditOutcome, PatchError, apply_search_replace, apply_unified_diff
from ..patching._lines import text_to_lines
from ..project import dependencies as deps_mod
from ..project import files as files_mod
from ..project.errors import TOOL_ERRORS
from ..runners import RunnerError
from .agent_state import CheckKind, StepAgentState
from .candidate import (
    describe_lint,
    describe_test_result,
    describe_types,
    observed_test_errors,
    sync_candidate,
)
from .context import ESCALATION_UNLOCKS_AT, SCOPE_REDUCTION_UNLOCKS_AT, RunDeps
from .events import EditApplied, TestTally, ToolCalled
from .review_tools import REVIEW_TOOLS
from .state import CandidateSnapshot, ErrorTracker, Step
from .tracking import ObservedError, active_errors, note_fix_tried, step_attempts
from .verify import as_errors, describe_findings, inventory_check
from .views import changed_region, changed_spans

Runtime = ToolRuntime[RunDeps, StepAgentState]
MAX_TOOL_OUTPUT = 12_000


def _cap(text: str) -> str:
    if len(text) <= MAX_TOOL_OUTPUT:
        return text
    return text[:MAX_TOOL_OUTPUT] + f"\n[… {len(text) - MAX_TOOL_OUTPUT} characters cut …]"


def _reply(runtime: Runtime, text: str, **update: Any) -> Command[Any]:
    message = ToolMessage(_cap(text), tool_call_id=runtime.tool_call_id or "")
    return Command(update={**update, "messages": [message]})


def _step(runtime: Runtime) -> Step:
    step = runtime.state.get("step", "migrate")
    return step  # type: ignore[return-value]


def _emit_call(runtime: Runtime, name: str, summary: str = "") -> None:
    deps = runtime.context
    deps.emit(ToolCalled(run_id=deps.run_id, step=_step(runtime), tool=name, summary=summary))


def _tracker(runtime: Runtime) -> ErrorTracker:
    return ErrorTracker.model_validate(runtime.state.get("tracker") or {})


# --- reading the project ----------------------------------------------------------------------


_TOOL_FAILURES: tuple[type[Exception], ...] = (*TOOL_ERRORS, OSError)
"""What a tool reports to the model as ``error: …`` instead of raising."""


def _guarded(call: Callable[[], str]) -> str:
    try:
        return call()
    except _TOOL_FAILURES as exc:
        return f"error: {exc}"


@tool
def glob(pattern: str, runtime: Runtime) -> str:
    """List project files matching a glob pattern, e.g. 'src/**/*.test.tsx'. node_modules is
    searched only when the pattern starts there, e.g. 'node_modules/@types/react/*.d.ts'."""
    _emit_call(runtime, "glob", pattern)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return _guarded(lambda: str(files_mod.glob_files(root, pattern, read_roots=reads)))


@tool
def grep(pattern: str, runtime: Runtime, glob: str | None = None, ignore_case: bool = False) -> str:
    """Search project files for a Python regular expression; optional glob filter."""
    _emit_call(runtime, "grep", pattern)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return _guarded(
        lambda: str(
            files_mod.grep(root, pattern, glob=glob, ignore_case=ignore_case, read_roots=reads)
        )
    )


@tool
def read_file(path: str, runtime: Runtime, offset: int = 1, limit: int = 400) -> str:
    """Read a project file (path relative to the project root), with line numbers. Library
    sources and type definitions are readable under node_modules/ (read-only)."""
    _emit_call(runtime, "read_file", path)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return _guarded(
        lambda: files_mod.read_file(root, path, offset=offset, limit=limit, read_roots=reads)
    )


@tool
def read_files(paths: list[str], runtime: Runtime) -> str:
    """Read several project files at once (paths relative to the project root)."""
    _emit_call(runtime, "read_files", ", ".join(paths[:5]))
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return _guarded(lambda: files_mod.read_files(root, paths, read_roots=reads))


@tool
def ls(runtime: Runtime, path: str = ".") -> str:
    """List a project directory (relative to the project root)."""
    _emit_call(runtime, "ls", path)
    root, reads = runtime.context.workspace_root, runtime.context.read_roots
    return _guarded(lambda: files_mod.list_dir(root, path, read_roots=reads))


FILE_TOOLS: list[BaseTool] = [glob, grep, read_file, read_files, ls]


# --- research ---------------------------------------------------------------------------------


@tool
def get_dependency_tree(path: str, runtime: Runtime, max_depth: int = 2) -> str:
    """Imports and exports of a project file and of what it imports (relative imports, index
    files, tsconfig paths and jest moduleNameMapper aliases resolved)."""
    _emit_call(runtime, "get_dependency_tree", path)
    root = runtime.context.workspace_root

    return _guarded(lambda: str(deps_mod.dependency_tree(root, path, max_depth=max_depth)))


@tool
def write_to_scratchpad(note: str, runtime: Runtime) -> Command[Any]:
    """Record one research finding for the planning and migrate agents."""
    _emit_call(runtime, "write_to_scratchpad", note[:80])
    notes = [*runtime.state.get("scratchpad", []), note.strip()]
    return _reply(runtime, f"noted ({len(notes)} notes)", scratchpad=notes)


# --- planning ---------------------------------------------------------------------------------


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
    _emit_call(runtime, "add_test_plan", f"{action}: {test_name}")
    plan = PlanInput(
        test_name=test_name,
        action=action,
        gherkin=gherkin,
        reason=reason,
        fewer_assertions=fewer_assertions,
    )
    plans, text = _merge_plans(runtime, [plan])
    return _reply(runtime, text, plans=plans)


@tool
def add_multiple_test_plans(plans: list[PlanInput], runtime: Runtime) -> Command[Any]:
    """Record plans for several tests at once."""
    _emit_call(runtime, "add_multiple_test_plans", f"{len(plans)} plans")
    merged, text = _merge_plans(runtime, plans)
    return _reply(runtime, text, plans=merged)


# --- editing the candidate --------------------------------------------------------------------


def _apply_edit(runtime: Runtime, how: str, edit: Callable[[str], EditOutcome]) -> Command[Any]:
    deps = runtime.context
    state = runtime.state
    candidate = state.get("candidate", "")
    try:
        outcome = edit(candidate)
    except PatchError as exc:
        return _reply(runtime, f"edit not applied (the candidate is unchanged): {exc}")
    updated = outcome.content
    if updated == candidate:
        return _reply(runtime, "the edit changes nothing; the candidate is unchanged")
    sync_candidate(deps, state.get("test_file", ""), updated)
    tracker = note_fix_tried(
        _tracker(runtime),
        [e.fingerprint for e in active_errors(_tracker(runtime), _step(runtime))],
        how,
    )
    patches = state.get("patches", 0) + 1
    deps.emit(EditApplied(run_id=deps.run_id, step=_step(runtime), source="agent", detail=how))
    fuzzy = f"\n{outcome.summary()}" if outcome.fuzzy else ""
    region, spans = changed_region(candidate, updated)
    return _reply(
        runtime,
        f"edit applied ({how}); the candidate now has {len(text_to_lines(updated))} lines. "
        f"Run the check again to see its effect.{fuzzy}\nThe changed region now reads:\n{region}",
        candidate=updated,
        changed=spans,
        patches=patches,
        tracker=tracker.model_dump(),
    )


@tool
def edit_file(blocks: str, runtime: Runtime) -> Command[Any]:
    """Edit the candidate test file with SEARCH/REPLACE blocks:

    <<<<<<< SEARCH
    exact lines from the file
    =======
    replacement lines
    >>>>>>> REPLACE

    Several blocks apply in order; if one fails nothing changes and the nearest region is shown.
    """
    _emit_call(runtime, "edit_file")
    path = runtime.state.get("test_file")
    return _apply_edit(
        runtime,
        "search/replace",
        lambda text: apply_search_replace(text, blocks, path=path),
    )


@tool
def apply_diff(diff: str, runtime: Runtime) -> Command[Any]:
    """Edit the candidate test file with a unified diff (---/+++ headers, @@ hunks)."""
    _emit_call(runtime, "apply_diff")
    path = runtime.state.get("test_file")
    return _apply_edit(
        runtime, "unified diff", lambda text: apply_unified_diff(text, diff, path=path)
    )


EDIT_TOOLS: list[BaseTool] = [edit_file, apply_diff]


# --- checks -----------------------------------------------------------------------------------


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
        _tracker(runtime),
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
    return _reply(runtime, text, **update)


@tool
async def run_test_file(runtime: Runtime) -> Command[Any]:
    """Run the candidate test file with the project's jest; failing tests come most urgent first."""
    _emit_call(runtime, "run_test_file")
    deps = runtime.context
    state = runtime.state
    test_file = state.get("test_file", "")
    candidate = state.get("candidate", "")
    sync_candidate(deps, test_file, candidate)
    try:
        result = await deps.run_tests(test_file)
    except RunnerError as exc:
        return _reply(runtime, f"the test run could not complete: {exc}")
    deps.emit(
        TestTally(
            run_id=deps.run_id,
            step=_step(runtime),
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
    return _checked(runtime, _step(runtime), "tests", observed, passing, text, clean, update)


@tool
async def lint_auto_fix(runtime: Runtime) -> Command[Any]:
    """Apply eslint's automatic fixes to the candidate; report the messages that remain."""
    _emit_call(runtime, "lint_auto_fix")
    deps = runtime.context
    test_file = runtime.state.get("test_file", "")
    path = sync_candidate(deps, test_file, runtime.state.get("candidate", ""))
    try:
        result = await deps.runners.lint_fix(test_file)
    except RunnerError as exc:
        return _reply(runtime, f"eslint could not run: {exc}")
    fixed = path.read_text(encoding="utf-8")
    text = describe_lint(result.messages)
    update: dict[str, Any] = {"candidate": fixed, "latest": _latest(runtime, "lint", text)}
    if result.changed:
        deps.emit(EditApplied(run_id=deps.run_id, step=_step(runtime), source="eslint --fix"))
        update["changed"] = changed_spans(runtime.state.get("candidate", ""), fixed)
    return _reply(
        runtime,
        ("eslint --fix changed the file. " if result.changed else "nothing to auto-fix. ") + text,
        **update,
    )


@tool
async def run_lint_check(runtime: Runtime) -> Command[Any]:
    """Run the project's eslint on the candidate."""
    _emit_call(runtime, "run_lint_check")
    deps = runtime.context
    test_file = runtime.state.get("test_file", "")
    sync_candidate(deps, test_file, runtime.state.get("candidate", ""))
    try:
        result = await deps.runners.lint(test_file)
    except RunnerError as exc:
        return _reply(runtime, f"eslint could not run: {exc}")
    observed = [
        ObservedError(subject=m.rule or "parse", message=m.message) for m in result.messages
    ]
    text = describe_lint(result.messages)
    return _checked(runtime, "lint", "lint", observed, [], text, result.clean)


@tool
async def run_ts_check(runtime: Runtime) -> Command[Any]:
    """Type-check the project with tsc and report the candidate's type errors."""
    _emit_call(runtime, "run_ts_check")
    deps = runtime.context
    test_file = runtime.state.get("test_file", "")
    sync_candidate(deps, test_file, runtime.state.get("candidate", ""))
    try:
        result = await deps.runners.typecheck(test_file)
    except RunnerError as exc:
        return _reply(runtime, f"tsc could not run: {exc}")
    observed = [ObservedError(subject=d.code, message=d.message) for d in result.diagnostics]
    text = describe_types(result.diagnostics)
    return _checked(runtime, "typescript", "types", observed, [], text, result.clean)


# --- escape hatches ---------------------------------------------------------------------------


def _failed_checks(runtime: Runtime) -> int:
    return step_attempts(_tracker(runtime), _step(runtime))


@tool
def request_scope_reduction(reason: str, runtime: Runtime) -> Command[Any]:
    """Revert the candidate to its best state so far and fix the failing tests one at a time.
    Locked until several checks have failed."""
    _emit_call(runtime, "request_scope_reduction", reason[:80])
    attempts = _failed_checks(runtime)
    if attempts < SCOPE_REDUCTION_UNLOCKS_AT:
        return _reply(
            runtime,
            f"error: request_scope_reduction is locked until {SCOPE_REDUCTION_UNLOCKS_AT} "
            f"checks have failed ({attempts} so far): keep debugging the current failure.",
        )
    best = runtime.state.get("best") or {}
    content = best.get("content") or runtime.state.get("candidate", "")
    sync_candidate(runtime.context, runtime.state.get("test_file", ""), content)
    failing = sorted(
        {e.message.splitlines()[0][:200] for e in active_errors(_tracker(runtime), "migrate")}
    )
    plans = runtime.state.get("plans", [])
    passed_names = set(_tracker(runtime).ever_passed)
    focus = [p["test_name"] for p in plans if p.get("action") in ("migrate", "add")]
    focus = [name for name in focus if name not in passed_names] or focus
    return _reply(
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
    _emit_call(runtime, "escalate_for_external_help")
    attempts = _failed_checks(runtime)
    if attempts < ESCALATION_UNLOCKS_AT:
        return _reply(
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
        return _reply(
            runtime,
            f"The person answered {text!r}: stop now.",
            escalation=escalation,
            stop_reason=f"stopped after escalation: {text}",
        )
    # "retry" or free-text instructions: the attempt counters of this step start again.
    tracker = _tracker(runtime)
    steps = dict(tracker.steps)
    steps.pop(_step(runtime), None)
    errors = {
        fp: e.model_copy(update={"attempts": 0}) if e.step == _step(runtime) else e
        for fp, e in tracker.errors.items()
    }
    instructions = list(runtime.state.get("instructions", []))
    if text != "retry":
        instructions.append(text)
    return _reply(
        runtime,
        "The person answered: "
        + ("retry with more attempts." if text == "retry" else f"{text!r}. Follow it."),
        escalation=escalation,
        tracker=tracker.model_copy(update={"steps": steps, "errors": errors}).model_dump(),
        instructions=instructions,
    )


# --- toolkits ---------------------------------------------------------------------------------


def toolkit(step: Step) -> list[BaseTool]:
    extra: dict[Step, list[BaseTool]] = {
        "research": [get_dependency_tree, write_to_scratchpad],
        "planning": [add_test_plan, add_multiple_test_plans],
        "migrate": [
            *EDIT_TOOLS,
            run_test_file,
            request_scope_reduction,
            escalate_for_external_help,
        ],
        "lint": [lint_auto_fix, run_lint_check, *EDIT_TOOLS],
        "typescript": [run_ts_check, *EDIT_TOOLS],
        "review": REVIEW_TOOLS,
    }
    return [*FILE_TOOLS, *extra.get(step, [])]

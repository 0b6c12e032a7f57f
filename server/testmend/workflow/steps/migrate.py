"""The migrate step: the codemod's conversion, then (with a model) the migrate agent until the
tests pass, the test inventory holds and the intent check is met; then validation, because the
agent's word is not enough.

Fidelity findings are failing evidence like failing tests: the agent's ``run_test_file`` reports
inventory findings, and after the agent stops with passing tests the intent check runs; what it
finds goes back to the agent (at most ``FIDELITY_ROUNDS`` times, counted in the tracker).

When the review sends the result back, the step starts from the reviewed candidate (no new
conversion) and the agent's task is the reviewer's findings. In a host task the host's model is
the agent: the step converts once (for the brief), then takes each submission as its candidate.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime

from ...codemod import CodemodResult, DomCapture, convert_enzyme_test
from ...codemod.convert import SNAPSHOT_NOTE
from ...fidelity import FidelityReport, Finding
from ...project.children import component_children
from ...runners import RunnerError, TestRunResult, snapshot_file
from ...workspace.paths import resolve_in_root
from ..agent import run_agent
from ..candidate import (
    counted_tests,
    describe_test_result,
    observed_test_errors,
    sync_candidate,
)
from ..context import RunDeps
from ..events import EditApplied
from ..state import CandidateSnapshot, CodemodFinding, ErrorTracker, MigrationState
from ..verify import as_errors, describe_findings, intent_check, state_inventory
from .common import (
    Update,
    agent_initial,
    done,
    emit_start,
    fail,
    instructions,
    plans_text,
    research_summary,
    restore_snapshot,
    run_tests,
    write_support_file,
)
from .review import findings_text

FIDELITY_ROUNDS = 2
"""How many more times the agent is sent back when the intent check finds lost intent."""


_SNAPSHOT_NOTE_LINE = re.compile(rf"^[ \t]*// testmend: {re.escape(SNAPSHOT_NOTE)}\n", re.M)


def _retire_enzyme_snapshot(deps: RunDeps, state: MigrationState, candidate: str) -> Update:
    snapshot = snapshot_file(state.test_file)
    path = resolve_in_root(deps.workspace_root, snapshot)
    if state.snapshot_file or not path.is_file() or "toMatchSnapshot" not in candidate:
        return {}
    original = path.read_text(encoding="utf-8")
    restore_snapshot(deps, snapshot, {})
    return {
        "snapshot_file": snapshot,
        "extra_originals": {**state.extra_originals, snapshot: original},
    }


def _add_support_files(deps: RunDeps, state: MigrationState, files: dict[str, str]) -> Update:
    """The modules the conversion's result imports (the recording helper), written into the
    workspace; those the project lacks (or has in another version) become files of the
    result."""
    added: dict[str, str] = {}
    originals: dict[str, str | None] = {}
    for relative, content in files.items():
        path = resolve_in_root(deps.workspace_root, relative)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == content:
            continue
        write_support_file(deps, relative, content)
        added[relative] = content
        originals[relative] = current
    if not added:
        return {}
    return {
        "support_files": sorted({*state.support_files, *added}),
        "extra_files": {**state.extra_files, **added},
        "extra_originals": {**state.extra_originals, **originals},
    }


def _evidence(result: TestRunResult, findings: list[Finding]) -> str:
    text = describe_test_result(result)
    extra = describe_findings(findings)
    return f"{text}\n\n{extra}" if extra else text


class _Loop:
    """What the migrate step knows between agent rounds."""

    def __init__(self, state: MigrationState, candidate: str, result: TestRunResult):
        self.candidate = candidate
        self.result = result
        self.tracker = state.error_tracker
        self.best = CandidateSnapshot(
            content=candidate, passed=result.passed_count, total=len(result.tests)
        )
        self.patches = state.successful_patches
        self.stop_reason: str | None = None
        self.said: list[str] = []
        self.choice: str | None = None
        self.fidelity = FidelityReport()


def _plans_with_dropped(state: MigrationState, converted: CodemodResult) -> Update:
    """The codemod's reasons for the assertions it dropped, as the plans' reasons for fewer
    assertions (where a plan gave none): the inventory holds a test to them like to a plan's."""
    plans = [
        plan.model_copy(
            update={"fewer_assertions": "; ".join(converted.dropped_assertions[plan.test_name])}
        )
        if not plan.fewer_assertions and plan.test_name in converted.dropped_assertions
        else plan
        for plan in state.test_plans
    ]
    return {"test_plans": plans}


async def migrate(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    emit_start(deps, "migrate", state)
    if state.review.send_back and state.candidate is not None:
        return await _address_review(deps, state, state.candidate)
    if state.host and state.submission is not None:
        return await _submitted(deps, state, state.submission)
    capture = DomCapture.model_validate_json(state.dom_capture) if state.dom_capture else None

    def convert(fire_event_tests: frozenset[str] = frozenset()) -> CodemodResult:
        # In a thread: conventions walk the sources, the codemod parses.
        component = state.research.component_under_test if state.research else None
        children = component_children(deps.workspace_root, state.test_file, component)
        options = deps.conventions.model_copy(
            update={"component_children": children, "fire_event_tests": fire_event_tests}
        )
        return convert_enzyme_test(
            state.original_content, path=state.test_file, options=options, dom=capture
        )

    converted = await asyncio.to_thread(convert)
    if converted.error and not converted.enzyme_free:
        return fail(
            deps, state, "migrate", f"the codemod could not convert the file: {converted.error}"
        )
    snapshot_update = _retire_enzyme_snapshot(deps, state, converted.content)
    state = state.model_copy(update=snapshot_update)
    support_update = _add_support_files(deps, state, converted.support_files)
    state = state.model_copy(update=support_update)
    snapshot_update = {**snapshot_update, **support_update}
    content = converted.content
    if "snapshot_file" in snapshot_update:  # the run records the snapshot: no "re-record it" note
        content = _SNAPSHOT_NOTE_LINE.sub("", content)
    deps.emit(
        EditApplied(
            run_id=deps.run_id,
            step="migrate",
            source="codemod",
            detail=f"{len(converted.notes)} notes, {converted.untranslated_count} left to do",
        )
    )
    if deps.models is None:  # offline the conversion is the result: check it beside jest
        sync_candidate(deps, state.test_file, content)
        deps.runners.prefetch_checks(state.test_file)
    try:
        result = await run_tests(deps, state, content)
        again = await _fire_events_where_users_failed(
            deps, state, convert, converted, content, result
        )
    except RunnerError as exc:  # the conversion stays the run's candidate: shown, not lost
        reason = exc.message + (f" — {exc.hint}" if exc.hint else "")
        return fail(deps, state, "migrate", reason, candidate=content)
    if again is not None:
        converted, result = again
        content = converted.content
        if "snapshot_file" in snapshot_update:
            content = _SNAPSHOT_NOTE_LINE.sub("", content)
    state = state.model_copy(update=_plans_with_dropped(state, converted))
    snapshot_update = {**snapshot_update, "test_plans": state.test_plans}
    loop = _Loop(state, content, result)
    rows, findings = state_inventory(state, loop.candidate)
    loop.fidelity = FidelityReport(rows=rows, inventory_findings=findings)
    loop.tracker = deps.record_check(
        loop.tracker,
        "migrate",
        [*observed_test_errors(result), *as_errors(findings)],
        [t.full_name for t in result.tests if t.status == "passed"],
    ).tracker
    if deps.models is not None:
        try:
            await _agent_rounds(deps, state, loop)
        except RunnerError as exc:
            return fail(deps, state, "migrate", exc.message, candidate=loop.candidate)
    codemod_left = [
        f"{n.message} (line {n.line})" for n in converted.notes if n.kind == "untranslated"
    ]
    recorded = "snapshot_file" in snapshot_update  # the run records it: no "re-record it"
    noted = [
        CodemodFinding(kind=n.kind, line=n.line, message=n.message, test=n.test)
        for n in converted.notes
        if not (recorded and n.message == SNAPSHOT_NOTE)
    ]
    snapshot_update = {**snapshot_update, "codemod_findings": noted}
    return _end(deps, state, loop, len(converted.notes), codemod_left, snapshot_update)


async def _fire_events_where_users_failed(
    deps: RunDeps,
    state: MigrationState,
    convert: Callable[[frozenset[str]], CodemodResult],
    first: CodemodResult,
    content: str,
    result: TestRunResult,
) -> tuple[CodemodResult, TestRunResult] | None:
    """The conversion again with ``fireEvent`` in the tests that failed with user-event's
    fuller sequence of events (typing into an input the test controls with a mock keeps the
    old value under each keystroke; Enzyme's ``simulate`` set the new one at once; a click on a
    form's submit button sets off a page-wide click listener, kubeapps' Monaco editor's, that
    throws under jsdom), in every test where jest ended without a report, when more tests then
    pass and none that passed fails; None otherwise (also where no test failed or no event is
    a user-event call). ``content`` is the candidate ``first`` gave, which stays
    the one in the workspace when the second conversion is not kept."""
    failing = [t.full_name for t in result.failing()]
    if not result.tests and result.suite_error is not None:
        # jest ended without a report (an error a user-event call set off outside any test,
        # such as a page-wide click listener that throws): every test, as the plans name them.
        failing = [plan.test_name for plan in state.test_plans]
    if not failing or deps.conventions.event_style != "userEvent" or "userEvent" not in content:
        return None
    paths = _test_file_paths(deps, state.test_file)
    names = frozenset(_source_name(name, paths) for name in failing)
    converted = await asyncio.to_thread(convert, names)
    if converted.content == first.content:
        return None
    again = await run_tests(deps, state, converted.content)
    passed = {t.full_name for t in result.tests if t.status == "passed"}
    passed_again = {t.full_name for t in again.tests if t.status == "passed"}
    if len(passed_again) > len(passed) and passed <= passed_again:
        return converted, again
    sync_candidate(deps, state.test_file, content)  # the first conversion stays the candidate
    return None


def _test_file_paths(deps: RunDeps, test_file: str) -> tuple[str, ...]:
    path = resolve_in_root(deps.workspace_root, test_file)
    return tuple(dict.fromkeys([str(path), str(path.resolve())]))


def _source_name(full_name: str, paths: tuple[str, ...]) -> str:
    """A test's name as the source gives it: jest names a test in ``describe(__filename, …)``
    by the file's path, the conversion by ``__filename``."""
    for path in paths:
        if full_name.startswith(f"{path} "):
            return "__filename" + full_name[len(path) :]
    return full_name


async def _checked(deps: RunDeps, state: MigrationState, candidate: str) -> _Loop | Update:
    """A candidate the step did not write (the reviewed one, a host's submission): its tests
    and its inventory, or the step's failure when the tests cannot run."""
    try:
        result = await run_tests(deps, state, candidate)
    except RunnerError as exc:
        return fail(deps, state, "migrate", exc.message, candidate=candidate)
    loop = _Loop(state, candidate, result)
    rows, findings = state_inventory(state, candidate)
    loop.fidelity = FidelityReport(rows=rows, inventory_findings=findings)
    return loop


async def _address_review(deps: RunDeps, state: MigrationState, candidate: str) -> Update:
    """The review sent the result back: the agent works on the reviewed candidate, with the
    reviewer's findings as its task."""
    assert deps.models is not None, "only a reviewer agent sends a result back"
    loop = await _checked(deps, state, candidate)
    if not isinstance(loop, _Loop):
        return loop
    result, findings = loop.result, loop.fidelity.inventory_findings
    asked = findings_text(state.review.findings)
    task = (
        "A reviewer read the migrated test and sent it back with these findings. Address each "
        "one, keep every test passing and every assertion at least as strong, then run the "
        f"tests.\n{asked}"
    )
    evidence = f"The reviewer's findings:\n{asked}\n\n{_evidence(result, findings)}"
    try:
        await _agent_rounds(deps, state, loop, first=(task, evidence))
    except RunnerError as exc:
        return fail(deps, state, "migrate", exc.message, candidate=loop.candidate)
    return _end(deps, state, loop, 0, state.codemod_left, {})


async def _submitted(deps: RunDeps, state: MigrationState, content: str) -> Update:
    """A host task's submission is the step's candidate: its tests run (the snapshots it
    makes are recorded afresh) and the inventory is taken; the later steps check the rest.
    The conversion's notes were about the codemod's lines, not these."""
    if state.snapshot_file:
        restore_snapshot(deps, state.snapshot_file, {})
    loop = await _checked(deps, state, content)
    if not isinstance(loop, _Loop):
        return loop
    result, findings = loop.result, loop.fidelity.inventory_findings
    loop.tracker = deps.record_check(
        loop.tracker,
        "migrate",
        [*observed_test_errors(result), *as_errors(findings)],
        [t.full_name for t in result.tests if t.status == "passed"],
    ).tracker
    return _end(deps, state, loop, 0, [], {"codemod_findings": []})


def _end(
    deps: RunDeps,
    state: MigrationState,
    loop: _Loop,
    notes: int,
    codemod_left: list[str],
    snapshot_update: Update,
) -> Update:
    """Validation of what the agent (or the codemod alone) left: the step's end."""
    result = loop.result
    common: dict[str, Any] = {
        "candidate": loop.candidate,
        "error_tracker": loop.tracker,
        "successful_patches": loop.patches,
        "last_test_summary": describe_test_result(result),
        "tests_passing": result.passed_count,
        "tests_total": counted_tests(result, loop.fidelity.rows),
        "fidelity": loop.fidelity,
        "review": state.review.model_copy(update={"send_back": False}),
        **snapshot_update,
    }
    if loop.said:
        # What a person said when asked for help guides the later steps too.
        common["user_instructions"] = instructions(state, loop.said)
    if loop.choice in ("apply_partial", "discard"):
        common["user_choice"] = loop.choice
    if not result.success and deps.models is not None:
        reason = loop.stop_reason or "the migrate agent stopped with failing tests"
        return fail(
            deps,
            state,
            "migrate",
            f"{reason}; {result.failed_count} of {len(result.tests)} tests fail",
            best_candidate=loop.best,
            **common,
        )
    detail = f"{result.passed_count}/{len(result.tests)} tests pass"
    if notes:
        detail += f"; codemod notes: {notes}"
    if loop.fidelity.findings():
        detail += f"; {len(loop.fidelity.findings())} fidelity findings"
    best = loop.best
    if best.passed < result.passed_count:
        best = CandidateSnapshot(
            content=loop.candidate, passed=result.passed_count, total=len(result.tests)
        )
    # The lint and type check steps come next: their eslint and tsc start now, side by side.
    sync_candidate(deps, state.test_file, loop.candidate)
    deps.runners.prefetch_checks(state.test_file)
    return done(
        deps,
        state,
        "migrate",
        detail,
        best_candidate=best,
        codemod_left=codemod_left if not result.success else [],
        **common,
    )


async def _agent_rounds(
    deps: RunDeps, state: MigrationState, loop: _Loop, first: tuple[str, str] | None = None
) -> None:
    """Send the agent back until the tests pass, the inventory holds and the intent is kept.
    ``first``: a task (and its evidence) the agent works on first, whatever the tests say."""
    threshold = deps.config.fidelity.threshold
    if first is not None:
        await _one_round(deps, state, loop, *first)
        if loop.stop_reason or loop.choice:
            return
    task = "Make every planned test pass. The current test results are under 'Previous attempts'."
    evidence = _evidence(loop.result, loop.fidelity.inventory_findings)
    for round_number in range(FIDELITY_ROUNDS + 1):
        if loop.result.success and not loop.fidelity.inventory_findings:
            intent = await intent_check(deps, state, loop.candidate)
            loop.fidelity = loop.fidelity.model_copy(update={"intent": intent})
            fidelity = intent.fidelity
            if fidelity is None or fidelity >= threshold or round_number == FIDELITY_ROUNDS:
                return
            lost = intent.findings()
            verdict = deps.record_check(loop.tracker, "migrate", as_errors(lost), [])
            loop.tracker = verdict.tracker
            if verdict.limit_reason:
                loop.stop_reason = verdict.limit_reason
                return
            task = (
                "The tests pass, but the intent check shows that the migrated test no longer "
                "catches bugs the original test caught (listed under 'Previous attempts'). "
                "Strengthen the assertions of the tests named there so that they fail on those "
                "bugs, without deleting, skipping or weakening any test."
            )
            evidence = describe_findings(lost)
        elif round_number > 0 and not loop.result.success:
            return  # the agent stopped with failing tests: validation reports it
        await _one_round(deps, state, loop, task, evidence)
        if loop.stop_reason or loop.choice:
            return
        evidence = _evidence(loop.result, loop.fidelity.inventory_findings)


async def _one_round(
    deps: RunDeps, state: MigrationState, loop: _Loop, task: str, evidence: str
) -> None:
    agent_state = {
        **agent_initial(state, loop.candidate),
        "tracker": loop.tracker.model_dump(),
        "best": loop.best.model_dump(),
        "patches": loop.patches,
    }
    values = {
        "test_file": state.test_file,
        "original_test": state.original_content,
        "research_context": research_summary(state),
        "test_plans": plans_text(state.test_plans),
        "candidate": loop.candidate,  # rendered from the agent's state on each turn
        "previous_attempts": evidence,
        "user_instructions": instructions(state, loop.said),
    }
    final = await run_agent(deps, "migrate", values, agent_state, task=task)
    loop.candidate = final.get("candidate", loop.candidate)
    loop.tracker = ErrorTracker.model_validate(final.get("tracker") or {})
    loop.patches = final.get("patches", loop.patches)
    if final.get("best"):
        loop.best = CandidateSnapshot.model_validate(final["best"])
    loop.stop_reason = final.get("stop_reason")
    loop.said += [s for s in final.get("instructions", []) if s not in loop.said]
    answer = (final.get("escalation") or {}).get("answer")
    if answer in ("apply_partial", "discard"):
        loop.choice = answer
    # Validation: the agent's word is not enough; run the tests once more.
    loop.result = await run_tests(deps, state, loop.candidate)
    if not loop.result.success and loop.best.passed > loop.result.passed_count:
        loop.candidate = loop.best.content
        loop.result = await run_tests(deps, state, loop.candidate)
    rows, findings = state_inventory(state, loop.candidate)
    loop.fidelity = FidelityReport(rows=rows, inventory_findings=findings)

"""What the MCP tools answer: typed models (their JSON schemas are the tools' output schemas),
made from the engine's results. Nothing here decides anything: the engine has decided."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from ..engine import RunResult
    from ..engine.hunks import Hunk
    from ..workflow.state import MigrationState


class FoundTest(BaseModel):
    path: str
    """Project-relative."""
    apis: list[str]
    """The Enzyme APIs it uses (``mount``, ``shallow``, ``simulate``, ``setProps``, …)."""
    state: str
    """``no run``, ``running``, ``waiting for submission``, ``kept result``, ``migrated`` or
    ``partly migrated`` (some hunks taken)."""
    run_id: str | None = None
    """Its latest run, when it has one."""
    status: str | None = None
    """That run's status."""


class FoundTests(BaseModel):
    project: str
    files: list[FoundTest]
    problems: list[str] = []


class Tests(BaseModel):
    passing: int
    total: int
    original_passing: int | None = None
    """How many of the original test's tests passed before the migration."""
    summary: str = ""
    """The last test run in words, failure messages included."""


class RunStatusAnswer(BaseModel):
    run_id: str
    file: str
    status: str
    """``running``, ``paused``, ``cancelled``, or the outcome: ``succeeded``, ``needs_review``,
    ``failed``, ``partial``, ``discarded``."""
    step: str | None = None
    """The step under way (or the last one)."""
    tests: Tests | None = None
    message: str
    """One sentence: where the run is and what to call next."""


class HunkPayload(BaseModel):
    index: int = Field(description="What apply_result's `hunks` takes (from 0).")
    header: str
    text: str


class MutantPayload(BaseModel):
    id: int
    file: str
    line: int
    change: str
    caught_by_original: list[str]
    caught_by_result: list[str]
    lost: bool


class InventoryPayload(BaseModel):
    original_test: str | None
    result_test: str | None
    assertions_before: int | None
    assertions_after: int | None
    note: str = ""


class FindingPayload(BaseModel):
    kind: str
    """``tests``, ``inventory``, ``intent``, ``lint``, ``types``, ``review``, or the inventory's own
    kinds (``deleted``, ``skipped``, ``fewer_assertions``, …)."""
    message: str
    test: str | None = None
    line: int | None = None


class CheckPayload(BaseModel):
    tool: str
    rule: str | None
    severity: str
    message: str
    line: int
    column: int


class Fidelity(BaseModel):
    score: float | None
    """Mutants the result catches / mutants the original catches (None: not measured)."""
    caught_by_original: int
    lost: int
    mutants: list[MutantPayload] = []


class ResultAnswer(BaseModel):
    run_id: str
    file: str
    outcome: str
    accepted: bool
    """The engine accepted it: ``apply_result`` writes it without ``accept_review``."""
    reasons: list[str]
    findings: list[FindingPayload]
    original_sha256: str
    """The content it was migrated from: ``apply_result``'s ``expected_sha256``."""
    diff: str
    hunks: list[HunkPayload]
    tests: Tests
    inventory: list[InventoryPayload]
    fidelity: Fidelity
    lint: list[CheckPayload]
    types: list[CheckPayload]
    other_files: list[str]
    """Files the result adds or changes besides the test (a snapshot, a module it imports)."""
    report_path: str
    report_uri: str


class Verdict(BaseModel):
    """``submit_migration``'s answer: the checks' verdict on the submission, and what next."""

    task_id: str
    outcome: str
    """``checking`` while the checks still run; then the engine's outcome."""
    accepted: bool = False
    findings: list[FindingPayload] = []
    tests: Tests | None = None
    lint: list[CheckPayload] = []
    types: list[CheckPayload] = []
    fidelity: Fidelity | None = None
    original_sha256: str | None = None
    attempt: int = 0
    next: str


class Task(BaseModel):
    task_id: str
    file: str
    status: str
    """``preparing`` (research, the DOM capture and the codemod still run), ``ready``, or how the
    task ended (``failed``, ``cancelled``)."""
    brief: str | None = None
    message: str


class Done(BaseModel):
    ok: bool
    message: str
    files: list[str] = []


def result_answer(
    result: RunResult, sha256: str, hunks: list[Hunk], tests_summary: str
) -> ResultAnswer:
    fidelity = result.fidelity
    intent = fidelity.intent if fidelity is not None else None
    mutants = [
        MutantPayload(
            id=o.mutant.id,
            file=o.mutant.file,
            line=o.mutant.line,
            change=f"{o.mutant.operator}: {o.mutant.original!r} → {o.mutant.replacement!r}",
            caught_by_original=o.killed_by_original,
            caught_by_result=o.killed_by_candidate,
            lost=o.lost,
        )
        for o in (intent.outcomes if intent is not None else [])
        if o.killed_by_original
    ]
    inventory = [
        InventoryPayload(
            original_test=row.original.name if row.original else None,
            result_test=row.result.name if row.result else None,
            assertions_before=row.original.assertions if row.original else None,
            assertions_after=row.result.assertions if row.result else None,
            note=row.note,
        )
        for row in (fidelity.rows if fidelity is not None else [])
    ]
    return ResultAnswer(
        run_id=result.run_id,
        file=result.file,
        outcome=result.status,
        accepted=result.applies,
        reasons=result.reasons,
        findings=findings(result),
        original_sha256=sha256,
        diff=result.diff,
        hunks=[HunkPayload(index=h.index, header=h.header, text=h.text) for h in hunks],
        tests=tests_of(result, tests_summary),
        inventory=inventory,
        fidelity=Fidelity(
            score=result.summary.fidelity,
            caught_by_original=result.summary.mutants_caught_by_original,
            lost=result.summary.mutants_lost,
            mutants=mutants,
        ),
        lint=[_check(m) for m in result.lint_messages],
        types=[_check(m) for m in result.type_messages],
        other_files=sorted(result.extra_files),
        report_path=result.report_path,
        report_uri=f"testmend://runs/{result.run_id}/report",
    )


def tests_of(result: RunResult, summary: str = "") -> Tests:
    return Tests(
        passing=result.summary.tests_passing,
        total=result.summary.tests_total,
        original_passing=result.original_tests_passing,
        summary=summary,
    )


def findings(result: RunResult) -> list[FindingPayload]:
    """Everything the checks found, each once: the fidelity findings (naming their test), the
    lint and type messages, then the policy's other reasons (failing tests, a review)."""
    found: list[FindingPayload] = []
    if result.fidelity is not None:
        found += [
            FindingPayload(kind=f.kind, message=f.message, test=f.test, line=f.line)
            for f in result.fidelity.findings()
        ]
    found += [
        FindingPayload(kind="lint", message=f"{m.rule}: {m.message}", line=m.line)
        for m in result.lint_messages
    ]
    found += [
        FindingPayload(kind="types", message=f"{m.rule}: {m.message}", line=m.line)
        for m in result.type_messages
    ]
    said = {f.message for f in found}
    found += [
        FindingPayload(kind="outcome", message=reason)
        for reason in result.reasons
        if reason not in said
    ]
    return found


def verdict(result: RunResult, state: MigrationState, sha256: str, next_step: str) -> Verdict:
    answer = result_answer(result, sha256, [], state.last_test_summary)
    return Verdict(
        task_id=result.run_id,
        outcome=result.status,
        accepted=result.applies,
        findings=answer.findings,
        tests=answer.tests,
        lint=answer.lint,
        types=answer.types,
        fidelity=answer.fidelity,
        original_sha256=sha256,
        attempt=state.submissions,
        next=next_step,
    )


def _check(message: Any) -> CheckPayload:
    return CheckPayload(
        tool=message.tool,
        rule=message.rule,
        severity=message.severity,
        message=message.message,
        line=message.line,
        column=message.column,
    )

"""The fidelity checks as the workflow uses them: the candidate's test inventory against the
original, the intent check (mutants) and, for fix runs, the tests before and after.

Findings come back in two forms: as :class:`~testmend.fidelity.Finding` for the report and the
acceptance policy, and as tracker errors (``ObservedError``) for the agents, so that they count
toward the same retry limits as failing tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..fidelity import FidelityReport, Finding, IntentReport, InventoryRow, compare, read_inventory
from ..fidelity.intent import IntentInputs, check_intent, content_hash
from ..runners import RunnerError, TestRunResult, snapshot_file
from ..workspace.paths import resolve_in_root
from .context import RunDeps
from .state import MigrationState
from .tracking import ObservedError


def _plan_reasons(plans: Iterable[Mapping[str, Any]]) -> tuple[dict[str, str], dict[str, str]]:
    deletions: dict[str, str] = {}
    fewer: dict[str, str] = {}
    for plan in plans:
        name = str(plan.get("test_name", ""))
        if plan.get("action") == "delete" and str(plan.get("reason", "")).strip():
            deletions[name] = str(plan["reason"]).strip()
        if str(plan.get("fewer_assertions", "")).strip():
            fewer[name] = str(plan["fewer_assertions"]).strip()
    return deletions, fewer


def inventory_check(
    original: str, candidate: str, path: str, plans: Iterable[Mapping[str, Any]]
) -> tuple[list[InventoryRow], list[Finding]]:
    """The candidate's tests against the original's, with the reasons the plans recorded."""
    deletions, fewer = _plan_reasons(plans)
    return compare(
        read_inventory(original, path),
        read_inventory(candidate, path),
        deletions=deletions,
        fewer_assertions=fewer,
    )


def state_inventory(
    state: MigrationState, candidate: str
) -> tuple[list[InventoryRow], list[Finding]]:
    return inventory_check(
        state.original_content,
        candidate,
        state.test_file,
        [p.model_dump() for p in state.test_plans],
    )


def as_errors(findings: Sequence[Finding]) -> list[ObservedError]:
    """Findings as tracker errors: one fingerprint per kind and test."""
    return [
        ObservedError(subject=f"{f.kind}:{f.test or ''}", message=f.message, test_name=None)
        for f in findings
    ]


def describe_findings(findings: Sequence[Finding], limit: int = 12) -> str:
    if not findings:
        return ""
    lines = [
        f"{len(findings)} fidelity finding(s): the result must keep every test and what it checks."
    ]
    lines += [f"✗ {f.message}" for f in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"… and {len(findings) - limit} more")
    return "\n".join(lines)


def _read(deps: RunDeps, relative: str) -> str | None:
    path = resolve_in_root(deps.workspace_root, relative)
    return path.read_text(encoding="utf-8") if path.is_file() else None


async def intent_check(deps: RunDeps, state: MigrationState, candidate: str) -> IntentReport:
    """Run the intent check of ``candidate`` (or say why it was not run)."""
    settings = deps.config.fidelity
    if not settings.intent or settings.max_mutants == 0:
        return IntentReport(
            skipped_reason="turned off (fidelity.intent / fidelity.maxMutants)",
            candidate_hash=content_hash(candidate),
        )
    targets = state.research.mutation_targets if state.research else []
    snapshot = snapshot_file(state.test_file)
    original_snapshot = (
        state.extra_originals.get(snapshot)
        if snapshot in state.extra_originals
        else _read(deps, snapshot)
    )
    inputs = IntentInputs(
        test_file=state.test_file,
        original=state.original_content,
        candidate=candidate,
        targets=targets,
        original_snapshot=original_snapshot,
        candidate_snapshot=_read(deps, snapshot),
        max_mutants=settings.max_mutants,
        timeout=settings.timeout_seconds,
    )
    return await check_intent(deps.runners, deps.workspace_root, inputs, kept=deps.kept)


def intent_is_current(report: FidelityReport | None, candidate: str) -> bool:
    intent = report.intent if report is not None else None
    return intent is not None and intent.candidate_hash == content_hash(candidate)


def intent_short(report: IntentReport | None) -> str:
    if report is None:
        return "intent not checked: the result does not pass its tests yet"
    if report.skipped_reason:
        return f"intent not checked: {report.skipped_reason}"
    fidelity = report.fidelity
    if fidelity is None:
        return f"the original test catches none of {len(report.outcomes)} mutants"
    caught = f"{report.killed_by_both}/{report.killed_by_original}"
    kept = "; the original's runs as in an earlier run" if report.original_reused else ""
    return f"{caught} mutants caught (fidelity {fidelity:.2f}{kept})"


# --- fix runs: the tests before and after -------------------------------------------------------


async def run_verify_tests(deps: RunDeps, files: Sequence[str]) -> dict[str, TestRunResult]:
    """The verification tests in one jest process (their results per file)."""
    if not files:
        return {}
    return await deps.runners.run_test_files(list(files))


def passing_by_file(results: Mapping[str, TestRunResult]) -> dict[str, list[str]]:
    return {
        file: sorted(t.full_name for t in result.tests if t.status == "passed")
        for file, result in results.items()
    }


def lost_tests(
    baseline: Mapping[str, Sequence[str]], results: Mapping[str, TestRunResult]
) -> list[Finding]:
    """Tests that passed before the fix and do not pass after it."""
    findings = []
    after = passing_by_file(results)
    for file, names in baseline.items():
        lost = sorted(set(names) - set(after.get(file, [])))
        for name in lost:
            findings.append(
                Finding(
                    kind="test-lost",
                    test=name,
                    message=f"the test '{name}' ({file}) passed before the fix and does not "
                    "pass after it",
                )
            )
    return findings


async def tests_after_fix(
    deps: RunDeps, state: MigrationState
) -> tuple[dict[str, TestRunResult], list[Finding]]:
    """Fix runs: the verification tests now, and those that passed before and no longer do
    (every one of them, when the tests cannot run)."""
    try:
        results = await run_verify_tests(deps, state.verify_tests)
    except RunnerError as exc:
        return {}, [Finding(kind="test-lost", message=f"the tests could not run: {exc.message}")]
    return results, lost_tests(state.baseline_passing, results)

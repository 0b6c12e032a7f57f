"""A finished run's result, built from its checkpointed state: the content and diff, the other
files it changes, the acceptance policy's decision, and the sources the report shows lost
mutants of."""

from __future__ import annotations

import contextlib
from pathlib import Path

from ..codemod import DomCapture
from ..config import FidelityConfig
from ..patching import unified_diff
from ..workflow.state import MigrationState
from ..workspace.paths import resolve_in_root
from .acceptance import decide
from .models import RunResult


def result_from_state(
    run_id: str,
    state: MigrationState,
    fidelity: FidelityConfig,
    report_path: Path,
    sandbox: str = "",
) -> RunResult:
    content = state.candidate if state.candidate is not None else state.original_content
    extra = {
        path: text
        for path, text in state.extra_files.items()
        if text != state.extra_originals.get(path)
    }
    diff = unified_diff(state.original_content, content, state.test_file)
    for path, text in extra.items():
        diff += unified_diff(state.extra_originals.get(path) or "", text or "", path)
    decision = decide(state, fidelity)
    return RunResult(
        run_id=run_id,
        file=state.test_file,
        status=decision.status,
        original=state.original_content,
        content=content,
        diff=diff,
        summary=state.exit.summary,
        failure_reason=decision.summary(),
        left_to_do=state.exit.left_to_do,
        report_path=str(report_path),
        extra_files=extra,
        extra_originals={path: state.extra_originals.get(path) for path in extra},
        reasons=decision.reasons,
        fidelity=state.fidelity,
        lint_messages=state.lint_messages,
        type_messages=state.type_messages,
        codemod_findings=state.codemod_findings,
        original_tests_passing=_original_passing(state),
        sandbox=sandbox,
        model_fallback=state.model_fallback,
    )


def _original_passing(state: MigrationState) -> int | None:
    if not state.dom_capture:
        return None
    return DomCapture.model_validate_json(state.dom_capture).tests_passed


def mutated_sources(project_root: Path, state: MigrationState) -> dict[str, str]:
    """The files whose lost mutants the report shows as diffs."""
    intent = state.fidelity.intent if state.fidelity is not None else None
    sources: dict[str, str] = {}
    for outcome in intent.lost() if intent is not None else []:
        path = outcome.mutant.file
        with contextlib.suppress(OSError, ValueError):
            sources.setdefault(
                path, resolve_in_root(project_root, path).read_text(encoding="utf-8")
            )
    return sources

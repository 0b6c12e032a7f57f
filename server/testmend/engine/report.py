"""The markdown report of a finished run (``.testmend/runs/<id>/report.md``): the outcome and
why, the test inventory (original test → result test, assertions before and after), the intent
check with the mutants the result no longer catches, what is left, and the diff."""

from __future__ import annotations

from ..fidelity import FidelityReport
from ..fidelity.mutants import mutated_source
from ..patching import unified_diff
from ..workflow.state import MigrationState
from .acceptance import Decision

_WHY = {
    "succeeded": "tests, lint and types pass; every test is kept; the intent check is met",
    "needs_review": "it works, but something it should keep or check needs a person's look",
    "partial": "a person chose to keep the best partial result",
    "discarded": "a person chose to discard the result",
    "failed": "the result does not work yet",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def inventory_lines(report: FidelityReport) -> list[str]:
    if not report.rows:
        return []
    lines = [
        "## Test inventory",
        "",
        "| original test | result | assertions before → after | note |",
        "| --- | --- | --- | --- |",
    ]
    for row in report.rows:
        before, after = row.original, row.result
        name = _cell(before.name if before else "—")
        result = _cell(after.name if after else "**missing**")
        if before is not None and after is not None and after.name == before.name:
            result = "kept" + (f" ({', '.join(after.marks)})" if after.marks else "")
        counts = f"{before.assertions if before else '—'} → {after.assertions if after else '—'}"
        note = row.note
        if after is not None and after.empty:
            note = (note + "; " if note else "") + "empty body"
        if before is None:
            note = (note + "; " if note else "") + "created"
        lines.append(f"| {name} | {result} | {counts} | {_cell(note)} |")
    return ["", *lines]


def intent_lines(report: FidelityReport, sources: dict[str, str] | None = None) -> list[str]:
    intent = report.intent
    if intent is None:
        return []
    lines = ["", "## Intent check", ""]
    if intent.skipped_reason:
        return [*lines, f"Not done: {intent.skipped_reason}."]
    score = intent.fidelity
    lines.append(
        f"Mutated: {', '.join(f'`{t}`' for t in intent.targets)}; {len(intent.outcomes)} mutants "
        f"in {intent.duration_s:.1f} s. The original test catches {intent.killed_by_original}, "
        f"the result {intent.killed_by_both} of those"
        + (f": **fidelity {score:.2f}**." if score is not None else ".")
        + (
            " The original's runs against these mutants are those of an earlier check (nothing"
            " they depend on had changed): only the result ran."
            if intent.original_reused
            else ""
        )
    )
    lines += [
        "",
        "| mutant | change | original catches | result catches |",
        "| --- | --- | --- | --- |",
    ]
    for outcome in intent.outcomes:
        m = outcome.mutant
        lines.append(
            f"| #{m.id} {m.operator} | {_cell(m.describe())} | "
            f"{len(outcome.killed_by_original)} test(s) | "
            + (
                f"{len(outcome.killed_by_candidate)} test(s)"
                if outcome.candidate_ran
                else "not run (the original does not catch it)"
            )
            + (" — **lost**" if outcome.lost else "")
            + " |"
        )
    for outcome in intent.lost():
        m = outcome.mutant
        lines += [
            "",
            f"### Lost: mutant #{m.id} ({m.describe()})",
            "",
            "Caught by the original test(s): "
            + ", ".join(f"'{t}'" for t in outcome.killed_by_original),
        ]
        source = (sources or {}).get(m.file)
        if source is not None:
            lines += [
                "",
                "```diff",
                unified_diff(source, mutated_source(source, m), m.file).rstrip(),
                "```",
            ]
    return lines


def _review(verdict: str | None, rounds: int) -> str:
    text = {
        "approved": "approved by the reviewer",
        "changes": "the reviewer's findings are open",
        "none": "the reviewer gave no verdict",
        "checks": "the deterministic checks (no model)",
    }.get(verdict or "", "not reached")
    return text + (f" after {rounds} round(s) of changes" if rounds else "")


def render_report(
    state: MigrationState,
    diff: str,
    decision: Decision,
    sources: dict[str, str] | None = None,
    *,
    sandbox: str = "",
) -> str:
    exit_state = state.exit
    summary = exit_state.summary
    finished = (
        exit_state.completed_at.isoformat(timespec="seconds") if exit_state.completed_at else "—"
    )
    fidelity = (
        f"{summary.fidelity:.2f} ({summary.mutants_caught_by_original - summary.mutants_lost}"
        f"/{summary.mutants_caught_by_original} mutants)"
        if summary.fidelity is not None
        else "not measured"
    )
    lines = [
        f"# testmend: {state.test_file}",
        "",
        f"- run: `{state.run_id}` ({state.mode})",
        f"- outcome: **{decision.status}** — {_WHY.get(decision.status, '')}",
        f"- finished: {finished}",
        f"- sandbox: {sandbox or 'not recorded'}",
    ]
    if state.model_fallback:
        lines.append(f"- tier: deterministic, because {state.model_fallback}")
    if decision.reasons:
        lines += ["", "## Why", ""] + [f"- {reason}" for reason in decision.reasons]
    lines += [
        "",
        "## Summary",
        "",
        "| | |",
        "| --- | --- |",
        f"| tests passing | {summary.tests_passing} / {summary.tests_total} |",
        f"| tests migrated / kept / deleted / created | {summary.tests_migrated} / "
        f"{summary.tests_kept} / {summary.tests_deleted} / {summary.tests_created} |",
        f"| fidelity (intent check) | {fidelity} |",
        f"| fidelity findings | {summary.findings} |",
        f"| review | {_review(summary.review, summary.review_rounds)} |",
        f"| Enzyme-free | {'yes' if summary.enzyme_free else 'no'} |",
        f"| lint messages left | {summary.lint_errors} |",
        f"| type errors left | {summary.type_errors} |",
        f"| agent patches applied | {summary.patches_applied} |",
        f"| distinct errors met | {summary.errors_encountered} |",
        f"| tokens used | {summary.tokens_used} |",
        f"| estimated cost | {'n/a' if summary.cost is None else f'${summary.cost:.4f}'} |",
        "",
        "## Steps",
        "",
    ]
    lines += [f"- **{step}**: {detail}" for step, detail in state.step_results.items()]
    if state.fidelity is not None:
        lines += inventory_lines(state.fidelity)
        lines += intent_lines(state.fidelity, sources)
    if exit_state.left_to_do:
        lines += ["", "## Left to do", ""]
        lines += [f"- {item}" for item in exit_state.left_to_do]
    for title, text in (
        ("Last test run", state.last_test_summary),
        ("Lint", state.lint_summary),
        ("Types", state.type_summary),
    ):
        if text:
            lines += ["", f"## {title}", "", "```", text.strip(), "```"]
    lines += ["", "## Diff", "", "```diff", diff.rstrip() or "(no change)", "```", ""]
    return "\n".join(lines)

"""The markdown report of a finished run (``.testmend/runs/<id>/report.md``)."""

from __future__ import annotations

from ..workflow.state import MigrationState


def render_report(state: MigrationState, diff: str) -> str:
    exit_state = state.exit
    summary = exit_state.summary
    finished = (
        exit_state.completed_at.isoformat(timespec="seconds") if exit_state.completed_at else "—"
    )
    lines = [
        f"# testmend: {state.test_file}",
        "",
        f"- run: `{state.run_id}` ({state.mode})",
        f"- status: **{exit_state.status}**"
        + (f" — {exit_state.failure_reason}" if exit_state.failure_reason else ""),
        f"- finished: {finished}",
        "",
        "## Summary",
        "",
        "| | |",
        "| --- | --- |",
        f"| tests passing | {summary.tests_passing} / {summary.tests_total} |",
        f"| tests migrated / kept / deleted / created | {summary.tests_migrated} / "
        f"{summary.tests_kept} / {summary.tests_deleted} / {summary.tests_created} |",
        f"| Enzyme-free | {'yes' if summary.enzyme_free else 'no'} |",
        f"| lint messages left | {summary.lint_errors} |",
        f"| type errors left | {summary.type_errors} |",
        f"| agent patches applied | {summary.patches_applied} |",
        f"| distinct errors met | {summary.errors_encountered} |",
        f"| tokens used | {summary.tokens_used} |",
        "",
        "## Steps",
        "",
    ]
    lines += [f"- **{step}**: {detail}" for step, detail in state.step_results.items()]
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
    if state.test_plans:
        lines += ["", "## Test plans", ""]
        lines += [f"- [{p.action}] {p.test_name}" for p in state.test_plans]
    lines += ["", "## Diff", "", "```diff", diff.rstrip() or "(no change)", "```", ""]
    return "\n".join(lines)

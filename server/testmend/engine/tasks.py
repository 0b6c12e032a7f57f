"""A host's task: the brief its model migrates from, and what it should do after each submission.

A host task (``Engine.start(..., host=True)``) is a run whose migrate step the host's model
does: testmend researches the test, runs it with the DOM capture and converts it with the codemod,
then hands over this brief. Each submission runs through the same checks and the same acceptance
policy as any run; :func:`next_instruction` says what comes next, more pointed as the attempts
mount, and stops the loop at the configured limits (``retry.*``).
"""

from __future__ import annotations

from pathlib import Path

from ..config import Config
from ..project.packages import installed_version
from ..workflow.state import MigrationState
from ..workspace.paths import PathEscapeError, resolve_in_root
from .models import RunResult

MAX_SOURCE_CHARS = 12_000
MAX_HTML_CHARS = 1_500
LINT_PLUGINS = {
    "eslint-plugin-testing-library": "no node access such as `container.querySelector`, "
    "`.closest`, `.children`; `screen` queries; no `act` around what Testing Library wraps; "
    "render results destructured or named `view`; no render in `beforeEach`",
    "eslint-plugin-jest-dom": "jest-dom matchers such as `toBeInTheDocument`, `toHaveTextContent`, "
    "`toBeDisabled` rather than comparisons of DOM properties",
}
"""Lint plugins whose rules decide how a migrated test must be written, when the project has
them, with what their rules ask for."""
REPEATS_FOR_HINT = 2
"""After this many submissions with the same finding, the instruction names it as the thing to
change approach on."""


def brief(state: MigrationState, project_root: Path, task_id: str) -> str:
    """What a careful engineer would hand over: the original test, the component under test and
    what it imports, the DOM each test rendered, the codemod's candidate and what it left, the
    project's conventions, the rules of acceptance and how to submit."""
    research = state.research
    parts = [
        f"# Migrate `{state.test_file}` from Enzyme to React Testing Library",
        f"Task `{task_id}`. Write the whole migrated test file and submit it with "
        f"`submit_migration(task_id='{task_id}', content=...)`. testmend runs it in a sandboxed "
        "copy of the project through the project's own jest, eslint and tsc, compares its tests "
        "with the original's and checks that it still catches the bugs the original catches. "
        "Only that decides whether the task is done.",
        "## Rules of acceptance",
        "- Every original test is kept under its name (describe blocks and titles unchanged), "
        "and passes; none is deleted, skipped (`.skip`, `xit`) or emptied.\n"
        "- No assertion is dropped or weakened: each test makes at least the original's "
        "assertions, on what the user sees (roles, labels, text), not on component internals.\n"
        "- The result catches every mutant of the component that the original catches.\n"
        "- No Enzyme import is left; the project's eslint and tsc report nothing in the file.\n"
        "- Prefer `screen` queries by role and accessible name, `userEvent` (awaited) over "
        "`fireEvent`, `findBy*` for what appears later; no `container.querySelector`.",
        "## Conventions of this project",
        _conventions(state, project_root),
        "## The original test",
        _fenced(state.original_content, state.test_file),
    ]
    component = research.component_under_test if research else None
    if component:
        parts += [f"## The component under test: `{component}`", _source(project_root, component)]
    imported = _imports(state)
    if imported:
        parts += ["## What the test imports (project files)", imported]
    if research and research.rendered_html:
        parts += [
            "## The DOM each original test rendered",
            "\n".join(
                f"- {name}:\n  `{_clip(html, MAX_HTML_CHARS)}`"
                for name, html in list(research.rendered_html.items())[:20]
            ),
        ]
    if state.candidate is not None:
        parts += [
            "## testmend's own conversion (a starting point; its notes say what is left)",
            f"Its tests: {state.tests_passing}/{state.tests_total} pass.",
            _fenced(state.candidate, state.test_file),
        ]
        notes = [f"- line {f.line}: {f.kind}: {f.message}" for f in state.codemod_findings]
        if notes:
            parts += ["What it noted:", "\n".join(notes[:40])]
    return "\n\n".join(parts) + "\n"


def next_instruction(result: RunResult, state: MigrationState, config: Config, task_id: str) -> str:
    """After a submission: apply it, fix what the checks found, change approach on what keeps
    failing, or hand it to a person once the limits are reached."""
    if result.applies:
        return (
            f"Accepted. Apply it with apply_result(run_id='{task_id}', expected_sha256=...), "
            "using original_sha256 from get_result or this answer."
        )
    limit = config.retry.max_total_attempts
    if state.submissions >= limit:
        return (
            f"Stop: this task has had its {limit} submissions (retry.maxTotalAttempts). Tell the "
            f"user what is left (the report: testmend://runs/{task_id}/report); they can apply "
            "the last submission with apply_result(..., accept_review=true) if it is good enough."
        )
    repeated = [
        e
        for e in state.error_tracker.errors.values()
        if e.status == "active" and e.attempts >= REPEATS_FOR_HINT
    ]
    per_error = config.retry.max_attempts_per_error
    stuck = [e for e in repeated if e.attempts >= per_error]
    if stuck:
        return (
            f"Stop: '{stuck[0].message}' failed {stuck[0].attempts} times "
            "(retry.maxAttemptsPerError). Submit the file with that test reduced to what you "
            "can make pass honestly and say why in a comment, or hand the task to the user."
        )
    steps = [
        f"Fix every finding above (attempt {state.submissions} of {limit}) and submit the "
        "whole file again."
    ]
    if repeated:
        worst = max(repeated, key=lambda e: e.attempts)
        steps.append(
            f"The same failure came back {worst.attempts} times: '{worst.message}'. Change "
            "approach on it: read the DOM the original test rendered (in the brief) and query "
            "what is there, rather than editing the same line again."
        )
    if result.summary.tests_total and result.summary.tests_passing < result.summary.tests_total:
        steps.append("Failing tests first: their messages are in `tests`.")
    return " ".join(steps)


def _conventions(state: MigrationState, project_root: Path) -> str:
    lines = []
    research = state.research
    if research and research.render_helper:
        lines.append(f"- Render with the project's helper: {research.render_helper}.")
    user_event = installed_version(project_root, "@testing-library/user-event")
    if user_event:
        major = user_event.split(".")[0]
        how = (
            "`const user = userEvent.setup()` and `await user.click(...)` in async tests"
            if major.isdigit() and int(major) >= 14
            else "`userEvent.click(...)` (its API before 14)"
        )
        lines.append(f"- @testing-library/user-event {user_event} is installed: {how}.")
    else:
        lines.append("- @testing-library/user-event is not installed: use `fireEvent`.")
    for package in ("@testing-library/react", "@testing-library/jest-dom", "react"):
        version = installed_version(project_root, package)
        if version:
            lines.append(f"- {package} {version}")
    for plugin, rules in LINT_PLUGINS.items():
        version = installed_version(project_root, plugin)
        if version:
            lines.append(
                f"- {plugin} {version} is installed; where the eslint config turns it on: {rules}."
            )
    if research and research.mock_patterns:
        lines.append("- Mocks used around this test: " + "; ".join(research.mock_patterns[:8]))
    if research and research.example_tests:
        lines.append(
            "- Tests of this project that already use Testing Library (imitate their style): "
            + ", ".join(f"`{t}`" for t in research.example_tests[:5])
        )
    return "\n".join(lines)


def _imports(state: MigrationState) -> str:
    research = state.research
    if research is None:
        return ""
    nodes = [n for n in research.dependency_tree[1:20] if n.path]
    return "\n".join(f"- `{n.path}`" for n in nodes)


def _source(project_root: Path, relative: str) -> str:
    try:
        path = resolve_in_root(project_root, relative)
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, PathEscapeError):
        return "(could not be read)"
    return _fenced(_clip(text, MAX_SOURCE_CHARS), relative)


def _fenced(text: str, path: str) -> str:
    language = "tsx" if path.endswith((".ts", ".tsx")) else "jsx"
    fence = "````" if "```" in text else "```"
    return f"{fence}{language}\n{text.rstrip()}\n{fence}"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + " …(cut)"

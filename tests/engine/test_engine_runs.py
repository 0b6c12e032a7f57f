"""Full runs on the example app with real jest, eslint and tsc; the model is scripted."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from testmend.engine import Engine, RunRequest, RunResult
from testmend.llm import reply
from testmend.workflow.events import (
    RUN_EVENT_ADAPTER,
    EditApplied,
    RunEvent,
    RunFinished,
    StepFinished,
    StepStarted,
    TestTally,
)
from tests.support.engine import (
    PACKAGE_IMPORT_RULE,
    SIMPLE_ENZYME,
    SIMPLE_RTL,
    SIMPLE_TEST,
    call,
    make_config,
    rewrite_to,
    scripted_engine,
    tool_messages,
)
from tests.support.git import commit_all, git
from tests.support.leftovers import foreign_worktrees, in_use, left_behind


def assert_untouched(project: Path, workspaces: Path) -> None:
    """The user's tree is as committed, no run's workspace is left and no slot held, and the
    only worktrees registered in the user's repository are the warm slots."""
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""
    assert (project / SIMPLE_TEST).read_text(encoding="utf-8") == SIMPLE_ENZYME
    assert left_behind(workspaces) == []
    assert foreign_worktrees(project / ".git", workspaces) == []


async def test_happy_path(project: Path, workspaces: Path) -> None:
    engine, _model = scripted_engine(
        project,
        workspaces,
        {
            "migrate": [rewrite_to(SIMPLE_RTL), call("run_test_file"), reply("done")],
        },
    )
    async with engine:
        handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        result = await handle.wait()
    assert isinstance(result, RunResult)
    assert result.status == "succeeded", result.failure_reason
    assert result.content == SIMPLE_RTL
    assert result.summary.tests_passing == result.summary.tests_total == 2
    assert result.summary.enzyme_free
    assert result.summary.patches_applied == 1
    assert "-import { mount } from 'enzyme';" in result.diff
    steps = [e.step for e in handle.history if isinstance(e, StepStarted)]
    assert steps == ["research", "planning", "migrate", "lint", "typescript", "review", "finish"]
    assert isinstance(handle.history[-1], RunFinished)
    assert Path(result.report_path).is_file()
    # The run's events stay on disk, one JSON object per line, in the order they happened.
    lines = (engine.store.run_dir(handle.run_id) / "events.jsonl").read_text().splitlines()
    logged = [json.loads(line) for line in lines]
    assert [RUN_EVENT_ADAPTER.validate_python(e) for e in logged] == handle.history
    assert [e["at"] for e in logged] == sorted(e["at"] for e in logged)
    assert_untouched(project, workspaces)


async def run_to_end(engine: Engine, request: RunRequest) -> RunResult:
    return (await run_with_events(engine, request))[0]


async def run_with_events(engine: Engine, request: RunRequest) -> tuple[RunResult, list[RunEvent]]:
    async with engine:
        handle = await engine.start(request)
        result = await handle.wait()
    assert result is not None
    assert engine.handles == {}  # an ended run leaves nothing behind in a long-lived engine
    return result, handle.history


async def test_failed_edit_then_success(project: Path, workspaces: Path) -> None:
    bogus = "<<<<<<< SEARCH\nconst wrapper = shallow(<Nothing />);\n=======\nx\n>>>>>>> REPLACE\n"
    engine, model = scripted_engine(
        project,
        workspaces,
        {
            "migrate": [
                call("edit_file", blocks=bogus),
                rewrite_to(SIMPLE_RTL),
                call("run_test_file"),
                reply("done"),
            ]
        },
    )
    result = await run_to_end(engine, RunRequest(file=SIMPLE_TEST))
    assert result.status == "succeeded", result.failure_reason
    assert result.summary.patches_applied == 1  # the failed edit is not counted
    failed_edit = next(t for t in tool_messages(model) if t.startswith("edit not applied"))
    assert "the candidate is unchanged" in failed_edit
    assert "closest region in the file: line" in failed_edit.lower()  # where to look
    assert_untouched(project, workspaces)


async def test_failure_loop_is_stopped_by_max_attempts_per_error(
    project: Path, workspaces: Path
) -> None:
    engine, model = scripted_engine(
        project,
        workspaces,
        # The agent only re-runs the tests: the same error comes back until the limit stops it.
        {"migrate": [call("run_test_file", "c1"), call("run_test_file", "c2"), reply("never")]},
        retry={"maxAttemptsPerError": 2},
    )
    result = await run_to_end(engine, RunRequest(file=SIMPLE_TEST))
    assert result.status == "failed"
    assert result.failure_reason is not None
    assert "maxAttemptsPerError=2" in result.failure_reason
    assert "1 of 2 tests fail" in result.failure_reason
    migrate_requests = [r for r in model.requests if model.agent_of(r) == "migrate"]
    assert len(migrate_requests) == 1  # stopped before asking the model again
    # Every model call is counted, the failed step's included (60 tokens per scripted reply).
    assert result.summary.tokens_used == 60 * len(model.requests)
    # Lint and type checks never ran: a failed step ends the run.
    assert result.content != SIMPLE_ENZYME  # the best candidate is kept for the user
    assert_untouched(project, workspaces)


async def test_escape_hatches_unlock_and_escalation_pauses_until_answered(
    project: Path, workspaces: Path
) -> None:
    answer = "Click the 'Increase seats' button instead of calling its onClick prop"
    engine, model = scripted_engine(
        project,
        workspaces,
        {
            "migrate": [
                call("request_scope_reduction", "s1", reason="stuck"),  # locked: 1 check
                call("run_test_file", "t1"),
                call("run_test_file", "t2"),
                call("request_scope_reduction", "s2", reason="stuck"),  # unlocked: 3 checks
                call("run_test_file", "t3"),
                call(
                    "escalate_for_external_help",
                    "e1",
                    goal="g",
                    tried="t",
                    last_error="e",
                    analysis="a",
                ),  # locked: 4 checks
                call("run_test_file", "t4"),
                call(
                    "escalate_for_external_help",
                    "e2",
                    goal="Migrate the increment test",
                    tried="reran the tests",
                    last_error="state() has no equivalent",
                    analysis="the test reads component state",
                ),
                rewrite_to(SIMPLE_RTL),
                call("run_test_file", "t5"),
                reply("done"),
            ]
        },
        retry={"maxAttemptsPerError": 10},
    )
    async with engine:
        handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        assert await handle.wait() is None  # paused
        needs = [e for e in handle.history if e.type == "needs_input"]
        assert len(needs) == 1 and needs[0].options == ["retry", "apply_partial", "discard"]
        report = Path(needs[0].report_path)
        assert report.is_file() and "## What was tried\nreran the tests" in report.read_text()
        assert engine.store.load(handle.run_id).status == "paused"
        assert left_behind(workspaces) == []  # nothing lingers while waiting for a person

        resumed = await engine.resume(handle.run_id, answer)
        result = await resumed.wait()
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    assert result.content == SIMPLE_RTL
    messages = tool_messages(model)
    locked = [m for m in messages if "is locked until" in m]
    assert len(locked) == 2
    assert any(m.startswith("Scope reduced") for m in messages)
    assert any(answer in m for m in messages)
    last_migrate = [r for r in model.requests if model.agent_of(r) == "migrate"][-1]
    assert answer in str(last_migrate[0].content)  # "A person said" in the system prompt
    assert_untouched(project, workspaces)


LINT_TEST = "src/components/Counter/Lint.test.tsx"
LINT_BEFORE = """\
import { render } from '@testing-library/react';
import { Counter } from './Counter';

it('calls back on change', () => {
  const onChange = jest.fn();
  const { getByRole } = render(<Counter label="Seats" onChange={onChange} />);
  getByRole('button', { name: 'Increase seats' }).click();
  expect(onChange).toBeCalled();
});
"""
LINT_AFTER = """\
import { fireEvent, render, screen } from '@testing-library/react';
import { Counter } from './Counter';

it('calls back on change', () => {
  const onChange = jest.fn();
  render(<Counter label="Seats" onChange={onChange} />);
  fireEvent.click(screen.getByRole('button', { name: 'Increase seats' }));
  expect(onChange).toHaveBeenCalled();
});
"""


async def test_fix_mode_starts_at_lint(project: Path, workspaces: Path) -> None:
    (project / LINT_TEST).write_text(LINT_BEFORE, encoding="utf-8")
    engine, model = scripted_engine(
        project,
        workspaces,
        {"lint": [rewrite_to(LINT_AFTER), call("run_lint_check"), reply("lint clean")]},
    )
    result, history = await run_with_events(engine, RunRequest(file=LINT_TEST, mode="fix"))
    steps = [e.step for e in history if isinstance(e, StepStarted)]
    assert steps == ["lint", "typescript", "review", "finish"]
    assert result.status == "succeeded", result.failure_reason
    assert result.content == LINT_AFTER
    # eslint --fix ran before the agent: the agent saw only what it cannot fix.
    first_lint_prompt = str(model.requests[0][0].content)
    assert "testing-library/prefer-screen-queries" in first_lint_prompt
    assert "jest/no-alias-methods" not in first_lint_prompt
    assert any(isinstance(e, EditApplied) and e.source == "eslint --fix" for e in history)
    assert (project / LINT_TEST).read_text(encoding="utf-8") == LINT_BEFORE


async def test_cancel_leaves_nothing_behind(project: Path, workspaces: Path) -> None:
    engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces)
    async with engine:
        handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        async for event in handle.events():
            if isinstance(event, StepStarted) and event.step == "migrate":
                break
        assert in_use(workspaces)  # the run is working in its shadow
        assert await engine.cancel(handle.run_id)
        assert engine.store.load(handle.run_id).status == "cancelled"
    assert_untouched(project, workspaces)
    listing = subprocess.run(  # -ww: whole command lines, not cut at 80 columns
        ["ps", "-ww", "-eo", "args"], capture_output=True, text=True, check=True
    ).stdout
    assert str(workspaces) not in listing  # no jest left running in the shadow


async def test_offline_run_reports_what_is_left(project: Path, workspaces: Path) -> None:
    engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces)
    async with engine:
        handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        result = await handle.wait()
        assert result is not None
        # Restarting from a step reuses the finished run's state: only lint onwards runs again.
        restarted = await engine.restart_from(result.run_id, "lint")
        again = await restarted.wait()
        assert await engine.result(result.run_id) == result
    assert again is not None and again.run_id != result.run_id
    assert [e.step for e in restarted.history if isinstance(e, StepStarted)] == [
        "lint",
        "typescript",
        "review",
        "finish",
    ]
    assert again.content == result.content
    assert result.status == "failed"
    assert result.summary.tests_total == 2 and result.summary.tests_passing == 1
    assert any("calls a prop directly (invoke())" in item for item in result.left_to_do)
    assert "1 test(s) still fail" in result.left_to_do
    tallies = [e for e in handle.history if isinstance(e, TestTally)]
    assert tallies[-1].passed == 1
    finished = [e for e in handle.history if isinstance(e, StepFinished)]
    assert [e.step for e in finished][-1] == "finish"
    report = Path(result.report_path).read_text()
    assert "## Left to do" in report and "1 / 2" in report
    assert_untouched(project, workspaces)


def warm_jests_in(workspaces: Path) -> set[int]:
    """The warm jest processes (and their sandbox wrappers) working in ``workspaces``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        if any(a.endswith(b"warm_jest.cjs") for a in args) and cwd.is_relative_to(workspaces):
            found.add(int(entry.name))
    return found


async def test_a_slots_warm_jest_serves_the_next_run_of_the_same_engine(
    project: Path, workspaces: Path
) -> None:
    """In one engine (the editor's server, a batch) the jest a run started in its warm slot
    stays up for the next run there; the engine's end stops it."""
    engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces.resolve())
    async with engine:
        first = await (await engine.start(RunRequest(file=SIMPLE_TEST))).wait()
        kept = warm_jests_in(workspaces.resolve())
        second = await (await engine.start(RunRequest(file=SIMPLE_TEST))).wait()
        assert warm_jests_in(workspaces.resolve()) == kept
    assert first is not None and second is not None
    assert second.summary.tests_passing == first.summary.tests_passing == 1
    assert kept  # the first run's jest was still up between the runs
    assert warm_jests_in(workspaces.resolve()) == set()
    assert_untouched(project, workspaces)


async def test_a_warm_jest_kept_for_no_time_ends_with_its_run(
    project: Path, workspaces: Path
) -> None:
    config = make_config(project, workspace={"warmJestIdleMinutes": 0})
    engine = Engine(config, offline=True, workspaces_dir=workspaces.resolve())
    async with engine:
        result = await (await engine.start(RunRequest(file=SIMPLE_TEST))).wait()
        assert warm_jests_in(workspaces.resolve()) == set()  # stopped with its run
    assert result is not None and result.summary.tests_passing == 1


PAGINATION_TEST = "src/components/Pagination/Pagination.test.tsx"


def step_details(history: list[RunEvent]) -> dict[str, str]:
    return {e.step: e.detail for e in history if isinstance(e, StepFinished)}


@pytest.mark.intent
async def test_a_second_run_reuses_the_originals_runs_and_the_checks_until_the_project_changes(
    project: Path, workspaces: Path
) -> None:
    """The original test's capture and its runs against the mutants, and eslint's and tsc's
    results on the migration, are kept from the first run of a file; the second run (another
    engine: the command line run again) only runs the candidate's tests, with the same
    verdict; an edit of a file they depend on runs them all again."""
    results, details = [], []
    for edit in (None, None, "src/components/Pagination/Pagination.css"):
        if edit is not None:  # an uncommitted change of the user's
            (project / edit).write_text((project / edit).read_text() + "\n/* edited */\n")
        engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces)
        result, history = await run_with_events(engine, RunRequest(file=PAGINATION_TEST))
        results.append(result)
        details.append(step_details(history))
    kept = "as in an earlier run"
    steps = ("research", "lint", "typescript", "review")
    assert not any(kept in details[0][step] for step in steps)
    assert all(kept in details[1][step] for step in steps)
    # The stylesheet is not the test's content, but it is the workspace's: all run again.
    assert not any(kept in details[2][step] for step in steps)
    assert [r.status for r in results] == ["succeeded"] * 3
    assert results[1].content == results[0].content
    assert "4/4 mutants caught" in details[1]["review"]
    assert "those of an earlier check" in Path(results[1].report_path).read_text()
    assert "those of an earlier check" not in Path(results[2].report_path).read_text()
    git(project, "checkout", "--", ".")
    assert_untouched(project, workspaces)


async def test_with_keeping_off_the_original_and_the_checks_run_every_time(
    project: Path, workspaces: Path
) -> None:
    config = make_config(
        project, workspace={"keepOriginalResults": False, "keepCheckResults": False}
    )
    for _ in range(2):
        engine = Engine(config, offline=True, workspaces_dir=workspaces)
        _, history = await run_with_events(engine, RunRequest(file=PAGINATION_TEST))
        details = step_details(history)
        assert not any(
            "as in an earlier run" in details[step]
            for step in ("research", "lint", "typescript", "review")
        )
    assert not (project / ".testmend" / "cache" / "results").exists()


# A fixable rule whose fix changes what runs, as import/no-relative-packages does in a monorepo
# (a relative import rewritten to the package's name, which jest cannot resolve there).


LABEL_ENZYME = """\
import { mount } from 'enzyme';
import { Counter } from './Counter';

it('shows the label', () => {
  const wrapper = mount(<Counter initialCount={1} label="Seats" />);
  expect(wrapper.find('.counter__label').text()).toBe('Seats');
});
"""


async def test_an_eslint_fix_that_breaks_the_tests_is_not_kept(
    tmp_path: Path, example_copy: Path
) -> None:
    """``eslint --fix`` runs on the candidate after its tests did. A fix that changes what runs
    is kept only when the tests still pass on the fixed file: here it would import a package
    that does not exist, so the candidate the tests passed on is the result, with the lint
    message the fix would have silenced, and the run says a person has to look."""
    root = example_copy
    (root / SIMPLE_TEST).write_text(LABEL_ENZYME, encoding="utf-8")
    config = root / "eslint.config.js"
    config.write_text(config.read_text(encoding="utf-8") + PACKAGE_IMPORT_RULE, encoding="utf-8")
    project = commit_all(root, "app")
    workspaces = tmp_path / "workspaces"
    workspaces.mkdir()
    engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces)
    result, history = await run_with_events(engine, RunRequest(file=SIMPLE_TEST))
    assert result.content is not None, result.failure_reason
    assert "from './Counter'" in result.content and "@example/counter" not in result.content
    assert result.summary.tests_passing == result.summary.tests_total == 1
    assert "local/package-import" in [m.rule for m in result.lint_messages]
    assert result.status == "needs_review", result.failure_reason
    assert not any(isinstance(e, EditApplied) and e.source == "eslint --fix" for e in history)


@pytest.mark.intent
async def test_an_intent_check_that_could_not_finish_is_no_acceptance(
    tmp_path: Path, example_copy: Path
) -> None:
    """The intent check's jest run stopped by its time limit (as on a loaded machine) leaves the
    result unchecked: the run says so and a person has to look; it is not accepted as if there
    had been nothing to check."""
    root = example_copy
    (root / SIMPLE_TEST).write_text(LABEL_ENZYME, encoding="utf-8")
    project = commit_all(root, "app")
    workspaces = tmp_path / "workspaces"
    workspaces.mkdir()
    config = make_config(project, fidelity={"timeoutSeconds": 0.01})
    engine = Engine(config, offline=True, workspaces_dir=workspaces)
    result, history = await run_with_events(engine, RunRequest(file=SIMPLE_TEST))
    assert result.summary.tests_passing == result.summary.tests_total == 1
    assert result.status == "needs_review", [
        (e.step, e.detail[:150]) for e in history if isinstance(e, StepFinished)
    ]
    assert (
        "intent not checked: the mutants could not be run: jest did not finish within 0.01 s "
        "and was stopped;" in (result.failure_reason or "") + ";"
    ), result.failure_reason

"""A run killed with SIGKILL mid-way resumes in a new process to the same result."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from testmend.engine import RunResult, RunStore
from tests.support.engine import SIMPLE_ENZYME, SIMPLE_RTL, SIMPLE_TEST
from tests.support.git import git
from tests.support.leftovers import left_behind, slots
from tests.support.replay_server import Replay, serve

REPO = Path(__file__).resolve().parents[2]


def driver(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``tests/engine/driver.py`` (a scripted migration of Seats); ``env``: variables added."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.engine.driver", *args],
        cwd=REPO,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the kill takes jest down too
    )


def kill_before_its_check(process: subprocess.Popen[str]) -> str:
    """SIGKILL a driver's run while the migrate agent works: after its edit, before it runs
    the tests. The run's id."""
    assert process.stdout is not None
    run_id = None
    for line in process.stdout:
        event = json.loads(line)
        run_id = event["run_id"]
        if event["type"] == "tool_called" and event["tool"] == "run_test_file":
            os.killpg(process.pid, signal.SIGKILL)
            break
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert run_id is not None
    return str(run_id)


def test_sigkill_mid_run_then_resume(project: Path, workspaces: Path) -> None:
    run_id = kill_before_its_check(driver(str(project), str(workspaces), "start"))
    store = RunStore(project)
    assert [r.status for r in store.all()] == ["interrupted"]
    # The dead process's warm slot is still there, free: the next run resets it.
    assert slots(workspaces) and left_behind(workspaces) == []

    resumed = driver(str(project), str(workspaces), "resume", run_id)
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err[-3000:]
    lines = out.splitlines()
    result = RunResult.model_validate_json(lines[-1].removeprefix("RESULT "))
    events = [json.loads(line) for line in lines[:-1]]
    steps = [e["step"] for e in events if e["type"] == "step_started"]
    assert steps[0] == "migrate"  # research and planning were not done again
    assert result.status == "succeeded", result.failure_reason
    assert result.content == SIMPLE_RTL  # the same result as a run that was never killed
    assert store.load(run_id).status == "succeeded"
    assert left_behind(workspaces) == []
    assert (project / SIMPLE_TEST).read_text() == SIMPLE_ENZYME
    assert git(project, "status", "--porcelain") == ""


def turn_of(body: dict[str, Any]) -> tuple[str, int]:
    """The agent a request is for and its turn (the model's answers already in it)."""
    agent = body["messages"][0]["content"].split("\n", 1)[0].removeprefix("agent: ")
    return agent, sum(m["role"] == "assistant" for m in body["messages"])


def test_sigkill_mid_agent_resumes_without_repeating_model_calls(
    project: Path, workspaces: Path
) -> None:
    """Killed while the migrate agent waits for its second answer (its edit applied and
    checkpointed): the resumed run asks only that question again, with the same conversation,
    and no answer the dead process already had is paid for twice."""
    replay = Replay("seats_migration.json", hold=lambda body: turn_of(body) == ("migrate", 1))
    with serve(replay) as url:
        process = driver(str(project), str(workspaces), "start", "--endpoint", url)
        assert replay.held.wait(timeout=300), process.communicate()[1][-3000:]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        answered = [turn_of(body) for body in replay.requests[:-1]]
        lost = replay.requests[-1]
        (record,) = RunStore(project).all()
        assert record.status == "interrupted"

        resumed = driver(str(project), str(workspaces), "resume", record.run_id, "--endpoint", url)
        out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err[-3000:]
    result = RunResult.model_validate_json(out.splitlines()[-1].removeprefix("RESULT "))
    assert result.status == "succeeded", result.failure_reason
    assert result.content == SIMPLE_RTL

    assert answered[-1] == ("migrate", 0) and turn_of(lost) == ("migrate", 1)
    after = [turn_of(body) for body in replay.requests[len(answered) + 1 :]]
    # Only the question that had no answer is asked again; then the review, never asked before.
    assert after == [("migrate", 1), ("review", 0)]
    assert not set(after) & set(answered)
    # ... with the conversation as it was: the edit's result is its last message.
    again = replay.requests[len(answered) + 1]
    assert again["messages"][1:] == lost["messages"][1:]
    assert again["messages"][-1]["content"].startswith("edit applied")
    assert result.summary.tokens_used == sum(
        turn["usage"]["total_tokens"]
        for agent in ("research", "planning", "migrate", "review")
        for turn in Replay("seats_migration.json").recording[agent]
    )

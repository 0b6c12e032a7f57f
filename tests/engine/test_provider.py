"""The real langchain-openai client over HTTP, against a local replay of recorded responses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from testmend.engine import Engine, RunRequest
from testmend.workflow.agent.prompts import with_line_numbers
from tests.support.apps import fixture_text
from tests.support.engine import KEY, SIMPLE_RTL, SIMPLE_TEST, provider_config
from tests.support.leftovers import left_behind
from tests.support.replay_server import Replay, serve


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools", [])]


@pytest.mark.parametrize("streaming", [False, True], ids=["json", "sse"])
async def test_migration_through_the_openai_client(
    project: Path, workspaces: Path, streaming: bool
) -> None:
    replay = Replay("seats_migration.json")
    with serve(replay) as url:
        engine = Engine(
            provider_config(project, url, streaming=streaming), workspaces_dir=workspaces
        )
        assert not engine.offline
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            result = await handle.wait()
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    assert result.content == SIMPLE_RTL
    recorded = json.loads(fixture_text("replay/seats_migration.json"))
    expected_tokens = sum(
        turn["usage"]["total_tokens"]
        for agent in ("research", "planning", "migrate", "review")
        for turn in recorded[agent]
    )
    assert result.summary.tokens_used == expected_tokens

    bodies = replay.requests
    # The agent stops once the tests pass: it is not asked for a closing message.
    assert len(bodies) == 7
    assert all(b.get("stream", False) is streaming for b in bodies)
    assert all(h.get("authorization") == f"Bearer {KEY}" for h in replay.headers)
    by_agent = {}
    for body in bodies:
        agent = body["messages"][0]["content"].split("\n", 1)[0]
        by_agent.setdefault(agent, []).append(body)
    assert {b["model"] for b in by_agent["agent: research"]} == {"gpt-4.1-mini"}
    assert {b["model"] for b in by_agent["agent: migrate"]} == {"gpt-4.1"}

    migrate = by_agent["agent: migrate"][-1]
    assert set(tool_names(migrate)) == {
        "glob",
        "grep",
        "read_file",
        "read_files",
        "ls",
        "edit_file",
        "apply_diff",
        "run_test_file",
        "request_scope_reduction",
        "escalate_for_external_help",
    }
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in migrate["tools"]}
    assert schemas["edit_file"]["required"] == ["blocks"]
    assert schemas["run_test_file"].get("properties", {}) == {}  # injected runtime stays hidden
    assert "runtime" not in json.dumps(schemas)
    assert "add_test_plan" in tool_names(by_agent["agent: planning"][0])
    assert "get_dependency_tree" in tool_names(by_agent["agent: research"][0])

    # The research agent read a library's type definitions through the workspace's node_modules.
    answers = {
        m.get("tool_call_id"): m["content"] for m in bodies[1]["messages"] if m["role"] == "tool"
    }
    assert answers["call_r1b"].startswith("node_modules/@types/react/index.d.ts (lines 1-3 of ")
    assert '/// <reference path="global.d.ts" />' in answers["call_r1b"]

    # Every tool call the model made is answered by a tool message with the same id, in order.
    for body in bodies:
        pending: list[str] = []
        for message in body["messages"]:
            if message["role"] == "assistant":
                assert not pending, "a tool call was left without its result"
                pending = [c["id"] for c in message.get("tool_calls") or []]
            elif message["role"] == "tool":
                assert message["tool_call_id"] == pending.pop(0)
        assert not pending
    last = migrate["messages"]
    assert last[-1]["role"] == "tool" and last[-1]["content"].startswith("edit applied")

    # Each call sees the candidate as it is now: the first migrate request shows the codemod's
    # conversion, the second the file as the first one's edit left it, and the edit's answer
    # shows the region it changed.
    first, second = by_agent["agent: migrate"]
    assert with_line_numbers(SIMPLE_RTL) not in first["messages"][0]["content"]
    assert with_line_numbers(SIMPLE_RTL) in second["messages"][0]["content"]
    assert (
        f"({len(SIMPLE_RTL.splitlines())} lines, line-numbered" in second["messages"][0]["content"]
    )
    edited = last[-1]["content"]
    assert "The changed region now reads:" in edited
    region = edited.split("The changed region now reads:")[1]
    assert "13 |     expect(screen.getByTestId('counter-value')).toHaveTextContent('2');" in region


async def test_a_failing_endpoint_falls_back_to_the_deterministic_tier(
    project: Path, workspaces: Path
) -> None:
    """The model fails before it produced a candidate: the run goes on without it and its
    result is the codemod's, marked as such with the fault in one sentence and its fix."""
    replay = Replay("seats_migration.json", fail_with=503)
    with serve(replay) as url:
        engine = Engine(provider_config(project, url, streaming=False), workspaces_dir=workspaces)
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            result = await handle.wait()
    assert result is not None
    assert result.summary.tests_total > 0 and result.summary.tokens_used == 0
    assert result.model_fallback is not None
    assert result.model_fallback.startswith("the model failed (the model endpoint failed 3 times")
    assert "deterministic tier's result" in result.model_fallback
    assert "model.fallback" in result.model_fallback
    assert any(e.type == "tier_changed" for e in handle.history)
    report = Path(result.report_path).read_text(encoding="utf-8")
    assert "- tier: deterministic, because the model failed" in report
    assert len(replay.requests) == 3  # the breaker stopped further calls
    assert KEY not in result.model_dump_json()
    assert left_behind(workspaces) == []


async def test_failing_endpoint_stops_the_run_with_a_clear_message_when_asked(
    project: Path, workspaces: Path
) -> None:
    replay = Replay("seats_migration.json", fail_with=503)
    with serve(replay) as url:
        config = provider_config(project, url, streaming=False, fallback="fail")
        engine = Engine(config, workspaces_dir=workspaces)
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            result = await handle.wait()
            record = engine.store.load(handle.run_id)
    assert result is None
    assert record.status == "failed"
    assert record.failure_reason is not None
    assert "the model endpoint failed 3 times in a row" in record.failure_reason
    assert "resume the run" in record.failure_reason
    assert len(replay.requests) == 3  # the breaker stopped further calls
    assert KEY not in record.model_dump_json()
    assert left_behind(workspaces) == []

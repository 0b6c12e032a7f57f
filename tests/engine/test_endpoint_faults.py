"""A model endpoint that misbehaves on purpose, through the real langchain-openai client: with
``model.fallback: fail`` every fault ends the run `failed` with one message that names it and
what to check, no traceback; by default the run goes on with the deterministic tier, the fault
named the same way; transient faults and garbage answers are retried until the circuit breaker
opens, permanent ones are not retried at all."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import pytest

from testmend.engine import Engine, RunRequest
from testmend.llm.faults import classify
from tests.support.engine import KEY, SIMPLE_TEST, provider_config
from tests.support.leftovers import left_behind
from tests.support.recordings import migrate_through_cli
from tests.support.replay_server import Replay, serve

JSON = "application/json"


def error(message: str, **fields: str) -> bytes:
    return json.dumps({"error": {"message": message, **fields}}).encode()


def completion(**fields: Any) -> bytes:
    return json.dumps({"id": "c1", "object": "chat.completion", "created": 1, **fields}).encode()


FAULTS = {
    # name: (fault, requests the run makes, what the reason says)
    "html page": ((200, "text/html", b"<html>proxy login</html>"), 3, "not a chat completion"),
    "empty choices": (
        (200, JSON, completion(model="m", choices=[], usage={"total_tokens": 1})),
        3,
        "not a chat completion",
    ),
    "no choices": ((200, JSON, completion()), 3, "not a chat completion"),
    "truncated json": ((200, JSON, b'{"id": "c1", "choi'), 3, "not a chat completion"),
    "html 502": ((502, "text/html", b"<html>Bad gateway</html>"), 3, "answered 502"),
    "rate limit": ((429, JSON, error("Rate limit reached")), 3, "rate limited (429"),
    "bad key": (
        (401, JSON, error("Incorrect API key provided")),
        1,
        "refused the API key (401: Incorrect API key provided)",
    ),
    "unknown model": (
        (404, JSON, error("The model `gpt-4.1-mini` does not exist", code="model_not_found")),
        1,
        "does not know the model gpt-4.1-mini",
    ),
    "context length": (
        (
            400,
            JSON,
            error(
                "This model's maximum context length is 8192 tokens. However, you requested "
                "10861 tokens",
                code="context_length_exceeded",
            ),
        ),
        2,  # sent again once with the prompt's parts sized for half the window
        "does not fit the context window of gpt-4.1-mini (400: This model's maximum context "
        "length is 8192 tokens. However, you requested 10861 tokens); set model.contextWindow "
        "for its tier to the model's real window, or use a model with a larger one; a prompt "
        "sized for half the window did not fit either",
    ),
    "bad request": (
        (400, JSON, error("tools are not supported")),
        1,
        "rejected the request (400: tools are not supported)",
    ),
}


async def failed_run(project: Path, workspaces: Path, base_url: str, **model: Any) -> str:
    """Runs a migration against ``base_url`` with ``model.fallback: fail``; returns its failure
    reason (it must fail)."""
    config = provider_config(project, base_url, fallback="fail", **model)
    engine = Engine(config, workspaces_dir=workspaces)
    async with engine:
        handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        result = await handle.wait()
        record = engine.store.load(handle.run_id)
    assert result is None
    assert record.status == "failed", record
    assert record.failure_reason
    assert "Traceback" not in record.failure_reason
    assert KEY not in record.model_dump_json()
    assert left_behind(workspaces) == []
    return record.failure_reason


@pytest.mark.parametrize("name", list(FAULTS))
async def test_an_endpoint_fault_fails_the_run_with_its_name(
    name: str, project: Path, workspaces: Path
) -> None:
    fault, requests, says = FAULTS[name]
    replay = Replay("seats_migration.json", fault=fault)
    with serve(replay) as url:
        reason = await failed_run(project, workspaces, url)
    assert says in reason, reason
    assert len(replay.requests) == requests, reason
    if requests > 1 and name != "context length":  # the breaker opened
        assert reason.startswith(f"the model endpoint failed {requests} times in a row"), reason


async def test_an_endpoint_that_does_not_answer_in_time(project: Path, workspaces: Path) -> None:
    replay = Replay("seats_migration.json", hang=2.0)
    with serve(replay) as url:
        reason = await failed_run(project, workspaces, url, timeoutSeconds=0.3)
    assert "no answer from the endpoint" in reason and "in time" in reason, reason
    assert len(replay.requests) == 3


async def test_an_endpoint_nobody_listens_on(project: Path, workspaces: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    reason = await failed_run(project, workspaces, f"http://127.0.0.1:{port}/v1")
    assert f"cannot reach the endpoint at http://127.0.0.1:{port}/v1" in reason, reason


def test_the_cli_falls_back_to_the_codemod_and_says_why(
    project: Path, workspaces: Path, tmp_path: Path
) -> None:
    """The default ``model.fallback: codemod``: a refused key costs one request, then the
    deterministic tier's result comes, marked with the model's fault and what fixes it."""
    fault = (401, JSON, error("Incorrect API key provided"))
    replay = Replay("seats_migration.json", fault=fault)
    done = migrate_through_cli(
        project, replay, {}, {"OPENAI_API_KEY": KEY, "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    )
    assert "paused" not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr and KEY not in done.stdout + done.stderr
    assert len(replay.requests) == 1
    payload = json.loads(done.stdout)
    (result,) = payload["results"]
    assert result["file"] == SIMPLE_TEST and result["summary"]["tokens_used"] == 0
    fallback = result["model_fallback"]
    assert fallback.startswith("the model failed (the endpoint at http://127.0.0.1:"), fallback
    assert "refused the API key (401: Incorrect API key provided)" in fallback
    assert "model.fallback" in fallback and "testmend doctor" in fallback
    assert "deterministic tier" in fallback
    # Seats' invoke() is left for a person: the codemod's result is not accepted, exit 1.
    assert done.returncode == 1 and not result["accepted"]


def endless_reads(turns: int) -> dict[str, Any]:
    """A research agent that lists the same folder again and again."""

    def turn(index: int) -> dict[str, Any]:
        call = {"name": "ls", "arguments": json.dumps({"path": "src"})}
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": f"call_{index}", "type": "function", "function": call}],
        }
        return {
            "id": f"c{index}",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }

    return {"research": [turn(i) for i in range(turns)]}


async def test_an_agent_that_never_stops_calling_tools(project: Path, workspaces: Path) -> None:
    replay = Replay(endless_reads(200))
    with serve(replay) as url:
        # Recursion limit 4·1·3 + 20 = 32 graph steps.
        settings = provider_config(project, url, retry={"maxTotalAttempts": 1})
        engine = Engine(settings, workspaces_dir=workspaces)
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            assert await handle.wait() is None
            record = engine.store.load(handle.run_id)
    assert record.status == "failed"
    assert record.failure_reason == (
        "the research agent kept calling tools without progress (32 steps without finishing; "
        "the limit follows retry.maxTotalAttempts)"
    )
    assert 10 <= len(replay.requests) <= 20
    # The tokens the failed run spent are on its record (15 per answer).
    assert record.summary is not None
    assert record.summary.tokens_used == 15 * len(replay.requests)
    assert left_behind(workspaces) == []


def test_an_error_of_our_own_is_not_an_endpoint_fault() -> None:
    def tool_of_ours() -> None:
        raise IndexError("list index out of range")

    with pytest.raises(IndexError) as caught:
        tool_of_ours()
    assert classify(caught.value) is None
    assert classify(RuntimeError("no traceback")) is None


async def test_a_prompt_too_long_for_the_model_is_shrunk_once(
    project: Path, workspaces: Path
) -> None:
    fault, _, _ = FAULTS["context length"]
    replay = Replay("seats_migration.json", fault=fault, fault_times=1)
    with serve(replay) as url:
        # A small window: the research context is trimmed, more so in half of it.
        settings = provider_config(project, url, contextWindow={"mini": 4096, "full": 4096})
        engine = Engine(settings, workspaces_dir=workspaces)
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            result = await handle.wait()
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    refused, shrunk = (body["messages"][0]["content"] for body in replay.requests[:2])
    assert refused.startswith("agent: research") and shrunk.startswith("agent: research")
    assert len(shrunk) < len(refused)
    omitted = re.compile(r"\[… (\d+) lines omitted to fit the context budget …\]")
    assert sum(map(int, omitted.findall(shrunk))) > sum(map(int, omitted.findall(refused)))

"""Opt-in LangSmith tracing, against a local stand-in for its API: the run tree arrives with its
names, tags and metadata, and neither a secret nor the user's files unless they opt in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from testmend.engine import Engine, RunRequest
from testmend.llm.tracing import TracingSettings
from tests.support.engine import KEY, SIMPLE_ENZYME, SIMPLE_TEST, provider_config
from tests.support.fake_langsmith import FakeLangSmith, serve_langsmith
from tests.support.replay_server import Replay, serve

LANGSMITH_KEY = "lsv2_canary_0123456789abcdef"
# A line only the user's test file has: it reaches the model, never the traces by default.
CONTENT = "wrapper.find('.counter__label').text()"
assert CONTENT in SIMPLE_ENZYME


async def traced_run(
    project: Path, workspaces: Path, settings: dict[str, Any] | None = None
) -> tuple[FakeLangSmith, str]:
    fake = FakeLangSmith()
    with serve(Replay("seats_migration.json")) as url, serve_langsmith(fake) as langsmith:
        tracing = TracingSettings.from_environ(
            {
                "LANGSMITH_TRACING": "true",
                "LANGSMITH_API_KEY": LANGSMITH_KEY,
                "LANGSMITH_ENDPOINT": langsmith,
                "LANGSMITH_PROJECT": "testmend-tests",
            }
        )
        config = provider_config(project, url, settings=settings)
        engine = Engine(config, workspaces_dir=workspaces, tracing=tracing)
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            result = await handle.wait()
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    return fake, handle.run_id


async def test_the_run_tree_arrives_without_secrets_or_file_contents(
    project: Path, workspaces: Path
) -> None:
    fake, run_id = await traced_run(project, workspaces)
    (root,) = fake.named(f"testmend migrate {SIMPLE_TEST}")
    assert {"testmend", "migrate"} <= set(root["tags"])
    assert root["session_name"] == "testmend-tests"
    metadata = root["extra"]["metadata"]
    assert metadata["testmend_run_id"] == run_id and metadata["file"] == SIMPLE_TEST
    assert metadata["model_migrate"] == "gpt-4.1" and metadata["model_research"] == "gpt-4.1-mini"
    assert root.get("end_time"), "the root run was closed"

    # One run per step's agent, tagged with its step, under the root; model calls below them.
    for step in ("research", "planning", "migrate", "review"):
        (agent,) = fake.named(f"{step} agent")
        assert f"step:{step}" in agent["tags"]
        assert agent["trace_id"] == root["id"]
        assert fake.runs[agent["parent_run_id"]]["name"] == step  # inside its step's node
    models = [r for r in fake.runs.values() if r.get("run_type") == "llm"]
    assert len(models) == 7 and all(r["trace_id"] == root["id"] for r in models)
    tools = {r["name"] for r in fake.runs.values() if r.get("run_type") == "tool"}
    assert {"edit_file", "run_test_file"} <= tools

    sent = b"".join(fake.bodies).decode()
    assert KEY not in sent and LANGSMITH_KEY not in sent  # no secret in any payload
    assert CONTENT not in sent and "getByTestId" not in sent  # no file contents
    assert all(h.get("x-api-key") == LANGSMITH_KEY for h in fake.headers)


async def test_file_contents_are_traced_only_when_asked(project: Path, workspaces: Path) -> None:
    fake, _ = await traced_run(project, workspaces, {"tracing": {"contents": True}})
    sent = b"".join(fake.bodies).decode()
    assert CONTENT in sent  # the prompts, as the model saw them
    assert KEY not in sent and LANGSMITH_KEY not in sent

"""The reviewer through the real langchain-openai client: its finding goes back to migrate, and
the next migrate request carries it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from testmend.engine import Engine, RunRequest
from tests.support.engine import SIMPLE_TEST, provider_config
from tests.support.replay_server import FIXTURES, Replay, serve

FINDING = "'Seats counter shows the label': assert the label is visible, not only present"


def completion(call_id: str, name: str, arguments: dict[str, Any], tokens: int) -> dict[str, Any]:
    """One recorded chat-completions answer: a single tool call."""
    return {
        "id": f"chatcmpl-{call_id}",
        "object": "chat.completion",
        "created": 1763700100,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": tokens, "completion_tokens": 20, "total_tokens": tokens + 20},
    }


def recording() -> dict[str, Any]:
    """seats_migration.json, with a second migrate session (the reviewer's change) and a
    reviewer that sends the result back once, then approves."""
    recorded: dict[str, Any] = json.loads((FIXTURES / "seats_migration.json").read_text())
    blocks = (
        "<<<<<<< SEARCH\n    expect(screen.getByText('Seats')).toBeInTheDocument();\n=======\n"
        "    expect(screen.getByText('Seats')).toBeVisible();\n>>>>>>> REPLACE\n"
    )
    recorded["migrate"] = {
        "sessions": [
            recorded["migrate"],
            [
                completion("call_fix", "edit_file", {"blocks": blocks}, 4600),
                completion("call_run", "run_test_file", {}, 4700),
            ],
        ]
    }
    recorded["review"] = {
        "sessions": [
            [completion("call_r1", "request_changes", {"findings": [FINDING]}, 3900)],
            [completion("call_r2", "approve_migration", {"summary": "label now visible"}, 4000)],
        ]
    }
    return recorded


def agent_of(body: dict[str, Any]) -> str:
    return str(body["messages"][0]["content"]).split("\n", 1)[0].removeprefix("agent: ")


async def test_the_reviewers_finding_reaches_the_next_migrate_request(
    project: Path, workspaces: Path
) -> None:
    replay = Replay(recording())
    with serve(replay) as url:
        engine = Engine(provider_config(project, url), workspaces_dir=workspaces)
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            result = await handle.wait()
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    assert "expect(screen.getByText('Seats')).toBeVisible();" in result.content

    agents = [agent_of(body) for body in replay.requests]
    assert agents == [
        *("research", "research", "planning", "planning", "migrate", "migrate", "review"),
        *("migrate", "migrate", "review"),
    ]
    after_review = replay.requests[agents.index("migrate", agents.index("review"))]
    user_messages = [m["content"] for m in after_review["messages"] if m["role"] == "user"]
    assert any(FINDING in text for text in user_messages)
    # The reviewer may only read and answer: no edit, no command.
    review_tools = {t["function"]["name"] for t in replay.requests[agents.index("review")]["tools"]}
    assert review_tools == {
        *("glob", "grep", "read_file", "read_files", "ls"),
        *("approve_migration", "request_changes"),
    }
    assert result.summary.review == "approved" and result.summary.review_rounds == 1

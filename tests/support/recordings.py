"""Recorded agent conversations for the local chat-completions endpoint (tests/replay_server)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .engine import SIMPLE_TEST
from .replay_server import FIXTURES, Replay, serve


def turn(n: int, content: str | None = None, call: tuple[str, str] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if call is not None:
        name, arguments = call
        function = {"name": name, "arguments": arguments}
        message["tool_calls"] = [{"id": f"call_{n}", "type": "function", "function": function}]
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1763700000 + n,
        "model": "gpt-4.1",
        "choices": [
            {"index": 0, "finish_reason": "tool_calls" if call else "stop", "message": message}
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }


def recording(candidate: str) -> dict[str, Any]:
    """Research and planning as recorded for the honest migration; a migrate agent that writes
    ``candidate``, runs the tests and declares victory (each time it is sent back); a reviewer
    that approves."""
    honest = json.loads((FIXTURES / "seats_migration.json").read_text())
    return {
        "rewrite_text": candidate,
        "research": honest["research"],
        "planning": honest["planning"],
        "migrate": [
            turn(1, call=("edit_file", json.dumps({"blocks": "{{REWRITE_BLOCKS}}"}))),
            turn(2, call=("run_test_file", "{}")),
            turn(3, content="All tests pass now. Done."),
            turn(4, content="Done."),
        ],
        # Lint and type agents that fix nothing (a cheat leaves unused imports or a skip).
        "lint": [turn(5, content="Nothing to fix.")],
        "typescript": [turn(6, content="Nothing to fix.")],
        # A lax reviewer that approves whatever it is shown: the checks must still hold the
        # result back (an agent's approval never passes what the checks failed).
        "review": [
            turn(7, call=("approve_migration", json.dumps({"summary": "Looks good to me."})))
        ],
    }


def migrate_through_cli(
    project: Path, replay: Replay, settings: dict[str, Any], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """``testmend migrate --write --json SIMPLE_TEST`` in ``project``, its model the local
    endpoint replaying ``replay`` (the project's config file gets ``settings`` too)."""
    with serve(replay) as url:
        model = {
            "baseUrl": url,
            "tiers": {"full": "gpt-4.1", "mini": "gpt-4.1-mini"},
            "maxRetries": 0,
        }
        (project / "testmend.config.json").write_text(json.dumps({"model": model, **settings}))
        env = {**env, "COLORS": "false"}
        env.pop("TESTMEND_WORKSPACES_DIR", None)
        return subprocess.run(
            [sys.executable, "-m", "testmend", "migrate", "--write", "--json", SIMPLE_TEST],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )

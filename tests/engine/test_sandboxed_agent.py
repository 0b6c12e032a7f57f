"""A hostile agent, through the real ChatOpenAI client against a local endpoint, writes a test
that tries every way out and runs it with run_test_file. Every attempt fails inside the sandbox,
the agent is told "blocked by the sandbox", the run goes on to its end, nothing of the user's
changes, and neither the secret nor the token ever reaches the model."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from testmend.workspace import default_workspaces_dir
from tests.support.engine import SIMPLE_ENZYME, SIMPLE_TEST
from tests.support.leftovers import foreign_worktrees
from tests.support.recordings import migrate_through_cli, recording
from tests.support.replay_server import Replay
from tests.support.sandbox import (
    NODE_MODULES_ESCAPE,
    SECRET,
    TOKEN,
    Listener,
    hostile_test,
    tree_digest,
)

KEY = "sk-sandbox-canary-99"


def test_a_hostile_agent_stays_in_the_sandbox(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SECRET)
    outside = tmp_path / "outside"
    outside.mkdir()
    listener = Listener()
    before = tree_digest(project)
    replay = Replay(recording(hostile_test(outside, home, listener.port)))
    try:
        env = {**os.environ, "HOME": str(home), "GITHUB_TOKEN": TOKEN, "OPENAI_API_KEY": KEY}
        done = migrate_through_cli(project, replay, {"fidelity": {"intent": False}}, env)
    finally:
        listener.close()
        if NODE_MODULES_ESCAPE.exists():
            NODE_MODULES_ESCAPE.unlink()
            pytest.fail("the test wrote into the user's node_modules")

    assert done.returncode == 1, done.stderr[-3000:]
    (result,) = json.loads(done.stdout)["results"]
    assert result["status"] == "failed" and not result["accepted"], result["reasons"]
    assert result["sandbox"].startswith(("bubblewrap", "landlock")), result["sandbox"]
    # The agent ran its test and was told what the sandbox stopped.
    tool_results = [
        m["content"]
        for body in replay.requests
        for m in body["messages"]
        if m["role"] == "tool" and "writes a file outside the workspace" in str(m["content"])
    ]
    assert tool_results, "the hostile test never ran"
    assert "blocked by the sandbox" in tool_results[-1]
    # Nothing got out.
    sent = json.dumps(replay.requests)
    assert SECRET not in sent and TOKEN not in sent
    after = tree_digest(project)
    del after["testmend.config.json"]  # the test's own
    # The run's warm slot is registered as a worktree of the repository, and nothing else.
    slot = {k for k in after if k.startswith(".git/worktrees/")}
    assert {k: v for k, v in after.items() if k not in slot} == before
    assert foreign_worktrees(project / ".git", default_workspaces_dir()) == []
    assert (project / SIMPLE_TEST).read_text() == SIMPLE_ENZYME
    assert list(outside.iterdir()) == []
    assert listener.connections == 0
    report = Path(result["report_path"]).read_text()
    assert f"- sandbox: {result['sandbox']}" in report
    assert KEY not in report and TOKEN not in report and SECRET not in report

"""The runs work in an engine process of the language server's own (``lsp/engine_host.py``):
when it dies, its runs end with one sentence, the server goes on answering, the next run starts
another engine process, and the dead one's run can be resumed from its record."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.engine import testmend_environ as settings_env
from tests.support.leftovers import left_behind
from tests.support.lsp import EditorClient, command, session, uri_of

PAGINATION = "src/components/Pagination/Pagination.test.tsx"
REPO = Path(__file__).resolve().parents[2]


def engine_process(client: EditorClient) -> int:
    """The language server's child that runs the engines."""
    server = client._server.pid  # type: ignore[union-attr]
    children = Path(f"/proc/{server}/task/{server}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def steps_started(client: EditorClient, run_id: str) -> int:
    return sum(
        1
        for s in client.run_status
        if s["runId"] == run_id and (s["event"] or {}).get("type") == "step_started"
    )


def ended(client: EditorClient, run_id: str) -> bool:
    return any(s["runId"] == run_id and s["done"] for s in client.run_status)


async def test_a_dead_engine_process_ends_its_runs_and_the_next_run_starts_another(
    project: Path, workspaces: Path
) -> None:
    uri = uri_of(project / PAGINATION)
    second = ""
    async with session(project, workspaces) as client:
        client.open(uri, (project / PAGINATION).read_text())
        first = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
        await client.wait_for(lambda: steps_started(client, first) >= 2)
        dead = engine_process(client)
        os.kill(dead, signal.SIGKILL)

        await client.wait_for(lambda: ended(client, first))
        [told] = client.said("the engine process stopped")
        assert "Pagination.test.tsx" in told and "nothing was changed" in told
        assert (project / PAGINATION).read_text() == client.texts[uri]  # nothing applied
        # The server still answers, and the next run works in a new engine process.
        second = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
        assert second and second != first
        assert engine_process(client) != dead
        await client.wait_for(lambda: ended(client, second), timeout=300)
        assert not client.said("the run stopped")

    # The dead process's run is on record as interrupted (resumable), and what it held is gone.
    listed = subprocess.run(
        [sys.executable, "-m", "testmend", "runs", "--json", str(project)],
        env={**os.environ, **settings_env(), "PYTHONPATH": str(REPO / "server")},
        capture_output=True,
        text=True,
        check=True,
    )
    records = {r["run_id"]: r for r in json.loads(listed.stdout)}
    assert records[first]["status"] == "interrupted"
    assert records[second]["status"] in ("succeeded", "needs_review")
    assert left_behind(workspaces) == []

"""Dishonest agents, through the real ChatOpenAI client against a local chat-completions endpoint:
each makes the failing test "pass" by cheating. None may end ``succeeded``, none is written by
``testmend migrate --write``, and each finding names the test it is about."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.engine import CHEATS, SIMPLE_ENZYME, SIMPLE_TEST
from tests.support.recordings import migrate_through_cli, recording
from tests.support.replay_server import Replay

KEY = "sk-dishonest-canary-42"


@pytest.mark.intent
@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_cheating_agent_never_succeeds_and_is_not_written(project: Path, cheat: str) -> None:
    candidate, kind = CHEATS[cheat]
    replay = Replay(recording(candidate))
    env = {**os.environ, "OPENAI_API_KEY": KEY}
    done = migrate_through_cli(project, replay, {"fidelity": {"maxMutants": 6}}, env)
    assert done.returncode == 1, done.stderr[-3000:]
    payload = json.loads(done.stdout)
    (result,) = payload["results"]
    # A skipped test does not pass, so that result fails; the others work but need review.
    expected = "failed" if kind == "test-disabled" else "needs_review"
    assert result["status"] == expected, (result["status"], result["reasons"])
    if expected == "needs_review":  # a lax reviewer approved it: the checks still hold it back
        assert result["summary"]["review"] == "approved"
    assert not result["accepted"]
    assert result["written"].startswith(f"not written: {expected}")
    assert (project / SIMPLE_TEST).read_text() == SIMPLE_ENZYME
    findings = [
        f
        for f in [
            *result["fidelity"]["inventory_findings"],
            *_intent_findings(result["fidelity"]),
        ]
        if f["kind"] == kind
    ]
    assert findings, result["reasons"]
    assert all(f["test"] == "Seats counter increments" for f in findings), findings
    assert any("Seats counter increments" in reason for reason in result["reasons"])
    # The agent was told why: the finding went back to it as failing evidence.
    migrate_requests = [
        b for b in replay.requests if b["messages"][0]["content"].startswith("agent: migrate")
    ]
    assert len(migrate_requests) > 3, "the agent was not sent back with the findings"
    shown = json.dumps(migrate_requests[-1]["messages"])
    assert "Seats counter increments" in shown and ("finding" in shown or "intent" in shown)
    report = Path(result["report_path"]).read_text()
    assert f"**{expected}**" in report and "Seats counter increments" in report
    assert KEY not in report and KEY not in done.stdout + done.stderr


def _intent_findings(fidelity: dict[str, Any]) -> list[dict[str, Any]]:
    """The intent findings as the report's JSON holds them (lost mutants)."""
    intent = fidelity.get("intent") or {}
    found = []
    for outcome in intent.get("outcomes", []):
        if outcome["killed_by_original"] and not outcome["killed_by_candidate"]:
            found.append({"kind": "intent-lost", "test": outcome["killed_by_original"][0]})
    return found

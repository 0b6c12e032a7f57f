"""A test run stopped with SIGTERM (as a CI job's timeout stops it) leaves no service behind:
the session's Postgres cluster and Redis stop and their folders go, as after Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.services  # (it starts Postgres and Redis, in the run it stops)

ROOT = Path(__file__).resolve().parents[1]

WAITING_TEST = """
import json, os, time

def test_waits(postgres_cluster, redis_server):
    pid = int((postgres_cluster.data / "postmaster.pid").read_text().split()[0])
    state = {"postgres": pid, "postgres_dir": str(postgres_cluster.data.parent),
             "redis": redis_server.process.pid, "redis_dir": str(redis_server.base)}
    with open(os.environ["STATE_FILE"] + ".tmp", "w") as out:
        json.dump(state, out)
    os.rename(os.environ["STATE_FILE"] + ".tmp", os.environ["STATE_FILE"])
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # (a zombie of an ended child is not running either)
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ")[-1][:1] != "Z"


def test_a_run_stopped_by_sigterm_stops_its_services(tmp_path: Path) -> None:
    (tmp_path / "test_waiting.py").write_text(WAITING_TEST)
    state_file = tmp_path / "state.json"
    env = {**os.environ, "STATE_FILE": str(state_file), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.support.fixtures",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not state_file.exists():
            assert process.poll() is None, process.communicate()[0].decode()
            assert time.monotonic() < deadline, "the services did not start"
            time.sleep(0.1)
        state = json.loads(state_file.read_text())
        assert _alive(state["postgres"]) and _alive(state["redis"])
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=120)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "KeyboardInterrupt" in output, output
    assert not _alive(state["postgres"]), output
    assert not _alive(state["redis"]), output
    assert not Path(state["postgres_dir"]).exists(), output
    assert not Path(state["redis_dir"]).exists(), output

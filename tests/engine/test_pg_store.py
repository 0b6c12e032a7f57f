"""The shared store (``store.url = postgresql://…``) on a real Postgres: records, events, reports
and LangGraph's checkpoints in the database, seen the same from every checkout of the project,
no secret in any row."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from testmend.engine.models import EngineError, RunResult
from testmend.engine.pg_store import PostgresRunStore, project_key
from testmend.engine.store import RunRecord
from testmend.engine.stores import open_store
from tests.engine.test_cli import CLEAN_ENV, PAGINATION, TESTMEND
from tests.engine.test_crash_resume import driver, kill_before_its_check
from tests.support.engine import SIMPLE_RTL
from tests.support.git import git

ORIGIN = "https://team:hunter2@git.example.com/team/app.git"
SECRET = "sk-test-0123456789abcdef-must-not-leak"


def record(run_id: str, **changes: object) -> RunRecord:
    now = datetime.now(UTC)
    fields: dict[str, object] = {
        "run_id": run_id, "file": "src/a.test.tsx", "mode": "migrate", "status": "running",
        "offline": True, "start_step": "research", "created_at": now, "updated_at": now,
        "pid": os.getpid(), "machine": "",
    }  # fmt: skip
    return RunRecord.model_validate({**fields, **changes})


def with_password(url: str, password: str = "hunter2") -> str:
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{password}@")


def test_records_events_and_texts_are_kept_per_project(postgres_url: str, tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    store = PostgresRunStore(first, with_password(postgres_url))
    other = PostgresRunStore(second, postgres_url)
    store.save(record("20261126-000001-aaaaaa"))
    store.save(record("20261126-000002-bbbbbb", pid=1, machine="another-host"))
    dead = subprocess.Popen(["true"])
    dead.wait()
    store.save(record("20261126-000003-cccccc", pid=dead.pid))
    store.write_text("20261126-000001-aaaaaa", "report.md", "# the report\n")
    statuses = {r.run_id: r.status for r in store.all()}
    assert statuses == {
        "20261126-000001-aaaaaa": "running",  # this process
        "20261126-000002-bbbbbb": "running",  # another machine's: not ours to judge
        "20261126-000003-cccccc": "interrupted",  # this machine's, and its process is gone
    }
    assert other.all() == []  # another project's runs are not these
    assert store.read_text("20261126-000001-aaaaaa", "report.md") == "# the report\n"
    assert store.load("20261126-000002-bbbbbb").machine == "another-host"
    with pytest.raises(KeyError):
        other.load("20261126-000001-aaaaaa")
    assert "hunter2" not in repr(store)
    store.close(), other.close()


def test_an_unreachable_store_is_one_sentence_without_its_password(tmp_path: Path) -> None:
    url = f"postgresql://me:hunter2@/nowhere?host={tmp_path}&port=1"
    with pytest.raises(EngineError) as caught:
        PostgresRunStore(tmp_path, url).all()
    message = str(caught.value)
    assert message.startswith("cannot reach the store postgresql://me:***@/nowhere")
    assert "hunter2" not in message and "\n" not in message


def test_the_project_key_is_the_same_in_every_checkout(project: Path, tmp_path: Path) -> None:
    git(project, "remote", "add", "origin", ORIGIN)
    checkout = tmp_path / "elsewhere" / "checkout"
    git(tmp_path, "clone", "-q", str(project), str(checkout))
    git(checkout, "remote", "set-url", "origin", ORIGIN)
    assert project_key(project) == project_key(checkout)
    assert project_key(project) == "https://team:***@git.example.com/team/app.git"
    assert project_key(project / "src") == project_key(checkout / "src") != project_key(project)


def rows_text(url: str) -> str:
    """Every row of every table of the database, as text."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [t for (t,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()]  # fmt: skip
        return "\n".join(
            str(row) for table in tables for row in conn.execute(f'SELECT * FROM "{table}"')
        )


def test_a_migration_keeps_its_run_in_postgres_and_another_checkout_sees_it(
    project: Path, workspaces: Path, tmp_path: Path, postgres_url: str
) -> None:
    git(project, "remote", "add", "origin", ORIGIN)
    url = with_password(postgres_url)
    env = {**CLEAN_ENV, "TESTMEND_WORKSPACES_DIR": str(workspaces), "TESTMEND_STORE__URL": url,
           "OPENAI_API_KEY": SECRET}  # fmt: skip
    done = subprocess.run(
        [TESTMEND, "migrate", PAGINATION, "--offline", "--json"],
        cwd=project, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    [result] = json.loads(done.stdout)["results"]
    run_id = result["run_id"]
    assert not (project / ".testmend" / "checkpoints.sqlite").exists()  # they are in Postgres

    with psycopg.connect(url, autocommit=True) as conn:
        [(status,)] = conn.execute(
            "SELECT record->>'status' FROM testmend_runs WHERE run_id = %s", (run_id,)
        ).fetchall()
        kinds = [k for (k,) in conn.execute(
            "SELECT event->>'type' FROM testmend_events WHERE run_id = %s ORDER BY seq",
            (run_id,)).fetchall()]  # fmt: skip
        names = {n for (n,) in conn.execute(
            "SELECT name FROM testmend_texts WHERE run_id = %s", (run_id,)).fetchall()}  # fmt: skip
        [(checkpoints,)] = conn.execute(
            "SELECT count(*) FROM checkpoints WHERE thread_id = %s", (run_id,)
        ).fetchall()
    assert status == "succeeded"
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    assert {"report.md", "original.txt"} <= names
    assert checkpoints > 0
    everything = rows_text(url)
    assert SECRET not in everything and "hunter2" not in everything
    assert "hunter2" not in done.stderr + done.stdout

    # Another machine's checkout of the same repository lists the run (the store named by
    # --store this time; without it, that checkout has no runs of its own).
    checkout = tmp_path / "other-machine"
    git(tmp_path, "clone", "-q", str(project), str(checkout))
    git(checkout, "remote", "set-url", "origin", ORIGIN)
    elsewhere = {k: v for k, v in env.items() if k != "TESTMEND_STORE__URL"}
    listed = subprocess.run([TESTMEND, "runs", "--json", "--store", url], cwd=checkout,
                            env=elsewhere, capture_output=True, text=True, timeout=120,
                            check=True)  # fmt: skip
    [seen] = [r for r in json.loads(listed.stdout) if r["run_id"] == run_id]
    assert seen["status"] == "succeeded" and seen["file"] == PAGINATION
    assert open_store(checkout, url).all()[-1].run_id == run_id
    alone = subprocess.run([TESTMEND, "runs", "--json"], cwd=checkout, env=elsewhere,
                           capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    assert json.loads(alone.stdout) == []


def test_a_run_killed_in_one_checkout_resumes_in_another_from_its_postgres_checkpoint(
    project: Path, workspaces: Path, tmp_path: Path, postgres_url: str
) -> None:
    git(project, "remote", "add", "origin", ORIGIN)
    checkout = tmp_path / "second-checkout"
    git(tmp_path, "clone", "-q", str(project), str(checkout))
    git(checkout, "remote", "set-url", "origin", ORIGIN)
    shared = {"TESTMEND_STORE__URL": postgres_url}
    run_id = kill_before_its_check(driver(str(project), str(workspaces), "start", env=shared))
    assert [r.status for r in open_store(checkout, postgres_url).all()] == ["interrupted"]

    resumed = driver(str(checkout), str(workspaces), "resume", run_id, env=shared)
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err[-3000:]
    lines = out.splitlines()
    result = RunResult.model_validate_json(lines[-1].removeprefix("RESULT "))
    steps = [e["step"] for e in map(json.loads, lines[:-1]) if e["type"] == "step_started"]
    assert steps[0] == "migrate"  # research and planning were not done again
    assert result.status == "succeeded" and result.content == SIMPLE_RTL
    assert open_store(project, postgres_url).load(run_id).status == "succeeded"
    assert not (checkout / ".testmend" / "checkpoints.sqlite").exists()

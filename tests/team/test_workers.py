"""Workers on a real Redis and a real Postgres: ``testmend worker`` processes in checkouts of
their own, ``testmend migrate --broker`` from a third, the batch followed and applied, a worker
at another commit, a worker killed mid-task whose task another worker resumes from its
checkpoint (no model call answered before is made again)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

from testmend.engine.pg_store import PostgresRunStore
from testmend.engine.store import RunRecord
from tests.engine.test_cli import CLEAN_ENV, PAGINATION, TESTMEND
from tests.engine.test_crash_resume import turn_of
from tests.engine.test_pg_store import ORIGIN, SECRET, rows_text, with_password
from tests.support.engine import SIMPLE_RTL, SIMPLE_TEST
from tests.support.git import git
from tests.support.redis import RedisServer
from tests.support.replay_server import Replay, serve

COUNTER = "src/components/Counter/Counter.test.tsx"
REVIEWED = "src/components/UserMenu/UserMenu.test.tsx"  # offline: needs review (lint)


def checkout(project: Path, where: Path) -> Path:
    """Another machine's checkout of the project's repository (its node_modules installed)."""
    git(where.parent, "clone", "-q", str(project), str(where))
    git(where, "remote", "set-url", "origin", ORIGIN)
    if not (where / "node_modules").exists():  # the example's is committed as a link
        (where / "node_modules").symlink_to(project / "node_modules")
    return where


class Worker:
    def __init__(self, root: Path, broker: str, env: dict[str, str], log: Path) -> None:
        self.root, self.log = root, log
        self.process = subprocess.Popen(
            [TESTMEND, "worker", "--broker", broker], cwd=root, env=env,
            stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def said(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """As a machine dies: the worker and its pool processes at once."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def workers(*specs: tuple[Path, str, dict[str, str], Path]) -> Iterator[list[Worker]]:
    started = [Worker(*spec) for spec in specs]
    try:
        yield started
    finally:
        for worker in started:
            worker.stop()


def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def run_cli(cwd: Path, env: dict[str, str], *args: str, timeout: float = 600) -> Any:
    return subprocess.run([TESTMEND, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)  # fmt: skip


def model_env(
    workspaces: Path, store: str, endpoint: str, *, limit: int, visibility: int
) -> dict[str, str]:
    """A worker's environment with the model at a replay ``endpoint`` and its key (which no
    message or row may hold), the team's time limit and visibility timeout (seconds)."""
    return {**CLEAN_ENV, "TESTMEND_WORKSPACES_DIR": str(workspaces), "OPENAI_API_KEY": SECRET,
            "TESTMEND_STORE__URL": store, "TESTMEND_MODEL__BASE_URL": endpoint,
            "TESTMEND_MODEL__TIERS": '{"full": "gpt-4.1", "mini": "gpt-4.1-mini"}',
            "TESTMEND_MODEL__STREAMING": "false", "TESTMEND_MODEL__MAX_RETRIES": "0",
            "TESTMEND_TEAM__MAX_RETRIES": "2",
            "TESTMEND_TEAM__TASK_TIME_LIMIT_SECONDS": str(limit),
            "TESTMEND_TEAM__VISIBILITY_TIMEOUT_SECONDS": str(visibility)}  # fmt: skip


def records(store: PostgresRunStore, runs: dict[str, str]) -> dict[str, RunRecord]:
    return {file: store.load(run_id) for file, run_id in runs.items()}


def test_a_batch_runs_each_file_once_on_two_workers_and_apply_writes_the_accepted(
    project: Path, workspaces: Path, tmp_path: Path, postgres_url: str, redis_url: str,
    redis_server: RedisServer,
) -> None:  # fmt: skip
    git(project, "remote", "add", "origin", ORIGIN)
    one, two = checkout(project, tmp_path / "one"), checkout(project, tmp_path / "two")
    behind = checkout(project, tmp_path / "behind")
    git(behind, "commit", "-q", "--allow-empty", "-m", "another commit")
    store_url = with_password(postgres_url)
    env = {**CLEAN_ENV, "TESTMEND_WORKSPACES_DIR": str(workspaces), "OPENAI_API_KEY": SECRET,
           "TESTMEND_STORE__URL": store_url, "TESTMEND_MODEL__OFFLINE": "true"}  # fmt: skip
    files = [COUNTER, PAGINATION, REVIEWED]
    logs = tmp_path / "logs"
    logs.mkdir()
    with workers((behind, redis_url, env, logs / "behind.log")) as [wrong]:
        # Sent twice before a worker at the commit runs: the same tasks, each to run once.
        sent = [run_cli(project, env, "migrate", *files, "--broker", redis_url, "--offline",
                         "--detach", "--json") for _ in range(2)]  # fmt: skip
        for done in sent:
            assert done.returncode == 0, done.stderr[-2000:]
        batch, runs = json.loads(sent[0].stdout)["batch"], json.loads(sent[0].stdout)["runs"]
        assert json.loads(sent[1].stdout)["runs"] == runs and len(set(runs.values())) == 3
        store = PostgresRunStore(project, store_url)
        # The worker at another commit puts each task back, with its reason on the run.
        waiting = wait_for(lambda: [r.waiting for r in records(store, runs).values()
                                    if r.waiting], 120, "a rejection")  # fmt: skip
        assert "rejected it: the task is for commit" in waiting[0]
        assert {r.status for r in records(store, runs).values()} == {"queued"}

        with workers((one, redis_url, env, logs / "one.log"),
                     (two, redis_url, env, logs / "two.log")) as right:  # fmt: skip
            followed = run_cli(project, env, "runs", "--batch", batch, "--json")
            assert followed.returncode == 1, followed.stderr[-3000:]  # one needs review
            result = json.loads(followed.stdout)
            said = [w.said() for w in right]
        assert "running (run" not in wrong.said()

    ended = records(store, runs)
    assert {f: r.status for f, r in ended.items()} == {
        COUNTER: "succeeded", PAGINATION: "succeeded", REVIEWED: "needs_review"}  # fmt: skip
    assert all(r.deliveries == 1 for r in ended.values())  # each file ran once
    assert sum(s.count("running (run ") for s in said) == 3
    assert all("running (run" in s for s in said)  # both workers took tasks
    assert {r["file"] for r in result["results"]} == set(files)
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        finished = conn.execute(
            "SELECT run_id, count(*) FROM testmend_events WHERE event->>'type' = 'run_finished' "
            "GROUP BY run_id").fetchall()  # fmt: skip
    assert sorted(finished) == sorted((run_id, 1) for run_id in runs.values())

    applied = run_cli(project, env, "apply", "--batch", batch)
    assert applied.returncode == 1, applied.stderr  # UserMenu needs review: not written
    assert "wrote 2 of 3 results from batch" in applied.stderr
    changed = git(project, "status", "--porcelain")
    assert f" M {COUNTER}" in changed and f" M {PAGINATION}" in changed and REVIEWED not in changed
    again = run_cli(project, env, "apply", "--accept-review")  # each file's newest result
    assert again.returncode == 0, again.stderr
    assert "already has this result" in again.stderr and f" M {REVIEWED}" in git(
        project, "status", "--porcelain")  # fmt: skip

    # No secret in any message, row or output: the key stays in the workers' environment.
    everything = redis_server.dump(int(redis_url.rsplit("=", 1)[1])) + rows_text(
        postgres_url).encode()  # fmt: skip
    outputs = "".join(said) + followed.stdout + followed.stderr + applied.stderr
    for secret in (SECRET, "hunter2"):
        assert secret.encode() not in everything and secret not in outputs


def test_a_worker_killed_mid_task_another_resumes_it_from_its_checkpoint(
    project: Path, workspaces: Path, tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    git(project, "remote", "add", "origin", ORIGIN)
    one, two = checkout(project, tmp_path / "one"), checkout(project, tmp_path / "two")
    replay = Replay("seats_migration.json", hold=lambda body: turn_of(body) == ("migrate", 1))
    logs = tmp_path / "logs"
    logs.mkdir()
    with serve(replay) as endpoint:
        env = model_env(workspaces, postgres_url, endpoint, limit=100, visibility=110)
        with workers((one, redis_url, env, logs / "one.log"),
                     (two, redis_url, env, logs / "two.log")) as both:  # fmt: skip
            sent = run_cli(project, env, "migrate", SIMPLE_TEST, "--broker", redis_url,
                            "--detach", "--json")  # fmt: skip
            assert sent.returncode == 0, sent.stderr[-2000:]
            batch = json.loads(sent.stdout)["batch"]
            assert replay.held.wait(timeout=300), "the migrate agent's second turn never came"
            [taker] = [w for w in both if "running (run" in w.said()]
            [other] = [w for w in both if w is not taker]
            taker.kill()
            answered = [turn_of(body) for body in replay.requests[:-1]]
            lost = replay.requests[-1]

            followed = run_cli(project, env, "runs", "--batch", batch, "--json")
            assert followed.returncode == 0, followed.stderr[-3000:] + other.said()[-3000:]
            [result] = json.loads(followed.stdout)["results"]
            said = other.said()
    assert result["status"] == "succeeded" and result["content"] == SIMPLE_RTL
    assert "delivery 2" in said  # the task came again, to the worker still alive
    store = PostgresRunStore(project, postgres_url)
    record = store.load(result["run_id"])
    assert record.deliveries == 2 and record.status == "succeeded"
    after = [turn_of(body) for body in replay.requests[len(answered) + 1 :]]
    # Only the question that had no answer is asked again, with the conversation as it was.
    assert after == [("migrate", 1), ("review", 0)]
    assert not set(after) & set(answered)
    assert replay.requests[len(answered) + 1]["messages"][1:] == lost["messages"][1:]
    steps = [e["step"] for e in store.events(record.run_id) if e["type"] == "step_started"]
    assert steps.count("research") == 1 and steps.count("planning") == 1
    applied = run_cli(project, env, "apply", "--batch", batch)
    assert applied.returncode == 0, applied.stderr
    assert (project / SIMPLE_TEST).read_text() == SIMPLE_RTL


def test_a_task_that_keeps_failing_ends_failed_with_its_reason(
    project: Path, workspaces: Path, tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """One task's worker died at each of its deliveries (the store says so): the next worker
    ends its run instead of running it a fourth time. Another's model never answers: the run
    ends at the time limit. Neither is dropped: each ends ``failed`` with why."""
    git(project, "remote", "add", "origin", ORIGIN)
    one = checkout(project, tmp_path / "one")
    with serve(Replay("seats_migration.json", hang=600)) as endpoint:
        env = model_env(workspaces, postgres_url, endpoint, limit=10, visibility=30)
        sent = run_cli(project, env, "migrate", SIMPLE_TEST, COUNTER, "--broker", redis_url,
                       "--detach", "--json")  # fmt: skip
        assert sent.returncode == 0, sent.stderr[-2000:]
        batch, runs = json.loads(sent.stdout)["batch"], json.loads(sent.stdout)["runs"]
        store = PostgresRunStore(project, postgres_url)
        dying = store.load(runs[COUNTER])
        store.save(dying.model_copy(update={"status": "running", "deliveries": 3}))
        with workers((one, redis_url, env, tmp_path / "one.log")):
            followed = run_cli(project, env, "runs", "--batch", batch, "--json")
    assert followed.returncode == 1
    ended = records(store, runs)
    assert {r.status for r in ended.values()} == {"failed"}
    assert ended[COUNTER].failure_reason == (
        "gave up after 3 deliveries: its worker stopped each time (killed, or out of memory)"
    )
    assert ended[SIMPLE_TEST].failure_reason == "took longer than team.taskTimeLimitSeconds (10 s)"
    assert {u["failure_reason"] for u in json.loads(followed.stdout)["unfinished"]} == {
        r.failure_reason for r in ended.values()}  # fmt: skip
    applied = run_cli(project, env, "apply", "--batch", batch)
    assert applied.returncode == 1  # nothing to write, and each file says why
    assert f"{COUNTER}: failed (run {runs[COUNTER]}): gave up after 3 deliveries" in applied.stderr
    assert "wrote 0 of 0 results" in applied.stderr


def test_bad_input_is_one_sentence_each(
    project: Path, tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    env = {**CLEAN_ENV, "TESTMEND_MODEL__OFFLINE": "true"}
    stored = {**env, "TESTMEND_STORE__URL": with_password(postgres_url)}
    nowhere = f"redis+socket://{tmp_path}/nowhere.sock"
    cases = [
        (env, ["migrate", COUNTER, "--broker", redis_url], "a queue's runs are kept in the team's"),
        (stored, ["migrate", COUNTER, "--broker", nowhere], f"cannot reach the broker {nowhere}"),
        (stored, ["migrate", COUNTER, "--broker", redis_url, "--write"], "`testmend apply --batch"),
        (stored, ["migrate", COUNTER, "--broker", redis_url, "--jsonl"], "--json gives the"),
        (stored, ["worker"], "no broker: name one with --broker URL"),
        (env, ["worker", "--broker", redis_url], "a queue's runs are kept in the team's"),
        (stored, ["runs", "--batch", "batch-000000000000"], "no batch 'batch-000000000000'"),
        (stored, ["apply", "--batch", "batch-000000000000"], "no batch 'batch-000000000000'"),
        (env, ["apply"], "name the results to write: --from DIR"),
    ]
    for environ, args, said in cases:
        done = run_cli(project, environ, *args, timeout=120)
        assert done.returncode == 2, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert said in lines[-1] and "Traceback" not in done.stderr, (args, done.stderr)
        assert "hunter2" not in done.stderr
    assert git(project, "status", "--porcelain") == ""

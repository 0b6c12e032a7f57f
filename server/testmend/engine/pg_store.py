"""A team's shared store: runs kept in Postgres (``store.url = postgresql://…``).

Run records, their events and their texts (the report, the original) are rows, keyed by the
project (``project_key``: the repository and the project's folder in it, the same on every
machine's checkout), so that every machine and every face (the command line, the editor's
server, the MCP server) sees the same runs. LangGraph's checkpoints go to the same database
through ``langgraph-checkpoint-postgres`` (its tables made once, ``setup()``), so a run can be
resumed on another machine. The files of ``.testmend/`` are still written on the machine that
runs (a report an editor opens there, the results cache), but what is read comes from here.

Needs ``pip install 'testmend[team]'`` (psycopg 3, langgraph-checkpoint-postgres). The URL's
password is never logged, reported or stored (``config.redact_url``).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
import weakref
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..config import redact_url
from .models import EngineError
from .store import RunRecord, RunStore

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

    from langgraph.checkpoint.base import BaseCheckpointSaver

SCHEMA = """
CREATE TABLE IF NOT EXISTS testmend_runs (
    project text NOT NULL,
    run_id text NOT NULL,
    record jsonb NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (project, run_id)
);
CREATE TABLE IF NOT EXISTS testmend_events (
    project text NOT NULL,
    run_id text NOT NULL,
    seq bigserial,
    at timestamptz NOT NULL,
    event jsonb NOT NULL,
    PRIMARY KEY (project, run_id, seq)
);
CREATE TABLE IF NOT EXISTS testmend_texts (
    project text NOT NULL,
    run_id text NOT NULL,
    name text NOT NULL,
    text text NOT NULL,
    PRIMARY KEY (project, run_id, name)
);
"""

_SETUP_LOCK = 0x7E57_3E4D
"""The advisory lock held while LangGraph's checkpoint tables are set up."""
_READY: set[str] = set()
_READY_LOCK = threading.Lock()


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=False
        )
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def project_key(root: Path) -> str:
    """The project as every checkout of it names it: its repository (the ``origin`` remote,
    without credentials; else the repository folder's name) and its folder in it."""
    top = _git(root, "rev-parse", "--show-toplevel")
    if not top:
        return root.resolve().name
    origin = redact_url(_git(root, "config", "--get", "remote.origin.url"))
    repository = origin or Path(top).name
    inside = root.resolve().relative_to(Path(top).resolve()).as_posix()
    return f"{repository}:{inside}" if inside != "." else repository


class PostgresRunStore(RunStore):
    def __init__(self, project_root: Path, url: str) -> None:
        super().__init__(project_root)
        self.url = url
        self.project = project_key(project_root)
        self._conn: Any = None
        self._lock = threading.Lock()
        _OPEN.add(self)

    def __repr__(self) -> str:
        return f"PostgresRunStore({self.project!r}, {redact_url(self.url)!r})"

    # -- connection ----------------------------------------------------------------------------

    def _connection(self) -> Any:
        if self._conn is not None and not self._conn.closed:
            return self._conn
        try:
            import psycopg
        except ImportError:
            raise EngineError(
                "store.url names Postgres, but psycopg is not installed: "
                "pip install 'testmend[team]'"
            ) from None
        try:
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            where = redact_url(self.url)
            raise EngineError(f"cannot reach the store {where}: {_first_line(exc)}") from None
        with _READY_LOCK:
            if self.url not in _READY:
                # Machines that start at once would race to make the tables: one at a time.
                with self._conn.transaction():
                    self._conn.execute("SELECT pg_advisory_xact_lock(hashtext('testmend_schema'))")
                    self._conn.execute(SCHEMA)
                _READY.add(self.url)
        return self._conn

    def _execute(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            cursor = self._connection().execute(query, params)
            return list(cursor.fetchall()) if cursor.description else []

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- records, events, texts ----------------------------------------------------------------

    def save(self, record: RunRecord) -> None:
        super().save(record)  # the machine's own faces find its runs by their folders
        record = record.model_copy(update={"updated_at": datetime.now(UTC)})
        self._execute(
            "INSERT INTO testmend_runs (project, run_id, record, updated_at) "
            "VALUES (%s, %s, %s, %s) ON CONFLICT (project, run_id) "
            "DO UPDATE SET record = EXCLUDED.record, updated_at = EXCLUDED.updated_at",
            (self.project, record.run_id, record.model_dump_json(), record.updated_at),
        )

    def add(self, record: RunRecord) -> bool:
        """Keep ``record`` unless a run of its id is kept already (a queue's deterministic ids:
        enqueuing twice keeps one); whether it was added."""
        rows = self._execute(
            "INSERT INTO testmend_runs (project, run_id, record, updated_at) "
            "VALUES (%s, %s, %s, %s) ON CONFLICT (project, run_id) DO NOTHING RETURNING run_id",
            (self.project, record.run_id, record.model_dump_json(), datetime.now(UTC)),
        )
        return bool(rows)

    @contextmanager
    def claim(self, run_id: str) -> Iterator[bool]:
        """Hold a run for this process while the block runs: True when no other process (on
        any machine) holds it. A session lock on a connection of its own, so that a process
        that dies lets go of it at once (its connection closes with it)."""
        import psycopg

        key = f"{self.project}#{run_id}"
        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            [(held,)] = conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (key,)
            ).fetchall()
            yield bool(held)

    def load(self, run_id: str) -> RunRecord:
        self.run_dir(run_id)  # a run id, or KeyError
        rows = self._execute(
            "SELECT record FROM testmend_runs WHERE project = %s AND run_id = %s",
            (self.project, run_id),
        )
        if not rows:
            raise KeyError(f"no run {run_id!r} of {self.project} in the store")
        return RunRecord.model_validate(rows[0][0])

    def all(self) -> list[RunRecord]:
        rows = self._execute(
            "SELECT record FROM testmend_runs WHERE project = %s ORDER BY run_id", (self.project,)
        )
        records = []
        for (data,) in rows:
            record = RunRecord.model_validate(data)
            if record.status == "running" and self.died(record):
                record = record.model_copy(update={"status": "interrupted"})
            records.append(record)
        return records

    def append_event(self, run_id: str, event: BaseModel) -> None:
        super().append_event(run_id, event)
        self._execute(
            "INSERT INTO testmend_events (project, run_id, at, event) VALUES (%s, %s, %s, %s)",
            (self.project, run_id, datetime.now(UTC), json.dumps(event.model_dump(mode="json"))),
        )

    def events(self, run_id: str) -> list[dict[str, Any]]:
        """A run's events, in order (what ``events.jsonl`` holds on the machine that ran it)."""
        rows = self._execute(
            "SELECT event FROM testmend_events WHERE project = %s AND run_id = %s ORDER BY seq",
            (self.project, run_id),
        )
        return [row[0] for row in rows]

    def events_after(self, seq: int, run_ids: list[str]) -> list[tuple[int, str, dict[str, Any]]]:
        """The events of these runs kept after ``seq`` (0: all): (seq, run id, event), in
        order (a batch followed from another machine)."""
        rows = self._execute(
            "SELECT seq, run_id, event FROM testmend_events WHERE project = %s AND seq > %s "
            "AND run_id = ANY(%s) ORDER BY seq",
            (self.project, seq, run_ids),
        )
        return [(int(n), str(run), event) for n, run, event in rows]

    def write_text(self, run_id: str, name: str, text: str) -> Path:
        path = super().write_text(run_id, name, text)
        self._execute(
            "INSERT INTO testmend_texts (project, run_id, name, text) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (project, run_id, name) DO UPDATE SET text = EXCLUDED.text",
            (self.project, run_id, name, text),
        )
        return path

    def read_text(self, run_id: str, name: str) -> str | None:
        rows = self._execute(
            "SELECT text FROM testmend_texts WHERE project = %s AND run_id = %s AND name = %s",
            (self.project, run_id, name),
        )
        return rows[0][0] if rows else None

    # -- checkpoints ---------------------------------------------------------------------------

    def checkpointer(self) -> AbstractAsyncContextManager[BaseCheckpointSaver[Any]]:
        return self._postgres_saver()

    @asynccontextmanager
    async def _postgres_saver(self) -> AsyncIterator[BaseCheckpointSaver[Any]]:
        try:
            from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        except ImportError:
            raise EngineError(
                "store.url names Postgres, but langgraph-checkpoint-postgres is not installed: "
                "pip install 'testmend[team]'"
            ) from None
        async with AsyncPostgresSaver.from_conn_string(self.url) as saver:
            # Its migrations: once per database, a no-op after; one machine at a time. Waiting
            # by polling, not in a blocking lock: a migration's CREATE INDEX CONCURRENTLY waits
            # for every open transaction, a blocked lock call's too.
            while not self._execute(f"SELECT pg_try_advisory_lock({_SETUP_LOCK})")[0][0]:
                await asyncio.sleep(0.2)
            try:
                await saver.setup()
            finally:
                self._execute(f"SELECT pg_advisory_unlock({_SETUP_LOCK})")
            yield saver


_OPEN: weakref.WeakSet[PostgresRunStore] = weakref.WeakSet()


def _forget_connections() -> None:
    """In a forked child (a worker's pool process): the parent's connections are the parent's;
    the child opens its own when it needs one."""
    for store in _OPEN:
        store._conn = None
        store._lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_connections)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return redact_url(text[0]) if text else type(exc).__name__

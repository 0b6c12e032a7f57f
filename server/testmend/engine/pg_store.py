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

import json
import subprocess
import threading
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..config import redact_url
from .models import EngineError
from .store import RunRecord, RunStore

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

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
            await saver.setup()  # its migrations: once per database, a no-op after
            yield saver


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return redact_url(text[0]) if text else type(exc).__name__

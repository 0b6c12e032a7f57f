"""Where runs are kept: by default ``.testmend/`` in the project (run records, events, reports as
files, LangGraph's checkpoints in SQLite); with ``store.url`` a team's Postgres
(``pg_store.py``). ``stores.open_store`` gives the one the configuration names; every face
reads runs through it."""

from __future__ import annotations

import json
import os
import re
import socket
import uuid
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from ..layout import state_dir
from ..workflow.state import RunStatus, Step, Summary
from .models import INTERRUPTED

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

EVENTS_FILE = "events.jsonl"
"""Every event of a run, one JSON object per line, in ``.testmend/runs/<id>/``."""
RecordStatus = RunStatus | Literal["interrupted", "queued"]
_RUN_ID = re.compile(r"^[a-z0-9][a-z0-9-]{3,63}$")


class RunRecord(BaseModel):
    run_id: str
    file: str
    mode: Literal["migrate", "fix"]
    status: RecordStatus
    offline: bool
    start_step: Step
    created_at: datetime
    updated_at: datetime
    pid: int
    failure_reason: str | None = None
    summary: Summary | None = None
    question: str | None = None
    """When paused: what the run asks a person."""
    sandbox: str = ""
    """Where its commands ran (see ``RunResult.sandbox``)."""
    taken: list[int] | None = None
    """The hunks of its result a person took (``kept.record_taken``), numbered from 0."""
    hunks_total: int | None = None
    reviewed: bool = False
    """A person went through every hunk of its result (took or rejected each)."""
    outcome_before_taken: str | None = None
    """What the policy decided before a person took only some hunks (the status is then
    ``partial``)."""
    host: bool = False
    """A task the host's model migrates (``Engine.start(..., host=True)``; ``Engine.submit``)."""
    machine: str = ""
    """The host name of the machine whose process ``pid`` is (a shared store has many)."""
    batch: str = ""
    """The batch a queue's run belongs to (``migrate --broker``; ``team/``)."""
    commit: str = ""
    """The commit a queue's run migrates its file at."""
    deliveries: int = 0
    """How many times a worker took the run's task (a dead worker's is delivered again)."""
    waiting: str | None = None
    """Why a queued run is still waiting (a worker at another commit rejected it)."""


class RunStore:
    def __init__(self, project_root: Path):
        self.root = state_dir(project_root)
        self.runs_dir = self.root / "runs"

    def ensure(self) -> None:
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            # testmend's own state never belongs in the user's commits.
            ignore.write_text("*\n", encoding="utf-8")

    @property
    def checkpoints(self) -> Path:
        return self.root / "checkpoints.sqlite"

    def checkpointer(self) -> AbstractAsyncContextManager[BaseCheckpointSaver[Any]]:
        """LangGraph's checkpoints of the runs (an async context: open while the engine is)."""
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        return AsyncSqliteSaver.from_conn_string(str(self.checkpoints))

    def close(self) -> None:
        """Release what the store holds (nothing, for files)."""

    @property
    def results_cache(self) -> Path:
        """The original tests' results kept across runs (``runners/kept.py``)."""
        return self.root / "cache" / "results"

    def new_run_id(self) -> str:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        return f"{stamp}-{uuid.uuid4().hex[:6]}"

    def run_dir(self, run_id: str) -> Path:
        if not _RUN_ID.match(run_id):
            raise KeyError(f"not a run id: {run_id!r}")
        return self.runs_dir / run_id

    def save(self, record: RunRecord) -> None:
        directory = self.run_dir(record.run_id)
        directory.mkdir(parents=True, exist_ok=True)
        record = record.model_copy(update={"updated_at": datetime.now(UTC)})
        tmp = directory / "run.json.tmp"
        tmp.write_text(record.model_dump_json(indent=2), encoding="utf-8")
        tmp.replace(directory / "run.json")

    def load(self, run_id: str) -> RunRecord:
        path = self.run_dir(run_id) / "run.json"
        try:
            return RunRecord.model_validate_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise KeyError(f"no run {run_id!r} in {self.runs_dir}") from None

    def stopped(self) -> list[RunRecord]:
        """The runs to continue after a stop (``resume --all``): those whose process died and
        those a stopped command (Ctrl-C, SIGTERM, SIGHUP) cancelled, the latest of each file
        only (an older run of a file that ran again since is history)."""
        latest: dict[str, RunRecord] = {}
        for record in self.all():
            latest[record.file] = record
        died = [r for r in latest.values() if r.status == "interrupted"]
        stopped = [r for r in latest.values() if r.status == "cancelled"]
        return died + [r for r in stopped if r.failure_reason == INTERRUPTED]

    def all(self) -> list[RunRecord]:
        records: list[RunRecord] = []
        if not self.runs_dir.is_dir():
            return records
        for entry in sorted(self.runs_dir.iterdir()):
            try:
                record = self.load(entry.name)
            except (KeyError, ValueError):
                continue
            if record.status == "running" and self.died(record):
                record = record.model_copy(update={"status": "interrupted"})
            records.append(record)
        return records

    def died(self, record: RunRecord) -> bool:
        """Whether a record's process is gone (only this machine's can be checked)."""
        if record.machine and record.machine != this_machine():
            return False
        return not _alive(record.pid)

    def append_event(self, run_id: str, event: BaseModel) -> None:
        """One line of ``events.jsonl``: the event as JSON with the time it happened (UTC). A
        resumed run appends to the same file."""
        line = json.dumps({"at": datetime.now(UTC).isoformat(), **event.model_dump(mode="json")})
        path = self.run_dir(run_id) / EVENTS_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as stream:
            stream.write(line + "\n")

    def write_text(self, run_id: str, name: str, text: str) -> Path:
        path = self.run_dir(run_id) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        return path


def this_machine() -> str:
    return socket.gethostname()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

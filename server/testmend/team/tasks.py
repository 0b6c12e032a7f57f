"""What a queue's task is: its payload (no secret: the worker's own environment has the model's
key), its deterministic id, the queue of a project, and the Celery app both sides build from
the ``team`` settings.

A task's id is its run's id, a digest of the repository, the commit, the file and the options:
enqueuing the same files at the same commit twice names the same runs, and a worker runs a run
that already ended, or that another worker holds, no second time (``runtime.py``)."""

from __future__ import annotations

import hashlib
import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from ..config import TeamConfig
from ..engine.models import EngineError, StartStep
from ..engine.store import RunRecord

if TYPE_CHECKING:
    from celery import Celery

UNFINISHED = frozenset({"queued", "running", "interrupted"})
"""A queue's run in these states is still the queue's to run; any other has ended."""

TASK_NAME = "testmend.migrate_file"
RESULT_TEXT = "result.json"
"""The text of a queue's run that holds its result, as a ``migrate --json`` row (the migrated
content and the SHA-256 of the text it was migrated from): ``apply --store`` reads it."""


class Options(BaseModel):
    """What a run is asked to do beyond its file (part of its id)."""

    mode: Literal["migrate", "fix"] = "migrate"
    offline: bool = False
    start_step: StartStep | None = None
    instructions: str | None = None


class TaskPayload(BaseModel):
    project: str
    """``pg_store.project_key``: the repository and the project's folder in it."""
    commit: str
    file: str
    """Relative to the project's root."""
    original_sha256: str
    """The SHA-256 of the file's text at ``commit``: a checkout whose file differs is refused."""
    run_id: str
    batch: str
    options: Options = Options()


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def run_id_of(project: str, commit: str, file: str, options: Options) -> str:
    """The run (and task) id of a file at a commit with these options."""
    return "team-" + _digest(project, commit, file, options.model_dump())[:24]


def batch_id_of(project: str, commit: str, files: list[str], options: Options) -> str:
    return "batch-" + _digest(project, commit, sorted(files), options.model_dump())[:12]


def queue_of(project: str) -> str:
    """The queue a project's tasks go to (every worker of the project takes from it)."""
    return "testmend." + _digest(project)[:16]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, timeout=30, check=False
    )


def head_commit(root: Path) -> str | None:
    """The commit the checkout at ``root`` has checked out (None: not a git checkout)."""
    done = _git(root, "rev-parse", "--verify", "HEAD")
    return done.stdout.strip() if done.returncode == 0 else None


def committed_text(root: Path, relative: str, commit: str) -> str | None:
    """A file's text at ``commit`` (None: not in it)."""
    done = _git(root, "show", f"{commit}:./{relative}")
    return done.stdout if done.returncode == 0 else None


def queued_record(payload: TaskPayload) -> RunRecord:
    """The record of a task not taken yet."""
    now = datetime.now(UTC)
    return RunRecord(
        run_id=payload.run_id,
        file=payload.file,
        mode=payload.options.mode,
        status="queued",
        offline=payload.options.offline,
        start_step=payload.options.start_step
        or ("lint" if payload.options.mode == "fix" else "research"),
        created_at=now,
        updated_at=now,
        pid=0,
        batch=payload.batch,
        commit=payload.commit,
    )


def celery_app(broker: str, team: TeamConfig) -> Celery:
    """The Celery app of a broker: late acknowledgement (a task is acknowledged once its run
    ended), a dead worker's task delivered again (``reject_on_worker_lost``; with Redis, after
    the visibility timeout), one task taken at a time per process, JSON messages only."""
    try:
        from celery import Celery
    except ImportError:
        raise EngineError(
            "a broker needs Celery, which is not installed: pip install 'testmend[team]'"
        ) from None
    app = Celery("testmend", broker=broker, set_as_current=False)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,
        # The worker stops a run itself at the limit; this only ends a process that hangs, and
        # before the visibility timeout would hand its task to another worker.
        task_time_limit=(team.task_time_limit_seconds + team.visibility_timeout_seconds) // 2,
        # A dead worker's task is looked for every 10 s (kombu's default: every 100 s), so it
        # runs again within the visibility timeout and 10 s.
        broker_transport_options={
            "visibility_timeout": team.visibility_timeout_seconds,
            "unacked_restore_interval": 10,
            "unacked_restore_throttle": 1,
        },
        broker_connection_retry_on_startup=True,
        broker_connection_timeout=10,
        worker_send_task_events=False,
    )
    return app

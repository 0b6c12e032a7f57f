"""The enqueuing side: a batch's tasks sent (one per file, at the checkout's commit), and the
batch followed in the store until every run ended, from any machine.

A batch is named by its project, commit, files and options (``tasks.batch_id_of``); its list
of runs is kept in the store (``batch.json``, as a text of the batch's id) so that ``runs
--batch`` and ``apply --batch`` find them later. A file whose run ended already (enqueued
before, at the same commit with the same options) is not sent again: its result is the
batch's."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.changes import on_disk, sha256_text
from ..engine.models import EngineError
from ..engine.pg_store import PostgresRunStore
from ..engine.store import RunRecord
from ..workflow.events import RUN_EVENT_ADAPTER, RunEvent
from .tasks import (
    RESULT_TEXT,
    TASK_NAME,
    UNFINISHED,
    Options,
    TaskPayload,
    batch_id_of,
    committed_text,
    head_commit,
    queue_of,
    queued_record,
    run_id_of,
)

BATCH_TEXT = "batch.json"


@dataclass
class Enqueued:
    batch: str
    commit: str
    runs: dict[str, str] = field(default_factory=dict)
    """file → its run's id (sent now, or ended before)."""
    sent: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)
    """(file, why it is not in the batch)."""
    warnings: list[str] = field(default_factory=list)


def enqueue(
    app: Any, store: PostgresRunStore, root: Path, files: list[Path], options: Options
) -> Enqueued:
    """Send a task per file (``app``: ``tasks.celery_app``) for the commit checked out here."""
    commit = head_commit(root)
    if commit is None:
        raise EngineError(
            f"{root} is not in a git checkout: workers take the tasks of a commit they check out"
        )
    store.ensure()
    relatives = sorted(os.path.relpath(f, root) for f in files)
    batch = batch_id_of(store.project, commit, relatives, options)
    found = Enqueued(batch=batch, commit=commit)
    now = on_disk(root)
    for relative in relatives:
        text = committed_text(root, relative, commit)
        if text is None:
            found.refused.append((relative, f"{relative} is not in commit {commit[:12]}: "
                                  "commit it first (workers check out commits)"))  # fmt: skip
            continue
        if now(relative) != text:
            found.warnings.append(
                f"{relative} has changes not committed: the workers migrate it as commit "
                f"{commit[:12]} has it (applying refuses to write over your changes)"
            )
        run_id = run_id_of(store.project, commit, relative, options)
        payload = TaskPayload(project=store.project, commit=commit, file=relative,
                              original_sha256=sha256_text(text), run_id=run_id, batch=batch,
                              options=options)  # fmt: skip
        found.runs[relative] = run_id
        if not store.add(queued_record(payload)) and store.load(run_id).status not in UNFINISHED:
            continue  # it ran to its end already: the batch takes its result
        app.send_task(TASK_NAME, args=[payload.model_dump(mode="json")], task_id=run_id,
                      queue=queue_of(store.project))  # fmt: skip
        found.sent += 1
    manifest = {"commit": commit, "runs": found.runs, "options": options.model_dump()}
    store.write_text(batch, BATCH_TEXT, json.dumps(manifest))
    return found


def batch_runs(store: PostgresRunStore, batch: str) -> dict[str, str]:
    """A batch's runs (file → run id), as it was enqueued; KeyError: no such batch."""
    text = store.read_text(batch, BATCH_TEXT)
    if text is None:
        raise KeyError(f"no batch {batch!r} of {store.project} in the store")
    runs: dict[str, str] = json.loads(text)["runs"]
    return runs


def latest(store: PostgresRunStore, run_ids: list[str]) -> list[RunRecord]:
    """The runs' records as the store has them now, in the order of ``run_ids``."""
    wanted = set(run_ids)
    found = {r.run_id: r for r in store.all() if r.run_id in wanted}
    return [found[run_id] for run_id in run_ids if run_id in found]


def ended(record: RunRecord) -> bool:
    return record.status not in UNFINISHED


async def follow(
    store: PostgresRunStore,
    run_ids: list[str],
    *,
    on_event: Callable[[RunEvent], None],
    on_records: Callable[[list[RunRecord]], None],
    poll_seconds: float = 1.0,
    result_grace_seconds: float = 60.0,
) -> list[RunRecord]:
    """Follow the runs until each ended: their events as they are kept, and their records
    whenever one changed. The records at the end (cancel it to stop following: the runs go
    on, on the workers).

    A run's record ends when its engine finishes, and its worker keeps the result just after:
    an ended run is waited for until its result is kept, or for ``result_grace_seconds`` (a run
    the worker failed, or one cancelled, has none)."""
    last, seen = 0, None
    ended_at: dict[str, float] = {}
    while True:
        for seq, _run, data in store.events_after(last, run_ids):
            last = seq
            on_event(RUN_EVENT_ADAPTER.validate_python(data))
        records = latest(store, run_ids)
        state = [(r.run_id, r.status, r.waiting) for r in records]
        if state != seen:
            seen = state
            on_records(records)
        if len(records) == len(run_ids) and all(map(ended, records)):
            now = time.monotonic()
            for record in records:
                ended_at.setdefault(record.run_id, now)
            if all(
                now - ended_at[r.run_id] >= result_grace_seconds
                or store.read_text(r.run_id, RESULT_TEXT) is not None
                for r in records
            ):
                return records
        await asyncio.sleep(poll_seconds)


def result_rows(store: PostgresRunStore, records: list[RunRecord]) -> list[dict[str, Any]]:
    """The results of the runs that have one, as ``migrate --json`` rows."""
    rows = []
    for record in records:
        text = store.read_text(record.run_id, RESULT_TEXT)
        if text is not None:
            rows.append(json.loads(text))
    return rows

"""A folder (or a selection of files) migrated in one batch: the Enzyme tests under it run through
the engine a few at a time (``maxConcurrentRuns``, within the server's limit of runs), with one
progress for the whole batch (files done / running / left; cancel stops them all) and each result
kept for review as it ends, or applied when the engine accepted it and ``batch.applyAccepted`` is
on. A batch's runs show no progress of their own and pop no message each.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls import uris

from . import actions
from .core import ActiveRun, UserError
from .runs import RunsServer

CMD_MIGRATE_BATCH = "testmend.migrateBatch"
CMD_CANCEL_BATCH = "testmend.cancelBatch"
BATCH_STATUS = "testmend/batchStatus"
"""``{"batchId", "title", "total", "done", "running", "left", "outcomes": {uri: ending},
"finished", "cancelled"}``, after every change of the batch."""
MAX_BATCH_FILES = 2000


@dataclass
class Batch:
    batch_id: str
    title: str
    files: list[str]
    """The test files' URIs, in the order they run."""
    runs: dict[str, ActiveRun] = field(default_factory=dict)
    outcomes: dict[str, str] = field(default_factory=dict)
    """URI → how its run ended (or why it did not start)."""
    cancelled: bool = False
    finished: bool = False
    token: str | None = None
    task: asyncio.Task[None] | None = None

    @property
    def running(self) -> list[ActiveRun]:
        return [run for run in self.runs.values() if not run.ending]

    def payload(self) -> dict[str, Any]:
        return {
            "batchId": self.batch_id,
            "title": self.title,
            "total": len(self.files),
            "done": len(self.outcomes),
            "running": len(self.running),
            "left": len(self.files) - len(self.outcomes) - len(self.running),
            "outcomes": dict(self.outcomes),
            "finished": self.finished,
            "cancelled": self.cancelled,
        }

    def message(self) -> str:
        status = self.payload()
        return f"{status['done']}/{status['total']} done, {status['running']} running, " + (
            f"{status['left']} left"
        )


def _uris_of(args: tuple[Any, ...]) -> list[str]:
    """``[uri]``, ``[uri, …]``, ``[[uri, …]]`` or ``[{"uris": [...]}]``."""
    values: list[Any] = list(args)
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    elif len(values) == 1 and isinstance(values[0], Mapping):
        values = list(values[0].get("uris") or [])
    found = [v for v in values if isinstance(v, str) and v]
    if not found or len(found) != len(values):
        raise UserError(
            "expected the folders or files to migrate, as file URIs", kind="bad batch arguments"
        )
    return found


def _test_files(named: list[str]) -> tuple[list[str], list[str]]:
    """The Enzyme tests under folders and the test files named (URIs), and what was skipped
    (one sentence each). In a worker thread: it walks folders and reads files."""
    from ..project import enzyme_test_files

    found: list[str] = []
    skipped: list[str] = []
    for uri in named:
        path = Path(uris.to_fs_path(uri) or "") if actions.file_path(uri) is not None else None
        if path is None:
            skipped.append(f"{uri}: testmend works on files (file:// URIs)")
        elif path.is_dir():
            found += [uris.from_fs_path(str(f)) or f.as_uri() for f in enzyme_test_files(path)]
        elif path.is_file() and actions.is_js_ts(uri):
            found.append(uri)
        else:
            skipped.append(f"{path.name}: not a JavaScript or TypeScript file or folder")
    return list(dict.fromkeys(found))[:MAX_BATCH_FILES], skipped


class BatchServer(RunsServer):
    def __init__(self, **kwargs: Any) -> None:
        self.batches: dict[str, Batch] = {}
        super().__init__(**kwargs)

    async def cmd_migrate_batch(self, *args: Any) -> dict[str, Any]:
        try:
            named = _uris_of(args)
            files, skipped = await asyncio.to_thread(_test_files, named)
            if not files:
                where = ", ".join(Path(uris.to_fs_path(u) or u).name for u in named)
                raise UserError(f"no Enzyme test under {where}", kind="empty batch")
        except UserError as exc:
            self.refuse(exc)
            return {"batchId": None, "error": str(exc)}
        for reason in skipped:
            self.note(reason)
        first = Path(uris.to_fs_path(named[0]) or named[0]).name
        title = f"Migrating {first}" + (f" and {len(named) - 1} more" if len(named) > 1 else "")
        batch = Batch(f"batch-{uuid.uuid4().hex[:8]}", title, files)
        self.batches[batch.batch_id] = batch
        batch.task = asyncio.create_task(self._run_batch(batch), name=batch.batch_id)
        return {"batchId": batch.batch_id, "files": files}

    def _limit(self) -> int:
        wanted = self.settings.get("maxConcurrentRuns", 2)
        wanted = wanted if isinstance(wanted, int) and not isinstance(wanted, bool) else 2
        return max(1, min(self.max_runs, wanted))

    async def _run_batch(self, batch: Batch) -> None:
        await self._begin_batch_progress(batch)
        waiting = list(batch.files)
        self._batch_changed(batch)
        try:
            while waiting and not batch.cancelled:
                started = False
                while waiting and not batch.cancelled and len(batch.running) < self._limit():
                    if len(self.active) >= self.max_runs:
                        break  # other runs hold the server's slots: wait for one to end
                    uri = waiting.pop(0)
                    try:
                        handle = await self.start_run(
                            "migrate", (uri, None, []), batch=batch.batch_id
                        )
                    except UserError as exc:
                        batch.outcomes[uri] = f"refused: {exc}"
                    else:
                        batch.runs[handle.run_id] = self.active[handle.run_id]
                        started = True
                    self._batch_changed(batch)
                tasks = [run.task for run in batch.running if run.task is not None]
                if tasks:
                    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                elif not started:
                    await asyncio.sleep(0.5)
                self._collect(batch)
            tasks = [run.task for run in batch.runs.values() if run.task is not None]
            await asyncio.gather(*tasks, return_exceptions=True)
            self._collect(batch)
        finally:
            for uri in waiting:
                batch.outcomes.setdefault(uri, "not started (cancelled)")
            batch.finished = True
            self._batch_changed(batch)
            self._end_batch_progress(batch)
            counts: dict[str, int] = {}
            for ending in batch.outcomes.values():
                key = ending.split(":")[0]
                counts[key] = counts.get(key, 0) + 1
            summary = ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
            self.tell(
                f"{batch.title.removeprefix('Migrating ')}: {len(batch.files)} files: {summary}. "
                "The results waiting for review are in the results list."
            )

    def _collect(self, batch: Batch) -> None:
        for run in batch.runs.values():
            if run.ending and run.uri not in batch.outcomes:
                batch.outcomes[run.uri] = run.ending
        self._batch_changed(batch)

    def _batch_changed(self, batch: Batch) -> None:
        self.protocol.notify(BATCH_STATUS, batch.payload())
        if batch.token is not None and not batch.finished:
            total = max(len(batch.files), 1)
            self.work_done_progress.report(
                batch.token,
                types.WorkDoneProgressReport(
                    message=batch.message(),
                    percentage=int(100 * len(batch.outcomes) / total),
                    cancellable=True,
                ),
            )

    async def _begin_batch_progress(self, batch: Batch) -> None:
        batch.token = await self.open_progress(
            f"testmend-{batch.batch_id}", batch.title, f"{len(batch.files)} files"
        )

    def _end_batch_progress(self, batch: Batch) -> None:
        if batch.token is None:
            return
        ending = "cancelled" if batch.cancelled else "done"
        self.work_done_progress.end(
            batch.token, types.WorkDoneProgressEnd(message=f"{ending}: {batch.message()}")
        )
        self.work_done_progress.tokens.pop(batch.token, None)
        batch.token = None

    async def cmd_cancel_batch(self, *args: Any) -> dict[str, Any]:
        batch_id = args[0] if args else next(reversed(self.batches), None)
        if isinstance(batch_id, Mapping):
            batch_id = batch_id.get("batchId")
        batch = self.batches.get(batch_id) if isinstance(batch_id, str) else None
        if batch is None or batch.finished:
            self.tell("no batch in progress", mistake="no batch")
            return {"cancelled": False}
        await self.cancel_batch(batch)
        return {"cancelled": True, "batchId": batch.batch_id}

    async def cancel_batch(self, batch: Batch) -> None:
        """No file of the batch starts any more; its runs are cancelled (their workspaces go)."""
        batch.cancelled = True
        for run in list(batch.running):
            with contextlib.suppress(Exception):
                await run.engine.cancel(run.run_id)
        if batch.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(batch.task), 60)

    async def on_progress_cancel(self, params: types.WorkDoneProgressCancelParams) -> None:
        for batch in list(self.batches.values()):
            if batch.token == params.token:
                await self.cancel_batch(batch)
                return
        await super().on_progress_cancel(params)

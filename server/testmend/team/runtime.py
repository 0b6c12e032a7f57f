"""A worker's side of a task: one ``Runtime`` per pool process, with its own event loop and an
engine kept open between tasks (its warm jest too).

A task is run only on the tree it was made for: the checkout's commit and the file's text must
be the task's, else the task goes back to the queue with the reason kept on its run. A task
runs once: a worker holds its run in the store while it works (``PostgresRunStore.claim``; the
hold ends with the worker's process), a run that ended is not run again, and a run a dead
worker left is resumed from its checkpoint (no model call already answered is made again). A
task that keeps failing (its worker dies, an error) ends ``failed`` with its reason after
``team.maxRetries`` more deliveries."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..config import Config
from ..engine import EngineError, RunRequest, RunResult
from ..engine.changes import sha256_text
from ..engine.engine import Engine
from ..engine.exported import exported
from ..engine.pg_store import PostgresRunStore
from ..engine.store import RunRecord, this_machine
from .tasks import RESULT_TEXT, UNFINISHED, TaskPayload, head_commit, queued_record

log = logging.getLogger("testmend.worker")


@dataclass(frozen=True)
class Outcome:
    """What the task does with its message: ``done`` acknowledges it (the run ended, or it is
    another's to run), ``reject`` puts it back for a worker at the right commit, ``retry``
    sends it again (an error the next delivery may not meet)."""

    action: Literal["done", "reject", "retry"]
    reason: str = ""


class Runtime:
    def __init__(self, config: Config, *, workspaces_dir: Path | None = None) -> None:
        self.config = config
        self.root = config.project_root
        self.workspaces_dir = workspaces_dir
        self._loop: asyncio.AbstractEventLoop | None = None
        self._engines: dict[bool, Engine] = {}
        """By whether the task asked for the deterministic tier only."""

    def run(self, payload: TaskPayload) -> Outcome:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(self.handle(payload))

    def close(self) -> None:
        if self._loop is None:
            return
        for engine in self._engines.values():
            self._loop.run_until_complete(engine.close())
        self._loop.close()
        self._loop, self._engines = None, {}

    async def _opened(self, offline: bool) -> Engine:
        engine = self._engines.get(offline)
        if engine is None:
            engine = self._engines[offline] = Engine(
                self.config, offline=offline, workspaces_dir=self.workspaces_dir
            )
        await engine.open()
        return engine

    async def handle(self, payload: TaskPayload) -> Outcome:
        engine = await self._opened(payload.options.offline)
        store = engine.store
        if not isinstance(store, PostgresRunStore):
            raise EngineError("a worker keeps its runs in a team's store (store.url)")
        if why := self._wrong_tree(payload):
            self._keep_waiting(store, payload, why)
            log.warning("%s: not run here: %s", payload.file, why)
            return Outcome("reject", why)
        with store.claim(payload.run_id) as held:
            if not held:
                log.info("%s: another worker is running it (run %s)", payload.file, payload.run_id)
                return Outcome("done", "held by another worker")
            return await self._run_held(engine, store, payload)

    def _wrong_tree(self, payload: TaskPayload) -> str | None:
        """Why this checkout is not the tree the task was made for (None: it is)."""
        head = head_commit(self.root)
        if head != payload.commit:
            return (
                f"a worker at commit {(head or 'none')[:12]} on {this_machine()} rejected it: "
                f"the task is for commit {payload.commit[:12]}"
            )
        try:
            text = (self.root / payload.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return f"{payload.file} cannot be read on {this_machine()}: {exc}"
        if sha256_text(text) != payload.original_sha256:
            return (
                f"{payload.file} on {this_machine()} differs from commit {payload.commit[:12]} "
                "(changed in that checkout)"
            )
        return None

    def _keep_waiting(self, store: PostgresRunStore, payload: TaskPayload, why: str) -> None:
        with contextlib.suppress(KeyError):
            record = store.load(payload.run_id)
            if record.status == "queued":
                store.save(record.model_copy(update={"waiting": why}))

    async def _run_held(
        self, engine: Engine, store: PostgresRunStore, payload: TaskPayload
    ) -> Outcome:
        try:
            record = store.load(payload.run_id)
        except KeyError:  # the store lost it (or another enqueued it elsewhere): keep it again
            record = queued_record(payload)
        if record.status not in UNFINISHED:
            if store.read_text(record.run_id, RESULT_TEXT) is None:
                # Its worker died after the engine ended the run, before keeping the result.
                try:
                    result = await engine.result(record.run_id)
                except Exception as exc:  # its checkpoint out of reach: the run stays ended
                    log.warning("%s: its result was not kept: %s", payload.file, exc)
                    result = None
                if result is not None:
                    store.write_text(record.run_id, RESULT_TEXT, result_row(result))
            log.info("%s: ended already (%s, run %s)", payload.file, record.status, record.run_id)
            return Outcome("done", f"ended already: {record.status}")
        deliveries = record.deliveries + 1
        limit = self.config.team.max_retries + 1
        if deliveries > limit:
            why = record.waiting or "its worker stopped each time (killed, or out of memory)"
            return self._fail(store, record, f"gave up after {limit} deliveries: {why}")
        record = record.model_copy(update={"deliveries": deliveries, "waiting": None})
        store.save(record)
        log.info("%s: running (run %s, delivery %d)", payload.file, record.run_id, deliveries)
        try:
            result = await self._migrate(engine, record, payload)
        except TimeoutError:
            seconds = self.config.team.task_time_limit_seconds
            return self._fail(
                store, record, f"took longer than team.taskTimeLimitSeconds ({seconds} s)"
            )
        except EngineError as exc:  # a refusal: the next delivery would meet it too
            return self._fail(store, record, str(exc))
        except Exception as exc:
            why = f"delivery {deliveries} failed: {type(exc).__name__}: {exc}"
            log.warning("%s: %s", payload.file, why)
            if deliveries >= limit:
                return self._fail(store, record, f"gave up after {limit} deliveries: {why}")
            latest = store.load(record.run_id)
            store.save(latest.model_copy(update={"status": "queued", "waiting": why}))
            return Outcome("retry", why)
        if result is not None:
            store.write_text(record.run_id, RESULT_TEXT, result_row(result))
            latest = store.load(record.run_id)
            if latest.status in UNFINISHED:  # ended before its worker died, not recorded so
                store.save(latest.model_copy(update={"status": result.status,
                                                     "summary": result.summary}))  # fmt: skip
        log.info("%s: %s (run %s)", payload.file, store.load(record.run_id).status, record.run_id)
        return Outcome("done")

    async def _migrate(
        self, engine: Engine, record: RunRecord, payload: TaskPayload
    ) -> RunResult | None:
        """The run, resumed from its checkpoint when a dead worker left one with steps to go."""
        progress = await engine.progress(record.run_id)
        if progress == "finished":  # its worker died after the graph ended, before the ack
            return await engine.result(record.run_id)
        if progress == "under way":
            handle = await engine.resume(record.run_id)
        else:
            options = payload.options
            request = RunRequest(
                file=payload.file,
                mode=options.mode,
                start_step=options.start_step,
                user_instructions=options.instructions,
            )
            handle = await engine.start(request, queued=record)
        try:
            limit = self.config.team.task_time_limit_seconds
            return await asyncio.wait_for(asyncio.shield(handle.wait()), timeout=limit)
        except TimeoutError:
            await engine.cancel(record.run_id)
            raise

    def give_up(self, payload: TaskPayload, why: str) -> None:
        """End a task's run ``failed`` (when the store can still be reached)."""
        engine = self._engines.get(payload.options.offline)
        if engine is None or not isinstance(engine.store, PostgresRunStore):
            return
        try:
            record = engine.store.load(payload.run_id)
            if record.status in UNFINISHED:
                self._fail(engine.store, record, why)
        except Exception as exc:
            log.warning("%s: not recorded as failed (%s): %s", payload.file, exc, why)

    def _fail(self, store: PostgresRunStore, record: RunRecord, why: str) -> Outcome:
        log.warning("%s: failed: %s", record.file, why)
        latest = store.load(record.run_id)
        store.save(latest.model_copy(update={"status": "failed", "failure_reason": why}))
        return Outcome("done", why)


def result_row(result: RunResult) -> str:
    """A result as ``migrate --json`` gives it (what ``apply`` reads)."""
    row = {**result.model_dump(mode="json", exclude={"original", "content"}), **exported(result)}
    return json.dumps(row)

"""The one API every face (CLI, language server) uses to run migrations.

Start a run, follow its typed events, cancel it, answer it when it pauses, resume it after the
process died, restart it from a step, and fetch its result. Runs work in a shadow workspace and
never write the user's files; checkpoints go to ``.testmend/checkpoints.sqlite`` synchronously
after every step. The parts: the request and result models (``models.py``), the checks before a
run (``prechecks.py``), what a run holds while it runs (``resources.py``), its result
(``results.py``) and the one acceptance policy (``acceptance.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Command

from ..config import Config
from ..llm.factory import ModelFactory, ModelUnavailableError, UsageRecorder, model_factory
from ..llm.tracing import RunTracer, TracingSettings
from ..runners import ProjectRunners
from ..runners.warm import KeptWarmJests
from ..sandbox import SandboxChoice, choose_sandbox
from ..workflow.agent.errors import AgentStalledError
from ..workflow.context import RunDeps
from ..workflow.events import RunEvent, RunStarted, TierChanged
from ..workflow.graph import build_graph, checkpoint_serializer
from ..workflow.state import ExitState, MigrationState, ReviewState, RunStatus, Step
from ..workspace.pool import collect_stale_slots
from ..workspace.shadow import (
    ShadowWorkspaceError,
    collect_stale_workspaces,
    default_workspaces_dir,
)
from .acceptance import Decision, decide
from .endings import Emit, Endings
from .kept import discard
from .models import INTERRUPTED, EngineError, RunHandle, RunRequest, RunResult, StartStep
from .prechecks import prepare, relative_path
from .resources import ResourceSource, RunnersFactory
from .store import RunRecord, this_machine
from .stores import open_store

__all__ = ["Engine", "EngineError", "RunHandle", "RunRequest", "RunResult", "StartStep"]

logger = logging.getLogger(__name__)

TRACE_FLUSH_SECONDS = 10.0
"""How long the end of a traced run waits for its traces to be sent."""


CANCELLED = "cancelled by the user"
DISCARDED = "discarded by the user"


class Engine:
    def __init__(
        self,
        config: Config,
        *,
        models: ModelFactory | Literal["auto"] | None = "auto",
        offline: bool = False,
        workspaces_dir: Path | None = None,
        on_event: Callable[[RunEvent], None] | None = None,
        runners_factory: RunnersFactory | None = None,
        sandbox: SandboxChoice | None = None,
        tracing: TracingSettings | Literal["env"] | None = "env",
    ):
        """``sandbox``: the sandbox to use (default: the best ``config.sandbox`` allows here).
        ``tracing``: where LangSmith traces go (default: as its environment variables say;
        None: off)."""
        self.config = config
        self.project_root = config.project_root
        self.store = open_store(self.project_root, config.store.location)
        self._endings = Endings(self.store, self.project_root, config.fidelity)
        if offline or config.model.offline or models is None:
            self.models: ModelFactory | None = None
        elif models == "auto":
            self.models = model_factory(config.model) if config.model.configured else None
        else:
            self.models = models
        self.workspaces_dir = workspaces_dir
        self.on_event = on_event
        self.runners_factory = runners_factory or (
            lambda config, cwd, sandbox: ProjectRunners(config, cwd=cwd, sandbox=sandbox, warm=True)
        )
        self.sandbox_choice = sandbox
        if tracing == "env":
            tracing = TracingSettings.from_environ(os.environ)
        self.tracer = RunTracer(tracing, contents=config.tracing.contents) if tracing else None
        self.handles: dict[str, RunHandle] = {}
        self._semaphore = asyncio.Semaphore(config.max_concurrent_runs)
        self._stop_reason = CANCELLED
        """What a run cancelled now records: the user cancelled it, or the process stops."""
        self._kept_jests = KeptWarmJests(config.workspace.warm_jest_idle_minutes * 60)
        self._saver_cm: Any = None
        self._saver: BaseCheckpointSaver[Any] | None = None
        self._graph: Any = None

    @property
    def offline(self) -> bool:
        return self.models is None

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> Engine:
        await self.open()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        stopped = kind is not None and issubclass(kind, asyncio.CancelledError | KeyboardInterrupt)
        await self.close(INTERRUPTED if stopped else CANCELLED)

    async def open(self) -> None:
        if self._graph is not None:
            return
        self.store.ensure()
        await asyncio.to_thread(collect_stale_workspaces, self.workspaces_dir)
        await asyncio.to_thread(
            collect_stale_slots, self.workspaces_dir or default_workspaces_dir()
        )
        if self.sandbox_choice is None:
            self.sandbox_choice = await asyncio.to_thread(choose_sandbox, self.config.sandbox)
        self._saver_cm = self.store.checkpointer()
        self._saver = await self._saver_cm.__aenter__()
        self._saver.serde = checkpoint_serializer()
        self._graph = build_graph(self._saver)

    async def close(self, reason: str = CANCELLED) -> None:
        """Cancel what still runs (their workspaces are removed; ``reason`` is recorded), then
        close the database."""
        self._stop_reason = reason
        for handle in list(self.handles.values()):
            if handle.task and not handle.task.done():
                handle.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await handle.task
        await self._kept_jests.aclose()
        if self._saver_cm is not None:
            await self._saver_cm.__aexit__(None, None, None)
        self._saver_cm = self._saver = self._graph = None
        self.store.close()

    def _resources(self) -> ResourceSource:
        assert self.sandbox_choice is not None
        return ResourceSource(
            config=self.config,
            project_root=self.project_root,
            workspaces_dir=self.workspaces_dir,
            sandbox_choice=self.sandbox_choice,
            runners_factory=self.runners_factory,
            results_cache=self.store.results_cache,
            kept_jests=self._kept_jests,
        )

    # -- starting ------------------------------------------------------------------------------

    def _check_sandbox(self, *, host: bool = False) -> None:
        """Refuse a run the sandbox policy forbids (model code and no sandbox; a host's
        submissions are model code)."""
        assert self.sandbox_choice is not None
        if why := self.sandbox_choice.refusal(model_code=host or not self.offline):
            raise EngineError(why)

    def running_file(self, relative: str) -> str | None:
        for handle in self.handles.values():
            if handle.file == relative and handle.task and not handle.task.done():
                return handle.run_id
        return None

    async def start(
        self, request: RunRequest, *, host: bool = False, queued: RunRecord | None = None
    ) -> RunHandle:
        """A run of ``request``. ``host``: a task whose migration the caller's model writes (the
        MCP face): the run converts with the codemod and waits for ``submit``. ``queued``: the
        record a queue made for it before it started (its id, batch, commit and deliveries are
        kept: ``team/``)."""
        await self.open()
        relative = relative_path(self.project_root, request.file)
        if other := self.running_file(relative):
            raise EngineError(f"{relative} is already being migrated (run {other})")
        if host and request.mode != "migrate":
            raise EngineError("only a migration can be a host's task")
        self._check_sandbox(host=host)
        prepared = await prepare(self.project_root, request, relative)
        source = prepared.source
        run_id = queued.run_id if queued is not None else self.store.new_run_id()
        start: Step = request.start_step or ("lint" if request.mode == "fix" else "research")
        state = MigrationState(
            run_id=run_id,
            test_file=relative,
            original_content=source,
            mode=request.mode,
            start_node=start,
            candidate=source if request.mode == "fix" or request.start_step else None,
            user_instructions=request.user_instructions,
            verify_tests=prepared.verify_tests,
            host=host,
        )
        now = datetime.now(UTC)
        record = RunRecord(
            run_id=run_id,
            file=relative,
            mode=request.mode,
            status="running",
            offline=self.offline or host,
            host=host,
            start_step=start,
            created_at=now,
            updated_at=now,
            pid=os.getpid(),
            machine=this_machine(),
        )
        if queued is not None:
            kept = {"batch": queued.batch, "commit": queued.commit, "deliveries": queued.deliveries}
            record = record.model_copy(update=kept)
        self.store.save(record)
        self.store.write_text(run_id, "original.txt", source)
        return self._launch(record, state, source)

    def _launch(self, record: RunRecord, graph_input: Any, original: str) -> RunHandle:
        handle = RunHandle(run_id=record.run_id, file=record.file)
        self.handles[record.run_id] = handle
        handle.task = asyncio.create_task(
            self._execute(handle, record, graph_input, original), name=f"testmend-{record.run_id}"
        )
        handle.task.add_done_callback(lambda _: self._forget(handle))
        return handle

    def _forget(self, handle: RunHandle) -> None:
        """A run that ended (or paused) needs no handle here: a long-lived server would keep
        every one otherwise. Its caller still holds it."""
        if self.handles.get(handle.run_id) is handle:
            del self.handles[handle.run_id]

    # -- running -------------------------------------------------------------------------------

    def _emitter(self, handle: RunHandle) -> Callable[[RunEvent], None]:
        def emit(event: RunEvent) -> None:
            handle.history.append(event)
            try:
                self.store.append_event(handle.run_id, event)
            except OSError as exc:  # a full disk loses the log, not the run
                logger.warning("events.jsonl of %s not written: %s", handle.run_id, exc)
            handle.queue.put_nowait(event)
            if self.on_event is not None:
                self.on_event(event)

        return emit

    async def _execute(
        self, handle: RunHandle, record: RunRecord, graph_input: Any, original: str
    ) -> RunResult | None:
        emit = self._emitter(handle)
        usage = UsageRecorder(budget=self.config.budget)
        config: dict[str, Any] = {"configurable": {"thread_id": record.run_id}}
        traced = self._traced(record)
        config.update({**traced, "callbacks": [usage, *traced.get("callbacks", [])]})
        try:
            # A resumed run's budget counts what it spent before it stopped.
            before = (await self._graph.aget_state(config)).values or {}
            usage.carry(
                sum(before.get("tokens_by_step", {}).values()),
                sum(before.get("cost_by_step", {}).values()),
            )
            async with (
                self._semaphore,
                self._resources().open(record.run_id, record.file, original) as held,
            ):
                handle.sandbox = held.sandbox.describe()
                deps = RunDeps(
                    run_id=record.run_id,
                    config=self.config,
                    workspace_root=held.workspace.root,
                    read_roots=tuple(held.workspace.link_targets),
                    runners=held.runners,
                    run_dir=self.store.run_dir(record.run_id),
                    models=None if record.host else self.models,
                    emit=emit,
                    usage=usage,
                    kept=held.kept_originals,
                )
                emit(
                    RunStarted(
                        run_id=record.run_id,
                        file=record.file,
                        mode=record.mode,
                        offline=self.offline,
                        start_step=record.start_step,
                    )
                )
                while True:
                    try:
                        async for chunk in self._graph.astream(
                            graph_input,
                            config,
                            context=deps,
                            stream_mode="updates",
                            durability="sync",
                        ):
                            if "__interrupt__" in chunk:
                                interrupt = chunk["__interrupt__"][0].value
                                self._endings.paused(handle, record, interrupt, emit)
                                return None
                        break
                    except ModelUnavailableError as exc:
                        if not await self._falls_back(config, deps, exc, emit):
                            raise
                        # On from the last checkpoint: the step the model failed in again.
                        deps, graph_input = replace(deps, models=None), None
            snapshot = await self._graph.aget_state(config)
            state = MigrationState.model_validate(snapshot.values)
            if state.host and state.submission is None and state.exit.status != "failed":
                self._endings.awaiting(handle, record, emit)
                return None
            return self._endings.finished(handle, record, state, emit)
        except asyncio.CancelledError:
            await self._end(handle, record, "cancelled", self._stop_reason, usage, emit)
            raise
        except (ShadowWorkspaceError, ModelUnavailableError, AgentStalledError, EngineError) as exc:
            await self._end(handle, record, "failed", str(exc), usage, emit)
            return None
        except Exception as exc:  # a bug or an unexpected tool failure: keep the run resumable
            await self._end(handle, record, "failed", f"{type(exc).__name__}: {exc}", usage, emit)
            raise
        finally:
            if self.tracer is not None:  # a CLI run's process ends right after
                await asyncio.to_thread(self.tracer.flush, TRACE_FLUSH_SECONDS)

    async def _falls_back(
        self, config: dict[str, Any], deps: RunDeps, fault: ModelUnavailableError, emit: Emit
    ) -> bool:
        """The model failed: go on with the deterministic tier when ``model.fallback`` says so
        and the model produced no candidate yet (a candidate it worked on stays its result),
        the fault kept in the state as one sentence with what fixes it."""
        if deps.models is None or self.config.model.fallback != "codemod":
            return False
        values = (await self._graph.aget_state(config)).values or {}
        if values.get("candidate") is not None and values.get("mode") == "migrate":
            return False
        cause = str(fault).split("; stopping the run")[0]
        reason = (
            f"the model failed ({cause}); this is the deterministic tier's result — check "
            "model.baseUrl, the key and model.tiers (`testmend doctor` tries them), or set "
            "model.fallback to fail"
        )
        await self._graph.aupdate_state(config, {"model_fallback": reason})
        emit(TierChanged(run_id=deps.run_id, message=reason))
        return True

    def _traced(self, record: RunRecord) -> dict[str, Any]:
        """What a run adds to its config when it is traced (name, tags, metadata, tracer)."""
        if self.tracer is None:
            return {}
        return self.tracer.run_config(
            run_id=record.run_id, mode=record.mode, file=record.file, config=self.config
        )

    async def _end(
        self,
        handle: RunHandle,
        record: RunRecord,
        status: RunStatus,
        reason: str,
        usage: UsageRecorder,
        emit: Callable[[RunEvent], None],
    ) -> None:
        checkpointed: dict[str, Any] = {}
        with contextlib.suppress(Exception):
            snapshot = await self._graph.aget_state({"configurable": {"thread_id": record.run_id}})
            checkpointed = snapshot.values or {}
        self._endings.stopped(handle, record, status, reason, usage, checkpointed, emit)

    def decide(self, state: MigrationState) -> Decision:
        """The acceptance policy (see ``acceptance.py``) for this engine's configuration."""
        return decide(state, self.config.fidelity)

    # -- control -------------------------------------------------------------------------------

    async def cancel(self, run_id: str) -> bool:
        """Stop a run (cooperatively: its tools' processes are killed, its workspace given up)."""
        handle = self.handles.get(run_id)
        if handle is None or handle.task is None or handle.task.done():
            return False
        handle.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await handle.task
        return True

    async def resume(self, run_id: str, answer: str | None = None) -> RunHandle:
        """Continue a paused run (with the person's answer) or one whose process died."""
        await self.open()
        record = self.store.load(run_id)
        if record.host:
            raise EngineError(f"run {run_id} is a host's task: a submission continues it")
        if self.running_file(record.file) == run_id:
            raise EngineError(f"run {run_id} is still running")
        snapshot = await self._graph.aget_state({"configurable": {"thread_id": run_id}})
        if not snapshot.values:
            raise EngineError(f"run {run_id} has no checkpoint to resume from")
        state = MigrationState.model_validate(snapshot.values)
        if not snapshot.next:
            raise EngineError(f"run {run_id} has finished ({record.status}); nothing to resume")
        if record.status == "paused" and answer is None:
            raise EngineError(f"run {run_id} is waiting for an answer: {record.question}")
        self._check_sandbox()
        graph_input: Any = Command(resume=answer) if record.status == "paused" else None
        record = record.model_copy(
            update={
                "status": "running",
                "pid": os.getpid(),
                "machine": this_machine(),
                "question": None,
                "waiting": None,
            }
        )
        self.store.save(record)
        return self._launch(record, graph_input, state.original_content)

    async def submit(self, run_id: str, content: str) -> RunHandle:
        """A host task's next submission: the test file as the host's model wrote it, checked
        like every candidate (its tests, lint, types, the inventory and the intent check) and
        decided by the same policy. A task ends taking submissions at ``retry.maxTotalAttempts``."""
        await self.open()
        record = self.store.load(run_id)
        if not record.host:
            raise EngineError(f"run {run_id} is not a host's task (begin_migration starts one)")
        if self.running_file(record.file) == run_id:
            raise EngineError(f"task {run_id} is still checking a submission: wait for it")
        if other := self.running_file(record.file):
            raise EngineError(f"{record.file} is already being migrated (run {other})")
        snapshot = await self._graph.aget_state({"configurable": {"thread_id": run_id}})
        if not snapshot.values:
            raise EngineError(f"task {run_id} has no checkpoint to go on from")
        state = MigrationState.model_validate(snapshot.values)
        if state.research is None or not state.test_plans:
            raise EngineError(f"task {run_id} stopped before its brief was ready: begin again")
        limit = self.config.retry.max_total_attempts
        if state.submissions >= limit:
            raise EngineError(
                f"task {run_id} has had its {limit} submissions (retry.maxTotalAttempts): hand "
                "it to a person with its report, or begin a new task"
            )
        self._check_sandbox(host=True)
        submitted = state.model_copy(
            update={
                "submission": content,
                "submissions": state.submissions + 1,
                "start_node": "migrate",
                "exit": ExitState(),
                "review": ReviewState(),
                "user_choice": None,
            }
        )
        record = record.model_copy(
            update={
                "status": "running",
                "pid": os.getpid(),
                "machine": this_machine(),
                "question": None,
            }
        )
        self.store.save(record)
        return self._launch(record, submitted, state.original_content)

    async def progress(self, run_id: str) -> Literal["none", "under way", "finished"]:
        """How far a run's checkpoints go: none yet, steps still to run, or its graph ended."""
        await self.open()
        snapshot = await self._graph.aget_state({"configurable": {"thread_id": run_id}})
        if not snapshot.values:
            return "none"
        return "under way" if snapshot.next else "finished"

    async def state(self, run_id: str) -> MigrationState | None:
        """A run's state as its last checkpoint has it (None: none yet)."""
        await self.open()
        snapshot = await self._graph.aget_state({"configurable": {"thread_id": run_id}})
        return MigrationState.model_validate(snapshot.values) if snapshot.values else None

    async def continue_stopped(self, run_id: str) -> RunHandle:
        """A run a stop cut short (its process died, or a signal cancelled it) continued: from
        its checkpoint when it has one with steps left, else started again from its file (it
        was cancelled before its first checkpoint, or its graph ended with the cancel)."""
        await self.open()
        record = self.store.load(run_id)
        snapshot = await self._graph.aget_state({"configurable": {"thread_id": run_id}})
        if snapshot.values and snapshot.next:
            return await self.resume(run_id)
        return await self.start(RunRequest(file=record.file, mode=record.mode))

    async def restart_from(self, run_id: str, step: Step) -> RunHandle:
        """A new run that starts from a step of a finished run, with that run's state."""
        await self.open()
        record = self.store.load(run_id)
        snapshot = await self._graph.aget_state({"configurable": {"thread_id": run_id}})
        if not snapshot.values:
            raise EngineError(f"run {run_id} has no checkpoint to restart from")
        self._check_sandbox()
        state = MigrationState.model_validate(snapshot.values)
        new_id = self.store.new_run_id()
        restarted = state.model_copy(
            update={"run_id": new_id, "start_node": step, "exit": ExitState()}
        )
        now = datetime.now(UTC)
        new_record = record.model_copy(
            update={
                "run_id": new_id,
                "status": "running",
                "start_step": step,
                "created_at": now,
                "updated_at": now,
                "pid": os.getpid(),
                "machine": this_machine(),
                "failure_reason": None,
                "summary": None,
            }
        )
        self.store.save(new_record)
        self.store.write_text(new_id, "original.txt", state.original_content)
        return self._launch(new_record, restarted, state.original_content)

    async def result(self, run_id: str) -> RunResult | None:
        await self.open()
        snapshot = await self._graph.aget_state({"configurable": {"thread_id": run_id}})
        if not snapshot.values or snapshot.next:
            return None
        state = MigrationState.model_validate(snapshot.values)
        if state.host and state.submission is None:
            return None  # a host task has no result before its first submission
        record = self.store.load(run_id)
        result = self._endings.result(run_id, state, record.sandbox)
        if record.status == "discarded":
            return result.model_copy(update={"status": "discarded", "reasons": [DISCARDED]})
        return result

    async def discard(self, run_id: str) -> RunRecord:
        """Drop a finished run's result: no face applies or writes it any more (its report
        stays). A run still under way is cancelled first."""
        await self.open()
        record = self.store.load(run_id)
        if self.running_file(record.file) == run_id:
            await self.cancel(run_id)
        return discard(self.project_root, run_id)

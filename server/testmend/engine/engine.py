"""The one API every face (CLI, language server) uses to run migrations.

Start a run, follow its typed events, cancel it, answer it when it pauses, resume it after the
process died, restart it from a step, and fetch its result. Runs work in a shadow workspace and
never write the user's files; checkpoints go to ``.testmend/checkpoints.sqlite`` synchronously
after every step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Command
from pydantic import BaseModel

from ..config import Config
from ..fidelity import FidelityReport
from ..llm.factory import ModelFactory, ModelUnavailableError, UsageRecorder, model_factory
from ..llm.tracing import RunTracer, TracingSettings
from ..patching import unified_diff
from ..project.dependencies import covering_tests, is_test_file
from ..project.testing_library import testing_library_status
from ..runners import ProjectRunners
from ..runners.detect import (
    detect_package_manager,
    install_command,
    needs_node_modules,
    node_modules_dir,
)
from ..runners.kept import KeptResults, ResultCache
from ..runners.warm import KeptWarmJests
from ..sandbox import Sandbox, SandboxChoice, choose_sandbox, sandbox_for
from ..workflow.agent_entry import AgentStalledError
from ..workflow.context import RunDeps
from ..workflow.events import NeedsInput, RunEvent, RunFinished, RunStarted
from ..workflow.graph import build_graph, checkpoint_serializer
from ..workflow.state import ExitState, MigrationState, RunStatus, Step, Summary
from ..workspace.paths import resolve_in_root, to_relative
from ..workspace.pool import acquire_workspace_async, collect_stale_slots
from ..workspace.shadow import (
    ShadowWorkspace,
    ShadowWorkspaceError,
    collect_stale_workspaces,
    default_workspaces_dir,
)
from .acceptance import APPLIED, Decision, decide
from .report import render_report
from .store import RunRecord, RunStore

logger = logging.getLogger(__name__)

StartStep = Literal["lint", "typescript"]
_MAX_FILE_BYTES = 1_000_000
TRACE_FLUSH_SECONDS = 10.0
"""How long the end of a traced run waits for its traces to be sent."""


class EngineError(RuntimeError):
    """A request the engine refuses, with a message for the user."""


class RunRequest(BaseModel):
    file: str
    """Path of the test file, relative to the project root (or absolute inside it)."""
    mode: Literal["migrate", "fix"] = "migrate"
    content: str | None = None
    """The editor's buffer; None reads the file from disk."""
    start_step: StartStep | None = None
    user_instructions: str | None = None


class RunResult(BaseModel):
    run_id: str
    file: str
    status: RunStatus
    original: str
    content: str
    diff: str
    summary: Summary
    failure_reason: str | None = None
    left_to_do: list[str] = []
    report_path: str
    extra_files: dict[str, str | None] = {}
    """Other files the result changes (a re-recorded snapshot); None means delete it."""
    extra_originals: dict[str, str | None] = {}
    """Those files as they were when the run started (None: they did not exist)."""
    reasons: list[str] = []
    """Why the acceptance policy decided ``status``."""
    fidelity: FidelityReport | None = None
    sandbox: str = ""
    """The sandbox the run's commands ran in ("unsandboxed — …" when none)."""

    @property
    def applies(self) -> bool:
        """The engine accepted it: the editor applies it, ``--write`` writes it."""
        return self.status in APPLIED

    @property
    def tests_pass(self) -> bool:
        return (
            self.summary.tests_total > 0 and self.summary.tests_passing == self.summary.tests_total
        )


@dataclass
class RunHandle:
    run_id: str
    file: str
    task: asyncio.Task[RunResult | None] | None = None
    queue: asyncio.Queue[RunEvent | None] = field(default_factory=asyncio.Queue)
    history: list[RunEvent] = field(default_factory=list)
    sandbox: str = ""
    """The sandbox the run's commands ran in (for its report)."""

    async def events(self) -> AsyncIterator[RunEvent]:
        """Events until the run ends or pauses."""
        while True:
            event = await self.queue.get()
            if event is None:
                return
            yield event

    async def wait(self) -> RunResult | None:
        """The result, or None when the run paused for input."""
        assert self.task is not None
        return await self.task


class Engine:
    def __init__(
        self,
        config: Config,
        *,
        models: ModelFactory | Literal["auto"] | None = "auto",
        offline: bool = False,
        workspaces_dir: Path | None = None,
        on_event: Callable[[RunEvent], None] | None = None,
        runners_factory: Callable[[Config, Path, Sandbox], ProjectRunners] | None = None,
        sandbox: SandboxChoice | None = None,
        tracing: TracingSettings | Literal["env"] | None = "env",
    ):
        """``sandbox``: the sandbox to use (default: the best ``config.sandbox`` allows here).
        ``tracing``: where LangSmith traces go (default: as its environment variables say;
        None: off)."""
        self.config = config
        self.project_root = config.project_root
        self.store = RunStore(self.project_root)
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
        self._kept_jests = KeptWarmJests(config.workspace.warm_jest_idle_minutes * 60)
        self._saver_cm: Any = None
        self._saver: AsyncSqliteSaver | None = None
        self._graph: Any = None

    @property
    def offline(self) -> bool:
        return self.models is None

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> Engine:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

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
        self._saver_cm = AsyncSqliteSaver.from_conn_string(str(self.store.checkpoints))
        self._saver = await self._saver_cm.__aenter__()
        self._saver.serde = checkpoint_serializer()
        self._graph = build_graph(self._saver)

    async def close(self) -> None:
        """Cancel what still runs (their workspaces are removed), then close the database."""
        for handle in list(self.handles.values()):
            if handle.task and not handle.task.done():
                handle.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await handle.task
        await self._kept_jests.aclose()
        if self._saver_cm is not None:
            await self._saver_cm.__aexit__(None, None, None)
        self._saver_cm = self._saver = self._graph = None

    # -- starting ------------------------------------------------------------------------------

    def _relative(self, file: str) -> str:
        path = Path(file)
        if path.is_absolute():
            return to_relative(self.project_root, path)
        return to_relative(self.project_root, resolve_in_root(self.project_root, file))

    def _check_node_modules(self) -> None:
        """Refuse at once what every tool run would fail on later."""
        root = self.project_root
        if needs_node_modules(root) and node_modules_dir(root) is None:
            manager, _ = detect_package_manager(root)
            raise EngineError(
                f"{root} has no node_modules: install the project's dependencies "
                f"({install_command(manager)}) first"
            )

    def _check_testing_library(self) -> None:
        """Refuse a migration whose result could not run: every migrated test imports
        Testing Library."""
        status = testing_library_status(self.project_root)
        if not status.ready:
            raise EngineError(f"{status.message()} (in {self.project_root})")

    def _check_sandbox(self) -> None:
        """Refuse a run the sandbox policy forbids (model code and no sandbox)."""
        assert self.sandbox_choice is not None
        if why := self.sandbox_choice.refusal(model_code=not self.offline):
            raise EngineError(why)

    def _sandbox(self, workspace: ShadowWorkspace) -> Sandbox:
        """Writable: the workspace's checkout and its temp dir (a run's own, or a warm slot's)."""
        assert self.sandbox_choice is not None
        return sandbox_for(
            self.config,
            workspace.root,
            writable=[workspace.tree or workspace.root],
            temp_dir=workspace.container / "tmp",
            repo_root=workspace.repo_root,
            choice=self.sandbox_choice,
        )

    def _kept_results(
        self, workspace: ShadowWorkspace, runners: ProjectRunners, enabled: bool
    ) -> KeptResults | None:
        """Where results are kept across runs (a git workspace only: its state is known from
        git): the original test's runs, and eslint's and tsc's results (``enabled``: the
        setting of the one or the other)."""
        if not enabled or workspace.kind != "git-worktree":
            return None
        return KeptResults(
            ResultCache(self.store.results_cache),
            workspace_root=workspace.root,
            tools=runners.identity(),
            linked=workspace.link_targets,
        )

    def _read_source(self, relative: str, content: str | None) -> str:
        if content is not None:
            if len(content.encode("utf-8")) > _MAX_FILE_BYTES:
                raise EngineError(f"{relative} is larger than 1 MB: not a test file to migrate")
            if "\0" in content:
                raise EngineError(f"{relative} is a binary file")
            return content
        path = resolve_in_root(self.project_root, relative)
        if not path.is_file():
            raise EngineError(f"{relative}: no such file in {self.project_root}")
        data = path.read_bytes()
        if len(data) > _MAX_FILE_BYTES:
            raise EngineError(f"{relative} is larger than 1 MB: not a test file to migrate")
        if b"\0" in data:
            raise EngineError(f"{relative} is a binary file")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EngineError(f"{relative} is not UTF-8 text: {exc}") from None

    async def _verify_tests(self, relative: str) -> list[str]:
        """A fix must show it loses no passing test: the file's own tests, or for a source
        file the tests that cover it; a source file no test covers is refused."""
        if is_test_file(relative):
            return [relative]
        found = await asyncio.to_thread(covering_tests, self.project_root, relative)
        if not found:
            raise EngineError(
                f"{relative}: no test covers it (no {Path(relative).stem}.test.* or test "
                "beside it that imports it), so a fix could not be checked: fix it by hand"
            )
        return found

    def running_file(self, relative: str) -> str | None:
        for handle in self.handles.values():
            if handle.file == relative and handle.task and not handle.task.done():
                return handle.run_id
        return None

    async def start(self, request: RunRequest) -> RunHandle:
        await self.open()
        relative = self._relative(request.file)
        if other := self.running_file(relative):
            raise EngineError(f"{relative} is already being migrated (run {other})")
        self._check_node_modules()
        if request.mode == "migrate":
            self._check_testing_library()
        self._check_sandbox()
        source = self._read_source(relative, request.content)
        if request.mode == "migrate" and "enzyme" not in source:
            raise EngineError(f"{relative} does not use Enzyme: nothing to migrate")
        verify_tests = await self._verify_tests(relative) if request.mode == "fix" else []
        run_id = self.store.new_run_id()
        start: Step = request.start_step or ("lint" if request.mode == "fix" else "research")
        state = MigrationState(
            run_id=run_id,
            test_file=relative,
            original_content=source,
            mode=request.mode,
            start_node=start,
            candidate=source if request.mode == "fix" or request.start_step else None,
            user_instructions=request.user_instructions,
            verify_tests=verify_tests,
        )
        now = datetime.now(UTC)
        record = RunRecord(
            run_id=run_id,
            file=relative,
            mode=request.mode,
            status="running",
            offline=self.offline,
            start_step=start,
            created_at=now,
            updated_at=now,
            pid=os.getpid(),
        )
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
            async with self._semaphore:
                workspace = await acquire_workspace_async(
                    self.project_root,
                    run_id=record.run_id,
                    slots=self.config.workspace.warm_slots,
                    overlays={record.file: original},
                    base_dir=self.workspaces_dir,
                )
                sandbox: Sandbox | None = None
                runners: ProjectRunners | None = None
                keep_key: tuple[object, ...] | None = None
                try:
                    sandbox = self._sandbox(workspace)
                    handle.sandbox = sandbox.describe()
                    runners = self.runners_factory(self.config, workspace.root, sandbox)
                    runners.keep_checks_in(
                        self._kept_results(
                            workspace, runners, self.config.workspace.keep_check_results
                        )
                    )
                    if workspace.pooled and self._kept_jests.keeps:
                        keep_key = runners.warm_key()
                    if keep_key is not None:
                        kept = self._kept_jests.take(keep_key)
                        if kept is not None:
                            runners.adopt_warm(kept)
                    deps = RunDeps(
                        run_id=record.run_id,
                        config=self.config,
                        workspace_root=workspace.root,
                        read_roots=tuple(workspace.link_targets),
                        runners=runners,
                        run_dir=self.store.run_dir(record.run_id),
                        models=self.models,
                        emit=emit,
                        usage=usage,
                        kept=self._kept_results(
                            workspace, runners, self.config.workspace.keep_original_results
                        ),
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
                    async for chunk in self._graph.astream(
                        graph_input, config, context=deps, stream_mode="updates", durability="sync"
                    ):
                        if "__interrupt__" in chunk:
                            interrupt = chunk["__interrupt__"][0].value
                            self._paused(handle, record, interrupt, emit)
                            return None
                finally:
                    if runners is not None:
                        # A warm slot's jest stays up for the slot's next run.
                        warm = runners.release_warm() if keep_key is not None else None
                        await runners.aclose()
                        if warm is not None:
                            self._kept_jests.give_back(keep_key, warm)
                    if sandbox is not None:
                        await sandbox.aclose()
                    await asyncio.to_thread(workspace.release)
            snapshot = await self._graph.aget_state(config)
            return self._finished(
                handle, record, MigrationState.model_validate(snapshot.values), emit
            )
        except asyncio.CancelledError:
            await self._end(handle, record, "cancelled", "cancelled by the user", usage, emit)
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
        """A run that ended without a result: recorded, with the tokens it spent — its finished
        steps' (checkpointed, across resumes) and the step's under way (still in ``usage``)."""
        tokens = sum(u.total for u in usage.by_step.values())
        cost = sum(u.cost for u in usage.by_step.values())
        with contextlib.suppress(Exception):
            snapshot = await self._graph.aget_state({"configurable": {"thread_id": record.run_id}})
            tokens += sum((snapshot.values or {}).get("tokens_by_step", {}).values())
            cost += sum((snapshot.values or {}).get("cost_by_step", {}).values())
        summary = Summary(tokens_used=tokens, cost=cost if usage.priced else None)
        self.store.save(
            record.model_copy(
                update={"status": status, "failure_reason": reason, "summary": summary}
            )
        )
        emit(
            RunFinished(run_id=record.run_id, status=status, summary=summary, failure_reason=reason)
        )
        handle.queue.put_nowait(None)

    def _paused(
        self,
        handle: RunHandle,
        record: RunRecord,
        interrupt: dict[str, Any],
        emit: Callable[[RunEvent], None],
    ) -> None:
        question = str(interrupt.get("question", "the run needs an answer"))
        self.store.save(record.model_copy(update={"status": "paused", "question": question}))
        emit(
            NeedsInput(
                run_id=record.run_id,
                question=question,
                report_path=str(interrupt.get("report_path", "")),
                options=list(interrupt.get("options", [])),
            )
        )
        handle.queue.put_nowait(None)

    def _finished(
        self,
        handle: RunHandle,
        record: RunRecord,
        state: MigrationState,
        emit: Callable[[RunEvent], None],
    ) -> RunResult:
        result = self._result_from_state(record.run_id, state, handle.sandbox)
        decision = Decision(result.status, result.reasons)
        report = render_report(
            state, result.diff, decision, self._mutated_sources(state), sandbox=handle.sandbox
        )
        self.store.write_text(record.run_id, "report.md", report)
        self.store.write_text(record.run_id, "result.txt", result.content)
        self.store.save(
            record.model_copy(
                update={
                    "status": result.status,
                    "failure_reason": result.failure_reason,
                    "summary": result.summary,
                    "question": None,
                    "sandbox": handle.sandbox,
                }
            )
        )
        emit(
            RunFinished(
                run_id=record.run_id,
                status=result.status,
                summary=result.summary,
                failure_reason=result.failure_reason,
            )
        )
        handle.queue.put_nowait(None)
        return result

    def _mutated_sources(self, state: MigrationState) -> dict[str, str]:
        """The files whose lost mutants the report shows as diffs."""
        intent = state.fidelity.intent if state.fidelity is not None else None
        sources: dict[str, str] = {}
        for outcome in intent.lost() if intent is not None else []:
            path = outcome.mutant.file
            with contextlib.suppress(OSError, ValueError):
                sources.setdefault(
                    path, resolve_in_root(self.project_root, path).read_text(encoding="utf-8")
                )
        return sources

    def decide(self, state: MigrationState) -> Decision:
        """The acceptance policy (see ``acceptance.py``) for this engine's configuration."""
        return decide(state, self.config.fidelity)

    def _result_from_state(
        self, run_id: str, state: MigrationState, sandbox: str = ""
    ) -> RunResult:
        content = state.candidate if state.candidate is not None else state.original_content
        extra = {
            path: text
            for path, text in state.extra_files.items()
            if text != state.extra_originals.get(path)
        }
        diff = unified_diff(state.original_content, content, state.test_file)
        for path, text in extra.items():
            diff += unified_diff(state.extra_originals.get(path) or "", text or "", path)
        decision = self.decide(state)
        return RunResult(
            run_id=run_id,
            file=state.test_file,
            status=decision.status,
            original=state.original_content,
            content=content,
            diff=diff,
            summary=state.exit.summary,
            failure_reason=decision.summary(),
            left_to_do=state.exit.left_to_do,
            report_path=str(self.store.run_dir(run_id) / "report.md"),
            extra_files=extra,
            extra_originals={path: state.extra_originals.get(path) for path in extra},
            reasons=decision.reasons,
            fidelity=state.fidelity,
            sandbox=sandbox,
        )

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
            update={"status": "running", "pid": os.getpid(), "question": None}
        )
        self.store.save(record)
        return self._launch(record, graph_input, state.original_content)

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
        return self._result_from_state(run_id, state, self.store.load(run_id).sandbox)

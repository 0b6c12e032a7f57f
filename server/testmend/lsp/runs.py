"""Runs: start them (the engine is imported on the first one, off the event loop), follow their
events as progress, ask the person when a run pauses, cancel them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from lsprotocol import types
from pygls import uris

from ..config import ConfigError
from ..layout import find_project_root
from ..workflow.events import NeedsInput, RunEvent, RunFinished, event_line
from ..workspace.paths import PathEscapeError
from . import actions
from .core import ActiveRun, UserError, load_engine
from .engine_host import EngineGone, RemoteHandle
from .progress import RUN_STATUS, ProgressState, status_payload
from .review import ReviewServer

if TYPE_CHECKING:
    from ..engine import RunResult

ANSWERS: dict[str, str] = {
    "Retry with more attempts": "retry",
    "Apply the best partial result": "apply_partial",
    "Discard": "discard",
}

log = logging.getLogger(__name__)


class RunsServer(ReviewServer):
    @staticmethod
    def _run_arguments(args: tuple[Any, ...]) -> tuple[str, int | None, list[Any]]:
        if len(args) == 1 and isinstance(args[0], Mapping):  # {"uri", "version", "diagnostics"}
            named = args[0]
            args = (named.get("uri"), named.get("version"), named.get("diagnostics") or [])
        if not args or not isinstance(args[0], str) or not args[0]:
            raise UserError(
                "expected arguments [uri, version, diagnostics]: the uri is missing",
                kind="no uri",
            )
        uri = args[0]
        version = args[1] if len(args) > 1 else None
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise UserError(
                f"expected a document version (an integer), got {version!r}", kind="bad version"
            )
        diagnostics = args[2] if len(args) > 2 and args[2] is not None else []
        if not isinstance(diagnostics, list):
            raise UserError("expected the diagnostics as a list", kind="bad diagnostics")
        return uri, version, diagnostics

    def _open_document(self, uri: str) -> tuple[str | None, int | None]:
        """The buffer's text and version when the editor has it open; else the engine reads the
        file (and refuses it with the same messages when it is missing, binary or too large)."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None, None
        return document.source, document.version

    @staticmethod
    def _instructions(diagnostics: list[Any]) -> str | None:
        lines = []
        for item in diagnostics[:50]:
            if isinstance(item, Mapping):
                line = item.get("line")
                where = f"line {line + 1}: " if isinstance(line, int) else ""
                source = item.get("source") or "?"
                lines.append(f"- {where}[{source}] {item.get('message', '')}")
            elif isinstance(item, str):
                lines.append(f"- {item}")
        if not lines:
            return None
        return "The editor reports these problems:\n" + "\n".join(lines)

    async def start_run(
        self, mode: Literal["migrate", "fix"], args: tuple[Any, ...], *, batch: str | None = None
    ) -> RemoteHandle:
        uri, _version, diagnostics = self._run_arguments(args)
        fs_path = uris.to_fs_path(uri) if actions.file_path(uri) is not None else None
        if not fs_path:
            raise UserError(f"testmend works on files (file:// URIs), not {uri}", kind="not a file")
        if not actions.is_js_ts(uri):
            raise UserError(f"{Path(fs_path).name} is not a JavaScript or TypeScript file")
        for run in self.active.values():
            if run.uri == uri:
                raise UserError(
                    f"{Path(fs_path).name} already has a run in progress ({run.run_id}): "
                    "wait for it or cancel it"
                )
        if len(self.active) >= self.max_runs:
            raise UserError(
                f"{len(self.active)} runs are in progress (the limit): wait for one to finish"
            )
        text, version = self._open_document(uri)
        path = Path(fs_path)
        path = path.parent.resolve() / path.name
        root = find_project_root(path)
        if not (root / "package.json").is_file():
            raise UserError(f"{path.name}: no package.json above it: not in a JavaScript project")
        try:
            settings = await self.settings_for(uri, root)
            api = await load_engine()
            engine = self._engine_for(root, settings)
            await self._close_retired()
        except ConfigError as exc:
            raise UserError(f"bad setting: {exc}") from None
        request = api.RunRequest(
            file=str(path),
            mode=mode,
            content=text,
            user_instructions=self._instructions(diagnostics) if mode == "fix" else None,
        )
        try:
            handle = await engine.start(request)
        except (api.EngineError, EngineGone, PathEscapeError, ValueError) as exc:
            raise UserError(str(exc)) from None
        run = ActiveRun(handle.run_id, uri, version, mode, engine, handle, batch=batch)
        self.active[run.run_id] = run
        if engine.offline:
            self.note(f"{path.name}: no model configured: the deterministic tier runs alone")
        run.task = asyncio.create_task(self._follow(run), name=f"lsp-{run.run_id}")
        return handle

    async def _command_start(
        self, mode: Literal["migrate", "fix"], args: tuple[Any, ...]
    ) -> dict[str, Any]:
        try:
            handle = await self.start_run(mode, args)
        except UserError as exc:
            self.refuse(exc)
            return {"runId": None, "error": str(exc)}
        return {"runId": handle.run_id, "file": handle.file}

    async def cmd_migrate(self, *args: Any) -> dict[str, Any]:
        return await self._command_start("migrate", args)

    async def cmd_fix(self, *args: Any) -> dict[str, Any]:
        return await self._command_start("fix", args)

    # -- following runs --------------------------------------------------------------------------

    def _supports_progress(self) -> bool:
        window = self.client_capabilities.window
        return bool(window and window.work_done_progress)

    async def open_progress(self, token: str, title: str, message: str) -> str | None:
        """A cancellable work-done progress (its token), or None when the client has none (it
        is told in the log)."""
        if not self._supports_progress():
            self.note(f"{title}: {message}")
            return None
        try:
            await asyncio.wait_for(self.work_done_progress.create_async(token), 10)
        except Exception as exc:
            self.note(f"no progress bar ({exc}); following {title} in the log")
            return None
        self.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title=title, cancellable=True, message=message, percentage=0
            ),
        )
        return token

    async def _begin_progress(self, run: ActiveRun, state: ProgressState) -> None:
        run.token = await self.open_progress(
            f"testmend-{run.run_id}", state.title, f"starting (run {run.run_id})"
        )

    def _end_progress(self, run: ActiveRun, state: ProgressState, message: str) -> None:
        state.step, state.last_tool = message, ""
        self.protocol.notify(
            RUN_STATUS, status_payload(run.run_id, run.uri, state, None, run.batch)
        )
        if run.token is None:
            self.note(message)
            return
        self.work_done_progress.end(run.token, types.WorkDoneProgressEnd(message=message))
        self.work_done_progress.tokens.pop(run.token, None)
        run.token = None

    def _on_event(self, run: ActiveRun, state: ProgressState, event: RunEvent) -> None:
        changed = state.update(event)
        self.protocol.notify(
            RUN_STATUS, status_payload(run.run_id, run.uri, state, event, run.batch)
        )
        line = event_line(event)
        if run.token is not None:
            if changed:
                self.work_done_progress.report(run.token, state.report())
            if line is not None:  # the editor shows progress; testmend's own log keeps the line
                log.info("%s: %s", Path(run.handle.file).name, line)
        elif line is not None:
            self.note(f"{Path(run.handle.file).name}: {line}")

    async def _ask(self, run: ActiveRun, event: NeedsInput) -> str | None:
        request = types.ShowMessageRequestParams(
            type=types.MessageType.Warning,
            message=f"testmend: {event.question} (report: {event.report_path})",
            actions=[types.MessageActionItem(title=title) for title in ANSWERS],
        )
        try:
            chosen = await self.window_show_message_request_async(request)
        except Exception as exc:
            self.note(f"could not ask ({exc})")
            return None
        return ANSWERS.get(chosen.title) if chosen is not None else None

    async def _follow(self, run: ActiveRun) -> None:
        name = Path(run.handle.file).name
        title = f"{'Migrating' if run.mode == 'migrate' else 'Fixing'} {name}"
        state = ProgressState(title=title)
        if run.batch is None:  # a batch's runs share the batch's progress
            await self._begin_progress(run, state)
        result: RunResult | None = None
        ending = "failed"
        try:
            while True:
                last: RunEvent | None = None
                async for event in run.handle.events():
                    last = event
                    self._on_event(run, state, event)
                try:
                    result = await run.handle.wait()
                except asyncio.CancelledError:
                    task = asyncio.current_task()
                    if task is not None and task.cancelling():
                        raise
                    ending = "cancelled"
                    break
                if result is not None or not isinstance(last, NeedsInput):
                    if isinstance(last, RunFinished):
                        ending = last.status.replace("_", " ")
                        if result is None and last.failure_reason:
                            self.tell(f"{name}: {last.failure_reason}", types.MessageType.Error)
                    break
                answer = await self._ask(run, last)
                if answer is None:
                    self.tell(
                        f"{name}: the run is paused: resume it with `testmend resume "
                        f"{run.run_id}` ({last.report_path})",
                        types.MessageType.Warning,
                    )
                    ending = "paused"
                    break
                run.handle = await run.engine.resume(run.run_id, answer)
        except asyncio.CancelledError:
            ending = "cancelled"
            raise
        except EngineGone as exc:
            self.tell(
                f"{name}: {exc}, and the run with it; nothing was changed (the next run starts "
                f"another; `testmend resume {run.run_id}` takes this one up)",
                types.MessageType.Error,
            )
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
            self.tell(f"{name}: the run stopped: {problem}", types.MessageType.Error)
        finally:
            run.ending = ending
            self._end_progress(run, state, ending)
            self.active.pop(run.run_id, None)
            await self._close_retired()
        if result is not None:
            await self.deliver(run, result)

    async def _close_retired(self) -> None:
        """Close the engines that settings changes retired, once no run uses them (each holds
        a SQLite connection)."""
        busy = {id(run.engine) for run in self.active.values()}
        for slot in self.engines.values():
            for engine in [e for e in slot.retired if id(e) not in busy]:
                slot.retired.remove(engine)
                with contextlib.suppress(Exception):
                    await engine.close()

    async def cmd_cancel(self, *args: Any) -> dict[str, Any]:
        try:
            run_id = self._run_id_argument(args, self.active)
        except UserError as exc:
            self.refuse(exc)
            return {"cancelled": False, "error": str(exc)}
        if run_id is None:
            self.tell("no run in progress", mistake="no run")
            return {"cancelled": False}
        cancelled = await self.cancel_run(run_id)
        return {"cancelled": cancelled, "runId": run_id}

    async def cancel_run(self, run_id: str) -> bool:
        run = self.active.get(run_id)
        if run is None:
            return False
        cancelled = await run.engine.cancel(run_id)
        if run.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(run.task), 30)
        self.tell(f"{Path(run.handle.file).name}: cancelled; nothing was changed")
        return cancelled

    async def on_progress_cancel(self, params: types.WorkDoneProgressCancelParams) -> None:
        for run in list(self.active.values()):
            if run.token == params.token:
                await self.cancel_run(run.run_id)

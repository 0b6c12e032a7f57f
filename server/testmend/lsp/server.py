"""``testmend serve``: the language server, a thin adapter over the engine.

Requests are answered from in-memory state (code actions, diagnostics); runs work in asyncio
tasks that follow the engine's events, show progress, and end in one workspace edit. See
docs/lsp.md for the protocol surface.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lsprotocol import types
from pygls import uris
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..config import ConfigError, find_project_root, load_config
from ..engine import Engine, EngineError, RunHandle, RunRequest, RunResult
from ..engine.changes import changed_since, result_changes
from ..llm.factory import ModelFactory
from ..project.dependencies import covering_tests
from ..project.errors import ProjectToolError
from ..workflow.events import NeedsInput, RunEvent, RunFinished, event_line
from ..workspace.paths import PathEscapeError
from . import actions
from .apply import FileChange, workspace_edit
from .progress import RUN_STATUS, ProgressState, status_payload

log = logging.getLogger(__name__)

SECTION = "testmend"
APPLY_TITLE = "Testmend: Apply kept result"
REPORT_TITLE = "Testmend: Show last report"
"""What the editor's command palette calls ``testmend.applyResult`` / ``testmend.showReport``."""
MAX_ACTIVE_RUNS = 4
ANSWERS: dict[str, str] = {
    "Retry with more attempts": "retry",
    "Apply the best partial result": "apply_partial",
    "Discard": "discard",
}
_QUIET_LOGGERS = ("pygls", "lsprotocol", "httpx", "httpcore", "openai", "langchain", "langgraph")


class UserError(Exception):
    """A request the server refuses, with the message the user sees."""


@dataclass
class ActiveRun:
    run_id: str
    uri: str
    version: int | None
    mode: Literal["migrate", "fix"]
    engine: Engine
    handle: RunHandle
    token: str | None = None
    task: asyncio.Task[None] | None = None


@dataclass
class PendingResult:
    """A finished run's result not (yet) in the editor: applied later by testmend.applyResult."""

    run_id: str
    uri: str
    version: int | None
    mode: Literal["migrate", "fix"]
    result: RunResult


@dataclass
class RunReport:
    """Where a finished run's report is, and which document the run was on (so that
    ``testmend.showReport <uri>`` finds the latest report of a file)."""

    uri: str
    path: str


@dataclass
class _EngineSlot:
    settings_key: str
    engine: Engine
    retired: list[Engine] = field(default_factory=list)


def _bind(method: Callable[..., Any]) -> Callable[..., Any]:
    """A plain function around a bound method (pygls sets attributes on handlers)."""
    if inspect.iscoroutinefunction(method):

        async def async_handler(*args: Any) -> Any:
            return await method(*args)

        return async_handler

    def handler(*args: Any) -> Any:
        return method(*args)

    return handler


def configure_logging(level: int = logging.WARNING) -> None:
    """Warnings and errors only, on stderr: library loggers log message bodies at INFO."""
    logging.basicConfig(level=level, stream=sys.stderr, format="testmend %(levelname)s %(message)s")
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))


def _settings_from(raw: object) -> Mapping[str, Any]:
    """Accept ``{"testmend": {...}}`` or the section itself; None means no settings."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError("testmend settings: must be an object of settings", key=SECTION)
    inner = raw.get(SECTION)
    if isinstance(inner, Mapping):
        return dict(inner)
    if inner is None and SECTION in raw:
        return {}
    return dict(raw)


def _covered_by_tests(uri: str) -> bool:
    """Whether tests cover the source file at ``uri`` (so a fix of it can be checked)."""
    fs_path = uris.to_fs_path(uri)
    if not fs_path:
        return False
    path = Path(fs_path)
    root = find_project_root(path)
    try:
        return bool(covering_tests(root, path.resolve().relative_to(root).as_posix()))
    except (OSError, ValueError, ProjectToolError, PathEscapeError):
        return False


class TestmendServer(LanguageServer):
    """The language server; ``models`` injects a model factory (tests), "auto" reads config."""

    __test__ = False

    def __init__(
        self,
        *,
        models: ModelFactory | Literal["auto"] | None = "auto",
        workspaces_dir: Path | None = None,
        max_runs: int = MAX_ACTIVE_RUNS,
    ) -> None:
        super().__init__("testmend", __version__)
        self.models = models
        self.workspaces_dir = workspaces_dir
        self.max_runs = max_runs
        self.settings: Mapping[str, Any] = {}
        self.settings_error: str | None = None
        self.engines: dict[Path, _EngineSlot] = {}
        self.active: dict[str, ActiveRun] = {}
        self.pending: dict[str, PendingResult] = {}
        self.reports: dict[str, RunReport] = {}
        self.diagnosed: set[str] = set()
        self.coverage: dict[str, bool] = {}
        self._register()

    # -- registration --------------------------------------------------------------------------

    def _register(self) -> None:
        self.feature(types.INITIALIZE)(_bind(self.on_initialize))
        self.feature(types.INITIALIZED)(_bind(self.on_initialized))
        self.feature(types.SHUTDOWN)(_bind(self.on_shutdown))
        self.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(_bind(self.on_change_configuration))
        self.feature(types.TEXT_DOCUMENT_DID_OPEN)(_bind(self.on_open))
        self.feature(types.TEXT_DOCUMENT_DID_CHANGE)(_bind(self.on_change))
        self.feature(types.TEXT_DOCUMENT_DID_CLOSE)(_bind(self.on_close))
        self.feature(
            types.TEXT_DOCUMENT_CODE_ACTION,
            types.CodeActionOptions(code_action_kinds=actions.KINDS, resolve_provider=False),
        )(_bind(self.on_code_action))
        self.feature(types.WINDOW_WORK_DONE_PROGRESS_CANCEL)(_bind(self.on_progress_cancel))
        self.command(actions.CMD_MIGRATE)(_bind(self.cmd_migrate))
        self.command(actions.CMD_FIX)(_bind(self.cmd_fix))
        self.command(actions.CMD_CANCEL)(_bind(self.cmd_cancel))
        self.command(actions.CMD_APPLY)(_bind(self.cmd_apply))
        self.command(actions.CMD_REPORT)(_bind(self.cmd_report))

    # -- messages ------------------------------------------------------------------------------

    def tell(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=f"testmend: {message}"))

    def note(self, message: str) -> None:
        self.window_log_message(
            types.LogMessageParams(type=types.MessageType.Info, message=f"testmend: {message}")
        )

    # -- settings ------------------------------------------------------------------------------

    def _validation_root(self) -> Path:
        root = self.workspace.root_path
        return find_project_root(Path(root)) if root else Path.cwd()

    def apply_settings(self, raw: object) -> bool:
        """Validate and keep new settings; a bad value is reported once, naming its key."""
        try:
            settings = _settings_from(raw)
            load_config(self._validation_root(), editor_settings=settings)
        except ConfigError as exc:
            message = str(exc)
            if message != self.settings_error:
                self.settings_error = message
                self.tell(f"bad setting: {message}", types.MessageType.Error)
            return False
        self.settings_error = None
        self.settings = settings
        return True

    def on_initialize(self, params: types.InitializeParams) -> None:
        self._initial_settings = params.initialization_options

    async def on_initialized(self, params: types.InitializedParams) -> None:
        self.apply_settings(getattr(self, "_initial_settings", None))
        await self.pull_configuration()

    def _supports_configuration(self) -> bool:
        workspace = self.client_capabilities.workspace
        return bool(workspace and workspace.configuration)

    async def pull_configuration(self) -> None:
        if not self._supports_configuration():
            return
        request = types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        try:
            values = await asyncio.wait_for(self.workspace_configuration_async(request), 10)
        except Exception as exc:  # a client that cannot answer: keep what we have
            self.note(f"workspace/configuration failed: {exc}")
            return
        if values and values[0] is not None:
            self.apply_settings(values[0])

    async def on_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, Mapping) and SECTION in settings:
            self.apply_settings(settings)
        elif self._supports_configuration():
            await self.pull_configuration()
        elif settings is not None:
            self.apply_settings(settings)

    # -- documents and diagnostics ---------------------------------------------------------------

    def _publish(self, uri: str) -> None:
        document = self.workspace.text_documents.get(uri)
        found = actions.enzyme_diagnostics(uri, document.source) if document is not None else []
        if not found and uri not in self.diagnosed:
            return
        if found:
            self.diagnosed.add(uri)
        else:
            self.diagnosed.discard(uri)
        version = document.version if document is not None else None
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )

    def on_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self.coverage.pop(params.text_document.uri, None)  # tests may have come or gone
        self._publish(params.text_document.uri)

    def on_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._publish(params.text_document.uri)

    def on_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in self.diagnosed:
            self.diagnosed.discard(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    async def on_code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        if self.workspace.text_documents.get(uri) is None:  # not open: would mean reading disk
            return None
        covered = False
        if actions.is_js_ts(uri) and not actions.is_test_file(uri):
            covered = await self._covered(uri)
        document = self.workspace.text_documents.get(uri)
        if document is None:  # closed meanwhile
            return None
        found = actions.code_actions(
            uri, document.source, document.version, params.context, covered=covered
        )
        return found or None

    async def _covered(self, uri: str) -> bool:
        """Whether tests cover a source file: looked up once per opening of the file, in a
        worker thread (directory listings and import parses), so the event loop keeps
        answering."""
        if uri not in self.coverage:
            covered = await asyncio.to_thread(_covered_by_tests, uri)
            if len(self.coverage) > 2000:
                self.coverage.clear()
            self.coverage[uri] = covered
        return self.coverage[uri]

    # -- starting runs ---------------------------------------------------------------------------

    def _engine_for(self, root: Path) -> Engine:
        key = json.dumps(self.settings, sort_keys=True, default=str)
        slot = self.engines.get(root)
        if slot is not None and slot.settings_key == key:
            return slot.engine
        config = load_config(root, editor_settings=self.settings)
        engine = Engine(config, models=self.models, workspaces_dir=self.workspaces_dir)
        retired = [*slot.retired, slot.engine] if slot is not None else []
        self.engines[root] = _EngineSlot(key, engine, retired)
        return engine

    @staticmethod
    def _run_arguments(args: tuple[Any, ...]) -> tuple[str, int | None, list[Any]]:
        if len(args) == 1 and isinstance(args[0], Mapping):  # {"uri", "version", "diagnostics"}
            named = args[0]
            args = (named.get("uri"), named.get("version"), named.get("diagnostics") or [])
        if not args or not isinstance(args[0], str) or not args[0]:
            raise UserError("expected arguments [uri, version, diagnostics]: the uri is missing")
        uri = args[0]
        version = args[1] if len(args) > 1 else None
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise UserError(f"expected a document version (an integer), got {version!r}")
        diagnostics = args[2] if len(args) > 2 and args[2] is not None else []
        if not isinstance(diagnostics, list):
            raise UserError("expected the diagnostics as a list")
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

    async def start_run(self, mode: Literal["migrate", "fix"], args: tuple[Any, ...]) -> RunHandle:
        uri, _version, diagnostics = self._run_arguments(args)
        fs_path = uris.to_fs_path(uri) if actions.file_path(uri) is not None else None
        if not fs_path:
            raise UserError(f"testmend works on files (file:// URIs), not {uri}")
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
            engine = self._engine_for(root)
        except ConfigError as exc:
            raise UserError(f"bad setting: {exc}") from None
        request = RunRequest(
            file=str(path),
            mode=mode,
            content=text,
            user_instructions=self._instructions(diagnostics) if mode == "fix" else None,
        )
        try:
            handle = await engine.start(request)
        except (EngineError, PathEscapeError, ValueError) as exc:
            raise UserError(str(exc)) from None
        run = ActiveRun(handle.run_id, uri, version, mode, engine, handle)
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
            self.tell(str(exc), types.MessageType.Warning)
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

    async def _begin_progress(self, run: ActiveRun, state: ProgressState) -> None:
        if not self._supports_progress():
            self.note(f"{state.title} started (run {run.run_id})")
            return
        token = f"testmend-{run.run_id}"
        try:
            await asyncio.wait_for(self.work_done_progress.create_async(token), 10)
        except Exception as exc:
            self.note(f"no progress bar ({exc}); following the run in the log")
            return
        run.token = token
        self.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title=state.title, cancellable=True, message="starting", percentage=0
            ),
        )

    def _end_progress(self, run: ActiveRun, state: ProgressState, message: str) -> None:
        state.step, state.last_tool = message, ""
        self.protocol.notify(RUN_STATUS, status_payload(run.run_id, run.uri, state, None))
        if run.token is None:
            self.note(message)
            return
        self.work_done_progress.end(run.token, types.WorkDoneProgressEnd(message=message))
        self.work_done_progress.tokens.pop(run.token, None)
        run.token = None

    def _on_event(self, run: ActiveRun, state: ProgressState, event: RunEvent) -> None:
        changed = state.update(event)
        self.protocol.notify(RUN_STATUS, status_payload(run.run_id, run.uri, state, event))
        if run.token is not None:
            if changed:
                self.work_done_progress.report(run.token, state.report())
        elif (line := event_line(event)) is not None:
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
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
            self.tell(f"{name}: the run stopped: {problem}", types.MessageType.Error)
        finally:
            self._end_progress(run, state, ending)
            self.active.pop(run.run_id, None)
        if result is not None:
            await self.deliver(run, result)

    # -- results ---------------------------------------------------------------------------------

    async def deliver(self, run: ActiveRun, result: RunResult) -> None:
        """Apply what the engine accepted; keep anything else for an explicit accept."""
        name = Path(result.file).name
        self.reports[run.run_id] = RunReport(run.uri, result.report_path)
        summary = result.summary
        tally = f"tests {summary.tests_passing}/{summary.tests_total} passing"
        if summary.fidelity is not None:
            tally += f", fidelity {summary.fidelity:.2f}"
        if result.status == "discarded":
            self.tell(f"{name}: result discarded")
            return
        if result.content == result.original:
            self.tell(f"{name}: {result.status}, nothing to change ({tally})")
            return
        pending = PendingResult(run.run_id, run.uri, run.version, run.mode, result)
        self.pending[run.run_id] = pending
        if not result.applies:
            why = f": {result.reasons[0]}" if result.reasons else ""
            more = f" (and {len(result.reasons) - 1} more)" if len(result.reasons) > 1 else ""
            self.tell(
                f"{name}: {result.status.replace('_', ' ')} ({tally}){why}{more}. The result is "
                f"kept, not applied: “{APPLY_TITLE}” applies it anyway, “{REPORT_TITLE}” shows "
                "the findings.",
                types.MessageType.Warning,
            )
            return
        await self.apply_pending(pending, against_current=False)

    def _current_text(self, root: Path, relative: str) -> str | None:
        """A file as the editor has it (open buffer) or as it is on disk."""
        path = root / relative
        uri = uris.from_fs_path(str(path)) or path.as_uri()
        document = self.workspace.text_documents.get(uri)
        if document is not None:
            return str(document.source)
        try:
            return path.read_text(encoding="utf-8") if path.is_file() else None
        except (OSError, UnicodeDecodeError):
            return None

    def _other_changes(self, pending: PendingResult, root: Path) -> list[FileChange]:
        """The result's other files (a re-recorded snapshot) as LSP changes, when still as the
        run found them."""
        result = pending.result
        changes = []
        for change in result_changes(result)[1:]:
            if (
                change.original is None
                or change.updated is None
                or changed_since([change], lambda rel: self._current_text(root, rel))
            ):
                self.tell(
                    f"{change.path} is not part of the edit (created, deleted or changed "
                    "meanwhile): run the test once with `jest -u` to record it",
                    types.MessageType.Warning,
                )
                continue
            path = root / change.path
            uri = uris.from_fs_path(str(path)) or path.as_uri()
            document = self.workspace.text_documents.get(uri)
            version = document.version if document is not None else None
            changes.append(FileChange(uri, version, change.original, change.updated))
        return changes

    async def apply_pending(self, pending: PendingResult, *, against_current: bool) -> bool:
        """Apply a kept result; ``against_current`` replaces whatever the buffer holds now."""
        result = pending.result
        name = Path(result.file).name
        test_path = Path(uris.to_fs_path(pending.uri) or "")
        root = test_path.parents[len(Path(result.file).parts) - 1]
        document = self.workspace.text_documents.get(pending.uri)
        version = document.version if document is not None else None
        current = self._current_text(root, result.file)
        if current is None:
            self.tell(f"{name}: cannot read it to apply the result")
            return False
        stale = changed_since(result_changes(result)[:1], lambda rel: current)
        if not against_current and (stale or version != pending.version):
            self.tell(
                f"{name} changed during the run: nothing was overwritten. The result is kept: "
                f"“{APPLY_TITLE}” applies it over the current text.",
                types.MessageType.Warning,
            )
            return False
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.apply_edit):
            self.tell(f"{name}: this editor cannot apply edits; see “{REPORT_TITLE}”")
            return False
        changes = [FileChange(pending.uri, version, current, result.content)]
        changes += self._other_changes(pending, root)
        edit = workspace_edit(
            changes,
            self.client_capabilities,
            label=actions.MIGRATE_TITLE if pending.mode == "migrate" else actions.FIX_TITLE,
            description=f"{result.status}: tests {result.summary.tests_passing}/"
            f"{result.summary.tests_total} passing",
        )
        try:
            answer = await self.workspace_apply_edit_async(
                types.ApplyWorkspaceEditParams(edit=edit, label=f"testmend: {name}")
            )
        except Exception as exc:
            self.tell(f"{name}: the editor did not apply the result ({exc}); it is kept")
            return False
        if not answer.applied:
            why = f" ({answer.failure_reason})" if answer.failure_reason else ""
            self.tell(
                f"{name}: the result was not applied{why}; it is kept: “{APPLY_TITLE}” applies "
                "it later.",
                types.MessageType.Warning,
            )
            return False
        self.pending.pop(pending.run_id, None)
        summary = result.summary
        self.tell(
            f"{name}: {result.status.replace('_', ' ')}, tests {summary.tests_passing}/"
            f"{summary.tests_total} passing — applied (undo restores the original)"
        )
        return True

    # -- other commands --------------------------------------------------------------------------

    def _run_id_argument(self, args: tuple[Any, ...], pool: Mapping[str, Any]) -> str | None:
        """A run id, or a uri (the latest run on it); None: the most recent one."""
        if not args or args[0] is None:
            return list(pool)[-1] if pool else None
        value = args[0]
        if isinstance(value, Mapping):
            value = value.get("runId") or value.get("uri")
        if not isinstance(value, str):
            raise UserError(f"expected a run id or a document uri, got {value!r}")
        if value in pool:
            return value
        for run_id, item in reversed(list(pool.items())):
            if getattr(item, "uri", None) == value:
                return str(run_id)
        raise UserError(f"no such run: {value}")

    async def cmd_cancel(self, *args: Any) -> dict[str, Any]:
        try:
            run_id = self._run_id_argument(args, self.active)
        except UserError as exc:
            self.tell(str(exc), types.MessageType.Warning)
            return {"cancelled": False, "error": str(exc)}
        if run_id is None:
            self.tell("no run in progress")
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

    async def cmd_apply(self, *args: Any) -> dict[str, Any]:
        try:
            run_id = self._run_id_argument(args, self.pending)
        except UserError as exc:
            self.tell(str(exc), types.MessageType.Warning)
            return {"applied": False, "error": str(exc)}
        if run_id is None:
            self.tell("no result is waiting to be applied")
            return {"applied": False}
        applied = await self.apply_pending(self.pending[run_id], against_current=True)
        return {"applied": applied, "runId": run_id}

    async def cmd_report(self, *args: Any) -> dict[str, Any]:
        try:
            run_id = self._run_id_argument(args, self.reports)
        except UserError as exc:
            self.tell(str(exc), types.MessageType.Warning)
            return {"shown": False, "error": str(exc)}
        if run_id is None:
            self.tell("no report yet: run `Migrate to RTL` first")
            return {"shown": False}
        path = self.reports[run_id].path
        uri = uris.from_fs_path(path) or path
        window = self.client_capabilities.window
        if not (window and window.show_document and window.show_document.support):
            self.tell(f"report: {path}")
            return {"shown": False, "uri": uri}
        try:
            shown = await self.window_show_document_async(
                types.ShowDocumentParams(uri=uri, take_focus=True)
            )
        except Exception as exc:
            self.tell(f"report: {path} ({exc})")
            return {"shown": False, "uri": uri}
        return {"shown": shown.success, "uri": uri}

    # -- shutdown --------------------------------------------------------------------------------

    async def on_shutdown(self, *args: Any) -> None:
        await self.close_all()

    async def close_all(self) -> None:
        """Cancel every run (their workspaces are removed) and close the engines."""
        for run_id in list(self.active):
            with contextlib.suppress(Exception):
                await self.cancel_run(run_id)
        for slot in list(self.engines.values()):
            for engine in (*slot.retired, slot.engine):
                with contextlib.suppress(Exception):
                    await engine.close()
        self.engines.clear()


def parse_tcp(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"--tcp expects HOST:PORT, got {value!r}")
    return host or "127.0.0.1", int(port)


def main(
    tcp: str | None = None,
    *,
    models: ModelFactory | Literal["auto"] | None = "auto",
    workspaces_dir: Path | None = None,
    max_runs: int = MAX_ACTIVE_RUNS,
) -> int:
    """Serve over stdio (default) or TCP until the client says exit."""
    configure_logging()
    server = TestmendServer(models=models, workspaces_dir=workspaces_dir, max_runs=max_runs)
    if tcp:
        server.start_tcp(*parse_tcp(tcp))
    else:
        server.start_io()
    return 0

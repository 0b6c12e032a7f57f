"""State and plumbing every part of the language server shares: the runs, results and reports it
holds, messages to the user, and the run id arguments of its commands.

Nothing here imports the engine (langgraph, langchain): ``testmend serve`` answers
``initialize`` before those are loaded (see ``runs.py``).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from .engine_host import EngineProcess, RemoteEngine, RemoteHandle, worker_command
from .protocol import TestmendProtocol

if TYPE_CHECKING:
    from ..engine import RunResult

log = logging.getLogger(__name__)

SECTION = "testmend"
APPLY_TITLE = "Testmend: Apply kept result"
REPORT_TITLE = "Testmend: Show last report"
"""What the editor's command palette calls ``testmend.applyResult`` / ``testmend.showReport``."""
MAX_ACTIVE_RUNS = 4


class UserError(Exception):
    """A request the server refuses, with the message the user sees. ``kind`` groups the
    mistakes that pop up at most once a minute (default: the message itself)."""

    def __init__(self, message: str, *, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind or message


#: Seconds during which a second pop-up of the same kind of mistake goes to the log instead.
POPUP_QUIET_SECONDS = 60.0


@dataclass
class ActiveRun:
    run_id: str
    uri: str
    version: int | None
    mode: Literal["migrate", "fix"]
    engine: RemoteEngine
    handle: RemoteHandle
    token: str | None = None
    task: asyncio.Task[None] | None = None
    batch: str | None = None
    """The folder batch it belongs to (``lsp/batch.py``): no progress of its own, its result
    applied only when ``batch.applyAccepted`` says so."""
    ending: str = ""
    """How it ended (``succeeded``, ``needs review``, ``cancelled``, …), once it did."""


@dataclass
class PendingResult:
    """A finished run's result not (yet) in the editor: applied later by testmend.applyResult."""

    run_id: str
    uri: str
    version: int | None
    mode: Literal["migrate", "fix"]
    result: RunResult
    kept_at: float = field(default_factory=time.monotonic)


#: Kept results not applied after this long are dropped (their report stays on disk).
PENDING_TTL_SECONDS = 3600.0
#: At most this many kept results and report links (the oldest go first).
MAX_PENDING = 20
MAX_REPORTS = 100


def _import_engine() -> ModuleType:
    importlib.import_module("testmend.engine.kept")  # with its store and hunks
    return importlib.import_module("testmend.engine")


async def load_engine() -> ModuleType:
    """The engine package as the server uses it: requests, results and run records, not the
    ``Engine`` (it runs in the engine process, ``engine_host.py``: langgraph and langchain are
    never loaded here). Imported in a worker thread, once per process."""
    return await asyncio.to_thread(_import_engine)


def prune(pool: dict[str, Any], limit: int) -> None:
    """Drop the oldest entries of an insertion-ordered map beyond ``limit``."""
    for key in list(pool)[: max(len(pool) - limit, 0)]:
        del pool[key]


@dataclass
class RunReport:
    """Where a finished run's report is, and which document the run was on (so that
    ``testmend.showReport <uri>`` finds the latest report of a file)."""

    uri: str
    path: str


@dataclass
class EngineSlot:
    settings_key: str
    engine: RemoteEngine
    retired: list[RemoteEngine] = field(default_factory=list)


class ServerCore(LanguageServer):
    """What the other parts share; ``worker``: the command that starts the engine process
    (default: ``engine_worker.py`` with this interpreter; tests inject one with a scripted
    model)."""

    def __init__(
        self,
        *,
        worker: Sequence[str] | None = None,
        workspaces_dir: Path | None = None,
        max_runs: int = MAX_ACTIVE_RUNS,
    ) -> None:
        super().__init__("testmend", __version__, protocol_cls=TestmendProtocol)
        self._reported: set[str] = set()
        self._popped: dict[str, float] = {}
        self.workspaces_dir = workspaces_dir
        self.max_runs = max_runs
        self.settings: Mapping[str, Any] = {}
        self.settings_error: str | None = None
        self.engines: dict[Path, EngineSlot] = {}
        self.engine_process = EngineProcess(worker or worker_command())
        self.active: dict[str, ActiveRun] = {}
        self.pending: dict[str, PendingResult] = {}
        self.reports: dict[str, RunReport] = {}
        self.diagnosed: set[str] = set()
        self.coverage: dict[str, bool] = {}
        self._register()

    def _register(self) -> None:
        """Register the handlers (the server module does)."""

    def _engine_for(self, root: Path, settings: Mapping[str, Any] | None = None) -> RemoteEngine:
        """The engine of a project for these settings (default: the server's); a new one when
        they changed (the old one retires). It lives in the engine process (``engine_host.py``);
        a bad setting raises ``ConfigError`` here."""
        settings = self.settings if settings is None else settings
        key = json.dumps(settings, sort_keys=True, default=str)
        slot = self.engines.get(root)
        if slot is not None and slot.settings_key == key:
            return slot.engine
        engine = RemoteEngine(self.engine_process, root, settings, self.workspaces_dir)
        retired = [*slot.retired, slot.engine] if slot is not None else []
        self.engines[root] = EngineSlot(key, engine, retired)
        return engine

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls' errors outside a request (a notification's handler failed, a message could
        not be read): one log line per kind, never a pop-up (a fuzzing client got 912)."""
        kind = f"{getattr(source, '__name__', source)}:{type(error).__name__}"
        if kind not in self._reported:
            self._reported.add(kind)
            log.warning("%s: %s (further ones are not logged)", kind, error)

    def tell(
        self,
        message: str,
        kind: types.MessageType = types.MessageType.Info,
        *,
        mistake: str | None = None,
    ) -> None:
        """A pop-up. ``mistake``: the kind of user mistake it reports; the same kind within
        :data:`POPUP_QUIET_SECONDS` goes to the log only (a client repeating a bad request
        must not bury the user in pop-ups)."""
        if mistake is not None:
            now = time.monotonic()
            last = self._popped.get(mistake)
            if last is not None and now - last < POPUP_QUIET_SECONDS:
                self.note(message)
                return
            if len(self._popped) > 1000:
                self._popped.clear()
            self._popped[mistake] = now
        log.info("told the user: %s", message)
        self.window_show_message(types.ShowMessageParams(type=kind, message=f"testmend: {message}"))

    def refuse(self, error: UserError) -> None:
        """Tell the user why a request was refused (one pop-up per kind of mistake)."""
        self.tell(str(error), types.MessageType.Warning, mistake=error.kind)

    def note(self, message: str) -> None:
        """A line in the editor's log (and at INFO in testmend's own, for ``--verbose``)."""
        log.info("%s", message)
        self.window_log_message(
            types.LogMessageParams(type=types.MessageType.Info, message=f"testmend: {message}")
        )

    def _run_id_argument(self, args: tuple[Any, ...], pool: Mapping[str, Any]) -> str | None:
        """A run id, or a uri (the latest run on it); None: the most recent one."""
        if not args or args[0] is None:
            return list(pool)[-1] if pool else None
        value = args[0]
        if isinstance(value, Mapping):
            value = value.get("runId") or value.get("uri")
        if not isinstance(value, str):
            raise UserError(
                f"expected a run id or a document uri, got {value!r}", kind="bad run id"
            )
        if value in pool:
            return value
        for run_id, item in reversed(list(pool.items())):
            if getattr(item, "uri", None) == value:
                return str(run_id)
        raise UserError(f"no such run: {value}", kind="no such run")

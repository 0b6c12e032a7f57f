"""``testmend serve``: the language server, a thin adapter over the engine.

Requests are answered from in-memory state (code actions, diagnostics); runs work in asyncio
tasks that follow the engine's events, show progress, and end in one workspace edit. See
docs/lsp.md for the protocol surface. The parts, one concern each: ``core`` (shared state and
messages), ``settings``, ``documents`` (diagnostics, code actions), ``results`` (applying,
reports), ``review`` (a kept result hunk by hunk, the results waiting), ``runs`` (starting,
following, cancelling), ``batch`` (a folder at once); this module registers them.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types

from . import actions, review
from .batch import CMD_CANCEL_BATCH, CMD_MIGRATE_BATCH, BatchServer
from .core import APPLY_TITLE, MAX_ACTIVE_RUNS, REPORT_TITLE
from .engine_host import worker_command
from .runs import ANSWERS
from .transport import serve_stdio

__all__ = [
    "ANSWERS",
    "APPLY_TITLE",
    "MAX_ACTIVE_RUNS",
    "REPORT_TITLE",
    "TestmendServer",
    "configure_logging",
    "main",
    "parse_tcp",
]

log = logging.getLogger(__name__)

SWITCH_INTERVAL_SECONDS = 0.001
"""Python's default is 0.005."""

_QUIET_LOGGERS = ("pygls", "lsprotocol", "httpx", "httpcore", "openai", "langchain", "langgraph")


def _bind(method: Callable[..., Any]) -> Callable[..., Any]:
    """A plain function around a bound method (pygls sets attributes on handlers)."""
    if inspect.iscoroutinefunction(method):

        async def async_handler(*args: Any) -> Any:
            return await method(*args)

        return async_handler

    def handler(*args: Any) -> Any:
        return method(*args)

    return handler


class _Brief(logging.Filter):
    """pygls logs each malformed or unknown message, often with a traceback: one line per kind
    (its message template), once."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("pygls"):
            return True
        kind = f"{record.name}:{record.msg}"
        if kind in self.seen:
            return False
        self.seen.add(kind)
        text = record.getMessage().split("\n", 1)[0]
        record.msg, record.args, record.exc_info, record.exc_text = text, None, None, None
        return True


def configure_logging(level: int = logging.WARNING, log_file: Path | None = None) -> None:
    """Warnings and errors only, on stderr (the editor's output channel); ``level`` lowers it
    for testmend's own loggers (``--verbose``: INFO), ``log_file`` adds a file with times.
    Library loggers stay at WARNING whatever the level (they log message bodies at INFO: file
    contents); pygls' own complaints in one line each, once."""
    logging.basicConfig(level=level, stream=sys.stderr, format="testmend %(levelname)s %(message)s")
    if log_file is not None:
        to_file = logging.FileHandler(log_file, encoding="utf-8")
        to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logging.getLogger().addHandler(to_file)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_Brief())
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))


class TestmendServer(BatchServer):
    """The language server; ``worker`` injects the command of its engine process (tests)."""

    __test__ = False

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
        self.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))(
            _bind(self.on_code_lens)
        )
        self.command(review.CMD_REVIEW)(_bind(self.cmd_review))
        self.command(review.CMD_ACCEPT)(_bind(self.cmd_accept))
        self.command(review.CMD_ACCEPT_HUNK)(_bind(self.cmd_accept_hunk))
        self.command(review.CMD_REJECT_HUNK)(_bind(self.cmd_reject_hunk))
        self.command(review.CMD_DISCARD)(_bind(self.cmd_discard))
        self.command(review.CMD_LIST)(_bind(self.cmd_list))
        self.command(CMD_MIGRATE_BATCH)(_bind(self.cmd_migrate_batch))
        self.command(CMD_CANCEL_BATCH)(_bind(self.cmd_cancel_batch))

    # -- shutdown --------------------------------------------------------------------------------

    async def on_shutdown(self, *args: Any) -> None:
        await self.close_all()

    async def close_all(self) -> None:
        """Cancel every batch and run (their workspaces are removed) and close the engines."""
        for batch in list(self.batches.values()):
            if not batch.finished:
                with contextlib.suppress(Exception):
                    await self.cancel_batch(batch)
        for run_id in list(self.active):
            with contextlib.suppress(Exception):
                await self.cancel_run(run_id)
        for slot in list(self.engines.values()):
            for engine in (*slot.retired, slot.engine):
                with contextlib.suppress(Exception):
                    await engine.close()
        self.engines.clear()
        await self.engine_process.stop()


def parse_tcp(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"--tcp expects HOST:PORT, got {value!r}")
    return host or "127.0.0.1", int(port)


def main(
    tcp: str | None = None,
    *,
    worker: Sequence[str] | None = None,
    workspaces_dir: Path | None = None,
    max_runs: int = MAX_ACTIVE_RUNS,
    verbose: bool = False,
    log_file: Path | None = None,
) -> int:
    """Serve over stdio (default) or TCP until the client says exit. ``worker``: the command
    that starts the engine process (default: ``engine_worker.py``, with the same logging)."""
    configure_logging(logging.INFO if verbose else logging.WARNING, log_file)
    # The runs work in the engine process (``engine_host.py``); what is left here in worker
    # threads (a review's diffs, the results list) hands the event loop the interpreter sooner
    # with a shorter switch interval.
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    logging_options = ["--verbose"] if verbose else []
    if log_file is not None:
        logging_options += ["--log-file", str(log_file)]
    worker = [*worker, *logging_options] if worker else worker_command(*logging_options)
    server = TestmendServer(worker=worker, workspaces_dir=workspaces_dir, max_runs=max_runs)
    if tcp:
        server.start_tcp(*parse_tcp(tcp))
    else:
        serve_stdio(server)
    return 0

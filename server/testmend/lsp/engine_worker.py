"""The language server's engine process: holds the engines and their runs (``engine_host.py``
is the server's side, and says why they live apart).

    python -m testmend.lsp.engine_worker [--verbose] [--log-file PATH] [--offline] FRAMES_FD

Calls come as frames on stdin: ``(call_id, op, args)``; each is answered on ``FRAMES_FD`` with
``("reply", call_id, "ok" | "error" | "cancelled", value)``, and a run's events go there as
``("event", run_id, event)``, ``None`` once the run ends or pauses. At the end of stdin (the
server stopped, or died) the runs still going are cancelled, their workspaces removed, and the
process exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..config import load_config
from .engine_host import MAX_FRAME, encode, read_frame

if TYPE_CHECKING:
    from ..engine import Engine, RunHandle
    from ..llm.factory import ModelFactory

log = logging.getLogger(__name__)

NICENESS = 10
"""Added to the process's niceness, and so to its tools' (jest, eslint, tsc inherit it): on a
busy machine the editor and its language server get the processors first."""


class Worker:
    def __init__(
        self, writer: asyncio.StreamWriter, models: ModelFactory | Literal["auto"] | None
    ) -> None:
        self.writer = writer
        self.models = models
        self.engines: dict[str, Engine] = {}
        self.handles: dict[str, RunHandle] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def send(self, message: tuple[Any, ...]) -> None:
        try:
            frame = encode(message)
        except Exception as exc:  # an answer that does not pickle: its sentence does
            kind, call_id, _, value = message
            problem = RuntimeError(f"{type(value).__name__}: {exc}")
            frame = encode((kind, call_id, "error", problem))
        self.writer.write(frame)

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def answer(self, call_id: int, op: str, args: tuple[Any, ...]) -> None:
        try:
            value = await getattr(self, f"op_{op}")(*args)
        except asyncio.CancelledError:
            self.send(("reply", call_id, "cancelled", None))
        except Exception as exc:
            self.send(("reply", call_id, "error", exc))
        else:
            self.send(("reply", call_id, "ok", value))

    async def pump(self, handle: RunHandle) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            async for event in handle.events():
                self.send(("event", handle.run_id, event))
        self.send(("event", handle.run_id, None))

    def _follow(self, handle: RunHandle) -> tuple[str, str]:
        self.handles[handle.run_id] = handle
        self.spawn(self.pump(handle))
        return handle.run_id, handle.file

    # -- the calls -----------------------------------------------------------------------------

    async def op_open(
        self, key: str, root: str, settings: dict[str, Any], workspaces_dir: Path | None
    ) -> bool:
        engine = self.engines.get(key)
        if engine is None:
            from ..engine import Engine

            config = load_config(Path(root), editor_settings=settings)
            engine = Engine(config, models=self.models, workspaces_dir=workspaces_dir)
            self.engines[key] = engine
        return engine.offline

    async def op_start(self, key: str, request: Any) -> tuple[str, str]:
        return self._follow(await self.engines[key].start(request))

    async def op_resume(self, key: str, run_id: str, answer: str | None) -> tuple[str, str]:
        return self._follow(await self.engines[key].resume(run_id, answer))

    async def op_wait(self, key: str, run_id: str) -> Any:
        """The run's result; its handle is dropped once the run ended (not when it paused)."""
        handle = self.handles[run_id]
        ended = True
        try:
            result = await handle.wait()
            ended = result is not None
            return result
        finally:
            if ended and self.handles.get(run_id) is handle:
                del self.handles[run_id]

    async def op_cancel(self, key: str, run_id: str) -> bool:
        return await self.engines[key].cancel(run_id)

    async def op_result(self, key: str, run_id: str) -> Any:
        return await self.engines[key].result(run_id)

    async def op_close(self, key: str) -> None:
        engine = self.engines.pop(key, None)
        if engine is not None:
            await engine.close()

    async def close_all(self) -> None:
        from ..engine.models import INTERRUPTED

        for engine in list(self.engines.values()):
            with contextlib.suppress(Exception):
                await engine.close(INTERRUPTED)
        self.engines.clear()


async def serve(frames_fd: int, models: ModelFactory | Literal["auto"] | None) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_FRAME)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    out, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(frames_fd, "wb", 0)
    )
    writer = asyncio.StreamWriter(out, protocol, None, loop)
    worker = Worker(writer, models)
    try:
        while True:
            try:
                call_id, op, args = await read_frame(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                break  # the server stopped (or died)
            worker.spawn(worker.answer(call_id, op, args))
    finally:
        await worker.close_all()
        for task in list(worker.tasks):
            task.cancel()
        await asyncio.gather(*worker.tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await writer.drain()
            writer.close()


def main(
    argv: Sequence[str] | None = None,
    *,
    models: ModelFactory | Literal["auto"] | None = "auto",
) -> int:
    """The engine process's entry point; ``models`` injects a model factory (tests)."""
    from .server import configure_logging

    parser = argparse.ArgumentParser(prog="testmend-engine-worker")
    parser.add_argument("frames_fd", type=int)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--log-file")
    parser.add_argument("--offline", action="store_true")
    args = parser.parse_args(argv)
    log_file = Path(args.log_file) if args.log_file else None
    configure_logging(logging.INFO if args.verbose else logging.WARNING, log_file)
    sys.stdout = sys.stderr  # frames have a pipe of their own; a stray print goes to the log
    with contextlib.suppress(OSError):  # background work yields the processors to the editor
        os.nice(NICENESS)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.frames_fd, None if args.offline else models))
    return 0


if __name__ == "__main__":
    sys.exit(main())

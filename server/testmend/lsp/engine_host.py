"""The engines run in a child process of the language server; this is the server's side.

A run's steps do synchronous work between their awaits (tool output read, the test inventory,
the report, the codemod's conversion), spawn jest, eslint and tsc, and keep dozens of threads
busy. In the server's own process all of that competed with the requests: during a folder batch
code actions took 20 to 50 ms p99, while a second server with no run, on the same loaded
machine, answered in 6 (``benchmarks/lsp_latency.py --batch`` / ``--idle``); moving the engines
to a thread of their own did not change it. So they live in ``engine_worker.py``'s process, and
the server reaches them through :class:`RemoteEngine` and :class:`RemoteHandle`, which speak
the same calls as ``Engine`` and ``RunHandle``.

The two processes exchange pickled frames over the child's stdin and a pipe of its own (its
stdout goes to stderr: nothing a library prints can break a frame). When the child dies, every
call waiting on it fails with one sentence, the runs it held end, and the next engine asked for
starts a new child. When the server dies, the child reads the end of its input, cancels its runs
(their workspaces go) and exits.

Nothing here imports the engine: ``initialize`` is answered before it is loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import struct
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import load_config

if TYPE_CHECKING:
    from ..config import Config
    from ..engine import RunRequest, RunResult
    from ..workflow.events import RunEvent

log = logging.getLogger(__name__)

HEADER = struct.Struct(">Q")
"""Each frame: its length, then a pickle (both processes are this program: pickle is safe)."""
MAX_FRAME = 256 * 1024 * 1024


class EngineGone(RuntimeError):
    """The engine process stopped while a call waited on it."""


def encode(message: object) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> Any:
    """The next message, or raises ``asyncio.IncompleteReadError`` at the end of the stream."""
    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
    if size > MAX_FRAME:
        raise ValueError(f"a frame of {size} bytes")
    return pickle.loads(await reader.readexactly(size))


def worker_command(*options: str) -> list[str]:
    """How the server starts its engine process (this interpreter, this program)."""
    return [sys.executable, "-m", "testmend.lsp.engine_worker", *options]


class EngineProcess:
    """The child that holds the engines: started on first use, started again after it died."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self._proc: asyncio.subprocess.Process | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._reading: asyncio.Task[None] | None = None
        self._calls: dict[int, asyncio.Future[Any]] = {}
        self._events: dict[str, asyncio.Queue[RunEvent | None]] = {}
        self._next = 0
        self._starting = asyncio.Lock()
        self.generation = 0
        """Which child this is: an engine opened in an earlier one is gone with it."""
        self.ended = "the engine process stopped"
        """How the last child ended (what a call on a run it held is told)."""

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.returncode is None else None

    async def _ensure(self) -> None:
        async with self._starting:
            if self._proc is not None and self._proc.returncode is None:
                return
            down_read, down_write = os.pipe()  # the child's frames to us
            try:
                self._proc = await asyncio.create_subprocess_exec(
                    *self.command,
                    str(down_write),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.DEVNULL,
                    pass_fds=(down_write,),
                )
            finally:
                os.close(down_write)
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader(limit=MAX_FRAME, loop=loop)
            await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(down_read, "rb", 0)
            )
            assert self._proc.stdin is not None
            self._writer = self._proc.stdin
            self.generation += 1
            self._reading = asyncio.create_task(self._read(reader), name="engine-process")

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                message = await read_frame(reader)
                if message[0] == "event":
                    _, run_id, event = message
                    self._events.setdefault(run_id, asyncio.Queue()).put_nowait(event)
                else:
                    _, call_id, outcome, value = message
                    future = self._calls.pop(call_id, None)
                    if future is None or future.done():
                        continue
                    if outcome == "ok":
                        future.set_result(value)
                    elif outcome == "cancelled":
                        future.cancel()
                    else:
                        future.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError, OSError, ValueError) as exc:
            log.debug("the engine process's output ended: %s", exc)
        except Exception as exc:  # a frame that does not unpickle
            log.error("the engine process sent what cannot be read (%s): stopping it", exc)
        finally:
            await self._lost()

    async def _lost(self) -> None:
        proc = self._proc
        code = None
        if proc is not None:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
            code = await proc.wait()
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"status {code}"
        reason = self.ended = f"the engine process stopped ({how})"
        for future in self._calls.values():
            if not future.done():
                future.set_exception(EngineGone(reason))
        self._calls.clear()
        for queue in self._events.values():
            queue.put_nowait(None)
        self._events.clear()
        if code not in (0, None):
            log.error("%s: its runs ended; the next run starts a new one", reason)

    def running(self, generation: int) -> bool:
        """Whether that child still runs."""
        proc = self._proc
        return generation == self.generation and proc is not None and proc.returncode is None

    async def call(self, op: str, *args: Any, generation: int | None = None) -> Any:
        """Run ``op`` in the child and wait for its answer (its exception is raised here).
        ``generation``: only in that child (a run's calls: :class:`EngineGone` when it ended);
        else the child is started when there is none."""
        if generation is None:
            await self._ensure()
        elif not self.running(generation):
            raise EngineGone(self.ended)
        assert self._writer is not None
        self._next += 1
        call_id = self._next
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        try:
            self._writer.write(encode((call_id, op, args)))
            await self._writer.drain()
        except (ConnectionError, OSError) as exc:
            self._calls.pop(call_id, None)
            raise EngineGone(f"the engine process stopped ({exc})") from None
        try:
            return await future
        finally:
            self._calls.pop(call_id, None)

    async def events(self, run_id: str) -> AsyncIterator[RunEvent]:
        """A run's events until it ends or pauses (the child marks that with None)."""
        queue = self._events.setdefault(run_id, asyncio.Queue())
        while (event := await queue.get()) is not None:
            yield event

    def forget(self, run_id: str) -> None:
        self._events.pop(run_id, None)

    async def stop(self) -> None:
        """End the child (its engines are closed by then): close its input, then wait."""
        proc, self._proc = self._proc, None
        if proc is None or proc.returncode is not None:
            return
        if self._writer is not None:
            self._writer.close()
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        if self._reading is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reading


class RemoteHandle:
    """A run's handle, seen from the server."""

    def __init__(self, engine: RemoteEngine, run_id: str, file: str) -> None:
        self._engine = engine
        self.run_id = run_id
        self.file = file
        self.generation = engine.process.generation
        """The engine process it runs in."""

    def events(self) -> AsyncIterator[RunEvent]:
        return self._engine.process.events(self.run_id)

    async def wait(self) -> RunResult | None:
        """The result, or None when the run paused; raises ``CancelledError`` when it was
        cancelled, :class:`EngineGone` when the engine process stopped."""
        try:
            result: RunResult | None = await self._engine.process.call(
                "wait", self._engine.key, self.run_id, generation=self.generation
            )
        except asyncio.CancelledError:
            raise
        except BaseException:
            self._engine.process.forget(self.run_id)
            raise
        if result is not None:
            self._engine.process.forget(self.run_id)
        return result


class RemoteEngine:
    """One project's engine, for these settings, in the engine process."""

    def __init__(
        self,
        process: EngineProcess,
        root: Path,
        settings: Mapping[str, Any],
        workspaces_dir: Path | None,
    ) -> None:
        self.process = process
        self.root = root
        self.settings = dict(settings)
        self.workspaces_dir = workspaces_dir
        self.config: Config = load_config(root, editor_settings=self.settings)
        self.key = f"{root}:{id(self)}"
        self._generation = -1
        self._offline = False

    @property
    def offline(self) -> bool:
        """No model: the deterministic tier runs alone (known once the engine is open)."""
        return self._offline

    async def call(self, op: str, *args: Any) -> Any:
        """``op`` on this engine, opened first in the current engine process (a new one
        when the last died)."""
        if not self.process.running(self._generation):
            self._offline = await self.process.call(
                "open", self.key, str(self.root), self.settings, self.workspaces_dir
            )
            self._generation = self.process.generation
        return await self.process.call(op, self.key, *args, generation=self._generation)

    async def start(self, request: RunRequest) -> RemoteHandle:
        run_id, file = await self.call("start", request)
        return RemoteHandle(self, run_id, file)

    async def resume(self, run_id: str, answer: str | None = None) -> RemoteHandle:
        """Resume a paused run (from its checkpoint: in a new engine process too)."""
        run_id, file = await self.call("resume", run_id, answer)
        return RemoteHandle(self, run_id, file)

    async def cancel(self, run_id: str) -> bool:
        """Cancel a run; False when the process that ran it has ended (so has the run)."""
        if not self.process.running(self._generation):
            return False
        return bool(await self.call("cancel", run_id))

    async def result(self, run_id: str) -> RunResult | None:
        result: RunResult | None = await self.call("result", run_id)
        return result

    async def close(self) -> None:
        """Close it in the engine process (nothing to do when that process is gone)."""
        if self.process.running(self._generation):
            with contextlib.suppress(EngineGone):
                await self.process.call("close", self.key, generation=self._generation)
        self._generation = -1

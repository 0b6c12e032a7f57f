"""A warm jest: one long-lived jest process per run's workspace (``warm_jest.cjs``).

Re-running one file after an edit with a plain ``jest FILE`` pays node's start-up, jest's module
loading, its configuration and haste map every time (about 1.5 s on the example app); through
jest's programmatic API in a process that stays up, a re-run costs the test itself (about 0.3 s).
The agent loop and the intent check run many times in one run, so :class:`ProjectRunners` sends
its jest runs here when the project's test command is jest itself, and falls back to the plain
command when this jest cannot be driven (jest before 27, a jest-cli without its options), when
the process crashed twice, or for a test command that wraps jest (react-scripts, craco, …).

The process runs in the run's sandbox like any other command, with the same environment; a
request's extra environment is set around its run. A timeout or a cancellation kills its process
group (the next request starts a new one), as for a plain command.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any

from ..assets import asset_path
from .errors import RunnerTimeoutError
from .process import MAX_CAPTURED_BYTES, Completed, reap

logger = logging.getLogger(__name__)

SCRIPT = asset_path("testmend.runners", "warm_jest.cjs")
MARK = b"\x1etestmend-warm "
MAX_RUNS = 200
"""Runs before the process is replaced (jest in one process may grow)."""
MAX_CRASHES = 2
"""Crashes after which this workspace's jest runs go back to the plain command."""
START_TIMEOUT = 60.0
LINE_LIMIT = 32 * 1024 * 1024
"""The stream limit for the process's output (jest prints long lines)."""

Spawn = Callable[[Sequence[str]], Awaitable[asyncio.subprocess.Process]]
"""Starts ``node warm_jest.cjs`` (the arguments given) in the sandbox, stdin/stdout piped,
stderr into stdout, in a process group of its own."""


class WarmJestGone(Exception):
    """The process ended or broke its protocol: the request goes to the plain command."""


class WarmJest:
    """The warm jest of one workspace, started on its first request."""

    def __init__(self, spawn: Spawn, *, max_runs: int = MAX_RUNS) -> None:
        self._spawn = spawn
        self._max_runs = max_runs
        self._proc: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._ids = itertools.count(1)
        self._runs = 0
        """Requests served by the current process."""
        self.crashes = 0
        self.unusable: str | None = None
        """Why this jest cannot be driven (then every run takes the plain command)."""
        self.version: str | None = None

    @property
    def usable(self) -> bool:
        return self.unusable is None

    @property
    def pid(self) -> int | None:
        """The process (and process group) while it runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.returncode is None else None

    def rebind(self, spawn: Spawn) -> None:
        """Start the next process with ``spawn`` (a later run's sandbox); a running process
        stays as it was started."""
        self._spawn = spawn

    async def run(
        self, args: Sequence[str], env: Mapping[str, str], timeout: float
    ) -> Completed | None:
        """jest with ``args`` (as on its command line); None when the plain command must run
        instead (this jest cannot be driven, or the process broke)."""
        if self.unusable is not None:
            return None
        async with self._lock:
            try:
                proc = await self._ready()
            except WarmJestGone as exc:
                self._crashed(str(exc))
                return None
            if proc is None:
                return None
            started = time.perf_counter()
            request = {"id": next(self._ids), "args": list(args), "env": dict(env)}
            try:
                output, answer = await asyncio.wait_for(self._ask(proc, request), timeout)
            except TimeoutError:
                await self._stop()
                raise RunnerTimeoutError("jest", ["jest", *args], timeout) from None
            except asyncio.CancelledError:
                await self._stop()
                raise
            except WarmJestGone as exc:
                await self._stop()
                self._crashed(str(exc))
                return None
            self._runs += 1
            if self._runs >= self._max_runs:
                await self._stop()
        text = output.decode("utf-8", "replace")
        if "error" in answer:  # jest itself threw (a broken configuration, …): as the CLI would
            return Completed(
                argv=("jest", *args),
                returncode=1,
                stdout="",
                stderr=f"{text}\n{answer['error']}",
                duration_s=time.perf_counter() - started,
            )
        return Completed(
            argv=("jest", *args),
            returncode=int(answer.get("exit", 1)),
            stdout="",
            stderr=text,
            duration_s=time.perf_counter() - started,
        )

    def _crashed(self, why: str) -> None:
        self.crashes += 1
        logger.info("the warm jest broke (%s); this run falls back to the plain command", why)
        if self.crashes >= MAX_CRASHES:
            self.unusable = f"the warm jest broke {self.crashes} times (last: {why})"

    async def _ready(self) -> asyncio.subprocess.Process | None:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        try:
            proc = await self._spawn([str(SCRIPT)])
        except OSError as exc:
            self.unusable = f"node could not be started ({exc})"
            return None
        self._proc = proc
        self._runs = 0
        try:
            output, hello = await asyncio.wait_for(self._answer(proc, None), START_TIMEOUT)
        except TimeoutError:
            await self._stop()
            raise WarmJestGone(f"it did not start within {START_TIMEOUT:g} s") from None
        except WarmJestGone:
            await self._stop()
            raise
        if not hello.get("ready"):
            self.unusable = str(hello.get("why") or output.decode("utf-8", "replace")[-300:])
            logger.info("no warm jest here: %s", self.unusable)
            await self._stop()
            return None
        self.version = str(hello.get("version"))
        return proc

    async def _ask(
        self, proc: asyncio.subprocess.Process, request: dict[str, Any]
    ) -> tuple[bytes, dict[str, Any]]:
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            await proc.stdin.drain()
        except (ConnectionError, RuntimeError) as exc:
            raise WarmJestGone(f"its input is closed ({exc})") from None
        return await self._answer(proc, request["id"])

    async def _answer(
        self, proc: asyncio.subprocess.Process, request_id: int | None
    ) -> tuple[bytes, dict[str, Any]]:
        """The output up to the marked line answering ``request_id`` (None: the greeting)."""
        assert proc.stdout is not None
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                line = await proc.stdout.readline()
            except ValueError:  # a line longer than the limit: keep its head
                line = await proc.stdout.read(65536)
            if not line:
                tail = b"".join(chunks)[-2000:].decode("utf-8", "replace")
                raise WarmJestGone(f"the process ended: {tail.strip()[-300:] or 'no output'}")
            if line.startswith(MARK):
                try:
                    answer = json.loads(line[len(MARK) :])
                except ValueError:
                    raise WarmJestGone("an answer that is not JSON") from None
                if request_id is None or answer.get("id") == request_id:
                    return b"".join(chunks), answer
                continue
            if size < MAX_CAPTURED_BYTES:
                chunks.append(line[: MAX_CAPTURED_BYTES - size])
            size += len(line)

    async def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(Exception):
                proc.stdin.close()
        await reap(proc)

    async def aclose(self) -> None:
        """Stop the process (its whole group)."""
        async with self._lock:
            await self._stop()


class KeptWarmJests:
    """Warm jests kept between runs, one per warm slot (and sandbox policy, environment and
    test command): in a long-lived process (the editor's language server, a batch) the next
    run in the same slot finds its jest started, its modules and test environment loaded.

    A kept jest's process keeps the sandbox it was started in, so it is only handed to a run
    whose key (the same slot, policy, environment and command) says that sandbox is the one
    that run would make. It is stopped after ``keep_s`` idle seconds, and all are stopped by
    :meth:`aclose` (the engine's end).
    """

    def __init__(self, keep_s: float) -> None:
        self.keep_s = keep_s
        self._idle: dict[Hashable, tuple[WarmJest, asyncio.TimerHandle]] = {}
        self._stopping: set[asyncio.Task[None]] = set()

    def take(self, key: Hashable) -> WarmJest | None:
        """The jest kept for ``key`` (now the caller's), or None."""
        kept = self._idle.pop(key, None)
        if kept is None:
            return None
        warm, timer = kept
        timer.cancel()
        return warm

    @property
    def keeps(self) -> bool:
        """Whether jests are kept at all (``keep_s`` > 0)."""
        return self.keep_s > 0

    def give_back(self, key: Hashable, warm: WarmJest) -> None:
        """Keep ``warm`` for the next run with ``key`` (a jest already kept there is stopped);
        one that cannot serve (this jest cannot be driven) is not kept."""
        if not self.keeps or warm.unusable is not None:
            self._stop(warm)
            return
        earlier = self.take(key)
        if earlier is not None and earlier is not warm:
            self._stop(earlier)
        loop = asyncio.get_running_loop()
        timer = loop.call_later(self.keep_s, self._expire, key, warm)
        self._idle[key] = (warm, timer)

    def _expire(self, key: Hashable, warm: WarmJest) -> None:
        kept = self._idle.get(key)
        if kept is not None and kept[0] is warm:
            del self._idle[key]
            self._stop(warm)

    def _stop(self, warm: WarmJest) -> None:
        task = asyncio.get_running_loop().create_task(warm.aclose())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)

    async def aclose(self) -> None:
        """Stop every kept jest (and wait for those being stopped)."""
        kept, self._idle = list(self._idle.values()), {}
        for warm, timer in kept:
            timer.cancel()
            self._stop(warm)
        await asyncio.gather(*self._stopping, return_exceptions=True)

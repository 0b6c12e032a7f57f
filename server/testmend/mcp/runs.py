"""The MCP face's runs: one engine per mode (with testmend's model, offline), loaded on the first
tool call that needs one; runs followed while a call waits (its events become MCP progress), and
found again by id in this process or in the project's ``.testmend/`` (after a restart).

A tool call waits at most ``MAX_WAIT_SECONDS`` (IDE clients give up on a call after about a
minute); a run that takes longer goes on, and ``run_status`` picks it up by id.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..config import Config, ConfigError, load_config
from ..workspace.paths import PathEscapeError, resolve_in_root, to_relative

if TYPE_CHECKING:
    from ..engine import Engine, RunHandle, RunRecord, RunResult
    from ..workflow.events import RunEvent

MAX_WAIT_SECONDS = 45.0
Progress = Callable[[float, str], Awaitable[None]]


class ToolProblem(Exception):
    """A call the face cannot carry out: one sentence for the agent and its user."""


class Followed:
    """A run this process started: its handle, its step, how many events it had."""

    def __init__(self, handle: RunHandle, engine: Engine):
        self.handle = handle
        self.engine = engine
        self.step: str | None = None
        self.seen = 0
        self.submitted: str | None = None
        """A host task's submission being checked."""


class Runs:
    def __init__(self, project_root: Path, config_overrides: dict[str, Any] | None = None):
        self.root = project_root
        self.overrides = config_overrides
        self.engines: dict[bool, Engine] = {}
        self.followed: dict[str, Followed] = {}
        self._api: ModuleType | None = None
        self._lock = asyncio.Lock()

    # -- the engine ---------------------------------------------------------------------------

    async def api(self) -> ModuleType:
        """``testmend.engine`` (langgraph, langchain: seconds to import), in a worker thread."""
        if self._api is None:
            self._api = await asyncio.to_thread(importlib.import_module, "testmend.engine")
        return self._api

    def config(self) -> Config:
        try:
            return load_config(self.root, editor_settings=self.overrides)
        except ConfigError as exc:
            raise ToolProblem(str(exc)) from None

    async def engine(self, offline: bool = False) -> Engine:
        async with self._lock:
            engine = self.engines.get(offline)
            if engine is None:
                api = await self.api()
                engine = api.Engine(self.config(), offline=offline)
                await engine.open()
                self.engines[offline] = engine
            return engine

    async def aclose(self) -> None:
        """Cancel what still runs (its workspace goes, its record says so), then close."""
        for engine in self.engines.values():
            with contextlib.suppress(Exception):
                await engine.close()
        self.engines.clear()

    # -- paths and records ---------------------------------------------------------------------

    def relative(self, path: str) -> str:
        """A path the agent named, as project-relative; refused when it leads outside."""
        if not path or "\x00" in path:
            raise ToolProblem("name a file of the project (a path relative to its root)")
        try:
            relative = to_relative(self.root, path)
            resolve_in_root(self.root, relative)
        except PathEscapeError:
            raise ToolProblem(
                f"{path} is outside the project {self.root}: testmend works on this project's "
                "files only"
            ) from None
        return relative

    def relative_pattern(self, pattern: str) -> str:
        """A glob the agent named, as project-relative; refused when it reaches outside."""
        try:
            return to_relative(self.root, pattern)
        except PathEscapeError:
            raise ToolProblem(
                f"{pattern} reaches outside the project {self.root}: name files inside it"
            ) from None

    async def record(self, run_id: str) -> RunRecord:
        api = await self.api()
        try:
            record: RunRecord = api.RunStore(self.root).load(run_id)
        except KeyError:
            raise ToolProblem(f"no run {run_id!r} in this project") from None
        return record

    async def records(self) -> list[RunRecord]:
        api = await self.api()
        found: list[RunRecord] = await asyncio.to_thread(api.RunStore(self.root).all)
        return found

    def live(self, run_id: str) -> Followed | None:
        followed = self.followed.get(run_id)
        if followed is None:
            return None
        task = followed.handle.task
        return followed if task is not None and not task.done() else None

    def live_for(self, relative: str) -> Followed | None:
        for followed in self.followed.values():
            if followed.handle.file == relative and self.live(followed.handle.run_id):
                return followed
        return None

    # -- running -------------------------------------------------------------------------------

    async def start(self, relative: str, *, offline: bool, host: bool = False) -> Followed:
        api = await self.api()
        engine = await self.engine(offline)
        try:
            handle = await engine.start(api.RunRequest(file=relative), host=host)
        except (api.EngineError, PathEscapeError, OSError) as exc:
            raise ToolProblem(str(exc)) from None
        followed = Followed(handle, engine)
        self.followed[handle.run_id] = followed
        return followed

    async def submit(self, run_id: str, content: str) -> Followed:
        api = await self.api()
        engine = await self.engine(True)
        try:
            handle = await engine.submit(run_id, content)
        except (api.EngineError, KeyError, OSError) as exc:
            raise ToolProblem(str(exc).strip("'\"")) from None
        followed = Followed(handle, engine)
        followed.submitted = content
        self.followed[run_id] = followed
        return followed

    async def wait(self, followed: Followed, seconds: float, progress: Progress) -> bool:
        """Follow a run for at most ``seconds`` (capped), each event it had since the last look
        a progress notification; True when it ended."""
        task = followed.handle.task
        assert task is not None
        deadline = asyncio.get_running_loop().time() + max(0.0, min(seconds, MAX_WAIT_SECONDS))
        while True:
            await self._report(followed, progress)
            if task.done():
                return True
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return False
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), timeout=min(left, 1.0))

    @staticmethod
    async def _report(followed: Followed, progress: Progress) -> None:
        from ..workflow.events import StepStarted, event_line  # loaded with the engine

        history: list[RunEvent] = followed.handle.history
        for event in history[followed.seen :]:
            followed.seen += 1
            if isinstance(event, StepStarted):
                followed.step = event.step
            line = event_line(event)
            if line:
                await progress(float(followed.seen), line)

    async def outcome(self, followed: Followed) -> RunResult | None:
        """The result of a run that ended (None: it paused, failed or was cancelled)."""
        task = followed.handle.task
        assert task is not None and task.done()
        if task.cancelled():
            return None
        try:
            return task.result()
        except Exception:
            return None

    async def cancel(self, run_id: str) -> bool:
        followed = self.live(run_id)
        if followed is None:
            return False
        return await followed.engine.cancel(run_id)

    async def result(self, run_id: str) -> RunResult | None:
        """A finished run's result from its checkpoint (any process's run)."""
        await self.record(run_id)
        engine = await self.engine(True)
        return await engine.result(run_id)

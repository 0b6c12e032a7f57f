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
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..config import Config, ConfigError, load_config
from ..layout import find_project_root, state_dir
from ..workspace.paths import PathEscapeError, resolve_in_root, to_relative

if TYPE_CHECKING:
    from ..engine import Engine, RunHandle, RunRecord, RunResult
    from ..workflow.events import RunEvent
    from ..workflow.state import MigrationState

MAX_WAIT_SECONDS = 45.0
RUN_ID = re.compile(r"[a-z0-9][a-z0-9-]{3,63}")
Progress = Callable[[float, str], Awaitable[None]]


def _import_engine() -> ModuleType:
    importlib.import_module("testmend.engine.engine")  # ``Engine`` itself: the package is lazy
    return importlib.import_module("testmend.engine")


class ToolProblem(Exception):
    """A call the face cannot carry out: one sentence for the agent and its user."""


class Followed:
    """A run this process started: its handle, its project, its step, how many events it had."""

    def __init__(self, handle: RunHandle, engine: Engine, root: Path):
        self.handle = handle
        self.engine = engine
        self.root = root
        self.step: str | None = None
        self.seen = 0
        self.submitted: str | None = None
        """A host task's submission being checked."""


class Runs:
    """The runs of the projects in one folder (the server's): the folder itself, or the packages
    of a monorepo under it. A file belongs to the nearest project at or above it (its
    ``package.json``), as for the command line; paths in answers are the folder's."""

    def __init__(self, folder: Path, config_overrides: dict[str, Any] | None = None):
        self.root = folder
        self.overrides = config_overrides
        self.engines: dict[tuple[Path, bool], Engine] = {}
        self.followed: dict[str, Followed] = {}
        self.roots: dict[str, Path] = {}
        """Run id → its project, for the runs seen so far."""
        self._api: ModuleType | None = None
        self._lock = asyncio.Lock()

    # -- the engine ---------------------------------------------------------------------------

    async def api(self) -> ModuleType:
        """``testmend.engine`` with its ``Engine`` (langgraph, langchain: a second or more to
        import), in a worker thread."""
        if self._api is None:
            self._api = await asyncio.to_thread(_import_engine)
        return self._api

    def config(self, root: Path) -> Config:
        try:
            return load_config(root, editor_settings=self.overrides)
        except ConfigError as exc:
            raise ToolProblem(str(exc)) from None

    async def engine(self, root: Path, offline: bool = False) -> Engine:
        async with self._lock:
            engine = self.engines.get((root, offline))
            if engine is None:
                api = await self.api()
                engine = api.Engine(self.config(root), offline=offline)
                await engine.open()
                self.engines[(root, offline)] = engine
            return engine

    async def aclose(self) -> None:
        """Cancel what still runs (its workspace goes, its record says so), then close."""
        for engine in self.engines.values():
            with contextlib.suppress(Exception):
                await engine.close()
        self.engines.clear()

    # -- paths and records ---------------------------------------------------------------------

    def relative(self, path: str) -> str:
        """A path the agent named, relative to the folder; refused when it leads outside."""
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
        """A glob the agent named, relative to the folder; refused when it reaches outside."""
        try:
            return to_relative(self.root, pattern)
        except PathEscapeError:
            raise ToolProblem(
                f"{pattern} reaches outside the project {self.root}: name files inside it"
            ) from None

    def project(self, relative: str) -> tuple[Path, str]:
        """The project a file of the folder belongs to, and the file relative to it."""
        path = self.root / relative
        root = find_project_root(path)
        if not root.is_relative_to(self.root.resolve()):
            root = self.root
        return root, path.resolve().relative_to(root.resolve()).as_posix()

    def shown(self, root: Path, file: str) -> str:
        """A project's file as the folder names it."""
        return (root / file).relative_to(self.root).as_posix()

    def root_of(self, run_id: str) -> Path:
        """The project a run belongs to: known, or found by its record under the folder."""
        known = self.roots.get(run_id)
        if known is not None:
            return known
        if not RUN_ID.fullmatch(run_id):
            raise ToolProblem(f"no run {run_id!r} in this project")
        from ..engine.kept import projects_with_runs  # loaded with the engine

        for root in projects_with_runs(self.root):
            if (state_dir(root) / "runs" / run_id / "run.json").is_file():
                self.roots[run_id] = root
                return root
        raise ToolProblem(f"no run {run_id!r} in this project")

    async def record(self, run_id: str) -> RunRecord:
        await self.api()
        from ..engine.stores import open_store

        root = await asyncio.to_thread(self.root_of, run_id)
        try:
            record: RunRecord = await asyncio.to_thread(open_store(root).load, run_id)
        except KeyError:
            raise ToolProblem(f"no run {run_id!r} in this project") from None
        return record

    async def records(self) -> list[tuple[Path, RunRecord]]:
        """Every run of every project under the folder (each project's in order)."""
        await self.api()

        def load() -> list[tuple[Path, RunRecord]]:
            from ..engine.kept import projects_with_runs
            from ..engine.stores import open_store

            found = []
            for root in projects_with_runs(self.root):
                for record in open_store(root).all():
                    self.roots.setdefault(record.run_id, root)
                    found.append((root, record))
            return found

        return await asyncio.to_thread(load)

    def live(self, run_id: str) -> Followed | None:
        followed = self.followed.get(run_id)
        if followed is None:
            return None
        task = followed.handle.task
        return followed if task is not None and not task.done() else None

    def live_for(self, relative: str) -> Followed | None:
        for followed in self.followed.values():
            shown = self.shown(followed.root, followed.handle.file)
            if shown == relative and self.live(followed.handle.run_id):
                return followed
        return None

    # -- running -------------------------------------------------------------------------------

    async def start(self, relative: str, *, offline: bool, host: bool = False) -> Followed:
        api = await self.api()
        root, file = self.project(relative)
        engine = await self.engine(root, offline)
        try:
            handle = await engine.start(api.RunRequest(file=file), host=host)
        except (api.EngineError, PathEscapeError, OSError) as exc:
            raise ToolProblem(str(exc)) from None
        followed = Followed(handle, engine, root)
        self.followed[handle.run_id] = followed
        self.roots[handle.run_id] = root
        return followed

    async def submit(self, run_id: str, content: str) -> Followed:
        api = await self.api()
        root = self.root_of(run_id)
        engine = await self.engine(root, True)
        try:
            handle = await engine.submit(run_id, content)
        except (api.EngineError, KeyError, OSError) as exc:
            raise ToolProblem(str(exc).strip("'\"")) from None
        followed = Followed(handle, engine, root)
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
        engine = await self.engine(self.root_of(run_id), True)
        return await engine.result(run_id)

    async def state(self, run_id: str) -> MigrationState | None:
        engine = await self.engine(self.root_of(run_id), True)
        return await engine.state(run_id)

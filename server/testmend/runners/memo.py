"""Results of the project's checks, kept by the content of the file they were about.

Within a run the test file is the only file that changes, so eslint's and tsc's results for
one content of it hold until it changes: a step that asks again gets the result (or waits for
the run already going) instead of a second run. A check can be started early (``prefetch``),
beside jest, and found done when its step comes. A result is kept only if the file still has
that content when the check ends (an edit during the run would have made it torn).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")
Key = tuple[str, str, str]
MAX_ENTRIES = 32


def digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.debug("a prefetched check failed: %s", task.exception())


class ContentMemo:
    def __init__(self) -> None:
        self._tasks: dict[Key, asyncio.Future[Any]] = {}

    def start(self, tool: str, rel: str, path: Path, make: Callable[[], Awaitable[T]]) -> Key:
        """Start the check for the file's current content unless it is known or running."""
        key = (tool, rel, digest(path))
        if key not in self._tasks:
            while len(self._tasks) >= MAX_ENTRIES:
                self._tasks.pop(next(iter(self._tasks))).cancel()
            task = asyncio.ensure_future(self._checked(key, path, make))
            task.add_done_callback(_retrieve)
            self._tasks[key] = task
        return key

    async def _checked(self, key: Key, path: Path, make: Callable[[], Awaitable[T]]) -> T:
        result = await make()
        if digest(path) != key[2]:  # the file changed meanwhile: the result may be torn
            self._tasks.pop(key, None)
        return result

    async def get(self, tool: str, rel: str, path: Path, make: Callable[[], Awaitable[T]]) -> T:
        """The check's result for the file's current content (run now, or already run)."""
        key = self.start(tool, rel, path, make)
        task = self._tasks.get(key)
        if task is None:  # dropped as torn right away: run it for this content
            return await make()
        try:
            result: T = await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                self._tasks.pop(key, None)
            raise
        except Exception:
            self._tasks.pop(key, None)  # a failure is not kept: the next ask runs again
            raise
        return result

    async def aclose(self) -> None:
        """Stop the checks still running (their processes are killed)."""
        running = [t for t in self._tasks.values() if not t.done()]
        self._tasks.clear()
        for task in running:
            task.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)

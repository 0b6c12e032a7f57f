"""Results of the original test's runs and of the checks, kept on disk from one run to the next.

A migration runs the original test twice over: once to capture its DOM and baseline, once per
mutant in the intent check. Neither depends on the candidate, so a second run of the same
file (a retry, a run with a model after an offline one, a batch run again) would repeat them
for nothing, and an agent's every new candidate would repeat the original's mutant runs. They
are kept under a key made of everything they depend on:

- what the shadow workspace holds (``workspace/state.py``: HEAD, every changed or untracked
  file's content, the installed packages), leaving out the file under migration, whose
  original content is part of the key instead;
- the tools: the test command, its environment, the sandbox's kind and network rule, the node
  binary, testmend's version and the helpers it hands jest (``ProjectRunners.identity``);
- what was run: the purpose and its inputs (the capture's setup file, the mutants).

A result is only kept when it is a clean one (every test of the original passed): a flaky
failure is tried again next time, never frozen. Only test runs of the user's own code are
kept, never the candidate's: that is what a run checks afresh. eslint's and tsc's results are
kept for any content of the file (they run none of its code), its content part of the key
(``ProjectRunners.keep_checks_in``). Entries live in ``.testmend/cache/results/`` of the
project (out of the sandbox's reach), newest ``MAX_ENTRIES`` kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from ..workspace.files import atomic_write
from ..workspace.state import workspace_state

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
MAX_ENTRIES = 512
FORMAT = "1"
"""Bumped when what a kept result means changes (a reader of another format misses)."""


def digest(*parts: str) -> str:
    h = hashlib.sha256(f"kept {FORMAT}\n".encode())
    for part in parts:
        h.update(hashlib.sha256(part.encode("utf-8", "surrogateescape")).digest())
    return h.hexdigest()


class ResultCache:
    """JSON files named by their key in one directory, the oldest dropped past ``max_entries``."""

    def __init__(self, directory: Path, *, max_entries: int = MAX_ENTRIES):
        self.directory = directory
        self.max_entries = max_entries

    def _path(self, key: str) -> Path:
        if len(key) != 64 or not all(c in "0123456789abcdef" for c in key):
            raise ValueError(f"not a result key: {key!r}")
        return self.directory / f"{key}.json"

    def get(self, key: str, model: type[M]) -> M | None:
        path = self._path(key)
        try:
            value = model.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:  # a torn or older entry (ValidationError)
            logger.debug("a kept result could not be read (%s): %s", path.name, exc)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: dropped last
        return value

    def put(self, key: str, value: BaseModel) -> None:
        path = self._path(key)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            atomic_write(path, value.model_dump_json().encode("utf-8"))
            self._trim()
        except OSError as exc:  # a cache that cannot be written costs time, never a run
            logger.debug("a result could not be kept (%s): %s", path.name, exc)

    def _trim(self) -> None:
        entries = []
        for entry in os.scandir(self.directory):
            if entry.name.endswith(".json"):
                try:
                    entries.append((entry.stat().st_mtime_ns, entry.path))
                except OSError:
                    continue
        if len(entries) <= self.max_entries:
            return
        entries.sort()
        for _, path in entries[: len(entries) - self.max_entries]:
            try:
                os.unlink(path)
            except OSError:
                continue


class KeptResults:
    """One run's access to the kept results: keys from its workspace's state and its tools."""

    def __init__(
        self,
        cache: ResultCache,
        *,
        workspace_root: Path,
        tools: str,
        linked: Sequence[Path] = (),
    ):
        self.cache = cache
        self.workspace_root = workspace_root
        self.tools = tools
        self.linked = tuple(linked)

    async def key(self, purpose: str, *parts: str, exclude: Sequence[str] = ()) -> str | None:
        """The key of ``purpose`` run with ``parts`` in the workspace as it is now (leaving
        out the project-relative ``exclude``); None when the workspace's state is unknown."""
        state = await asyncio.to_thread(
            workspace_state, self.workspace_root, exclude=exclude, linked=self.linked
        )
        if state is None:
            return None
        return digest(purpose, state, self.tools, *parts)

    async def get(self, key: str | None, model: type[M]) -> M | None:
        """The kept result (read off the event loop: the language server answers meanwhile)."""
        return None if key is None else await asyncio.to_thread(self.cache.get, key, model)

    async def put(self, key: str | None, value: BaseModel) -> None:
        if key is not None:
            await asyncio.to_thread(self.cache.put, key, value)

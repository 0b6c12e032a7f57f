"""The store of a project's runs, as its configuration names it: ``.testmend/`` (``store.py``)
or a team's Postgres (``pg_store.py``, loaded only then)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from .store import RunStore


def open_store(project_root: Path, url: str | Literal["config"] | None = "config") -> RunStore:
    """The store of a project's runs: ``url`` (None: ``.testmend/``), or, by default, the one
    its configuration names (``store.url``, ``TESTMEND_STORE__URL``)."""
    if url == "config":
        from ..config import store_location

        url = store_location(project_root)
    if url is None:
        return RunStore(project_root)
    from .pg_store import PostgresRunStore  # psycopg: only for a Postgres store

    key = (project_root.resolve(), url)
    store = _SHARED.get(key)  # one connection per project and database in a process
    if store is None:
        store = _SHARED[key] = PostgresRunStore(project_root, url)
    return store


_SHARED: dict[tuple[Path, str], RunStore] = {}

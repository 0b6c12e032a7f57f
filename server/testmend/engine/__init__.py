"""The engine: the one API the CLI and the language server use to run migrations.

``Engine`` (and the workflow, langgraph and langchain behind it) loads when first asked for: a
face that only checks a request (``prechecks``) or reads the runs (``store``) starts without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .models import EngineError, RunHandle, RunRequest, RunResult
from .store import RunRecord, RunStore

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["Engine", "EngineError", "RunHandle", "RunRecord", "RunRequest", "RunResult", "RunStore"]


def __getattr__(name: str) -> Any:
    if name == "Engine":
        from .engine import Engine

        return Engine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

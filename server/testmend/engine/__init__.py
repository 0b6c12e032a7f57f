"""The engine: the one API the CLI and the language server use to run migrations."""

from .engine import Engine, EngineError, RunHandle, RunRequest, RunResult
from .store import RunRecord, RunStore

__all__ = ["Engine", "EngineError", "RunHandle", "RunRecord", "RunRequest", "RunResult", "RunStore"]

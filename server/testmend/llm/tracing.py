"""Opt-in LangSmith tracing of a run's agents, from LangSmith's own environment variables.

Set ``LANGSMITH_TRACING=true`` and ``LANGSMITH_API_KEY`` (and optionally ``LANGSMITH_ENDPOINT``,
``LANGSMITH_PROJECT``; the older ``LANGCHAIN_*`` names work too) and each run sends its tree:
the run (``testmend migrate src/A.test.tsx``, tags ``testmend`` and the mode, metadata run id,
file, mode and the model of each agent), its steps, each step's agent (tag ``step:<name>``), the
model calls and the tool calls with their timings and token counts.

What is never sent: secrets (the model's API key is not in the run's config, and LangSmith's own
key travels only in its header), and, unless ``tracing.contents`` is true, any input or output
of a run: prompts, answers, tool arguments and results all hold the user's files. A tracing
endpoint that fails is logged at WARNING and never fails the run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from langchain_core.callbacks import BaseCallbackHandler
from pydantic import SecretStr

from .. import __version__
from ..config import AgentName, Config

logger = logging.getLogger(__name__)

_ENABLED = (
    "LANGSMITH_TRACING",
    "LANGSMITH_TRACING_V2",
    "LANGCHAIN_TRACING_V2",
    "LANGCHAIN_TRACING",
)
AGENTS: tuple[AgentName, ...] = get_args(AgentName)
HIDDEN = {"hidden": "testmend does not trace file contents; set tracing.contents to include them"}


def _first(environ: Mapping[str, str], *names: str) -> str | None:
    return next((environ[n] for n in names if environ.get(n)), None)


@dataclass(frozen=True)
class TracingSettings:
    """Where traces go, from the environment. ``None`` from :meth:`from_environ`: off."""

    api_url: str | None
    api_key: SecretStr | None
    project: str | None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> TracingSettings | None:
        if not any(environ.get(name, "").lower() == "true" for name in _ENABLED):
            return None
        key = _first(environ, "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")
        return cls(
            api_url=_first(environ, "LANGSMITH_ENDPOINT", "LANGCHAIN_ENDPOINT"),
            api_key=SecretStr(key) if key else None,
            project=_first(environ, "LANGSMITH_PROJECT", "LANGCHAIN_PROJECT"),
        )


class RunTracer:
    """One LangSmith client for an engine; :meth:`run_config` is what one run adds to its
    LangGraph config."""

    def __init__(self, settings: TracingSettings, *, contents: bool = False):
        from langsmith import Client  # only when tracing is on

        hide = None if contents else (lambda _: dict(HIDDEN))
        self.settings = settings
        self.client = Client(
            api_url=settings.api_url,
            api_key=settings.api_key.get_secret_value() if settings.api_key else None,
            hide_inputs=hide,
            hide_outputs=hide,
            tracing_error_callback=lambda exc: logger.warning("LangSmith tracing failed: %s", exc),
        )

    def run_config(self, *, run_id: str, mode: str, file: str, config: Config) -> dict[str, Any]:
        from langchain_core.tracers import LangChainTracer

        tracer: BaseCallbackHandler = LangChainTracer(
            client=self.client, project_name=self.settings.project
        )
        models = {f"model_{agent}": config.model.model_for(agent) or "" for agent in AGENTS}
        return {
            "callbacks": [tracer],
            "run_name": f"testmend {mode} {file}",
            "tags": ["testmend", mode],
            "metadata": {
                "testmend_run_id": run_id,
                "file": file,
                "mode": mode,
                "testmend_version": __version__,
                **models,
            },
        }

    def flush(self, timeout: float) -> None:
        """Send what is queued (a CLI run's process ends right after), waiting at most
        ``timeout`` seconds for a slow endpoint."""
        try:
            self.client.flush(timeout=timeout)
        except Exception as exc:  # a tracing endpoint never fails a run
            logger.warning("LangSmith tracing failed: %s", exc)

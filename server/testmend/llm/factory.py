"""Chat models from configuration, a circuit breaker, and token accounting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import LLMResult

from ..config import AgentName, ModelConfig


class ModelNotConfiguredError(RuntimeError):
    def __init__(self) -> None:
        super().__init__(
            "no model is configured: set model.tiers.full (and .mini) and export OPENAI_API_KEY "
            "(or OPENAI_BASE_URL), or run offline"
        )


class ModelUnavailableError(RuntimeError):
    """The endpoint cannot serve the run (failed too often in a row, or refused it for good):
    the run stops instead of burning attempts."""


def build_chat_model(config: ModelConfig, agent: AgentName) -> BaseChatModel:
    """A ``ChatOpenAI`` for the agent's tier: base URL, key (from the environment), timeout,
    retries."""
    from langchain_openai import ChatOpenAI  # heavy import: only when a model is really used

    name = config.model_for(agent)
    if not config.configured or name is None:
        raise ModelNotConfiguredError()
    kwargs: dict[str, Any] = {
        "model": name,
        "timeout": config.timeout_seconds,
        "max_retries": config.max_retries,
        "stream_usage": True,
        "streaming": config.streaming,
    }
    if config.base_url:
        kwargs["base_url"] = config.base_url
    # A local endpoint may need no key; the client insists on one, so send a placeholder.
    kwargs["api_key"] = config.api_key.get_secret_value() if config.api_key else "unused"
    return ChatOpenAI(**kwargs)


ModelFactory = Callable[[AgentName], BaseChatModel]


def model_factory(config: ModelConfig) -> ModelFactory:
    return lambda agent: build_chat_model(config, agent)


@dataclass
class CircuitBreaker:
    """Opens after ``threshold`` consecutive failed model calls; any success closes it."""

    threshold: int = 3
    consecutive_failures: int = 0
    last_error: str = ""

    def record_success(self) -> None:
        self.consecutive_failures = 0

    def record_failure(self, fault: str) -> None:
        """``fault``: what went wrong, in words (``llm.faults``)."""
        self.consecutive_failures += 1
        self.last_error = fault[:500]

    @property
    def open(self) -> bool:
        return self.consecutive_failures >= self.threshold

    def check(self) -> None:
        if self.open:
            raise ModelUnavailableError(
                f"the model endpoint failed {self.consecutive_failures} times in a row "
                f"(last: {self.last_error}); stopping the run — check model.baseUrl, the "
                "endpoint's status and its rate limits, then resume the run"
            )


@dataclass
class TokenUsage:
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens


class UsageRecorder(BaseCallbackHandler):
    """Callback that adds up token usage per step. It carries the run's circuit breaker, which
    ``workflow.agents.StepGuard`` feeds: a call whose answer could not be parsed still ends here
    as a success, so successes are counted there too.

    A plain class (not a dataclass): LangGraph derives a schema from the run context's fields,
    and a lock field would trip pydantic.
    """

    def __init__(self, breaker: CircuitBreaker | None = None):
        super().__init__()
        self.breaker = breaker or CircuitBreaker()
        self.by_step: dict[str, TokenUsage] = {}
        self.step = "unknown"
        self._lock = threading.Lock()

    def usage(self, step: str) -> TokenUsage:
        return self.by_step.setdefault(step, TokenUsage())

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        with self._lock:
            usage = self.usage(self.step)
            for generations in response.generations:
                for generation in generations:
                    meta = getattr(getattr(generation, "message", None), "usage_metadata", None)
                    if meta:
                        usage.input_tokens += int(meta.get("input_tokens", 0))
                        usage.output_tokens += int(meta.get("output_tokens", 0))

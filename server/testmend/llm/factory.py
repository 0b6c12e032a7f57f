"""Chat models from configuration, a circuit breaker, and token accounting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import LLMResult

from ..config import AgentName, Budget, ModelConfig, Price


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
    cost: float = 0.0
    """US dollars, for the models with a price (``budget.prices``)."""

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens


def cost_of(price: Price | None, input_tokens: int, output_tokens: int) -> float:
    if price is None:
        return 0.0
    return (input_tokens * price.input + output_tokens * price.output) / 1_000_000


class UsageRecorder(BaseCallbackHandler):
    """Callback that adds up token usage per step. It carries the run's circuit breaker, which
    ``workflow.agents.StepGuard`` feeds: a call whose answer could not be parsed still ends here
    as a success, so successes are counted there too.

    A plain class (not a dataclass): LangGraph derives a schema from the run context's fields,
    and a lock field would trip pydantic.
    """

    def __init__(self, breaker: CircuitBreaker | None = None, budget: Budget | None = None):
        super().__init__()
        self.breaker = breaker or CircuitBreaker()
        self.budget = budget or Budget()
        self.by_step: dict[str, TokenUsage] = {}
        self.step = "unknown"
        self.model = ""
        """The model the current step calls: its price is the one counted."""
        self.run_tokens = 0
        """Everything the run spent, across steps (and, resumed, what it spent before)."""
        self.run_cost = 0.0
        self.counted_messages: set[str] = set()
        """Ids of the answers counted here: an answer in a resumed agent's conversation that
        is not among them was received by a process that died (``agents.run_agent``)."""
        self._lock = threading.Lock()

    def usage(self, step: str) -> TokenUsage:
        return self.by_step.setdefault(step, TokenUsage())

    def carry(self, tokens: int, cost: float) -> None:
        """What a resumed run spent before it stopped: it counts toward the budget."""
        self.run_tokens += tokens
        self.run_cost += cost

    @property
    def priced(self) -> bool:
        """Whether the run's cost can be estimated (some model has a price)."""
        return bool(self.budget.prices)

    def over_budget(self) -> str | None:
        """Why the run must stop spending, or None."""
        limit_tokens, limit_cost = self.budget.max_tokens, self.budget.max_cost
        if limit_tokens is not None and self.run_tokens >= limit_tokens:
            return f"the token budget is spent ({self.run_tokens} of {limit_tokens} tokens)"
        if limit_cost is not None and self.run_cost >= limit_cost:
            return f"the cost budget is spent (${self.run_cost:.4f} of ${limit_cost:.4f})"
        return None

    def record(self, step: str, input_tokens: int, output_tokens: int) -> None:
        """Tokens the step spent, priced at the current model's price."""
        with self._lock:
            usage = self.usage(step)
            cost = cost_of(self.budget.prices.get(self.model), input_tokens, output_tokens)
            usage.input_tokens += input_tokens
            usage.output_tokens += output_tokens
            usage.cost += cost
            self.run_tokens += input_tokens + output_tokens
            self.run_cost += cost

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                meta = getattr(message, "usage_metadata", None)
                if getattr(message, "id", None):
                    self.counted_messages.add(str(message.id))  # type: ignore[union-attr]
                if meta:
                    spent_in = int(meta.get("input_tokens", 0))
                    spent_out = int(meta.get("output_tokens", 0))
                    self.record(self.step, spent_in, spent_out)

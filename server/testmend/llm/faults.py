"""What went wrong with a model call, named for the person who has to fix it.

Three kinds, each handled differently by the agents (``workflow/agents.py``):

- ``transient``: timeouts, connection failures, 408/409/429/5xx. Retried; consecutive ones open
  the circuit breaker.
- ``garbage``: the endpoint answered 200 with something that is not a chat completion (an HTML
  page, ``"choices": []``, no ``choices``). Counted and retried like a transient fault: proxies
  and overloaded local servers produce it now and then.
- ``permanent``: 400/401/403/404/422. Retrying cannot help; the run stops at once, saying what to
  check (the key, the model name, the base URL, the context window).
"""

from __future__ import annotations

import re
import sysconfig
import traceback
from dataclasses import dataclass
from typing import Literal

FaultKind = Literal["transient", "garbage", "permanent"]

_CLIENT_PACKAGES = {"openai", "httpx", "httpcore"}
# Code that parses the endpoint's answer: an exception raised there (ValueError, IndexError,
# TypeError, JSONDecodeError …) means the answer was not a chat completion.
_PARSING_CODE = ("langchain_openai/", "openai/", "langchain_core/language_models/")
_STDLIB = sysconfig.get_paths()["stdlib"].replace("\\", "/")
_CONTEXT_LENGTH = re.compile(
    r"context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long", re.I
)


@dataclass(frozen=True)
class ModelFault:
    kind: FaultKind
    message: str
    """One line: what happened and what to check."""
    too_long: bool = False
    """The endpoint said the prompt does not fit the model's context window."""


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def _said(exc: BaseException) -> str:
    """What the endpoint said, short: the error body's message, else the exception's text."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else None
        if isinstance(message, str):
            return message[:300]
    text = str(exc).removeprefix("Error code: ")
    return re.sub(r"\s+", " ", text)[:300]


def _chain(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and len(chain) < 6:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return chain


def _from_client(exc: BaseException) -> bool:
    package = type(exc).__module__.split(".", 1)[0]
    return package in _CLIENT_PACKAGES or type(exc).__module__.startswith("langchain_openai")


def _raised_while_parsing(exc: BaseException) -> bool:
    """Raised by the client's parsing code itself (the innermost frame that is not the
    standard library's, e.g. ``json`` under the client's decode): not by a model of ours (a
    scripted model) nor by a callback."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = frame.filename.replace("\\", "/")
        if path.startswith(_STDLIB) and "-packages/" not in path:
            continue
        return any(part in path for part in _PARSING_CODE)
    return False


def classify(exc: BaseException, *, model: str = "", base_url: str = "") -> ModelFault | None:
    """The fault behind a failed model call, or None when it is not the endpoint's (a bug)."""
    where = f" at {base_url}" if base_url else ""
    for error in _chain(exc):
        status = _status(error)
        if status is not None:
            said = _said(error)
            if 200 <= status < 300:  # the client could not read a successful answer
                return _garbage(where, error)
            if status in (401, 403):
                return ModelFault(
                    "permanent",
                    f"the endpoint{where} refused the API key ({status}: {said}); check the key "
                    "in the variable model.apiKeyEnv names (OPENAI_API_KEY by default)",
                )
            if status == 404:
                return ModelFault(
                    "permanent",
                    f"the endpoint{where} does not know the model {model or '?'} or the path "
                    f"({status}: {said}); check model.tiers and model.baseUrl",
                )
            if status in (400, 413, 422) and _CONTEXT_LENGTH.search(said):
                return ModelFault(
                    "permanent",
                    f"the prompt does not fit the context window of {model or 'the model'} "
                    f"({status}: {said}); set model.contextWindow for its tier to the "
                    "model's real window, or use a model with a larger one",
                    too_long=True,
                )
            if status in (400, 413, 422):
                return ModelFault(
                    "permanent",
                    f"the endpoint{where} rejected the request ({status}: {said}); check that "
                    "model.baseUrl is an OpenAI-compatible chat-completions endpoint and that "
                    f"{model or 'the model'} supports tool calls",
                )
            if status == 429:
                return ModelFault("transient", f"rate limited (429: {said})")
            return ModelFault("transient", f"the endpoint{where} answered {status} ({said})")
        name = type(error).__name__
        if isinstance(error, TimeoutError) or "Timeout" in name:
            return ModelFault("transient", f"no answer from the endpoint{where} in time ({name})")
        if isinstance(error, ConnectionError) or "Connect" in name:
            return ModelFault(
                "transient", f"cannot reach the endpoint{where} ({name}: {_said(error)})"
            )
        if _from_client(error):
            return ModelFault("transient", f"the endpoint{where} failed ({name}: {_said(error)})")
    if _raised_while_parsing(exc):
        return _garbage(where, exc)
    return None


def _garbage(where: str, exc: BaseException) -> ModelFault:
    return ModelFault(
        "garbage",
        f"the endpoint{where} answered with something that is not a chat completion "
        f"({type(exc).__name__}: {_said(exc)[:160]})",
    )

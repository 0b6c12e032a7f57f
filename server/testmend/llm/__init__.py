"""Chat models: the configured OpenAI-compatible endpoint, and a scripted model for tests.

The names load when first asked for: langchain is about 0.4 s of imports, which a face that only
says which tier runs (``probe.tier_line``) or refuses a file does not pay.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .factory import (
        CircuitBreaker,
        ModelFactory,
        ModelNotConfiguredError,
        ModelUnavailableError,
        UsageRecorder,
        build_chat_model,
        model_factory,
    )
    from .scripted import ScriptedChatModel, reply, tool_call

_HOMES = {
    "CircuitBreaker": "factory",
    "ModelFactory": "factory",
    "ModelNotConfiguredError": "factory",
    "ModelUnavailableError": "factory",
    "UsageRecorder": "factory",
    "build_chat_model": "factory",
    "model_factory": "factory",
    "ScriptedChatModel": "scripted",
    "reply": "scripted",
    "tool_call": "scripted",
}

__all__ = [
    "CircuitBreaker",
    "ModelFactory",
    "ModelNotConfiguredError",
    "ModelUnavailableError",
    "ScriptedChatModel",
    "UsageRecorder",
    "build_chat_model",
    "model_factory",
    "reply",
    "tool_call",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)

"""Chat models: the configured OpenAI-compatible endpoint, and a scripted model for tests."""

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

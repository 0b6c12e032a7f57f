"""The sandbox every command on candidate code runs in (see docs/sandbox.md)."""

from .policy import SandboxPolicy, build_policy, tool_env
from .runtime import Launch, Sandbox, sandbox_for
from .select import SandboxChoice, SandboxKind, choose_sandbox

__all__ = [
    "Launch",
    "Sandbox",
    "SandboxChoice",
    "SandboxKind",
    "SandboxPolicy",
    "build_policy",
    "choose_sandbox",
    "sandbox_for",
    "tool_env",
]

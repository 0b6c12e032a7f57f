"""Landlock: the kernel's own access control, applied by the launcher before the command starts.

Landlock grants, it cannot deny: "everything but ~/.ssh" becomes a rule for each sibling of each
directory on the way down to a hidden path. Writes are granted beneath the policy's writable
trees only; TCP is denied (ABI ≥ 4). What Landlock cannot do: UDP and Unix sockets stay open
(no network namespace), so bubblewrap is preferred where it works (see docs/sandbox.md).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from .launch import landlock_abi
from .policy import SandboxPolicy, is_under

#: Device files the tools write to (/dev/null, /dev/tty, …).
DEVICES = ("/dev",)
#: Landlock must cover network to keep the command off it: TCP rules came with ABI 4.
NETWORK_ABI = 4


@functools.cache
def abi() -> int:
    return landlock_abi()


def read_paths(policy: SandboxPolicy) -> list[str]:
    """Paths to grant read access beneath: ``/`` minus the hidden paths, plus the readable."""
    hidden = set(policy.hidden)
    granted: list[str] = []

    def grant(directory: Path) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            path = Path(entry.path)
            if path in hidden:
                continue
            below = any(path in h.parents for h in hidden)
            if below and entry.is_dir(follow_symlinks=False):
                grant(path)
            else:
                granted.append(str(path))

    if hidden:
        grant(Path("/"))
    else:
        granted.append("/")
    granted += [str(p) for p in policy.readable if is_under(p, policy.hidden)]
    return granted


def spec(policy: SandboxPolicy) -> dict[str, object]:
    policy.temp_dir.mkdir(parents=True, exist_ok=True)
    return {
        "abi": abi(),
        "read": read_paths(policy),
        "write": [str(p) for p in policy.writable],
        "devices": list(DEVICES),
    }

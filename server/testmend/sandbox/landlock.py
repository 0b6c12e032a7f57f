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

    def covers_hidden(path: Path) -> bool:
        return path in hidden or any(path in h.parents for h in hidden)

    def grant(directory: Path) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                # A rule follows the link: one leading to (or above) a hidden path would
                # uncover it. Its target is reached by the walk under its own name anyway.
                target = Path(os.path.realpath(path))
                if not covers_hidden(target):
                    granted.append(str(path))
            elif path in hidden:
                continue
            elif covers_hidden(path) and entry.is_dir(follow_symlinks=False):
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

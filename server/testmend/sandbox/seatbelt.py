"""macOS: ``sandbox-exec -p PROFILE`` with a profile generated from the policy.

Deny by default; allow processes, reading the filesystem except the hidden paths, writing only
beneath the writable trees (and the usual device files), and no network unless allowed. In SBPL
the last rule that matches wins, so the order below is: allow reads, deny the hidden, allow the
readable again, allow the writable.

Not run on Linux (it cannot be): the profile text is unit-tested; docs/sandbox.md says so.
"""

from __future__ import annotations

import os

from .policy import SandboxPolicy

SANDBOX_EXEC = "/usr/bin/sandbox-exec"

_BASE = """\
(version 1)
(deny default)
(allow process-exec process-fork process-info* signal)
(allow sysctl-read)
(allow mach-lookup)
(allow ipc-posix-shm ipc-posix-sem)
(allow iokit-open)
(allow pseudo-tty)
(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))
(allow file-read*)
"""
_DEVICES = (
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty")'
    ' (literal "/dev/dtracehelper") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))'
)


def quote(path: str | os.PathLike[str]) -> str:
    """An SBPL string literal."""
    text = os.fspath(path)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _filters(paths: list[str]) -> str:
    return " ".join(f"(subpath {quote(p)})" for p in paths)


def profile(policy: SandboxPolicy, proxy_port: int | None = None) -> str:
    """The profile for ``policy``: no network but, with ``proxy_port``, the allow-list proxy."""
    lines = [_BASE.rstrip("\n")]
    if policy.hidden:
        lines.append(f"(deny file-read* {_filters([str(p) for p in policy.hidden])})")
    if policy.readable:
        lines.append(f"(allow file-read* {_filters([str(p) for p in policy.readable])})")
    lines.append(f"(allow file-write* {_filters([str(p) for p in policy.writable])})")
    lines.append(_DEVICES)
    if proxy_port is not None:
        lines.append(f'(allow network-outbound (remote ip "localhost:{proxy_port}"))')
    return "\n".join(lines) + "\n"


def command_prefix(policy: SandboxPolicy, proxy_port: int | None = None) -> list[str]:
    return [SANDBOX_EXEC, "-p", profile(policy, proxy_port)]

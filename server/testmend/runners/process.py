"""Run one command in its own process group, with a timeout that kills the whole group."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import MissingBinaryError, RunnerTimeoutError

# Grace period between SIGTERM and SIGKILL: jest and tsc exit promptly on SIGTERM.
KILL_GRACE_SECONDS = 2.0
# Output kept for error messages; the structured results come from JSON files, not from here.
MAX_CAPTURED_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Completed:
    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    duration_s: float


def _kill_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


async def reap(proc: asyncio.subprocess.Process, grace: float = KILL_GRACE_SECONDS) -> None:
    """Stop the whole group: SIGTERM, then SIGKILL after ``grace`` seconds (none: at once)."""
    if grace > 0:
        _kill_group(proc.pid, signal.SIGTERM)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), grace)
    # Children (jest workers, watchers) may outlive the leader: always finish the group off.
    _kill_group(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        await proc.wait()


async def _read_capped(stream: asyncio.StreamReader | None) -> bytes:
    if stream is None:
        return b""
    chunks: list[bytes] = []
    size = 0
    while chunk := await stream.read(65536):
        if size < MAX_CAPTURED_BYTES:
            chunks.append(chunk[: MAX_CAPTURED_BYTES - size])
        size += len(chunk)
    return b"".join(chunks)


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


async def run_command(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    tool: str,
    prefix: Sequence[str] = (),
) -> Completed:
    """Run ``argv`` in ``cwd``; raise RunnerTimeoutError (group killed) after ``timeout`` s.

    ``prefix`` starts it (the sandbox: ``bwrap … --`` or the launcher); errors name ``argv``
    only. Cancelling the awaiting task kills the process group as well, so a cancelled run
    leaves no jest or tsc behind.
    """
    started = time.perf_counter()
    if prefix and shutil.which(argv[0], path=env.get("PATH")) is None:
        # Inside the sandbox a missing binary would be the sandbox's error: say it here.
        reason = "was not found" if not os.path.exists(argv[0]) else "is not executable"
        raise MissingBinaryError(tool, argv[0], cwd, reason=reason)
    try:
        proc = await asyncio.create_subprocess_exec(
            *prefix,
            *argv,
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    except FileNotFoundError as exc:
        raise MissingBinaryError(tool, argv[0], cwd) from exc
    except PermissionError as exc:
        raise MissingBinaryError(tool, argv[0], cwd, reason="is not executable") from exc

    gather = asyncio.gather(_read_capped(proc.stdout), _read_capped(proc.stderr), proc.wait())
    # Cancelled by a timeout or by our caller, a reader may still fail on the closed pipe: read
    # its error so that asyncio does not log "exception was never retrieved".
    gather.add_done_callback(_retrieve)
    try:
        stdout, stderr, returncode = await asyncio.wait_for(gather, timeout)
    except TimeoutError:
        # Past its time the group is stuck (a busy loop does not run a SIGTERM handler): no
        # grace, or a hang would cost the grace period on top of the timeout.
        await reap(proc, grace=0)
        raise RunnerTimeoutError(tool, list(argv), timeout) from None
    except asyncio.CancelledError:
        await reap(proc)
        raise
    # The leader exited; workers it left in the group must not linger.
    _kill_group(proc.pid, signal.SIGKILL)
    return Completed(
        argv=tuple(argv),
        returncode=returncode,
        stdout=stdout.decode("utf-8", "replace"),
        stderr=stderr.decode("utf-8", "replace"),
        duration_s=time.perf_counter() - started,
    )

"""Stopping a command: Ctrl-C, SIGTERM (a CI job's timeout) and SIGHUP (a closed terminal)
alike cancel the runs (the engine records them as interrupted, releases their workspaces and
slots), print one line and exit with 128 + the signal's number; ``testmend resume --all``
continues them."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Coroutine
from typing import Any

__all__ = ["run_until_stopped"]

_STOPPING = (signal.SIGTERM, signal.SIGHUP)


def run_until_stopped(work: Coroutine[Any, Any, int]) -> int:
    """``work`` to its end, or until a signal stops it (its tasks cancelled and awaited)."""
    received: list[int] = []

    async def main() -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None

        def stop(signum: int) -> None:
            received.append(signum)
            task.cancel()

        for signum in _STOPPING:
            loop.add_signal_handler(signum, stop, signum)
        return await work

    try:
        return asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        signum = received[0] if received else signal.SIGINT
        name = signal.Signals(signum).name
        print(
            f"testmend: stopped ({name}); the runs are cancelled, `testmend resume --all` "
            "continues them",
            file=sys.stderr,
        )
        return 128 + signum

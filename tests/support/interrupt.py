"""A test run stopped with SIGTERM (a CI job's timeout, ``timeout``, a killed terminal) ends as
one stopped with Ctrl-C: pytest then tears its fixtures down, so the session's Postgres cluster
and Redis stop and their folders go. Python's default for SIGTERM ends the process at once,
and ``pg_ctl``'s server, a process of its own, kept running after it."""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType


def stop_on_sigterm() -> None:
    """SIGTERM raises KeyboardInterrupt in this process (not in a child forked from it, which
    keeps the default: it ends)."""
    if threading.current_thread() is not threading.main_thread():
        return
    owner = os.getpid()

    def interrupt(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt(f"stopped by signal {signum}")

    signal.signal(signal.SIGTERM, interrupt)

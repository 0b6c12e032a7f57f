"""The language server's stdio, with writes that never block the event loop.

pygls' ``StdoutWriter`` writes and flushes stdout on the event loop: a client slow to read (or
one that stops reading while it sends) fills the pipe, and then every handler, the reading of
stdin and the runs' progress wait on that one write — the server looks frozen, and a client
that writes before it reads deadlocks with it. :class:`QueuedWriter` keeps pygls' writer
interface but only queues the message; one thread writes the queue to the stream in order. When
the client goes away (a broken pipe) the server stops as pygls would, and what is still queued is
dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO

from pygls.io_ import StdinAsyncReader, run_async
from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

# How long ``close`` waits for queued messages to reach a client that reads slowly (the reply to
# ``shutdown``, the last progress); past it they are dropped so the process can end.
CLOSE_SECONDS = 5.0


class QueuedWriter:
    """pygls' synchronous writer interface over a queue drained by a thread."""

    def __init__(self, stream: BinaryIO, on_lost: Callable[[], None] = lambda: None) -> None:
        self._stream = stream
        self._on_lost = on_lost
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._lost = False
        self._closed = False
        self._thread = threading.Thread(target=self._drain, name="lsp-stdout", daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        if data and not self._closed and not self._lost:
            self._queue.put(data)

    def close(self) -> None:
        """Let the queue reach the client (for at most ``CLOSE_SECONDS``), then close."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)  # the end
        if threading.current_thread() is not self._thread:
            self._thread.join(CLOSE_SECONDS)
        if not self._thread.is_alive():
            self._close_stream()

    def _drain(self) -> None:
        while (data := self._queue.get()) is not None:
            if self._lost:
                continue
            try:
                self._stream.write(data)
                self._stream.flush()
            except (OSError, ValueError) as exc:  # a broken pipe, or a stream closed under us
                self._lost = True
                log.error("the client is gone (%s): stopping", type(exc).__name__)
                self._on_lost()

    def _close_stream(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.close()


def serve_stdio(
    server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> None:
    """pygls' ``start_io`` (its asynchronous variant), with :class:`QueuedWriter` for stdout."""
    stop = threading.Event()
    server._stop_event = stop  # what pygls' ``shutdown`` sets to end the reading loop
    reader = StdinAsyncReader(stdin or sys.stdin.buffer, server.thread_pool)
    writer = QueuedWriter(stdout or sys.stdout.buffer, on_lost=stop.set)
    server.protocol.set_writer(writer)
    try:
        asyncio.run(
            run_async(
                stop_event=stop,
                reader=reader,
                protocol=server.protocol,
                logger=logging.getLogger("pygls.server"),  # briefed as pygls' other complaints
                error_handler=server.report_server_error,
            )
        )
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]  # pygls leaves it unannotated
        writer.close()

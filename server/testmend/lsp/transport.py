"""The language server's stdio on the event loop itself: no thread between a message and its
handler, writes that never block.

pygls' ``start_io`` reads stdin in a worker thread and writes stdout on the event loop, flushing
each message. A client slow to read (or one that stops reading while it sends) then fills the
pipe, every handler and the reading of stdin wait on that one write, and a client that writes
before it reads deadlocks with the server. Here both ends of stdio are asyncio pipe transports:
a message is read as it arrives, on the loop, and a write only appends to the transport's buffer,
which the loop sends as the client takes it. Each request's round trip crosses no thread (on a
busy machine each crossing is a wait for the scheduler: ``benchmarks/lsp_latency.py``). When the
client goes away (the end of stdin, a broken pipe) the server stops as pygls would, and what was
still to be written is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
from typing import BinaryIO

from pygls.io_ import run_async
from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

LINE_LIMIT = 1024 * 1024
"""The longest header line read (a body has no limit but its Content-Length)."""
CLOSE_SECONDS = 5.0
"""How long the end waits for the last messages (the reply to ``shutdown``) to reach a client
that reads slowly; past it they are dropped so the process can end."""


class PipeReader:
    """pygls' reader interface over an asyncio stream: ``b""`` at the end of the input."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self._stream = stream

    async def readline(self) -> bytes:
        try:
            return await self._stream.readline()
        except (ValueError, ConnectionError):  # a header line past the limit; a reset
            return b""

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self._stream.readexactly(n)
        except (asyncio.IncompleteReadError, ConnectionError):
            return b""


class PipeWriter:
    """pygls' synchronous writer interface over an asyncio write transport."""

    def __init__(self, transport: asyncio.WriteTransport) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        if data and not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has ended
            self._transport.close()

    async def finish(self) -> None:
        """Let the buffer reach the client (for at most ``CLOSE_SECONDS``), then close."""
        transport = self._transport
        if transport.is_closing():
            return
        for _ in range(int(CLOSE_SECONDS / 0.05)):
            if transport.get_write_buffer_size() == 0:
                break
            await asyncio.sleep(0.05)
        transport.abort() if transport.get_write_buffer_size() else transport.close()


class _Output(asyncio.Protocol):
    def __init__(self, on_lost: threading.Event) -> None:
        self._on_lost = on_lost

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:  # a broken pipe: the client is gone
            log.error("the client is gone (%s): stopping", type(exc).__name__)
            self._on_lost.set()


async def _serve(server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO) -> None:
    loop = asyncio.get_running_loop()
    stop = threading.Event()
    server._stop_event = stop  # what pygls' ``shutdown`` sets to end the reading loop
    stream = asyncio.StreamReader(limit=LINE_LIMIT)
    # Pipe transports take the streams' descriptors (made non-blocking); duplicates, so that
    # closing the transports leaves the process's own stdio be.
    reading, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(stream), os.fdopen(os.dup(stdin.fileno()), "rb", 0)
    )
    transport, _ = await loop.connect_write_pipe(
        lambda: _Output(stop), os.fdopen(os.dup(stdout.fileno()), "wb", 0)
    )
    writer = PipeWriter(transport)
    server.protocol.set_writer(writer)
    try:
        await run_async(
            stop_event=stop,
            reader=PipeReader(stream),
            protocol=server.protocol,
            logger=logging.getLogger("pygls.server"),  # briefed as pygls' other complaints
            error_handler=server.report_server_error,
        )
    finally:
        reading.close()
        await writer.finish()


def serve_stdio(
    server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> None:
    """pygls' ``start_io`` with the stdio above."""
    try:
        asyncio.run(_serve(server, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer))
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        with contextlib.suppress(Exception):
            server.shutdown()  # type: ignore[no-untyped-call]  # pygls leaves it unannotated

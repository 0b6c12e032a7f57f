"""The network allow-list: an HTTP(S) proxy that lets through only the hosts of ``sandbox.network``.

Sandboxed commands have no network; with ``sandbox.network`` set, they get ``HTTP_PROXY`` and
``HTTPS_PROXY`` pointing at this proxy (inside bubblewrap through a bridge in the launcher, see
``launch.py``). ``CONNECT host:port`` (HTTPS) and absolute-form requests (plain HTTP) to an
allowed host are relayed; anything else gets ``403`` with "blocked by the sandbox: network access
to HOST". Clients that ignore the proxy variables cannot reach the network at all.

An entry is ``host`` (ports 80 and 443), ``host:port``, or ``*.domain`` (its subdomains).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

#: Largest request head accepted (request line plus headers).
_MAX_HEAD = 64 * 1024
_CONNECT_TIMEOUT_SECONDS = 15.0
_DEFAULT_PORTS = (80, 443)


def _split(target: str, default_port: int) -> tuple[str, int]:
    """``host:port`` (or ``[v6]:port``) of a CONNECT request."""
    if target.startswith("["):
        host, _, rest = target[1:].partition("]")
        port = rest.lstrip(":")
    elif target.count(":") == 1:
        host, _, port = target.partition(":")
    else:
        host, port = target, ""
    return host.lower(), int(port) if port.isdigit() else default_port


class AllowList:
    def __init__(self, entries: Sequence[str]):
        self.rules: list[tuple[str, tuple[int, ...]]] = []
        for entry in entries:
            host, _, port = entry.lower().partition(":")
            self.rules.append((host, (int(port),) if port else _DEFAULT_PORTS))

    def allows(self, host: str, port: int) -> bool:
        host = host.lower().rstrip(".")
        for pattern, ports in self.rules:
            if port not in ports:
                continue
            if pattern.startswith("*."):
                if host.endswith(pattern[1:]) and host != pattern[2:]:
                    return True
            elif host == pattern:
                return True
        return False


class AllowListProxy:
    """One proxy per sandbox; ``start_unix`` or ``start_tcp``, then ``close``."""

    def __init__(self, entries: Sequence[str]):
        self.allow = AllowList(entries)
        self.blocked: list[str] = []
        self.relayed: list[str] = []
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start_unix(self, path: Path) -> None:
        self._server = await asyncio.start_unix_server(self._serve, path=str(path))

    async def start_tcp(self) -> int:
        self._server = await asyncio.start_server(self._serve, host="127.0.0.1", port=0)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for task in list(self._tasks):
                task.cancel()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._handle(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        if len(head) > _MAX_HEAD:
            raise ValueError("request head too large")
        line, _, headers = head.partition(b"\r\n")
        method, target, version = line.decode("latin-1").split(" ", 2)
        if method.upper() == "CONNECT":
            host, port = _split(target, 443)
        else:
            url = urlsplit(target)
            if url.scheme != "http" or not url.hostname:
                await _respond(writer, 400, "only absolute http:// URLs and CONNECT are proxied")
                return
            host, port = url.hostname.lower(), url.port or 80
            path = url.path or "/"
            if url.query:
                path += "?" + url.query
            kept = [
                h
                for h in headers.split(b"\r\n")
                if h and not h.lower().startswith((b"proxy-", b"connection:"))
            ]
            head = (
                f"{method} {path} {version}\r\n".encode("latin-1")
                + b"".join(h + b"\r\n" for h in kept)
                + b"Connection: close\r\n\r\n"
            )
        if not self.allow.allows(host, port):
            self.blocked.append(f"{host}:{port}")
            await _respond(
                writer,
                403,
                f"blocked by the sandbox: network access to {host}:{port} (not in sandbox.network)",
            )
            return
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection(host, port), _CONNECT_TIMEOUT_SECONDS
            )
        except (OSError, TimeoutError) as exc:
            await _respond(writer, 502, f"cannot reach {host}:{port}: {exc}")
            return
        self.relayed.append(f"{host}:{port}")
        if method.upper() == "CONNECT":
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            up_writer.write(head)
        try:
            await asyncio.gather(_pump(reader, up_writer), _pump(up_reader, writer))
        finally:
            up_writer.close()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while chunk := await source.read(65536):
            sink.write(chunk)
            await sink.drain()
    finally:
        if sink.can_write_eof():
            with contextlib.suppress(OSError):
                sink.write_eof()


async def _respond(writer: asyncio.StreamWriter, status: int, message: str) -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
    body = (message + "\n").encode()
    writer.write(
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    await writer.drain()

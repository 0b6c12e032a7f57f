"""sandbox.network: the allow-list proxy. Allowed hosts are reached through HTTP(S)_PROXY, other
hosts get a 403 that names the sandbox, and going around the proxy finds no network."""

from __future__ import annotations

import asyncio
import os
import shutil
import textwrap
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from testmend.config import load_config
from testmend.runners import ProjectRunners
from testmend.sandbox import choose_sandbox
from testmend.sandbox.proxy import AllowList, AllowListProxy


def test_allow_list_entries() -> None:
    allow = AllowList(["registry.npmjs.org", "api.example.com:8443", "*.cdn.example"])
    assert allow.allows("registry.npmjs.org", 443) and allow.allows("REGISTRY.npmjs.org.", 80)
    assert not allow.allows("registry.npmjs.org", 22)
    assert allow.allows("api.example.com", 8443) and not allow.allows("api.example.com", 443)
    assert allow.allows("a.b.cdn.example", 443) and not allow.allows("cdn.example", 443)
    assert not allow.allows("evil.com", 443) and not allow.allows("registry.npmjs.org.evil", 443)


class _Origin:
    """A plain HTTP server on the host's loopback that records the paths it was asked for."""

    def __init__(self) -> None:
        hits: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.hits = hits
        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def origin() -> Iterator[_Origin]:
    server = _Origin()
    try:
        yield server
    finally:
        server.close()


async def _ask(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    data = await reader.read()
    writer.close()
    return data


async def test_the_proxy_relays_allowed_hosts_and_refuses_the_rest(origin: _Origin) -> None:
    proxy = AllowListProxy([f"localhost:{origin.port}"])
    port = await proxy.start_tcp()
    try:
        allowed = await _ask(
            port, f"GET http://localhost:{origin.port}/ok?x=1 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        )
        refused = await _ask(port, f"CONNECT 127.0.0.1:{origin.port} HTTP/1.1\r\n\r\n".encode())
        tunnel = await _ask(
            port,
            f"CONNECT localhost:{origin.port} HTTP/1.1\r\n\r\n"
            f"GET /tunnel HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(),
        )
    finally:
        await proxy.close()
    assert allowed.startswith(b"HTTP/1.0 200") and allowed.endswith(b"ok")
    assert refused.startswith(b"HTTP/1.1 403")
    assert f"blocked by the sandbox: network access to 127.0.0.1:{origin.port}".encode() in refused
    assert tunnel.startswith(b"HTTP/1.1 200 Connection established") and tunnel.endswith(b"ok")
    assert origin.hits == ["/ok?x=1", "/tunnel"]
    assert proxy.blocked == [f"127.0.0.1:{origin.port}"]


NETWORK_TEST = textwrap.dedent(
    """\
    import * as http from 'http';

    const port = process.env.ALLOWED_PORT;

    function viaProxy(url: string): Promise<number> {
      const proxy = new URL(process.env.HTTP_PROXY as string);
      const options = { host: proxy.hostname, port: proxy.port, path: url };
      return new Promise((resolve, reject) => {
        http
          .get(options, (res) => {
            res.resume();
            resolve(res.statusCode as number);
          })
          .on('error', reject);
      });
    }

    it('reaches an allowed host through the proxy', async () => {
      expect(await viaProxy(`http://localhost:${port}/allowed`)).toBe(200);
    });
    it('is refused another host', async () => {
      expect(await viaProxy(`http://127.0.0.1:${port}/refused`)).toBe(200);
    });
    it('cannot go around the proxy', async () => {
      await new Promise((resolve, reject) => {
        http.get(`http://localhost:${port}/direct`, resolve).on('error', reject);
      });
    });
    """
)


@pytest.mark.parametrize("kind", ["bubblewrap", "landlock"])
async def test_jest_reaches_only_the_allowed_hosts(
    tmp_path: Path, origin: _Origin, kind: str, example_app: Path
) -> None:
    app = tmp_path / "app"
    shutil.copytree(example_app, app, ignore=shutil.ignore_patterns("node_modules", ".testmend"))
    (app / "node_modules").symlink_to(example_app / "node_modules")
    (app / "src" / "network.test.ts").write_text(NETWORK_TEST)
    settings = {
        "sandbox": {"mode": kind, "network": [f"localhost:{origin.port}"], "env": ["ALLOWED_PORT"]}
    }
    config = load_config(app, environ={}, editor_settings=settings)
    if not choose_sandbox(config.sandbox).sandboxed:
        pytest.skip(f"{kind} is not available here")
    runners = ProjectRunners(config, env={**os.environ, "ALLOWED_PORT": str(origin.port)})
    try:
        result = await runners.run_tests("src/network.test.ts")
    finally:
        await runners.sandbox.aclose()
    status = {t.title: t for t in result.tests}
    assert status["reaches an allowed host through the proxy"].status == "passed", result
    refused = status["is refused another host"]
    assert refused.status == "failed"
    blocked = f"127.0.0.1:{origin.port} (not in sandbox.network)"
    assert refused.failure_messages[0].startswith(
        f"blocked by the sandbox: network access to {blocked}"
    )
    around = status["cannot go around the proxy"]
    assert around.status == "failed"
    assert around.failure_messages[0].startswith("blocked by the sandbox: network access to")
    assert origin.hits == ["/allowed"]

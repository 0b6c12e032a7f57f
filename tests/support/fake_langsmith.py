"""A local stand-in for the LangSmith API: answers ``/info``, keeps every run it is sent
(``/runs/batch``, ``/runs``, ``PATCH /runs/<id>``) and every raw body, for assertions."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

from .replay_server import http_server

# As the real API answers, with plain JSON batches (``/runs/batch``) rather than multipart.
INFO = {
    "version": "0.10.0",
    "batch_ingest_config": {
        "use_multipart_endpoint": False,
        "size_limit": 100,
        "size_limit_bytes": 20_971_520,
        "scale_up_nthreads_limit": 16,
        "scale_up_qsize_trigger": 1000,
        "scale_down_nempty_trigger": 4,
    },
}


class FakeLangSmith:
    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.headers: list[dict[str, str]] = []
        self.runs: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()

    def take(self, path: str, body: bytes, headers: dict[str, str]) -> None:
        with self.lock:
            self.bodies.append(body)
            self.headers.append(headers)
            assert "content-encoding" not in headers, "compressed traces: not readable here"
            data = json.loads(body) if body else {}
            if path.endswith("/runs/batch"):
                for run in [*data.get("post", []), *data.get("patch", [])]:
                    self.runs.setdefault(run["id"], {}).update(run)
            elif path.rstrip("/").endswith("/runs"):
                self.runs.setdefault(data["id"], {}).update(data)
            elif "/runs/" in path:
                self.runs.setdefault(path.rsplit("/", 1)[1], {}).update(data)

    def named(self, name: str) -> list[dict[str, Any]]:
        return [run for run in self.runs.values() if run.get("name") == name]


@contextmanager
def serve_langsmith(fake: FakeLangSmith) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _answer(self, status: int, payload: Any) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._answer(200, INFO if self.path.split("?")[0].endswith("/info") else {})

        def _take(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            fake.take(self.path, body, {k.lower(): v for k, v in self.headers.items()})
            self._answer(200, {})

        do_POST = do_PATCH = _take

    with http_server(Handler) as url:
        yield url

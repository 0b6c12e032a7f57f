"""A local OpenAI-compatible endpoint that replays recorded chat-completions responses.

It picks the response like the scripted model does (agent from the system prompt's first line,
turn = assistant messages already in the request), so runs are deterministic and survive
resumes. Every request body is kept for assertions. Streaming requests get server-sent events.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replay"
_AGENT = re.compile(r"agent:\s*([a-z_]+)")
_CANDIDATE = re.compile(r"## Current candidate[^\n]*\n```\n(.*?)\n```", re.S)
_NUMBERED = re.compile(r"^\s*\d+\| ?", re.M)


class Replay:
    def __init__(
        self,
        fixture: str | dict[str, Any],
        *,
        fail_with: int | None = None,
        fault: tuple[int, str, bytes] | None = None,
        hang: float = 0.0,
        fault_times: int | None = None,
        hold: Callable[[dict[str, Any]], bool] | None = None,
    ):
        """``fixture``: a file in fixtures/replay, or the recording itself. Misbehaving on
        purpose: ``fail_with`` answers every request with that status and a JSON error;
        ``fault`` with (status, content type, body) as given (only the first ``fault_times``
        requests, when set); ``hang`` waits that many seconds before answering. ``hold``: the
        first request it returns True for gets no answer until ``release()`` (the test can
        kill the client meanwhile)."""
        self.recording: dict[str, Any] = (
            json.loads((FIXTURES / fixture).read_text()) if isinstance(fixture, str) else fixture
        )
        if fail_with is not None:
            error = {"error": {"message": "upstream overloaded", "type": "server_error"}}
            fault = (fail_with, "application/json", json.dumps(error).encode())
        self.fault = fault
        self.fault_times = fault_times
        self.hold = hold
        self.held = threading.Event()
        """Set once a request is being held."""
        self._released = threading.Event()
        self.hang = hang
        self.requests: list[dict[str, Any]] = []
        self.sessions: dict[str, int] = {}
        """Per agent: the run of it being answered (a first turn starts the next one)."""
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()

    def release(self) -> None:
        self._released.set()

    def wait_if_held(self, body: dict[str, Any]) -> bool:
        """True when the request was held (its client is gone by now: answer nothing)."""
        with self.lock:
            if self.hold is None or self.held.is_set() or not self.hold(body):
                return False
            self.held.set()
        self._released.wait(timeout=300)
        return True

    def respond(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = body["messages"]
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        agent = _AGENT.search(system[:200])
        name = agent.group(1) if agent else "default"
        turn = sum(m["role"] == "assistant" for m in messages)
        turns = self.recording[name]
        if isinstance(turns, dict):  # {"sessions": [...]}: one list of turns per agent run
            with self.lock:
                if turn == 0:
                    self.sessions[name] = self.sessions.get(name, -1) + 1
                session = self.sessions.get(name, 0)
            turns = turns["sessions"][min(session, len(turns["sessions"]) - 1)]
        response: dict[str, Any] = json.loads(json.dumps(turns[turn]))
        for choice in response["choices"]:
            for call in choice["message"].get("tool_calls") or []:
                arguments = call["function"]["arguments"]
                if "{{REWRITE_BLOCKS}}" in arguments:
                    call["function"]["arguments"] = arguments.replace(
                        "{{REWRITE_BLOCKS}}", json.dumps(self._rewrite(system))[1:-1]
                    )
        return response

    def _rewrite(self, system: str) -> str:
        match = _CANDIDATE.search(system)
        assert match, "no candidate in the system prompt"
        old = _NUMBERED.sub("", match.group(1))
        if "rewrite_text" in self.recording:
            new = str(self.recording["rewrite_text"]).rstrip("\n")
        else:
            new = (FIXTURES / self.recording["rewrite_to"]).read_text().rstrip("\n")
        return f"<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n"


def sse_chunks(response: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The same response as the chunks a streaming endpoint sends."""
    base = {k: response[k] for k in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"
    message = response["choices"][0]["message"]
    yield {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
    if message.get("content"):
        text = message["content"]
        for start in range(0, len(text), 8):
            yield {**base, "choices": [{"index": 0, "delta": {"content": text[start : start + 8]}}]}
    for index, call in enumerate(message.get("tool_calls") or []):
        head = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        yield {**base, "choices": [{"index": 0, "delta": {"tool_calls": [head]}}]}
        arguments = call["function"]["arguments"]
        for start in range(0, len(arguments), 64):
            piece = {"index": index, "function": {"arguments": arguments[start : start + 64]}}
            yield {**base, "choices": [{"index": 0, "delta": {"tool_calls": [piece]}}]}
    finish = response["choices"][0]["finish_reason"]
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
    yield {**base, "choices": [], "usage": response["usage"]}


@contextmanager
def serve(replay: Replay) -> Iterator[str]:
    """Serve on 127.0.0.1 (a free port); yields the base URL ending in /v1."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            with replay.lock:
                replay.requests.append(body)
                replay.headers.append({k.lower(): v for k, v in self.headers.items()})
                faulty = replay.fault is not None and (
                    replay.fault_times is None or len(replay.requests) <= replay.fault_times
                )
            if replay.wait_if_held(body):
                return
            if replay.hang:
                time.sleep(replay.hang)
            if faulty and replay.fault is not None:
                status, content_type, payload = replay.fault
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                return
            response = replay.respond(body)
            if body.get("stream"):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in sse_chunks(response):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                return
            data = json.dumps(response).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    with http_server(Handler) as base:
        try:
            yield f"{base}/v1"
        finally:
            replay.release()


@contextmanager
def http_server(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A threaded HTTP server on a free local port while the block runs; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()

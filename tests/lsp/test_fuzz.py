"""``testmend serve`` against 1,300 malformed or hostile messages over its real stdio, and
against a client that stops reading while it sends.

Every request with a usable id gets exactly one response (ServerNotInitialized before
``initialize``, InvalidParams for params that do not fit, MethodNotFound for unknown methods,
InvalidRequest after ``shutdown``), no response carries a traceback, the server never crashes,
pops up at most one message per kind of mistake, and still gives the normal code actions at the
end. A client that sends without reading what comes back neither freezes nor deadlocks it.
"""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any

from tests.support.apps import REPO_ROOT

SEED = 20261122
MALFORMED = 1200


class Peer:
    """The server's stdio, read by a thread; messages in arrival order."""

    def __init__(self, cwd: Path, stderr: IO[bytes]) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TESTMEND_", "OPENAI_"))}
        env["PYTHONPATH"] = str(REPO_ROOT / "server")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "testmend", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=cwd,
            env=env,
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.received: list[dict[str, Any]] = []
        self.reading = threading.Event()  # cleared: the client stops reading the server's stdout
        self.reading.set()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            self.reading.wait()
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if line == b"":
                return
            self.inbox.put(json.loads(stream.read(length)))

    def send_raw(self, body: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def drain(self, until: float = 0.2) -> None:
        while True:
            try:
                self.received.append(self.inbox.get(timeout=until))
            except queue.Empty:
                return

    def response(self, msg_id: int, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.received:
                if message.get("id") == msg_id and "method" not in message:
                    return message
            try:
                self.received.append(self.inbox.get(timeout=0.5))
            except queue.Empty:
                continue
        raise AssertionError(f"no response to request {msg_id}")


def _malformed(rng: random.Random, uri: str, next_id: Any) -> tuple[dict[str, Any] | bytes, bool]:
    """One hostile message; whether it is a request that must be answered."""
    kind = rng.randrange(8)
    bad_params: list[Any] = ["str", None, 5, [], {}, {"textDocument": {"uri": 5}}]
    if kind == 0:  # codeAction whose params do not fit
        params = rng.choice(
            [
                *bad_params,
                {
                    "textDocument": {"uri": uri},
                    "range": {
                        "start": {"line": -1, "character": 0},
                        "end": {"line": 0, "character": 0},
                    },
                    "context": {"diagnostics": []},
                },
            ]
        )
        return {"id": next_id(), "method": "textDocument/codeAction", "params": params}, True
    if kind == 1:  # executeCommand with arguments of every wrong shape
        command = rng.choice(
            [
                "testmend.migrate",
                "testmend.fix",
                "testmend.cancel",
                "testmend.applyResult",
                "testmend.showReport",
                "testmend.nothing",
                7,
            ]
        )
        arguments = rng.choice(
            [
                "not a list",
                None,
                {},
                [None],
                [123],
                [{"uri": 5}],
                ["mem://x/a.test.tsx"],
                ["file:///no/such/dir/a.test.tsx", "v"],
                [[], [], []],
            ]
        )
        params = {"command": command, "arguments": arguments}
        return {"id": next_id(), "method": "workspace/executeCommand", "params": params}, True
    if kind == 2:  # methods the server does not offer
        method = rng.choice(
            [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/completion",
                "testmend/secret",
                "",
                "$/unknown",
            ]
        )
        return {"id": next_id(), "method": method, "params": rng.choice(bad_params)}, True
    if kind == 3:  # notifications with params that do not fit
        method = rng.choice(
            [
                "textDocument/didOpen",
                "textDocument/didChange",
                "textDocument/didClose",
                "$/cancelRequest",
                "workspace/didChangeConfiguration",
                "initialized",
            ]
        )
        return {"method": method, "params": rng.choice([*bad_params, {"settings": "x"}])}, False
    if kind == 4:  # ids that are not ids
        msg_id = rng.choice([{}, [], 1.5, True, None])
        return {"id": msg_id, "method": "textDocument/codeAction", "params": "x"}, False
    if kind == 5:  # bodies that are not JSON-RPC at all
        return rng.choice(
            [b"{", b"[]", b"42", b'"text"', b'{"id": 1}', b"\xff\xfe", b'{"method": 5}']
        ), False
    if kind == 6:  # responses to requests the server never sent
        return {"id": rng.randrange(10_000, 20_000), "result": None}, False
    # settings of the wrong shape, as the editor would push them
    settings = rng.choice([{"testmend": {"retry": "many"}}, {"testmend": 3}, "x", [1]])
    return {"method": "workspace/didChangeConfiguration", "params": {"settings": settings}}, False


def test_every_request_is_answered_and_nothing_crashes(example_copy: Path, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    test_file = example_copy / "src/components/Pagination/Pagination.test.tsx"
    uri = test_file.as_uri()
    counter = iter(range(1, 10**6))
    expected: list[int] = []

    def next_id() -> int:
        value = next(counter)
        expected.append(value)
        return value

    with (tmp_path / "stderr.txt").open("wb") as stderr:
        peer = Peer(example_copy, stderr)
        try:
            # Before initialize: requests are refused, notifications dropped.
            early = [next_id() for _ in range(40)]
            for msg_id in early:
                peer.send({"id": msg_id, "method": "textDocument/codeAction", "params": {}})
            peer.send({"method": "textDocument/didOpen", "params": {}})
            init = next_id()
            capabilities = {"workspace": {"applyEdit": True, "configuration": False}}
            peer.send(
                {
                    "id": init,
                    "method": "initialize",
                    "params": {
                        "processId": None,
                        "rootUri": example_copy.as_uri(),
                        "capabilities": capabilities,
                    },
                }
            )
            assert "capabilities" in peer.response(init)["result"]
            peer.send({"method": "initialized", "params": {}})
            text = test_file.read_text(encoding="utf-8")
            document = {"uri": uri, "languageId": "typescriptreact", "version": 1, "text": text}
            peer.send({"method": "textDocument/didOpen", "params": {"textDocument": document}})

            answerable = 0
            for _ in range(MALFORMED):
                message, is_request = _malformed(rng, uri, next_id)
                if isinstance(message, bytes):
                    peer.send_raw(message)
                else:
                    peer.send(message)
                answerable += is_request
            # The normal code action still works.
            action = next_id()
            peer.send(
                {
                    "id": action,
                    "method": "textDocument/codeAction",
                    "params": {
                        "textDocument": {"uri": uri},
                        "range": {
                            "start": {"line": 0, "character": 0},
                            "end": {"line": 0, "character": 0},
                        },
                        "context": {"diagnostics": []},
                    },
                }
            )
            titles = [a["title"] for a in peer.response(action)["result"]]
            assert "Migrate to RTL" in titles

            shutdown = next_id()
            peer.send({"id": shutdown, "method": "shutdown"})
            assert peer.response(shutdown)["result"] is None
            late = [next_id() for _ in range(30)]
            for msg_id in late:
                peer.send({"id": msg_id, "method": "textDocument/codeAction", "params": {}})
            for msg_id in late:
                peer.response(msg_id)
            peer.send({"method": "exit"})
            assert peer.process.wait(30) == 0
            peer.drain()
        finally:
            if peer.process.poll() is None:
                peer.process.kill()

    responses: dict[int, list[dict[str, Any]]] = {}
    for message in peer.received:
        if "method" not in message and isinstance(message.get("id"), int):
            responses.setdefault(message["id"], []).append(message)
    unanswered = [i for i in expected if i not in responses]
    assert unanswered == [], f"{len(unanswered)} requests were never answered"
    assert all(len(r) == 1 for r in responses.values())
    assert answerable >= 400
    codes = {i: r[0].get("error", {}).get("code") for i, r in responses.items()}
    assert {codes[i] for i in early} == {-32002}  # ServerNotInitialized
    assert {codes[i] for i in late} == {-32600}  # InvalidRequest
    assert -32602 in codes.values() and -32601 in codes.values()  # InvalidParams, MethodNotFound
    errors = [r[0]["error"] for r in responses.values() if "error" in r[0]]
    assert not [e for e in errors if "Traceback" in json.dumps(e) or e.get("data")]
    popups = [
        m["params"]["message"] for m in peer.received if m.get("method") == "window/showMessage"
    ]
    assert len(popups) <= 16, Counter(popups)  # at most one per kind of mistake
    log = (tmp_path / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert len(log.splitlines()) < 60, log[-3000:]


def _initialize(peer: Peer, root: Path, msg_id: int) -> None:
    capabilities = {"workspace": {"applyEdit": True, "configuration": False}}
    params = {"processId": None, "rootUri": root.as_uri(), "capabilities": capabilities}
    peer.send({"id": msg_id, "method": "initialize", "params": params})
    assert "capabilities" in peer.response(msg_id)["result"]
    peer.send({"method": "initialized", "params": {}})


STALL_SECONDS = 5
STALLED_REQUESTS = 1500  # their answers (~300 bytes each) are several times a pipe's buffer


def test_a_client_that_stops_reading_is_answered_after(example_copy: Path, tmp_path: Path) -> None:
    """While the client reads nothing for 5 s, the server goes on reading what it sends (a
    server that wrote on its event loop would stop reading once its stdout pipe filled, and the
    sender would block for good); afterwards every request has its answer, in order. Method
    names of 5,000 characters are shown cut to 200."""
    with (tmp_path / "stderr.txt").open("wb") as stderr:
        peer = Peer(example_copy, stderr)
        try:
            _initialize(peer, example_copy, 1)
            peer.reading.clear()
            ids = list(range(2, 2 + STALLED_REQUESTS))
            sent = threading.Event()

            def send_all() -> None:
                for msg_id in ids:  # unknown methods with long names, no params
                    peer.send({"id": msg_id, "method": "a" * 5000 + str(msg_id)})
                sent.set()

            started = time.monotonic()
            threading.Thread(target=send_all, daemon=True).start()
            # Not a speed check: a server blocked on its stdout would never take them all.
            assert sent.wait(120), "the server stopped reading while its client did not read"
            time.sleep(max(0.0, STALL_SECONDS - (time.monotonic() - started)))
            peer.reading.set()
            answers = [peer.response(msg_id) for msg_id in ids]
            shutdown = ids[-1] + 1
            peer.send({"id": shutdown, "method": "shutdown"})
            assert peer.response(shutdown)["result"] is None
            peer.send({"method": "exit"})
            assert peer.process.wait(30) == 0
        finally:
            if peer.process.poll() is None:
                peer.process.kill()
    assert {a["error"]["code"] for a in answers} == {-32601}
    message = answers[0]["error"]["message"]
    assert message == "method not found: " + "a" * 200 + "…"
    order = [m["id"] for m in peer.received if m.get("id") in set(ids)]
    assert order == ids
    log = (tmp_path / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "a" * 201 not in log, log[-3000:]

"""Language server start-up: time to answer ``initialize`` and to the first diagnostic.

    .venv/bin/python benchmarks/lsp_startup.py [--runs N]

Starts ``testmend serve`` (stdio) as an editor does, sends ``initialize``, then ``initialized`` and
``didOpen`` of an Enzyme test of the example app, and times (from the process start) the
``initialize`` response and the first ``publishDiagnostics``. Targets: initialize < 1 s, first
diagnostic < 1.5 s. Prints the median and the worst of N cold starts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "examples" / "react-app"
TEST = APP / "src" / "components" / "Pagination" / "Pagination.test.tsx"


def send(stream: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    stream.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    stream.flush()


def receive(stream: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (line := stream.readline().strip()) != b"":
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return dict(json.loads(stream.read(length)))


def one_start() -> tuple[float, float]:
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "testmend", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=APP,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        send(
            server.stdin,
            {
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": APP.as_uri(), "capabilities": {}},
            },
        )
        while receive(server.stdout).get("id") != 1:
            pass
        initialized = time.perf_counter() - started
        send(server.stdin, {"method": "initialized", "params": {}})
        send(
            server.stdin,
            {
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": TEST.as_uri(),
                        "languageId": "typescriptreact",
                        "version": 1,
                        "text": TEST.read_text(),
                    }
                },
            },
        )
        while receive(server.stdout).get("method") != "textDocument/publishDiagnostics":
            pass
        diagnosed = time.perf_counter() - started
        send(server.stdin, {"id": 2, "method": "shutdown"})
        while receive(server.stdout).get("id") != 2:
            pass
        send(server.stdin, {"method": "exit"})
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
    return initialized, diagnosed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    one_start()  # warm the OS file cache, as a second start of the editor would
    times = [one_start() for _ in range(args.runs)]
    for name, index in (("initialize", 0), ("first diagnostic", 1)):
        values = [t[index] for t in times]
        print(
            f"{name:<18} median {statistics.median(values):.3f} s, worst {max(values):.3f} s "
            f"({args.runs} cold starts of `testmend serve`)"
        )


if __name__ == "__main__":
    main()

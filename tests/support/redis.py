"""A real Redis for the tests (Debian's ``redis-server``, installed by ``scripts/setup.sh``): one
per test session on a Unix socket in a temporary folder, nothing saved to disk; each test gets
a database number of its own (a broker's queues do not meet another test's)."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_DATABASES = itertools.count(1)


class RedisServer:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.socket = base / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server not found: install Debian's redis-server (scripts/setup.sh)")
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--unixsocket", str(self.socket), "--save", "",
             "--appendonly", "no", "--dir", str(self.base), "--databases", "64"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("Redis did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)

    def url(self, database: int = 0) -> str:
        return f"redis+socket://{self.socket}?virtual_host={database}"

    def dump(self, database: int) -> bytes:
        """Every key and value of a database, as Redis' own client prints them."""
        command = ["redis-cli", "-s", str(self.socket), "-n", str(database), "--no-raw"]
        keys = subprocess.run([*command, "--scan"], capture_output=True, check=True).stdout
        out = [keys]
        for key in keys.split():
            kind = subprocess.run([*command, "type", key], capture_output=True, check=True)
            verbs = {b"string": ["get"], b"list": ["lrange"], b"hash": ["hgetall"],
                     b"zset": ["zrange"], b"set": ["smembers"]}  # fmt: skip
            verb = verbs.get(kind.stdout.strip(), [])
            if verb:
                extra = ["0", "-1"] if verb[0] in ("lrange", "zrange") else []
                value = subprocess.run([*command, *verb, key, *extra], capture_output=True)
                out.append(value.stdout)
        return b"\n".join(out)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    base = Path(tempfile.mkdtemp(prefix="testmend-redis-"))
    server = RedisServer(base)
    server.start()
    yield server
    server.stop()
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """A broker URL on a database of the test's own."""
    return redis_server.url(next(_DATABASES))

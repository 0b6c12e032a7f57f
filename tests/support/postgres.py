"""A real Postgres for the tests: a throwaway cluster (Debian's ``postgresql`` package, installed
by ``scripts/setup.sh``) in a temporary folder, on a Unix socket only, run as the ``postgres``
user when the tests run as root (``initdb`` refuses root). One per test session; each test gets
a database of its own."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        pytest.fail(f"{name} not found: install Debian's postgresql (scripts/setup.sh does)")
    return found[-1]


def _as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Cluster:
    def __init__(self, base: Path) -> None:
        self.data = base / "data"
        self.socket = base / "socket"
        self.port = 5400 + os.getpid() % 500

    def start(self) -> None:
        self.socket.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.data.parent, "postgres")
            shutil.chown(self.socket, "postgres")
        run = {"check": True, "capture_output": True, "timeout": 120}
        subprocess.run(_as_owner([_bin("initdb"), "-D", str(self.data), "-A", "trust",
                                  "-U", "postgres", "--no-sync"]), **run)  # fmt: skip
        options = f"-k {self.socket} -c listen_addresses='' -p {self.port} -c fsync=off"
        subprocess.run(_as_owner([_bin("pg_ctl"), "-D", str(self.data), "-o", options,
                                  "-w", "-l", str(self.data / "log"), "start"]), **run)  # fmt: skip

    def stop(self) -> None:
        subprocess.run(
            _as_owner([_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]),
            capture_output=True,
            timeout=60,
            check=False,
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket}&port={self.port}"

    def create_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    base = Path(tempfile.mkdtemp(prefix="testmend-pg-"))
    os.chmod(base, 0o755)
    cluster = Cluster(base)
    try:
        cluster.start()
    except subprocess.CalledProcessError as exc:
        pytest.fail(f"Postgres did not start: {exc.stderr.decode(errors='replace')[-800:]}")
    yield cluster
    cluster.stop()
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """A fresh database's URL."""
    return postgres_cluster.create_database()

"""Files per minute on a queue (issue 39): the same Enzyme files of the example app, offline,
migrated by ``testmend migrate --jobs 2`` on this machine, then through a Redis broker by one
``testmend worker`` and by two (each in a checkout of its own, one file at a time), the runs
kept in Postgres. Redis and Postgres are started here (Debian's packages, as the tests do).

    .venv/bin/python benchmarks/team_throughput.py [--files N]

Prints, per way, the wall time from the command to the last file's end and files/minute, then
the ratios. On one 2-core machine the workers compete for the same cores as ``--jobs 2``: the
figure says what a worker costs over the engine, and one worker's rate is what each machine of
a team adds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.apps import copy_example_app  # noqa: E402
from tests.support.git import commit_all, git  # noqa: E402
from tests.support.postgres import Cluster  # noqa: E402
from tests.support.redis import RedisServer  # noqa: E402

TESTMEND = str(REPO / ".venv" / "bin" / "testmend")
ORIGIN = "https://git.example.com/team/app.git"
ENV = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TESTMEND_"))}


def checkout(origin: Path, where: Path) -> Path:
    git(where.parent, "clone", "-q", str(origin), str(where))
    git(where, "remote", "set-url", "origin", ORIGIN)
    if not (where / "node_modules").exists():
        (where / "node_modules").symlink_to(origin / "node_modules")
    return where


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, dict[str, int]]:
    began = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - began
    if done.returncode not in (0, 1):
        sys.exit(f"{command[1]} failed ({done.returncode}): {done.stderr[-2000:]}")
    results = json.loads(done.stdout)["results"]
    counts: dict[str, int] = {}
    for row in results:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    return wall, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=0, help="the first N files (0: all)")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="testmend-team-bench-"))
    os.chmod(base, 0o755)
    (base / "pg").mkdir()
    os.chmod(base / "pg", 0o755)
    cluster, redis = Cluster(base / "pg"), RedisServer(base)
    cluster.start()
    redis.start()
    workers: list[subprocess.Popen[bytes]] = []
    try:
        origin = commit_all(copy_example_app(base / "origin"), "app")
        git(origin, "remote", "add", "origin", ORIGIN)
        files = sorted(str(p.relative_to(origin)) for p in (origin / "src").rglob("*.test.*"))
        files = [f for f in files if "enzyme" in (origin / f).read_text()]
        files = files[: args.files] if args.files else files
        env = {**ENV, "TESTMEND_WORKSPACES_DIR": str(base / "workspaces")}
        rows = []
        here = checkout(origin, base / "jobs")
        wall, counts = timed([TESTMEND, "migrate", "--offline", "--jobs", "2", "--json", *files],
                             here, env)  # fmt: skip
        rows.append(("--jobs 2 (one machine)", wall, counts))
        for n in (1, 2):
            team = {**env, "TESTMEND_STORE__URL": cluster.create_database()}
            broker = redis.url(n)
            checkouts = [checkout(origin, base / f"w{n}-{i}") for i in range(n)]
            for i, root in enumerate(checkouts):
                log = (base / f"worker-{n}-{i}.log").open("w")
                workers.append(subprocess.Popen(
                    [TESTMEND, "worker", "--broker", broker, "--offline"], cwd=root, env=team,
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True))  # fmt: skip
            time.sleep(5)  # ready: the batch's clock starts with the command
            sender = checkout(origin, base / f"sender-{n}")
            wall, counts = timed([TESTMEND, "migrate", "--offline", "--broker", broker, "--json",
                                  *files], sender, team)  # fmt: skip
            rows.append((f"{n} worker{'s' if n > 1 else ''} (Redis + Postgres)", wall, counts))
            for worker in workers:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=120)
            workers.clear()
        ran = sum(rows[0][2].values())
        print(f"{ran} files of the example app (of {len(files)} that import enzyme: the others "
              f"are refused), offline, {os.cpu_count()} cores")  # fmt: skip
        print(f"{'way':<32}{'wall':>9}{'files/min':>11}  outcomes")
        for name, wall, counts in rows:
            said = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            print(f"{name:<32}{wall:>8.1f}s{sum(counts.values()) / wall * 60:>11.2f}  {said}")
        jobs = rows[0][1]
        for name, wall, _ in rows[1:]:
            print(f"{name}: {jobs / wall:.2f}× the rate of --jobs 2")
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGKILL)
        redis.stop()
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Runner overhead: each runner's wall time against the same raw command run directly.

    .venv/bin/python benchmarks/runners.py [--runs N] [--file src/...test.tsx]

Runs alternate (raw, runner, raw, runner, …) after one warm-up of each so that caches and
machine noise hit both sides alike. Target: runner overhead at most 5% of the raw command.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from testmend.config import load_config  # noqa: E402
from testmend.runners import ProjectRunners  # noqa: E402


def raw(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    return time.perf_counter() - started


async def timed(call: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await call()
    return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--app", type=Path, default=REPO / "examples" / "react-app")
    parser.add_argument("--file", default="src/components/Counter/Counter.test.tsx")
    args = parser.parse_args()

    app: Path = args.app.resolve()
    runners = ProjectRunners(load_config(app))
    env = runners.env
    target = str(app / args.file)
    bin_dir = app / "node_modules" / ".bin"
    tmp = Path(tempfile.mkdtemp(prefix="testmend-bench-"))
    cases: list[tuple[str, list[str], Callable[[], Awaitable[object]]]] = [
        (
            "jest",
            [
                str(bin_dir / "jest"),
                "--json",
                f"--outputFile={tmp / 'jest.json'}",
                "--testLocationInResults",
                "--ci",
                "--coverage=false",
                "--runTestsByPath",
                target,
            ],
            lambda: runners.run_tests(args.file),
        ),
        (
            "eslint",
            [
                str(bin_dir / "eslint"),
                "--format",
                "json",
                "--output-file",
                str(tmp / "e.json"),
                target,
            ],
            lambda: runners.lint(args.file),
        ),
        (
            "tsc",
            [str(bin_dir / "tsc"), "--noEmit", "-p", "tsconfig.json", "--pretty", "false"],
            lambda: runners.typecheck(args.file),
        ),
    ]
    print(f"runner overhead on {app.name}/{args.file}, {args.runs} runs each (median seconds)\n")
    print(f"{'tool':<8}{'raw':>9}{'runner':>9}{'overhead':>10}   raw min/max      runner min/max")
    for name, argv, call in cases:
        raw(argv, app, env)
        await call()
        raw_times: list[float] = []
        runner_times: list[float] = []
        for _ in range(args.runs):
            raw_times.append(raw(argv, app, env))
            runner_times.append(await timed(call))
        raw_median = statistics.median(raw_times)
        runner_median = statistics.median(runner_times)
        overhead = (runner_median - raw_median) / raw_median * 100
        print(
            f"{name:<8}{raw_median:>9.3f}{runner_median:>9.3f}{overhead:>+9.1f}%"
            f"   {min(raw_times):.3f}/{max(raw_times):.3f}    "
            f"{min(runner_times):.3f}/{max(runner_times):.3f}"
        )


if __name__ == "__main__":
    asyncio.run(main())

"""Runner overhead: each runner's wall time, in each sandbox, against the raw command.

    .venv/bin/python benchmarks/runners.py [--runs N] [--file src/...test.tsx]

For jest, eslint and tsc: the raw command run directly, then the runner with sandbox.mode
"off" (launcher only), "bubblewrap" and "landlock" (those this machine offers). Runs alternate
(raw, off, bubblewrap, landlock, raw, …) after one warm-up of each so that caches and machine
noise hit all alike. Target: a sandboxed runner within 5% of the unsandboxed command.
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
from testmend.sandbox import choose_sandbox  # noqa: E402

MODES = ("off", "bubblewrap", "landlock")


def raw(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    return time.perf_counter() - started


async def timed(
    call: Callable[[ProjectRunners], Awaitable[object]], runner: ProjectRunners
) -> float:
    started = time.perf_counter()
    await call(runner)
    return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--app", type=Path, default=REPO / "examples" / "react-app")
    parser.add_argument("--file", default="src/components/Counter/Counter.test.tsx")
    args = parser.parse_args()

    app: Path = args.app.resolve()
    runners: dict[str, ProjectRunners] = {}
    for mode in MODES:
        config = load_config(app, editor_settings={"sandbox": {"mode": mode}})
        choice = choose_sandbox(config.sandbox)
        if mode == "off" or choice.sandboxed:
            runners[mode] = ProjectRunners(config)
        else:
            print(f"({mode}: not available here: {choice.problem})")
    env = runners["off"].env
    target = str(app / args.file)
    bin_dir = app / "node_modules" / ".bin"
    tmp = Path(tempfile.mkdtemp(prefix="testmend-bench-"))
    cases: list[tuple[str, list[str], Callable[[ProjectRunners], Awaitable[object]]]] = [
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
            lambda r: r.run_tests(args.file),
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
            lambda r: r.lint(args.file),
        ),
        (
            "tsc",
            [str(bin_dir / "tsc"), "--noEmit", "-p", "tsconfig.json", "--pretty", "false"],
            lambda r: r.typecheck(args.file),
        ),
    ]
    print(f"runner overhead on {app.name}/{args.file}, {args.runs} runs each (median seconds)")
    print("overhead: against the raw command; in brackets: against the unsandboxed runner\n")
    header = f"{'tool':<8}{'raw':>8}" + "".join(f"{m:>24}" for m in runners)
    print(header)
    for name, argv, call in cases:
        raw(argv, app, env)
        for runner in runners.values():
            await call(runner)
        times: dict[str, list[float]] = {"raw": [], **{m: [] for m in runners}}
        for _ in range(args.runs):
            times["raw"].append(raw(argv, app, env))
            for mode, runner in runners.items():
                times[mode].append(await timed(call, runner))
        medians = {k: statistics.median(v) for k, v in times.items()}
        cells = []
        for mode in runners:
            over_raw = (medians[mode] - medians["raw"]) / medians["raw"] * 100
            over_off = (medians[mode] - medians["off"]) / medians["off"] * 100
            cells.append(f"{medians[mode]:.3f} {over_raw:+6.1f}% [{over_off:+5.1f}%]")
        print(f"{name:<8}{medians['raw']:>8.3f}" + "".join(f"{c:>24}" for c in cells))


if __name__ == "__main__":
    asyncio.run(main())

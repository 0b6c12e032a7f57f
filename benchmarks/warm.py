"""An offline migration against the project's own tools run once; edit→test latency; batches.

    .venv/bin/python benchmarks/warm.py [--file F] [--other F] [--edits N] [--batch]

In a git copy of the example app (node_modules linked), one process after the other:
1. the raw tools on each file as the project would run them, each run twice and the second
   timed (a warm jest cache and a warm disk): ``jest FILE``, ``eslint FILE``,
   ``tsc --noEmit -p tsconfig.json``; their sum is the raw tool time;
2. ``testmend migrate FILE --offline --json`` with warm slots and kept original results (the
   defaults) in a new workspaces directory: FILE (the slot is made), FILE again (the
   original's capture and mutant runs, and eslint's and tsc's results, are kept from the
   first), then the other file (a warm slot);
3. the same with ``workspace.keepOriginalResults`` and ``keepCheckResults`` off, and with
   ``workspace.warmSlots`` 0 too (a new workspace per run, the behaviour before both); then
   the same three runs through one engine in this process, as the editor's language server
   makes them (a slot's warm jest stays up between runs). Each sequence starts with nothing
   kept;
4. the agent loop's edit→test result: the file edited, then run through the runners (in the
   sandbox, as the agent's ``run_test_file`` does), ``--edits`` times, with the warm jest and
   with the plain command;
5. with ``--batch``: ``testmend migrate src --offline`` on every Enzyme file of the example app at
   ``--jobs 1`` and ``--jobs 2`` (files per minute).

Prints each figure and its ratio (targets: a migration's first run ≤ 2× the raw tool time, the
second ≤ 1.3×; edit→test under 1 s warm; ``--jobs 2`` faster than ``--jobs 1``). The ratios
are measured in one run of this script, on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from example_copy import make_project

TOOL_ENV = {"CI": "true", "COLORS": "false", "FORCE_COLOR": "0"}


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int, str]:
    """Seconds, exit status and standard output of one command."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - started, done.returncode, done.stdout


def raw_tools(project: Path, file: str, cache: Path) -> dict[str, float]:
    env = {**os.environ, **TOOL_ENV, "TMPDIR": str(cache)}
    bin_dir = project / "node_modules" / ".bin"
    commands = {
        "jest": [str(bin_dir / "jest"), "--ci", "--coverage=false", file],
        "eslint": [str(bin_dir / "eslint"), file],
        "tsc": [str(bin_dir / "tsc"), "--noEmit", "-p", "tsconfig.json"],
    }
    spent: dict[str, float] = {}
    for tool, argv in commands.items():
        timed(argv, project, env)  # warm-up: jest's cache, the disk
        spent[tool], _code, _output = timed(argv, project, env)
    return spent


def forget_kept(project: Path) -> None:
    """Empty the kept original results (each sequence's first run is a first run)."""
    shutil.rmtree(project / ".testmend" / "cache" / "results", ignore_errors=True)


def migrate(
    project: Path, file: str, workspaces: Path, slots: int, keep: bool
) -> tuple[float, str]:
    env = {
        **os.environ,
        "TESTMEND_WORKSPACES_DIR": str(workspaces),
        "TESTMEND_WORKSPACE__WARM_SLOTS": str(slots),
        "TESTMEND_WORKSPACE__KEEP_ORIGINAL_RESULTS": json.dumps(keep),
        "TESTMEND_WORKSPACE__KEEP_CHECK_RESULTS": json.dumps(keep),
    }
    env.pop("OPENAI_API_KEY", None)
    seconds, code, output = timed(
        [sys.executable, "-m", "testmend", "migrate", file, "--offline", "--json"], project, env
    )
    try:
        payload = json.loads(output)
        runs = [*payload.get("results", []), *payload.get("unfinished", [])]
        status = str(runs[0].get("status")) if runs else f"exit {code}"
    except (ValueError, IndexError):
        status = f"exit {code}"
    return seconds, status


async def in_one_engine(
    project: Path, runs: list[str], workspaces: Path
) -> list[tuple[float, str]]:
    """The runs one after the other through one engine, as the editor's language server makes
    them (the engine's start-up not counted: the server has it up before the first run)."""
    from testmend.config import load_config
    from testmend.engine import Engine, RunRequest

    timings: list[tuple[float, str]] = []
    engine = Engine(load_config(project, environ={}), offline=True, workspaces_dir=workspaces)
    async with engine:
        for file in runs:
            started = time.perf_counter()
            result = await (await engine.start(RunRequest(file=file))).wait()
            timings.append((time.perf_counter() - started, result.status if result else "none"))
    return timings


async def edit_to_result(project: Path, file: str, edits: int, warm: bool) -> list[float]:
    from testmend.config import load_config
    from testmend.runners import ProjectRunners

    runners = ProjectRunners(load_config(project, environ={}), warm=warm)
    path = project / file
    original = path.read_text(encoding="utf-8")
    seconds = []
    try:
        await runners.run_tests(file)  # the first run starts the process (not an edit's cost)
        for index in range(edits):
            started = time.perf_counter()
            path.write_text(f"{original}\n// edit {index}\n", encoding="utf-8")
            result = await runners.run_tests(file)
            seconds.append(time.perf_counter() - started)
            assert result.tests, result
    finally:
        await runners.aclose()
        path.write_text(original, encoding="utf-8")
    return seconds


def batch(project: Path, base: Path, jobs: int) -> tuple[float, int, str]:
    env = {**os.environ, "TESTMEND_WORKSPACES_DIR": str(base / f"workspaces-batch-{jobs}")}
    env.pop("OPENAI_API_KEY", None)
    argv = [sys.executable, "-m", "testmend", "migrate", "src", "--offline", "--jobs", str(jobs)]
    seconds, _code, output = timed([*argv, "--jsonl"], project, env)
    rows = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    passed = sum(r["status"] == "succeeded" for r in rows)
    return seconds, len(rows), f"{passed} succeeded"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default="src/components/Pagination/Pagination.test.tsx")
    parser.add_argument(
        "--other",
        default="src/components/Counter/Counter.test.tsx",
        help="a second file, migrated third (a warm slot, another file)",
    )
    parser.add_argument("--edits", type=int, default=5, help="edit→test rounds per runner")
    parser.add_argument("--batch", action="store_true", help="also the batch at --jobs 1 and 2")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="testmend-bench-warm-") as tmp:
        base = Path(tmp)
        project = make_project(base)
        cache = base / "raw-tmp"
        cache.mkdir()
        print("raw tools, warm (the second of two runs of each):")
        raw = {}
        for file in (args.file, args.other):
            spent = raw_tools(project, file, cache)
            raw[file] = sum(spent.values())
            detail = ", ".join(f"{tool} {seconds:.1f} s" for tool, seconds in spent.items())
            print(f"  {file}: {raw[file]:.1f} s ({detail})")
        print(f"\n{'setting':<24}{'run':<38}{'wall s':>7}{'× raw':>8}   outcome")
        runs = (("1: first", args.file), ("2: again", args.file), ("3: another file", args.other))
        sequences = (
            ("warm slots (default)", 4, True),
            ("warm slots, nothing kept", 4, False),
            ("new workspace per run", 0, False),
        )
        for label, slots, keep in sequences:
            workspaces = base / f"workspaces-{slots}-{keep}"
            forget_kept(project)
            for which, file in runs:
                seconds, status = migrate(project, file, workspaces, slots, keep)
                name = f"{which} ({Path(file).name})"
                ratio = seconds / raw[file]
                print(f"{label:<24}{name:<38}{seconds:>7.1f}{ratio:>7.2f}×   {status}")
        label = "one engine (the editor)"
        forget_kept(project)
        timings = asyncio.run(
            in_one_engine(project, [file for _, file in runs], base / "workspaces-engine")
        )
        for (which, file), (seconds, status) in zip(runs, timings, strict=True):
            name = f"{which} ({Path(file).name})"
            print(f"{label:<24}{name:<38}{seconds:>7.1f}{seconds / raw[file]:>7.2f}×   {status}")
        print("\ntargets: first run ≤ 2×, second run ≤ 1.3× the raw tool time\n")

        print(f"edit → test result ({args.edits} edits, median):")
        warm = asyncio.run(edit_to_result(project, args.file, args.edits, warm=True))
        plain = asyncio.run(edit_to_result(project, args.file, args.edits, warm=False))
        w, p = statistics.median(warm), statistics.median(plain)
        print(f"  warm jest {w:.2f} s, plain command {p:.2f} s ({p / w:.1f}× faster; target < 1 s)")

        if args.batch:
            print("\nbatch: testmend migrate src --offline")
            rates = {}
            for jobs in (1, 2):
                forget_kept(project)
                seconds, files, outcome = batch(project, base, jobs)
                rates[jobs] = files / seconds * 60
                print(
                    f"  --jobs {jobs}: {files} files in {seconds:.0f} s "
                    f"({rates[jobs]:.1f} files/minute; {outcome})"
                )
            print(f"  --jobs 2 / --jobs 1: {rates[2] / rates[1]:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())

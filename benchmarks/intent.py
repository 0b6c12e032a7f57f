"""The cost of the intent check: its share of an offline migration's wall time, per file.

    .venv/bin/python benchmarks/intent.py [--max-mutants N] [FILE …]

For every Enzyme test of the example app (or the files given, relative to the app), in a fresh
git copy of the app: one `migrate --offline` through the engine; prints the run's wall time, the
intent check's time (its one jest process over every mutant), its share, the mutants, the
fidelity and the outcome. The intent check runs only for results whose tests pass.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from example_copy import make_project as fresh_app  # noqa: E402

from testmend.config import load_config  # noqa: E402
from testmend.engine import Engine, RunRequest  # noqa: E402
from testmend.project import enzyme_test_files  # noqa: E402

APP = REPO / "examples" / "react-app"


async def measure(root: Path, file: str, max_mutants: int) -> tuple[float, str]:
    config = load_config(
        root, environ={}, editor_settings={"fidelity": {"maxMutants": max_mutants}}
    )
    started = time.perf_counter()
    async with Engine(config, offline=True, workspaces_dir=root.parent / "ws") as engine:
        handle = await engine.start(RunRequest(file=file))
        result = await handle.wait()
    wall = time.perf_counter() - started
    assert result is not None
    intent = result.fidelity.intent if result.fidelity else None
    spent = intent.duration_s if intent is not None and not intent.skipped_reason else 0.0
    if intent is None:
        detail = "intent not run (tests fail)"
    elif intent.skipped_reason:
        detail = f"intent not run: {intent.skipped_reason[:60]}"
    else:
        score = intent.fidelity
        detail = (
            f"{len(intent.outcomes):>2} mutants, original catches {intent.killed_by_original:>2}, "
            f"fidelity {'n/a' if score is None else f'{score:.2f}'}"
        )
    line = (
        f"{Path(file).name:<24} {wall:6.1f} s  intent {spent:5.1f} s  share "
        f"{spent / wall:5.1%}  {result.status:<13} {detail}"
    )
    return (spent / wall if spent else 0.0), line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--max-mutants", type=int, default=None)
    args = parser.parse_args()
    max_mutants = args.max_mutants
    if max_mutants is None:
        max_mutants = load_config(APP, environ={}).fidelity.max_mutants
    with tempfile.TemporaryDirectory(prefix="testmend-bench-intent-") as tmp:
        root = fresh_app(Path(tmp))
        files = args.files or [p.relative_to(root).as_posix() for p in enzyme_test_files(root)]
        print(f"intent check cost, offline migrations, maxMutants={max_mutants}")
        shares = []
        for file in sorted(files):
            share, line = asyncio.run(measure(root, file, max_mutants))
            print(line, flush=True)
            if share:
                shares.append(share)
        if shares:
            print(
                f"files with an intent check: {len(shares)}; share of wall time: "
                f"mean {sum(shares) / len(shares):.1%}, max {max(shares):.1%}"
            )


if __name__ == "__main__":
    main()

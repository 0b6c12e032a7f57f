"""The type check narrowed to a test's files against the project's whole tsc, file by file.

    .venv/bin/python benchmarks/tsc_scope.py [--app DIR] [--tsconfig FILE] [--tsc BIN] [--limit N]

For each test file the project's tsc checks (in a git copy of the example app, or in ``--app``):
the project's type check command (``tsc --noEmit -p tsconfig.json`` as testmend detects it;
``--tsconfig``: another config, ``--tsc``: another compiler) and its narrowed form
(``runners/tsc_scope.py``), each run twice and the second timed, not incremental; then both
again on the file with two errors appended (a wrong assignment and an unknown jest-dom
matcher). Prints per file the narrowed program's root files, both times, and whether the two
agree on the file's diagnostics, clean and broken; then the median ratio.

A disagreement on the clean file is what the narrowing must never do when the narrowed program
is clean (the runner trusts it then); on the broken file the runner asks the whole tsc anyway.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from example_copy import make_project

from testmend.config import load_config
from testmend.runners import ProjectRunners
from testmend.runners.parsing import parse_tsc_output
from testmend.runners.tsc_scope import SCOPE_CONFIG, SCOPE_DIR, scope_typecheck

BROKEN = "\nconst broken: number = 'one';\nexpect(document.body).toBeInTheDocumentX();\n"


def check(root: Path, argv: list[str], file: str) -> tuple[float, list[tuple[str, int, str]]]:
    """Seconds of the second of two runs, and the file's diagnostics."""
    for _ in range(2):
        started = time.perf_counter()
        done = subprocess.run(
            [*argv, "--pretty", "false"], cwd=root, capture_output=True, text=True
        )
        seconds = time.perf_counter() - started
    target = (root / file).resolve()
    found = parse_tsc_output(done.stdout + done.stderr, root)
    return seconds, sorted(
        (d.code, d.line, d.message) for d in found if Path(d.file).resolve() == target
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app", type=Path, help="a TypeScript project (default: the example app)")
    parser.add_argument("--tsconfig", help="the project's tsconfig to check with (relative)")
    parser.add_argument("--tsc", type=Path, help="another tsc (a newer TypeScript)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many test files")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="testmend-tsc-scope-") as tmp:
        root = args.app.resolve() if args.app else make_project(Path(tmp))
        created = not (root / SCOPE_DIR).exists()
        settings = {}
        if args.tsconfig or args.tsc:
            tsc = str(args.tsc.resolve() if args.tsc else root / "node_modules" / ".bin" / "tsc")
            project = args.tsconfig or "tsconfig.json"
            settings = {"commands": {"typecheck": [tsc, "--noEmit", "-p", project]}}
        runners = ProjectRunners(load_config(root, environ={}, editor_settings=settings))
        command = runners.commands.typecheck
        if command is None:
            print(f"{root}: no type check ({runners.commands.origin.get('typecheck')})")
            return 1
        listed = subprocess.run(
            ["git", "ls-files", "*.test.ts", "*.test.tsx", "*.spec.ts", "*.spec.tsx"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        files = [f for f in listed if runners.type_checked(f)][: args.limit or None]
        print(f"{root}: {command}; {len(files)} test files tsc checks\n")
        print(f"{'file':60} {'roots':>5} {'whole s':>8} {'narrow s':>8} {'ratio':>6}  clean/broken")
        ratios: list[float] = []
        disagreements = 0
        try:
            for file in files:
                original = (root / file).read_text(encoding="utf-8")
                scope = scope_typecheck(root, command, file)
                if scope is None:
                    print(f"{file:60} not narrowed")
                    continue
                whole_s, whole = check(root, command, file)
                narrow_s, narrow = check(root, scope.argv, file)
                try:
                    (root / file).write_text(original + BROKEN, encoding="utf-8")
                    _, whole_broken = check(root, command, file)
                    _, narrow_broken = check(root, scope.argv, file)
                finally:
                    (root / file).write_text(original, encoding="utf-8")
                agree = f"{'same' if whole == narrow else 'DIFF'}/"
                agree += "same" if whole_broken == narrow_broken else "diff"
                disagreements += whole != narrow
                ratios.append(narrow_s / whole_s)
                print(
                    f"{file:60} {scope.root_files:5} {whole_s:8.2f} {narrow_s:8.2f} "
                    f"{narrow_s / whole_s:6.2f}  {agree}"
                )
        finally:
            if created:
                shutil.rmtree(root / SCOPE_DIR, ignore_errors=True)
            else:
                (root / SCOPE_DIR / SCOPE_CONFIG).unlink(missing_ok=True)
        if ratios:
            median = statistics.median(ratios)
            print(f"\nnarrowed / whole, median of {len(ratios)} files: {median:.2f}")
            print(f"clean files where they disagree: {disagreements}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

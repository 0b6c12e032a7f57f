"""Migrate every Enzyme test of the example app with the deterministic tier (no model).

    .venv/bin/python benchmarks/migrate_examples.py [--app PATH] [--jobs N] [--no-capture]
                                                     [--file src/...test.tsx] [--show]

For each file that imports 'enzyme': a shadow workspace, DOM capture of the original test,
conversion, eslint --fix, then jest, eslint and tsc on the file. Prints a per-file table and
totals. Target: at least 60% of the files fully passing.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from testmend.codemod import detect_conventions  # noqa: E402
from testmend.codemod.offline import OfflineResult, migrate_offline  # noqa: E402
from testmend.config import load_config  # noqa: E402
from testmend.workspace import create_shadow_workspace_async  # noqa: E402

_ENZYME = re.compile(r"""from\s+['"]enzyme['"]|require\(\s*['"]enzyme['"]\s*\)""")


def enzyme_tests(app: Path) -> list[str]:
    found = []
    for path in sorted((app / "src").rglob("*")):
        if "node_modules" in path.parts or not path.is_file():
            continue
        if re.search(r"\.(test|spec)\.[jt]sx?$", path.name) and _ENZYME.search(
            path.read_text(encoding="utf-8")
        ):
            found.append(path.relative_to(app).as_posix())
    return found


async def one(app: Path, file: str, capture: bool, limit: asyncio.Semaphore) -> OfflineResult:
    async with limit:
        config = load_config(app, environ={})
        options = detect_conventions(app)
        async with await create_shadow_workspace_async(app) as shadow:
            return await migrate_offline(
                config, file, workspace_root=shadow.root, options=options, capture=capture
            )


def yes(flag: bool) -> str:
    return "yes" if flag else "no"


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", type=Path, default=REPO / "examples" / "react-app")
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--file", action="append")
    parser.add_argument("--no-capture", action="store_true")
    parser.add_argument("--show", action="store_true", help="print each converted file")
    args = parser.parse_args()
    app: Path = args.app.resolve()
    files = args.file or enzyme_tests(app)
    started = time.perf_counter()
    limit = asyncio.Semaphore(max(1, args.jobs))
    results = await asyncio.gather(*(one(app, f, not args.no_capture, limit) for f in files))
    total_wall = time.perf_counter() - started

    header = (
        f"{'file':<52} {'tests':>7} {'full':>5} {'enz-free':>8} {'lint':>5} {'types':>5} "
        f"{'count':>5} {'notes':>5} {'time':>6}"
    )
    print(header)
    print("-" * len(header))
    sums = {
        "passed": 0,
        "total": 0,
        "full": 0,
        "free": 0,
        "lint": 0,
        "types": 0,
        "count": 0,
        "notes": 0,
        "untranslated": 0,
    }
    for r in results:
        lint_clean = bool(r.lint and r.lint.clean)
        type_clean = bool(r.typecheck and r.typecheck.clean)
        preserved = (
            r.codemod.tests_before == r.codemod.tests_after
            and r.codemod.test_names_before == r.codemod.test_names_after
        )
        notes = r.final_content.count("// testmend:")
        name = r.file if len(r.file) <= 52 else "…" + r.file[-51:]
        print(
            f"{name:<52} {f'{r.passed}/{r.total}':>7} {yes(r.fully_passing):>5} "
            f"{yes(r.codemod.enzyme_free):>8} {yes(lint_clean):>5} {yes(type_clean):>5} "
            f"{yes(preserved):>5} {notes:>5} {r.wall_time_s:>5.1f}s"
        )
        sums["passed"] += r.passed
        sums["total"] += r.total
        sums["full"] += r.fully_passing
        sums["free"] += r.codemod.enzyme_free
        sums["lint"] += lint_clean
        sums["types"] += type_clean
        sums["count"] += preserved
        sums["notes"] += notes
        sums["untranslated"] += r.codemod.untranslated_count
        for error in r.errors:
            print(f"    ! {error[:300]}")
        if args.show:
            print(r.final_content)
            for test in r.tests.failing() if r.tests else []:
                message = test.failure_messages[0][:400] if test.failure_messages else ""
                print(f"    FAIL {test.full_name}: {message}")
            for m in r.lint.messages if r.lint else []:
                print(f"    LINT {m.line}:{m.column} {m.rule} {m.message[:200]}")
            for d in r.typecheck.diagnostics if r.typecheck else []:
                print(f"    TSC {d.line}:{d.column} {d.code} {d.message[:200]}")
            if r.tests and r.tests.suite_error:
                print(f"    SUITE {r.tests.suite_error.message[:1500]}")
    n = len(results) or 1
    print("-" * len(header))
    print(
        f"{'total (' + str(len(results)) + ' files)':<52} {sums['passed']}/{sums['total']:<3} "
        f"{sums['full']:>5} {sums['free']:>8} {sums['lint']:>5} {sums['types']:>5} "
        f"{sums['count']:>5} {sums['notes']:>5} {total_wall:>5.1f}s"
    )
    print(
        f"files fully passing: {sums['full']}/{len(results)} ({100 * sums['full'] / n:.0f}%); "
        f"tests passing: {sums['passed']}/{sums['total']}; Enzyme-free: {sums['free']}; "
        f"lint-clean: {sums['lint']}; type-clean: {sums['types']}; test count preserved: "
        f"{sums['count']}; // testmend: notes: {sums['notes']} "
        f"({sums['untranslated']} untranslated)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))

"""Migrate every Enzyme test of a project with the deterministic tier (no model).

    .venv/bin/python benchmarks/migrate_examples.py [--app PATH] [--jobs N] [--no-capture]
                                                     [--file F ...] [--show] [--json OUT]
                                                     [--fidelity]

``--app`` is any checkout of a real suite (default: the bundled example app), installed from
its lockfile and with Testing Library installed (the script says the command when it is not).
For each test file that imports Enzyme: a shadow workspace, DOM capture of the original test,
conversion, eslint --fix, then jest, eslint and tsc on the file (each only where the project
has the tool and it checks the file). Nothing is written in the checkout.

Per file it prints: tests passing / total after migration and how many passed in the original
(the capture runs it), fully passing, Enzyme-free, lint- and type-clean (``-``: the tool does
not apply), test names preserved, ``// testmend:`` notes left, wall time. Totals follow;
``--json`` writes the per-file figures. ``--fidelity`` also runs the engine's fidelity checks on
each fully passing file (the test inventory against the original's, and the intent check: mutants
of the component under test that the original catches must still be caught).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from testmend.codemod import detect_conventions  # noqa: E402
from testmend.codemod.offline import OfflineResult, migrate_offline, snapshot_file  # noqa: E402
from testmend.config import Config, load_config  # noqa: E402
from testmend.fidelity.intent import IntentInputs, check_intent  # noqa: E402
from testmend.project import enzyme_test_files  # noqa: E402
from testmend.project.dependencies import (  # noqa: E402
    ModuleResolver,
    component_under_test,
    dependency_tree,
    find_mocks,
    mutation_targets,
)
from testmend.project.testing_library import testing_library_status  # noqa: E402
from testmend.runners import ProjectRunners  # noqa: E402
from testmend.workflow.verify import inventory_check  # noqa: E402
from testmend.workspace import create_shadow_workspace_async  # noqa: E402


@dataclass
class Fidelity:
    """The engine's fidelity checks on a fully passing migration."""

    findings: list[str]
    """What the inventory comparison found (a test lost, fewer assertions, a tautology)."""
    mutants: int
    caught_by_original: int
    caught_by_both: int
    lost: list[str]
    """Mutants the original catches and the migration lets pass."""
    skipped: str | None


async def fidelity(
    config: Config, root: Path, file: str, original: str, result: OfflineResult
) -> Fidelity:
    """The inventory comparison and the intent check (mutants of the component under test and
    its own modules, run against the original and the migration), as the engine runs them."""
    _rows, findings = inventory_check(original, result.final_content, file, [])
    resolver = ModuleResolver(root)
    tree = dependency_tree(root, file, resolver=resolver)
    component = component_under_test(root, file, tree)
    mocked = {
        resolved
        for m in find_mocks(original, file)
        if m.kind == "module" and (resolved := resolver.resolve(file, m.module).resolved)
    }
    snapshot = root / snapshot_file(file)
    report = await check_intent(
        ProjectRunners(config, cwd=root),
        root,
        IntentInputs(
            test_file=file,
            original=original,
            candidate=result.final_content,
            targets=mutation_targets(tree, component, mocked=mocked),
            candidate_snapshot=snapshot.read_text(encoding="utf-8") if snapshot.is_file() else None,
            max_mutants=config.fidelity.max_mutants,
            timeout=config.fidelity.timeout_seconds,
        ),
    )
    return Fidelity(
        findings=[f.message for f in findings],
        mutants=len(report.outcomes),
        caught_by_original=report.killed_by_original,
        caught_by_both=report.killed_by_both,
        lost=[o.mutant.describe() for o in report.lost()],
        skipped=report.skipped_reason,
    )


async def one(
    app: Path, file: str, capture: bool, check_fidelity: bool, limit: asyncio.Semaphore
) -> tuple[OfflineResult, Fidelity | None]:
    async with limit:
        config = load_config(app, environ={})
        options = detect_conventions(app)
        async with await create_shadow_workspace_async(app) as shadow:
            original = (shadow.root / file).read_text(encoding="utf-8")
            result = await migrate_offline(
                config, file, workspace_root=shadow.root, options=options, capture=capture
            )
            checked = None
            if check_fidelity and result.fully_passing:
                checked = await fidelity(config, shadow.root, file, original, result)
            return result, checked


def mark(flag: bool | None) -> str:
    return "-" if flag is None else ("yes" if flag else "no")


@dataclass
class Row:
    file: str
    passed: int
    total: int
    original_passed: int | None
    """Tests of the original Enzyme file that passed (the capture runs it)."""
    fully_passing: bool
    enzyme_free: bool
    lint_clean: bool | None
    """None: the project has no eslint."""
    type_clean: bool | None
    """None: tsc does not check the file."""
    tests_preserved: bool
    notes: int
    untranslated: int
    seconds: float
    errors: list[str]
    fidelity: Fidelity | None = None
    """With ``--fidelity``, for fully passing files."""


def row_of(r: OfflineResult, checked: Fidelity | None) -> Row:
    return Row(
        fidelity=checked,
        file=r.file,
        passed=r.passed,
        total=r.total,
        original_passed=r.capture.tests_passed if r.capture else None,
        fully_passing=r.fully_passing,
        enzyme_free=r.codemod.enzyme_free,
        lint_clean=None if r.lint is None else r.lint.clean,
        type_clean=None if r.typecheck is None else r.typecheck.clean,
        tests_preserved=r.codemod.test_names_before == r.codemod.test_names_after,
        notes=r.final_content.count("// testmend:"),
        untranslated=r.codemod.untranslated_count,
        seconds=r.wall_time_s,
        errors=r.errors,
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", type=Path, default=REPO / "examples" / "react-app")
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--file", action="append", help="project-relative; repeatable")
    parser.add_argument("--no-capture", action="store_true")
    parser.add_argument("--show", action="store_true", help="print each converted file")
    parser.add_argument("--json", type=Path, help="write the per-file figures here")
    parser.add_argument(
        "--fidelity",
        action="store_true",
        help="run the engine's fidelity checks (inventory, intent) on fully passing files",
    )
    args = parser.parse_args()
    app: Path = args.app.resolve()
    library = testing_library_status(app)
    if not library.ready:
        print(f"{app}: {library.message()}", file=sys.stderr)
        return 2
    files = args.file or [p.relative_to(app).as_posix() for p in enzyme_test_files(app)]
    started = time.perf_counter()
    limit = asyncio.Semaphore(max(1, args.jobs))
    outcomes = await asyncio.gather(
        *(one(app, f, not args.no_capture, args.fidelity, limit) for f in files)
    )
    results = [r for r, _f in outcomes]
    total_wall = time.perf_counter() - started

    header = (
        f"{'file':<52} {'tests':>7} {'orig':>5} {'full':>5} {'enz-free':>8} {'lint':>5} "
        f"{'types':>5} {'kept':>5} {'notes':>5} {'time':>6}"
    )
    print(header)
    print("-" * len(header))
    rows = [row_of(r, f) for r, f in outcomes]
    for r, row in zip(results, rows, strict=True):
        name = r.file if len(r.file) <= 52 else "…" + r.file[-51:]
        orig = "?" if row.original_passed is None else str(row.original_passed)
        print(
            f"{name:<52} {f'{r.passed}/{r.total}':>7} {orig:>5} {mark(row.fully_passing):>5} "
            f"{mark(row.enzyme_free):>8} {mark(row.lint_clean):>5} {mark(row.type_clean):>5} "
            f"{mark(row.tests_preserved):>5} {row.notes:>5} {row.seconds:>5.1f}s"
        )
        for error in r.errors:
            print(f"    ! {error[:300]}")
        found = row.fidelity
        if found is not None:
            intent = (
                f"intent not checked: {found.skipped}"
                if found.skipped
                else f"intent: the original catches {found.caught_by_original} of "
                f"{found.mutants} mutants, the migration {found.caught_by_both} of those"
            )
            print(f"    fidelity: {len(found.findings)} inventory finding(s); {intent}")
            for finding in found.findings:
                print(f"      ✗ {finding[:200]}")
            for lost in found.lost:
                print(f"      lost: {lost[:200]}")
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

    def count(key: str) -> int:
        return sum(1 for row in rows if getattr(row, key) is True)

    def applicable(key: str) -> int:
        return sum(1 for row in rows if getattr(row, key) is not None)

    n = len(rows)
    passed = sum(row.passed for row in rows)
    total = sum(row.total for row in rows)
    original = sum(row.original_passed or 0 for row in rows)
    notes = sum(row.notes for row in rows)
    untranslated = sum(row.untranslated for row in rows)
    print("-" * len(header))
    print(
        f"files fully passing: {count('fully_passing')}/{n} "
        f"({100 * count('fully_passing') / (n or 1):.0f}%); tests passing: {passed}/{total} "
        f"(the originals: {original} passing); tests preserved in {count('tests_preserved')}/{n} "
        f"files; Enzyme-free: {count('enzyme_free')}/{n}; lint-clean: "
        f"{count('lint_clean')}/{applicable('lint_clean')}; type-clean: "
        f"{count('type_clean')}/{applicable('type_clean')}; // testmend: notes left: {notes} "
        f"({untranslated} untranslated); wall {total_wall:.0f} s with --jobs {args.jobs}"
    )
    if args.fidelity:
        checked: list[Fidelity] = [row.fidelity for row in rows if row.fidelity is not None]
        kept = [c for c in checked if not c.findings and not c.lost and c.skipped is None]
        print(
            f"fidelity of the {len(checked)} fully passing files: {len(kept)} keep their intent "
            f"(no inventory finding, no mutant lost); "
            f"{sum(1 for c in checked if c.findings)} with inventory findings, "
            f"{sum(1 for c in checked if c.lost)} losing mutants "
            f"({sum(len(c.lost) for c in checked)} of "
            f"{sum(c.caught_by_original for c in checked)} the originals catch), "
            f"{sum(1 for c in checked if c.skipped)} not checked"
        )
    if args.json:
        data = {"app": str(app), "files": [asdict(row) for row in rows]}
        args.json.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))

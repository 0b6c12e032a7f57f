"""Migrate every Enzyme test of a project offline, as ``testmend migrate --offline`` does, and
say what the engine made of each: accepted or not, and why.

    .venv/bin/python benchmarks/migrate_examples.py [--app PATH] [--jobs N] [--file F ...]
                                                     [--show] [--json OUT]

``--app`` is any checkout of a real suite (default: the bundled example app), installed from its
lockfile and with Testing Library installed (the script says the command when it is not). Each
file goes through the product's pipeline (research with the DOM capture, the conversion, eslint
--fix, jest, eslint, tsc, the test inventory and the intent check, the acceptance policy) in the
engine's shadow workspaces; nothing is written in the checkout but its ``.testmend/`` records.

Per file: the outcome (``accepted`` is the engine's ``succeeded``), tests passing / total and how
many passed in the original, the lint messages left by rule (and how many of them the original
has too: eslint runs on it, in the checkout, where the result has any), the type errors,
``fireEvent`` and ``userEvent`` calls in the result, the conversion's findings by kind, the
mutants the original catches and those the result lets through, the time. Per suite: the same,
added up, and the reasons results were not accepted, most frequent first. ``--json`` writes it all.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import json
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _frozen_code() -> Path:
    """A copy of the tree's ``server/testmend`` taken at start, put first on ``sys.path``: its
    modules load lazily and its assets (the capture's setup file) are read during the run, so a
    tree that changes while a suite runs (a checkout, an edit) would otherwise measure a mix of
    two versions."""
    frozen = Path(tempfile.mkdtemp(prefix="testmend-bench-code-"))
    atexit.register(shutil.rmtree, frozen, ignore_errors=True)
    shutil.copytree(
        REPO / "server" / "testmend",
        frozen / "testmend",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return frozen


sys.path.insert(0, str(_frozen_code()))

from testmend.config import load_config  # noqa: E402
from testmend.engine import Engine, EngineError, RunRequest, RunResult  # noqa: E402
from testmend.project import enzyme_test_files  # noqa: E402
from testmend.project.testing_library import testing_library_status  # noqa: E402
from testmend.runners import LintResult, ProjectRunners, RunnerError  # noqa: E402
from testmend.workflow.events import RunEvent, RunStarted  # noqa: E402
from testmend.workspace import collect_stale_slots  # noqa: E402

_FIRE_EVENT = re.compile(r"\bfireEvent(?:\.\w+)?\(")
_USER_EVENT = re.compile(r"\b(?:user|userEvent)\.\w+\(")
_INLINED_HELPER = re.compile(r"function mockRecordingProps\(|function recordedProps\(")


@dataclass
class Row:
    file: str
    outcome: str
    """accepted, needs_review, failed (or refused: the engine would not start it)."""
    passed: int = 0
    total: int = 0
    original_passed: int | None = None
    enzyme_free: bool = False
    lint: dict[str, int] = field(default_factory=dict)
    """Lint messages left, by rule."""
    lint_inherited: dict[str, int] = field(default_factory=dict)
    """Of those, the ones the original has too (the same rule on a line of the same text)."""
    type_errors: int = 0
    fire_event: int = 0
    user_event: int = 0
    inlined_helper: bool = False
    findings: dict[str, int] = field(default_factory=dict)
    """The conversion's findings by kind."""
    caught_by_original: int = 0
    lost: int = 0
    reasons: list[str] = field(default_factory=list)
    seconds: float = 0.0
    unchanged: bool = False
    """The result is the file as it was (refused, or nothing it could convert)."""

    @property
    def passing(self) -> bool:
        return self.enzyme_free and self.total > 0 and self.passed == self.total


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def inherited(result: RunResult, original: LintResult) -> dict[str, int]:
    """The result's lint messages that the original has too, by rule: the same rule on a line
    of the same text (a conversion that moved the line does not make it the result's own)."""
    theirs = Counter(
        (m.rule or "parse error", _line(result.original, m.line)) for m in original.messages
    )
    mine: Counter[str] = Counter()
    for m in result.lint_messages:
        key = (m.rule or "parse error", _line(result.content or "", m.line))
        if theirs[key] > 0:
            theirs[key] -= 1
            mine[key[0]] += 1
    return dict(mine.most_common())


def row_of(result: RunResult, seconds: float) -> Row:
    intent = result.fidelity.intent if result.fidelity is not None else None
    lint = Counter(m.rule or "parse error" for m in result.lint_messages)
    return Row(
        file=result.file,
        outcome="accepted" if result.status == "succeeded" else result.status,
        passed=result.summary.tests_passing,
        total=result.summary.tests_total,
        original_passed=result.original_tests_passing,
        enzyme_free=result.summary.enzyme_free,
        lint=dict(lint.most_common()),
        type_errors=len(result.type_messages),
        fire_event=len(_FIRE_EVENT.findall(result.content)),
        user_event=len(_USER_EVENT.findall(result.content)),
        inlined_helper=bool(_INLINED_HELPER.search(result.content)),
        findings=dict(Counter(f.kind for f in result.codemod_findings).most_common()),
        caught_by_original=intent.killed_by_original if intent is not None else 0,
        lost=len(intent.lost()) if intent is not None else 0,
        reasons=result.reasons,
        seconds=round(seconds, 1),
        unchanged=result.content == result.original,
    )


async def migrate_all(app: Path, files: list[str], jobs: int) -> tuple[list[Row], list[RunResult]]:
    config = load_config(app, environ={}, editor_settings={"maxConcurrentRuns": jobs})
    runners = ProjectRunners(config, cwd=app)  # eslint on the originals, in the checkout
    started: dict[str, float] = {}

    def on_event(event: RunEvent) -> None:
        if isinstance(event, RunStarted):
            started[event.run_id] = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="testmend-bench-") as workspaces:
        engine = Engine(config, offline=True, workspaces_dir=Path(workspaces), on_event=on_event)
        async with engine:

            async def one(file: str) -> tuple[Row, RunResult | None]:
                try:
                    handle = await engine.start(RunRequest(file=file))
                except EngineError as exc:
                    refused = Row(file=file, outcome="refused", reasons=[str(exc)], unchanged=True)
                    return refused, None
                result = await handle.wait()
                assert result is not None, "an offline run never pauses"
                ended = time.perf_counter()
                row = row_of(result, ended - started.get(result.run_id, ended))
                # (When the original's lint cannot run, nothing is counted as its.)
                if result.lint_messages:
                    with contextlib.suppress(RunnerError):
                        row.lint_inherited = inherited(result, await runners.lint(file))
                return row, result

            outcomes = await asyncio.gather(*(one(f) for f in files))
        # The warm slots are worktrees registered in the suite's repository: unregistered
        # before their folder goes, so no stale registration is left behind there.
        await asyncio.to_thread(collect_stale_slots, Path(workspaces), every=True)
    return [row for row, _ in outcomes], [r for _, r in outcomes if r is not None]


def mark(flag: bool) -> str:
    return "yes" if flag else "no"


def report(rows: list[Row], results: list[RunResult], wall: float, jobs: int, show: bool) -> None:
    header = (
        f"{'file':<50} {'outcome':>12} {'tests':>7} {'orig':>5} {'lint':>5} {'types':>5} "
        f"{'fireEv':>6} {'userEv':>6} {'lost':>5} {'time':>6}"
    )
    print(header)
    print("-" * len(header))
    by_file = {r.file: r for r in results}
    for row in rows:
        name = row.file if len(row.file) <= 50 else "…" + row.file[-49:]
        orig = "?" if row.original_passed is None else str(row.original_passed)
        lost = f"{row.lost}/{row.caught_by_original}"
        print(
            f"{name:<50} {row.outcome:>12} {f'{row.passed}/{row.total}':>7} {orig:>5} "
            f"{sum(row.lint.values()):>5} {row.type_errors:>5} {row.fire_event:>6} "
            f"{row.user_event:>6} {lost:>5} {row.seconds:>5.1f}s"
        )
        if row.outcome != "accepted":
            for reason in row.reasons[:4]:
                print(f"    · {reason[:240]}")
        if row.lint:
            print(
                "    lint: "
                + ", ".join(f"{rule} ×{n}" for rule, n in row.lint.items())
                + (
                    f" ({sum(row.lint_inherited.values())} the original has too)"
                    if row.lint_inherited
                    else ""
                )
            )
        if row.findings:
            print("    findings: " + ", ".join(f"{kind} ×{n}" for kind, n in row.findings.items()))
        result = by_file.get(row.file)
        if show and result is not None:
            print(result.content)
            for m in result.lint_messages:
                print(f"    LINT {m.line}:{m.column} {m.rule} {m.message[:200]}")
            for m in result.type_messages:
                print(f"    TSC {m.line}:{m.column} {m.rule} {m.message[:200]}")
            for f in result.codemod_findings:
                print(f"    NOTE {f.line} {f.kind}: {f.message[:300]}")

    n = len(rows)
    accepted = [r for r in rows if r.outcome == "accepted"]
    outcomes = Counter(r.outcome for r in rows)
    lint: Counter[str] = Counter()
    lint_inherited: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for row in rows:
        lint.update(row.lint)
        lint_inherited.update(row.lint_inherited)
        findings.update(row.findings)
        if row.outcome != "accepted":
            reasons.update({_reason_kind(reason) for reason in row.reasons})
    print("-" * len(header))
    print(
        f"accepted: {len(accepted)}/{n} ({100 * len(accepted) / (n or 1):.0f}%); "
        + ", ".join(f"{k} {v}" for k, v in outcomes.most_common() if k != "accepted")
    )
    print(
        f"passing (Enzyme-free, every test passes): {sum(r.passing for r in rows)}/{n}; tests "
        f"passing: {sum(r.passed for r in rows)}/{sum(r.total for r in rows)} (the originals: "
        f"{sum(r.original_passed or 0 for r in rows)} passing)"
    )
    print(
        f"lint messages left: {sum(lint.values())}"
        + (" (" + ", ".join(f"{k} ×{v}" for k, v in lint.most_common()) + ")" if lint else "")
    )
    if lint:
        print(
            f"    of them the originals have too: {sum(lint_inherited.values())}"
            + (
                " (" + ", ".join(f"{k} ×{v}" for k, v in lint_inherited.most_common()) + ")"
                if lint_inherited
                else ""
            )
        )
    print(
        f"type errors left: {sum(r.type_errors for r in rows)}; fireEvent calls: "
        f"{sum(r.fire_event for r in rows)}, userEvent calls: {sum(r.user_event for r in rows)}; "
        f"files with the recording helper inlined: {sum(r.inlined_helper for r in rows)}"
    )
    print(
        "findings: "
        + (", ".join(f"{k} ×{v}" for k, v in findings.most_common()) if findings else "none")
    )
    caught = sum(r.caught_by_original for r in accepted)
    print(
        f"mutants in accepted files: the originals catch {caught}, "
        f"the results lose {sum(r.lost for r in accepted)}"
    )
    unchanged = [r for r in rows if r.unchanged]
    print(
        f"returned unchanged: {len(unchanged)}/{n}"
        + "".join(
            f"\n    {r.file}: {(r.reasons or ['no reason given'])[0][:160]}" for r in unchanged
        )
    )
    if reasons:
        print("not accepted, by reason (files):")
        for reason, count in reasons.most_common(12):
            print(f"  {count:>4}  {reason}")
    print(f"wall {wall:.0f} s with --jobs {jobs}")


def _reason_kind(reason: str) -> str:
    """A reason without its numbers and names, so that like reasons add up."""
    reason = re.sub(r"\d+", "N", reason)
    reason = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "…", reason)
    return reason[:140]


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", type=Path, default=REPO / "examples" / "react-app")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--file", action="append", help="project-relative; repeatable")
    parser.add_argument("--show", action="store_true", help="print each result and its messages")
    parser.add_argument("--json", type=Path, help="write the per-file figures here")
    args = parser.parse_args()
    # Stopped (kill, Ctrl-C): the run is cancelled, so its workspaces and copies are removed
    # on the way out, as a stopped `testmend migrate` leaves nothing behind either.
    task = asyncio.current_task()
    assert task is not None
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        asyncio.get_running_loop().add_signal_handler(signum, task.cancel)
    app: Path = args.app.resolve()
    library = testing_library_status(app)
    if not library.ready:
        print(f"{app}: {library.message()}", file=sys.stderr)
        return 2
    files = args.file or [p.relative_to(app).as_posix() for p in enzyme_test_files(app)]
    began = time.perf_counter()
    rows, results = await migrate_all(app, files, max(1, args.jobs))
    wall = time.perf_counter() - began
    report(rows, results, wall, args.jobs, args.show)
    if args.json:
        data = {"app": str(app), "wall_s": round(wall), "files": [asdict(r) for r in rows]}
        args.json.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(asyncio.run(main()))
    except asyncio.CancelledError:
        print("stopped: nothing measured", file=sys.stderr)
        raise SystemExit(130) from None

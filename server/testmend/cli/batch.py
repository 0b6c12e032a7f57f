"""Many files from the command line: how far the batch is (done, running, ETA), one JSON line per
file as it ends (``--jsonl``), and a closing table."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..engine.models import RunResult
from ..workflow.events import RunEvent, RunFinished, RunStarted, event_line, spent_text

OUTCOMES = ("succeeded", "partial", "needs_review", "failed", "cancelled", "paused")


@dataclass
class FileTiming:
    started: float | None = None
    ended: float | None = None

    @property
    def seconds(self) -> float | None:
        if self.started is None or self.ended is None:
            return None
        return self.ended - self.started


@dataclass
class Batch:
    """Follows the runs' events: when each file started working and ended."""

    total: int
    jobs: int
    stream: TextIO
    clock: Any = time.monotonic
    began: float = field(default=0.0)
    timings: dict[str, FileTiming] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.began = self.clock()

    def observe(self, event: RunEvent) -> None:
        timing = self.timings.setdefault(event.run_id, FileTiming())
        if isinstance(event, RunStarted) and timing.started is None:
            timing.started = self.clock()
        elif isinstance(event, RunFinished):
            timing.ended = self.clock()
            if self.total > 1:
                print(self.progress_line(), file=self.stream, flush=True)

    def elapsed(self) -> float:
        return float(self.clock() - self.began)

    def seconds(self, run_id: str) -> float | None:
        timing = self.timings.get(run_id)
        return timing.seconds if timing else None

    def progress_line(self) -> str:
        done = sum(t.ended is not None for t in self.timings.values())
        running = sum(t.started is not None and t.ended is None for t in self.timings.values())
        elapsed = self.elapsed()
        line = f"[batch] {done}/{self.total} files done, {running} running, {clock_text(elapsed)}"
        left = self.total - done
        if done and left:
            # Files end at about `done / elapsed` per second while `jobs` run at once.
            line += f", about {clock_text(elapsed / done * left)} left"
        return line


def clock_text(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def json_line(row: dict[str, Any], stream: TextIO) -> None:
    print(json.dumps(row, separators=(",", ":")), file=stream, flush=True)


def summary_table(
    rows: list[dict[str, Any]], wall: float, jobs: int, ran: str | None = None
) -> str:
    """One line per file (outcome, tests, seconds), then the counts and the throughput
    (``ran``: how the files were run, when not by ``--jobs`` here)."""
    width = max([len(str(r["file"])) for r in rows] + [4])
    lines = [f"{'file':<{width}}  {'outcome':<13}{'tests':>9}{'seconds':>9}"]
    for row in rows:
        tests = f"{row['tests_passing']}/{row['tests_total']}" if row.get("tests_total") else "-"
        seconds = f"{row['seconds']:.1f}" if row.get("seconds") is not None else "-"
        lines.append(f"{row['file']:<{width}}  {row['status']:<13}{tests:>9}{seconds:>9}")
    counts = {outcome: sum(r["status"] == outcome for r in rows) for outcome in OUTCOMES}
    said = ", ".join(f"{n} {outcome.replace('_', ' ')}" for outcome, n in counts.items() if n)
    rate = len(rows) / wall * 60 if wall > 0 else 0.0
    lines.append(
        f"{len(rows)} files: {said}; {clock_text(wall)} {ran or f'at --jobs {jobs}'}"
        + (f" ({rate:.1f} files/minute)" if wall >= 1 else "")
    )
    return "\n".join(lines)


class Progress:
    """One line per meaningful event on stderr, prefixed with the file it is about."""

    def __init__(self, stream: TextIO, files: dict[str, str]):
        self.stream = stream
        self.files = files

    def __call__(self, event: RunEvent) -> None:
        name = Path(self.files.get(event.run_id, event.run_id)).name
        line = event_line(event)
        if line:
            print(f"[{name}] {line}", file=self.stream, flush=True)


def result_line(result: RunResult, written: str | None) -> str:
    summary = result.summary
    facts = [f"{summary.tests_passing}/{summary.tests_total} tests pass"]
    if summary.fidelity is not None:
        facts.append(f"fidelity {summary.fidelity:.2f}")
    if summary.findings:
        facts.append(f"{summary.findings} findings")
    if summary.tokens_used:
        facts.append(spent_text(summary.tokens_used, summary.cost))
    line = f"{result.file}: {result.status} ({', '.join(facts)})"
    for reason in result.reasons[:6]:
        line += f"\n  - {reason}"
    if written:
        line += f"\n  {written}"
    return line

"""Results waiting for a person, read from the runs a project keeps in ``.testmend/``: every face
lists them the same way (the editor's results view, the MCP server's ``find_enzyme_tests``),
and records the same way what a person took of one (some hunks, all, nothing).

A finished run's result is **kept** while its file still has the content the run migrated from;
**applied** once the file has the result's content; **partly applied** when the file has the
hunks a person took so far (``RunRecord.taken``), **taken** once they went through every hunk
(took or rejected each); **stale** when the file changed otherwise (the result is not applied
over it). A discarded result is listed as such.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from ..layout import NEVER_WALKED, STATE_DIR, state_dir
from .hunks import hunks, take
from .store import RunRecord
from .stores import open_store

ResultState = Literal["kept", "applied", "partly applied", "taken", "stale", "discarded"]
FINISHED = frozenset({"succeeded", "needs_review", "failed", "partial"})
"""Run statuses that have a result a person can take."""
APPLIED_NOTE = "## Taken"


@dataclass(frozen=True)
class KeptResult:
    record: RunRecord
    state: ResultState
    original: str
    content: str

    @property
    def hunk_count(self) -> int:
        return len(hunks(self.original, self.content))

    @property
    def taken(self) -> list[int]:
        return list(self.record.taken or [])


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def kept_result(root: Path, record: RunRecord) -> KeptResult | None:
    """A finished run's result and where its file stands (None: the run has no result)."""
    if record.status not in FINISHED and record.status != "discarded":
        return None
    store = open_store(root)
    folder = store.run_dir(record.run_id)
    original, content = _read(folder / "original.txt"), _read(folder / "result.txt")
    if original is None or content is None or original == content:
        return None
    current = _read(root / record.file)
    state: ResultState
    if record.status == "discarded":
        state = "discarded"
    elif current == content:
        state = "applied"
    elif record.taken and current == take(original, content, record.taken):
        state = "taken" if record.reviewed else "partly applied"
    elif current == original:
        state = "kept"
    else:
        state = "stale"
    return KeptResult(record, state, original, content)


def kept_results(root: Path, *, latest_only: bool = True) -> list[KeptResult]:
    """The results of a project's finished runs, oldest first; ``latest_only``: the latest of
    each file only (an older run of a file that ran again since is history)."""
    records = open_store(root).all()
    if latest_only:
        latest: dict[str, RunRecord] = {}
        for record in records:
            latest[record.file] = record
        records = list(latest.values())
    found = [kept_result(root, r) for r in records]
    return [k for k in found if k is not None]


def record_taken(
    root: Path, run_id: str, taken: Iterable[int], total: int, *, done: bool = False
) -> RunRecord:
    """What a person took of a result: its record says ``partial`` with the hunks taken (or
    keeps its outcome when every hunk was taken), and its report says it. ``done``: they went
    through every hunk (the rest rejected)."""
    store = open_store(root)
    record = store.load(run_id)
    chosen = sorted(set(taken))
    partial = len(chosen) < total
    update: dict[str, object] = {"taken": chosen, "hunks_total": total, "reviewed": done}
    if partial:
        update["status"] = "partial"
        update["outcome_before_taken"] = record.outcome_before_taken or record.status
    record = record.model_copy(update=update)
    store.save(record)
    report = store.run_dir(run_id) / "report.md"
    text = _read(report)
    if text is not None:
        text = text.split(f"\n{APPLIED_NOTE}\n", 1)[0].rstrip("\n") + "\n"
        what = "every hunk" if not partial else f"hunks {', '.join(map(str, chosen))} of {total}"
        when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        text += f"\n{APPLIED_NOTE}\n\nA person took {what} of this result ({when}).\n"
        store.write_text(run_id, "report.md", text)
    return record


def discard(root: Path, run_id: str) -> RunRecord:
    """Drop a result: no face applies or writes it any more (its report stays)."""
    store = open_store(root)
    record = store.load(run_id).model_copy(update={"status": "discarded", "question": None})
    store.save(record)
    return record


def projects_with_runs(folder: Path, depth: int = 6) -> list[Path]:
    """The projects under ``folder`` (itself included) that keep runs (a ``.testmend/runs``),
    package, VCS and generated folders skipped, at most ``depth`` folders down."""
    skipped = NEVER_WALKED | {STATE_DIR}
    found = []
    for here, dirs, _files in os.walk(folder):
        level = len(Path(here).relative_to(folder).parts)
        if (state_dir(Path(here)) / "runs").is_dir():
            found.append(Path(here))
        dirs[:] = [] if level >= depth else [d for d in dirs if d not in skipped]
    return found

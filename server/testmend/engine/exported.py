"""Results that travel outside the project's store: a CI job's ``testmend migrate --json``,
merged by ``testmend apply --from DIR`` in another checkout of the same commit.

``exported`` gives what a result's JSON carries beyond its summary (the migrated text, the
SHA-256 of the text it was migrated from); ``imported`` rebuilds the result against the
checkout it is to be written into, so that ``changes.write_result`` applies the same policy and
the same stale check as ``--write``: it writes only what the engine accepted (or, with
``accept_review``, what needs review), and only over the content the run migrated from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .changes import on_disk, sha256_text
from .models import RunResult


def exported(result: RunResult) -> dict[str, Any]:
    """The fields a result's ``--json`` row adds for ``apply --from``."""
    return {"content": result.content, "original_sha256": sha256_text(result.original)}


@dataclass
class Imported:
    """The results read from a folder of ``--json`` outputs, one per file (the newest run of
    a file when several outputs have it), and what could not be read."""

    results: list[RunResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    stale: dict[str, str] = field(default_factory=dict)
    """run id → why the checkout's file is not the one the run migrated from."""
    outputs: int = 0


def read_outputs(folder: Path, root: Path) -> Imported:
    """Every ``*.json`` under ``folder`` that is a ``testmend migrate --json`` output."""
    found = Imported()
    newest: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.rglob("*.json")):
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            found.problems.append(f"{path}: not read ({type(exc).__name__}: {exc})")
            continue
        rows = payload.get("results") if isinstance(payload, dict) else None
        if not isinstance(rows, list):
            found.problems.append(f"{path}: not the output of `testmend migrate --json`")
            continue
        found.outputs += 1
        for row in rows:
            if not isinstance(row, dict) or "content" not in row or "file" not in row:
                found.problems.append(
                    f"{path}: a result without its content (made by an older testmend?)"
                )
                continue
            kept = newest.get(row["file"])
            if kept is None or str(row.get("run_id", "")) > str(kept.get("run_id", "")):
                newest[row["file"]] = row
    return rows_imported(list(newest.values()), root, found)


def rows_imported(
    rows: list[dict[str, Any]], root: Path, found: Imported | None = None
) -> Imported:
    """The results of ``--json`` rows (one per file) against the checkout at ``root``."""
    found = found if found is not None else Imported(outputs=1)
    for row in sorted(rows, key=lambda r: str(r["file"])):
        file = row["file"]
        result, why = imported(root, row)
        if result is None:
            found.problems.append(f"{file}: {why}")
            continue
        found.results.append(result)
        if why:
            found.stale[result.run_id] = why
    return found


def imported(root: Path, row: dict[str, Any]) -> tuple[RunResult | None, str | None]:
    """The result of a ``--json`` row, its original being the checkout's file when that is
    the text the run migrated from; else the result and why it is stale (nothing of it is
    written), or None and why the row is not a result."""
    digest = row.get("original_sha256")
    if not isinstance(digest, str):
        return None, "its row has no original_sha256"
    try:
        now = on_disk(root)(str(row["file"]))
    except (OSError, ValueError) as exc:  # outside the project, unreadable
        return None, str(exc)
    fresh = now is not None and sha256_text(now) == digest.lower()
    try:
        result = RunResult.model_validate({**row, "original": now if fresh else ""})
    except ValidationError as exc:
        first = exc.errors()[0]
        return None, f"not a result ({'.'.join(map(str, first['loc']))}: {first['msg']})"
    if fresh:
        return result, None
    if now == result.content:
        return result, "already has this result"
    return result, "changed since it was migrated (not the content the run started from)"

"""The candidate in the shadow workspace, and what its checks say in words.

Used by the steps and by the agents' tools alike; free of LangChain, so the steps (and with
them an offline run) do not load the tools, whose schemas take a noticeable part of a second
to build.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..fidelity import InventoryRow
from ..layout import temp_name
from ..runners import TestRunResult
from ..workspace.paths import resolve_in_root
from .context import RunDeps
from .tracking import ObservedError


def sync_candidate(deps: RunDeps, test_file: str, content: str) -> Path:
    """Write the candidate to the shadow workspace when the file there differs."""
    path = resolve_in_root(deps.workspace_root, test_file)
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = None
    if current != content:
        tmp = temp_name(path)
        tmp.write_text(content, encoding="utf-8")
        tmp.replace(path)
    return path


def observed_test_errors(result: TestRunResult) -> list[ObservedError]:
    if result.suite_error is not None:
        return [ObservedError(subject="suite", message=result.suite_error.message)]
    if not result.tests:
        return [ObservedError(subject="suite", message="the file contains no test")]
    return [
        ObservedError(
            subject=t.full_name,
            message=(t.failure_messages or ["failed"])[0],
            test_name=t.full_name,
        )
        for t in result.failing()
    ]


def counted_tests(result: TestRunResult, rows: Sequence[InventoryRow]) -> int:
    """The tests a result's passing count is out of: all of them but those it skips as the
    original file does (``rows``: the inventory's, an ``xit`` there too), which fail nothing.
    One the result newly skips counts, and does not pass."""
    skipped = {
        r.original.name
        for r in rows
        if r.original is not None and {"skip", "todo"} & set(r.original.marks)
    }
    kept = [t for t in result.tests if t.status in ("skipped", "todo") and t.full_name in skipped]
    return len(result.tests) - len(kept)


def describe_test_result(result: TestRunResult, limit: int = 6) -> str:
    lines = [
        f"{result.passed_count} passed, {result.failed_count} failed, "
        f"{result.skipped_count} skipped ({len(result.tests)} tests)"
    ]
    if result.suite_error is not None:
        where = result.suite_error.location
        at = f" at line {where.line}" if where else ""
        lines.append(f"The file could not run{at}:\n{result.suite_error.message[:3000]}")
    for test in result.failing()[:limit]:
        at = f" (line {test.failure_location.line})" if test.failure_location else ""
        message = (test.failure_messages or [""])[0]
        lines.append(f"✗ {test.full_name}{at}\n{message[:2500]}")
    if result.failed_count > limit:
        lines.append(f"… and {result.failed_count - limit} more failing tests")
    return "\n\n".join(lines)


def describe_lint(messages: Sequence[Any]) -> str:
    if not messages:
        return "No lint message."
    lines = [f"{len(messages)} lint message(s):"]
    for m in messages[:40]:
        lines.append(f"line {m.line}:{m.column} {m.severity} {m.rule or 'parse'}: {m.message}")
    return "\n".join(lines)


def describe_types(diagnostics: Sequence[Any]) -> str:
    if not diagnostics:
        return "No type error in the candidate."
    lines = [f"{len(diagnostics)} type diagnostic(s):"]
    for d in diagnostics[:40]:
        lines.append(f"line {d.line}:{d.column} {d.code}: {d.message}")
    return "\n".join(lines)

"""Parse jest --json, eslint --format json and tsc --pretty false output into typed results."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..sandbox import Sandbox
from .errors import BrokenTsconfigError, NoTestsFoundError, ToolCrashedError
from .models import (
    LintMessage,
    Position,
    SuiteError,
    TestCase,
    TestRunResult,
    TestStatus,
    TypeDiagnostic,
)
from .process import Completed

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def tail(text: str, lines: int = 30) -> str:
    return "\n".join(strip_ansi(text).rstrip().splitlines()[-lines:])


def _same_file(a: str | os.PathLike[str], b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _location_in(text: str, abs_file: Path) -> Position | None:
    """The innermost position in ``abs_file`` that a stack trace or Babel error names."""
    for name in {str(abs_file), os.path.realpath(abs_file)}:
        escaped = re.escape(name)
        frame = re.search(rf"{escaped}:(\d+):(\d+)", text)
        if frame:
            return Position(line=int(frame.group(1)), column=int(frame.group(2)))
        babel = re.search(rf"{escaped}: [^\n]*?\((\d+):(\d+)\)", text)
        if babel:
            # Babel columns are 0-based; report 1-based like the rest.
            return Position(line=int(babel.group(1)), column=int(babel.group(2)) + 1)
    return None


_JEST_STATUS: dict[str, TestStatus] = {
    "passed": "passed",
    "failed": "failed",
    "pending": "skipped",
    "skipped": "skipped",
    "disabled": "skipped",
    "focused": "passed",
    "todo": "todo",
}


def parse_jest_report(
    report: Mapping[str, Any], abs_file: Path, rel_file: str, output: str
) -> tuple[list[TestCase], SuiteError | None]:
    """Tests of ``abs_file`` from a jest ``--json`` report."""
    suites = [s for s in report.get("testResults", []) if _same_file(s.get("name", ""), abs_file)]
    if not suites:
        if report.get("numTotalTestSuites", 0) == 0:
            raise NoTestsFoundError(rel_file, tail(output))
        raise ToolCrashedError("jest", f"jest ran, but not {rel_file}", output=tail(output))
    suite = suites[0]
    tests: list[TestCase] = []
    for item in suite.get("assertionResults", []):
        failures = [strip_ansi(m) for m in item.get("failureMessages") or []]
        location = item.get("location")
        tests.append(
            TestCase(
                full_name=item.get("fullName") or item.get("title", ""),
                title=item.get("title", ""),
                ancestors=list(item.get("ancestorTitles", [])),
                status=_JEST_STATUS.get(item.get("status", ""), "failed"),
                duration_ms=item.get("duration"),
                location=Position(line=location["line"], column=location["column"])
                if location
                else None,
                failure_messages=failures,
                failure_location=_location_in("\n".join(failures), abs_file) if failures else None,
            )
        )
    suite_error = None
    message = strip_ansi(suite.get("message") or "")
    if suite.get("status") == "failed" and not any(t.status == "failed" for t in tests):
        # Nothing failed inside a test, yet the suite failed: it could not run.
        suite_error = SuiteError(
            message=message.strip() or "the test file failed to run",
            location=_location_in(message, abs_file),
        )
    return tests, suite_error


_ERROR_LINE = re.compile(r"^\s*((?:[A-Z]\w*)?Error\b(?::\s*\S.*)?)$")
_HEADING = re.compile(r"^\s*●\s+(\S.*)$")


def last_words(output: str) -> str:
    """What a jest that died printed last that says why: its last error line
    (``TypeError: versions.filter is not a function``) and its last ``●`` heading; empty when
    it printed neither."""
    lines = strip_ansi(output).splitlines()
    found: list[str] = []
    for pattern in (_ERROR_LINE, _HEADING):
        match = next((m for m in map(pattern.match, reversed(lines)) if m is not None), None)
        if match is not None and match.group(1).strip() not in found:
            found.append(match.group(1).strip()[:300])
    return "; ".join(found)


def read_jest_output_file(path: Path, output: str, returncode: int) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if "No tests found" in output:
            return {"testResults": [], "numTotalTestSuites": 0}
        said = last_words(output)
        raise ToolCrashedError(
            "jest",
            f"jest exited with status {returncode} without a report"
            + (f"; it printed last: {said}" if said else ""),
            output=tail(output),
        ) from None
    except ValueError:
        raise ToolCrashedError(
            "jest", "jest wrote an unreadable report", output=tail(output)
        ) from None
    if not isinstance(data, dict):
        raise ToolCrashedError("jest", "jest wrote an unexpected report", output=tail(output))
    return data


_IGNORED = re.compile(r"^File ignored\b")


def parse_eslint_report(report: Any, abs_file: Path) -> tuple[list[LintMessage], bool]:
    """Messages for ``abs_file`` from an eslint ``--format json`` report, and whether ignored."""
    if not isinstance(report, list):
        raise ToolCrashedError("eslint", "eslint wrote an unexpected report")
    messages: list[LintMessage] = []
    ignored = False
    for entry in report:
        if not _same_file(entry.get("filePath", ""), abs_file):
            continue
        for raw in entry.get("messages", []):
            text = raw.get("message", "")
            if raw.get("ruleId") is None and not raw.get("fatal") and _IGNORED.match(text):
                ignored = True
                continue
            messages.append(
                LintMessage(
                    rule=raw.get("ruleId"),
                    severity="error" if raw.get("severity") == 2 or raw.get("fatal") else "warning",
                    message=text,
                    line=raw.get("line") or 1,
                    column=raw.get("column") or 1,
                    end_line=raw.get("endLine"),
                    end_column=raw.get("endColumn"),
                    fixable="fix" in raw,
                    fatal=bool(raw.get("fatal")),
                )
            )
    return messages, ignored


def eslint_failure_summary(stderr: str, stdout: str) -> str:
    """The useful line of an eslint crash ('Oops! Something went wrong!' and friends)."""
    lines = [line.strip() for line in strip_ansi(stderr or stdout).splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("Oops!", "ESLint:")):
            continue
        return line
    return "eslint exited with status 2"


_TSC_LINE = re.compile(
    r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+),(?P<col>\d+)\): "
    r"(?P<cat>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$"
)
_TSC_GLOBAL = re.compile(r"^(?P<cat>error|warning|message) (?P<code>TS\d+): (?P<msg>.*)$")


def parse_tsc_output(output: str, cwd: Path) -> list[TypeDiagnostic]:
    """All diagnostics; ``file`` is absolute (or '' for project-wide ones)."""
    diagnostics: list[dict[str, Any]] = []
    for raw_line in strip_ansi(output).splitlines():
        if match := _TSC_LINE.match(raw_line):
            diagnostics.append(
                {
                    "file": str((cwd / match["file"]).resolve()),
                    "line": int(match["line"]),
                    "column": int(match["col"]),
                    "code": match["code"],
                    "category": match["cat"],
                    "message": match["msg"],
                }
            )
        elif match := _TSC_GLOBAL.match(raw_line):
            diagnostics.append(
                {
                    "file": "",
                    "line": 0,
                    "column": 0,
                    "code": match["code"],
                    "category": match["cat"],
                    "message": match["msg"],
                }
            )
        elif diagnostics and raw_line.startswith(" "):
            # Continuation of a multi-line message ("Type X is not assignable … / Types of …").
            diagnostics[-1]["message"] += "\n" + raw_line.rstrip()
    return [TypeDiagnostic(**d) for d in diagnostics]


def raise_for_broken_config(diagnostics: Iterable[TypeDiagnostic], output: str) -> None:
    """tsc diagnostics about the configuration itself mean no file was really checked."""
    for diag in diagnostics:
        in_config = Path(diag.file).name.startswith("tsconfig") and diag.file.endswith(".json")
        if not diag.file or in_config:
            where = f"{Path(diag.file).name}:{diag.line}: " if in_config else ""
            raise BrokenTsconfigError(f"{where}{diag.code} {diag.message}", tail(output))


def test_result(
    sandbox: Sandbox,
    rel: str,
    done: Completed,
    tests: list[TestCase],
    suite_error: SuiteError | None,
) -> TestRunResult:
    """The result, with what the sandbox blocked named in the failure messages."""
    tests = [
        t.model_copy(update={"failure_messages": [sandbox.explain(m) for m in t.failure_messages]})
        if t.failure_messages
        else t
        for t in tests
    ]
    if suite_error is not None:
        suite_error = suite_error.model_copy(
            update={"message": sandbox.explain(suite_error.message)}
        )
    return TestRunResult(
        file=rel,
        exit_code=done.returncode,
        tests=tests,
        suite_error=suite_error,
        duration_s=done.duration_s,
    )

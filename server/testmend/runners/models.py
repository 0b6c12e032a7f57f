"""Typed results of the project's tools, filtered to the file of interest."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, computed_field


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True)


class Position(_Result):
    line: int
    column: int


TestStatus = Literal["passed", "failed", "skipped", "todo"]


class TestCase(_Result):
    __test__ = False  # not a pytest class

    full_name: str
    title: str
    ancestors: list[str]
    status: TestStatus
    duration_ms: float | None = None
    location: Position | None = None
    """Where the test is declared (``it(...)``)."""
    failure_messages: list[str] = []
    failure_location: Position | None = None
    """The deepest stack frame inside the test file, where the failure surfaced."""


_ERROR_LINE = re.compile(r"[A-Z]\w*(?:Error|Exception)\b|Cannot find module ")


class SuiteError(_Result):
    """The file could not run at all: syntax error, import error, a throw at module level."""

    message: str
    location: Position | None = None

    @property
    def headline(self) -> str:
        """The line that says what went wrong, at most 200 characters: the first error line
        (``SyntaxError: …``, ``Cannot find module …``), which jest puts after a "● Test suite
        failed to run" header and, for a syntax error, paragraphs of advice; else the first
        line that is not a header."""
        lines = [line.strip() for line in self.message.splitlines() if line.strip()]
        errors = [line for line in lines if _ERROR_LINE.match(line)]
        said = [line for line in lines if not line.startswith("●")]
        return (errors or said or lines or ["the test file failed to run"])[0][:200]


class TestRunResult(_Result):
    __test__ = False

    file: str
    exit_code: int
    tests: list[TestCase]
    suite_error: SuiteError | None = None
    duration_s: float

    @computed_field  # type: ignore[prop-decorator]
    @property
    def passed_count(self) -> int:
        return sum(t.status == "passed" for t in self.tests)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def failed_count(self) -> int:
        return sum(t.status == "failed" for t in self.tests)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def skipped_count(self) -> int:
        return sum(t.status in ("skipped", "todo") for t in self.tests)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success(self) -> bool:
        """Every test ran and passed (a suite error or no test at all is not a success)."""
        return self.suite_error is None and self.failed_count == 0 and self.passed_count > 0

    def failing(self) -> list[TestCase]:
        return [t for t in self.tests if t.status == "failed"]


class LintMessage(_Result):
    rule: str | None
    severity: Literal["error", "warning"]
    message: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None
    fixable: bool = False
    fatal: bool = False
    """A parse error: eslint could not read the file, so no rule ran."""


class LintResult(_Result):
    file: str
    messages: list[LintMessage]
    duration_s: float
    ignored: bool = False
    """eslint's configuration ignores this file: nothing was checked."""
    reused: bool = False
    """Kept from an earlier run's check of the same content, nothing it depends on changed
    (``ProjectRunners.keep_checks_in``)."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def error_count(self) -> int:
        return sum(m.severity == "error" for m in self.messages)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def warning_count(self) -> int:
        return sum(m.severity == "warning" for m in self.messages)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def fixable_count(self) -> int:
        return sum(m.fixable for m in self.messages)

    @property
    def parse_error(self) -> LintMessage | None:
        return next((m for m in self.messages if m.fatal), None)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def clean(self) -> bool:
        return not self.messages and not self.ignored


class LintFixResult(LintResult):
    changed: bool
    """``--fix`` rewrote the file; ``messages`` are what is left after fixing."""


class TypeDiagnostic(_Result):
    file: str
    line: int
    column: int
    code: str
    """``TS2322`` and the like."""
    category: Literal["error", "warning", "message"]
    message: str


class TypecheckResult(_Result):
    file: str
    exit_code: int
    diagnostics: list[TypeDiagnostic]
    """Diagnostics in the file of interest."""
    other_files_error_count: int
    """Errors elsewhere in the program tsc checked (often pre-existing; not the candidate's
    fault)."""
    duration_s: float
    scoped: bool = False
    """tsc checked the files the test needs, not the whole project (``tsc_scope.py``)."""
    reused: bool = False
    """Kept from an earlier run's check of the same content, nothing it depends on changed
    (``ProjectRunners.keep_checks_in``)."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def error_count(self) -> int:
        return sum(d.category == "error" for d in self.diagnostics)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def clean(self) -> bool:
        return self.error_count == 0

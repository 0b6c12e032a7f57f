"""Errors meaning a tool could not produce a result at all (as opposed to failing tests).

Each carries a one-line ``message`` for the user and a ``hint`` saying how to fix it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class RunnerError(RuntimeError):
    """Base class: ``tool`` is ``jest``, ``eslint`` or ``tsc`` (or the configured command)."""

    def __init__(self, tool: str, message: str, hint: str = "", *, output: str = ""):
        self.tool = tool
        self.message = message
        self.hint = hint
        self.output = output
        super().__init__(f"{message}{f' — {hint}' if hint else ''}")


class MissingNodeModulesError(RunnerError):
    def __init__(self, project_root: Path, install_command: str):
        super().__init__(
            "project",
            f"node_modules is missing in {project_root}",
            f"install the project's dependencies first: `{install_command}`",
        )


class MissingBinaryError(RunnerError):
    def __init__(self, tool: str, binary: str, cwd: Path, *, reason: str = "was not found"):
        super().__init__(
            tool,
            f"{tool}: `{binary}` {reason} (looked from {cwd})",
            f"install it (e.g. `npm install --save-dev {tool_package(tool)}`) or set "
            f"commands.{tool_setting(tool)} in testmend.config.json",
        )


class RunnerTimeoutError(RunnerError):
    def __init__(self, tool: str, argv: Sequence[str], timeout: float):
        super().__init__(
            tool,
            f"{tool} did not finish within {timeout:g} s and was stopped (`{' '.join(argv)}`)",
            f"a test may hang (unresolved promise, real timers, open handle); or raise "
            f"timeouts.{tool_setting(tool)}",
        )
        self.timeout = timeout


class HangingTestError(RunnerTimeoutError):
    """A test file's run timed out and the probe named the tests that never finish."""

    def __init__(self, file: str, tests: Sequence[str], timeout: float):
        RunnerError.__init__(
            self,
            "jest",
            f"{file} did not finish within {timeout:g} s: "
            + (
                "the test " + ", ".join(f"'{t}'" for t in tests) + " never finished"
                if tests
                else "a test never finished"
            ),
            "an endless loop, a promise that never settles or real timers it waits for: fix "
            "or skip that test (or raise timeouts.test if it is only slow)",
        )
        self.file = file
        self.tests = list(tests)
        self.timeout = timeout


class NoTestsFoundError(RunnerError):
    def __init__(self, file: str, output: str):
        super().__init__(
            "jest",
            f"jest found no test file at {file}",
            "check that the path matches jest's testMatch/testRegex and is not in "
            "testPathIgnorePatterns or outside roots",
            output=output,
        )


class ToolCrashedError(RunnerError):
    """The tool exited in a way that produced no parsable result."""


class BrokenTsconfigError(RunnerError):
    def __init__(self, detail: str, output: str):
        super().__init__(
            "tsc",
            f"the TypeScript configuration is broken: {detail}",
            "fix tsconfig.json (run `npx tsc --noEmit` to see it) or set commands.typecheck",
            output=output,
        )


_PACKAGES = {"jest": "jest", "eslint": "eslint", "tsc": "typescript"}
_SETTINGS = {"jest": "test", "eslint": "lint", "tsc": "typecheck"}


def tool_package(tool: str) -> str:
    return _PACKAGES.get(tool, tool)


def tool_setting(tool: str) -> str:
    return _SETTINGS.get(tool, tool)

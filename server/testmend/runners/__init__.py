"""The project's own jest, eslint and tsc, run on one file with typed results."""

from ..project.packages import detect_package_manager, find_bin
from .detect import ResolvedCommands, resolve_commands
from .errors import (
    BrokenTsconfigError,
    HangingTestError,
    MissingBinaryError,
    MissingNodeModulesError,
    NoTestsFoundError,
    RunnerError,
    RunnerTimeoutError,
    ToolCrashedError,
)
from .models import (
    LintFixResult,
    LintMessage,
    LintResult,
    Position,
    SuiteError,
    TestCase,
    TestRunResult,
    TypecheckResult,
    TypeDiagnostic,
)
from .runner import ProjectRunners, snapshot_file, tool_environment

__all__ = [
    "BrokenTsconfigError",
    "HangingTestError",
    "LintFixResult",
    "LintMessage",
    "LintResult",
    "MissingBinaryError",
    "MissingNodeModulesError",
    "NoTestsFoundError",
    "Position",
    "ProjectRunners",
    "ResolvedCommands",
    "RunnerError",
    "RunnerTimeoutError",
    "SuiteError",
    "TestCase",
    "TestRunResult",
    "ToolCrashedError",
    "TypeDiagnostic",
    "TypecheckResult",
    "detect_package_manager",
    "find_bin",
    "resolve_commands",
    "snapshot_file",
    "tool_environment",
]

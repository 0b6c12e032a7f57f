"""What a run's nodes and tools are given: injected, never looked up globally."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..codemod import CodemodOptions, detect_conventions
from ..config import Config
from ..llm.factory import ModelFactory, UsageRecorder
from ..runners import ProjectRunners, RunnerTimeoutError, TestRunResult
from ..runners.kept import KeptResults
from .events import RunEvent
from .state import ErrorTracker, Step
from .tracking import CheckVerdict, ObservedError, record_check

# Escape hatches unlock after this many failed checks in the migrate step.
SCOPE_REDUCTION_UNLOCKS_AT = 3
ESCALATION_UNLOCKS_AT = 5


@dataclass
class RunDeps:
    """Runtime context of one run (LangGraph ``context``; not checkpointed)."""

    run_id: str
    config: Config
    workspace_root: Path
    """The shadow workspace's project root: every tool works here, never in the user's tree."""
    runners: ProjectRunners
    run_dir: Path
    """``.testmend/runs/<id>/`` in the user's project: reports, escalations."""
    models: ModelFactory | None = None
    """None: no model configured (or offline): deterministic work only."""
    emit: Callable[[RunEvent], None] = lambda event: None
    usage: UsageRecorder = field(default_factory=UsageRecorder)
    read_roots: tuple[Path, ...] = ()
    """Real folders outside the workspace the file tools may read through its links: the
    user's ``node_modules`` (library sources and type definitions). Never writable."""
    jest_args: list[str] = field(default_factory=list)
    """Extra jest arguments for this run (``--ci=false`` while snapshots are re-recorded)."""
    kept: KeptResults | None = None
    """The original test's results kept across runs (None: always run again)."""

    async def run_tests(self, test_file: str) -> TestRunResult:
        """jest on the file. A run that times out names the test that hangs
        (:class:`~testmend.runners.HangingTestError`); with ``timeouts.retrySlowTests`` it is
        tried once more with twice the time first (a loaded machine)."""
        retry = self.config.timeouts.retry_slow_tests
        try:
            return await self.runners.run_tests(
                test_file, extra_args=self.jest_args, probe=not retry
            )
        except RunnerTimeoutError:
            if not retry:
                raise
            longer = 2 * self.config.timeouts.test
            return await self.runners.run_tests(
                test_file, extra_args=self.jest_args, timeout=longer
            )

    @cached_property
    def conventions(self) -> CodemodOptions:
        """The project's test conventions, detected once per run (it walks the sources)."""
        return detect_conventions(self.workspace_root, events=self.config.codemod.events)

    def record_check(
        self,
        tracker: ErrorTracker,
        step: Step,
        observed: Sequence[ObservedError],
        passing: Sequence[str],
    ) -> CheckVerdict:
        """``record_check`` with this run's retry limits."""
        return record_check(
            tracker,
            step,
            observed,
            passing,
            max_attempts_per_error=self.config.retry.max_attempts_per_error,
            max_total_attempts=self.config.retry.max_total_attempts,
        )

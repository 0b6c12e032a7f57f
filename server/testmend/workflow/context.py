"""What a run's nodes and tools are given: injected, never looked up globally."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config
from ..llm.factory import ModelFactory, UsageRecorder
from ..runners import ProjectRunners, TestRunResult
from .events import RunEvent

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
    jest_args: list[str] = field(default_factory=list)
    """Extra jest arguments for this run (``--ci=false`` while snapshots are re-recorded)."""

    async def run_tests(self, test_file: str) -> TestRunResult:
        return await self.runners.run_tests(test_file, extra_args=self.jest_args)

    @property
    def offline(self) -> bool:
        return self.models is None

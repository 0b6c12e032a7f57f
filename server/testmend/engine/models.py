"""What the engine takes and gives: a run's request, its handle while it runs, its result."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from ..fidelity import FidelityReport
from ..workflow.events import RunEvent
from ..workflow.state import CheckMessage, CodemodFinding, RunStatus, Summary
from .acceptance import APPLIED

StartStep = Literal["lint", "typescript"]


INTERRUPTED = "interrupted: the command running it was stopped (resume it)"
"""The reason of a run cancelled because its process was told to stop (Ctrl-C, SIGTERM,
SIGHUP): ``testmend resume --all`` continues these."""


class EngineError(RuntimeError):
    """A request the engine refuses, with a message for the user."""


class RunRequest(BaseModel):
    file: str
    """Path of the test file, relative to the project root (or absolute inside it)."""
    mode: Literal["migrate", "fix"] = "migrate"
    content: str | None = None
    """The editor's buffer; None reads the file from disk."""
    start_step: StartStep | None = None
    user_instructions: str | None = None


class RunResult(BaseModel):
    run_id: str
    file: str
    status: RunStatus
    original: str
    content: str
    diff: str
    summary: Summary
    failure_reason: str | None = None
    left_to_do: list[str] = []
    report_path: str
    extra_files: dict[str, str | None] = {}
    """Other files the result changes (a re-recorded snapshot); None means delete it."""
    extra_originals: dict[str, str | None] = {}
    """Those files as they were when the run started (None: they did not exist)."""
    reasons: list[str] = []
    """Why the acceptance policy decided ``status``."""
    fidelity: FidelityReport | None = None
    lint_messages: list[CheckMessage] = []
    """What the project's eslint says of the result (after ``eslint --fix``)."""
    type_messages: list[CheckMessage] = []
    """What the project's tsc says of the result."""
    codemod_findings: list[CodemodFinding] = []
    """What the conversion noted on the result's lines."""
    original_tests_passing: int | None = None
    """Tests of the original file that passed in its run before the migration (None: not run)."""
    sandbox: str = ""
    """The sandbox the run's commands ran in ("unsandboxed — …" when none)."""
    model_fallback: str | None = None
    """The model's fault, when the result is the deterministic tier's instead."""

    @property
    def applies(self) -> bool:
        """The engine accepted it: the editor applies it, ``--write`` writes it."""
        return self.status in APPLIED

    @property
    def tests_pass(self) -> bool:
        return (
            self.summary.tests_total > 0 and self.summary.tests_passing == self.summary.tests_total
        )


@dataclass
class RunHandle:
    run_id: str
    file: str
    task: asyncio.Task[RunResult | None] | None = None
    queue: asyncio.Queue[RunEvent | None] = field(default_factory=asyncio.Queue)
    history: list[RunEvent] = field(default_factory=list)
    sandbox: str = ""
    """The sandbox the run's commands ran in (for its report)."""

    async def events(self) -> AsyncIterator[RunEvent]:
        """Events until the run ends or pauses."""
        while True:
            event = await self.queue.get()
            if event is None:
                return
            yield event

    async def wait(self) -> RunResult | None:
        """The result, or None when the run paused for input."""
        assert self.task is not None
        return await self.task

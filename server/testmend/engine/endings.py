"""How a run's end is recorded: its run record, its report and result files, the last event
its followers get, and the end of its event queue. A run ends finished (with a result), paused
(a question for a person) or stopped (cancelled or failed, with the reason and what it spent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import FidelityConfig
from ..llm.factory import UsageRecorder
from ..workflow.events import NeedsInput, RunEvent, RunFinished
from ..workflow.state import MigrationState, RunStatus, Summary
from .acceptance import Decision
from .models import RunHandle, RunResult
from .report import render_report
from .results import mutated_sources, result_from_state
from .store import RunRecord, RunStore

Emit = Callable[[RunEvent], None]


@dataclass(frozen=True)
class Endings:
    store: RunStore
    project_root: Path
    fidelity: FidelityConfig

    def result(self, run_id: str, state: MigrationState, sandbox: str = "") -> RunResult:
        report = self.store.run_dir(run_id) / "report.md"
        return result_from_state(run_id, state, self.fidelity, report, sandbox)

    def finished(
        self, handle: RunHandle, record: RunRecord, state: MigrationState, emit: Emit
    ) -> RunResult:
        """The result decided, its report and content written, the record updated."""
        result = self.result(record.run_id, state, handle.sandbox)
        decision = Decision(result.status, result.reasons)
        report = render_report(
            state,
            result.diff,
            decision,
            mutated_sources(self.project_root, state),
            sandbox=handle.sandbox,
        )
        self.store.write_text(record.run_id, "report.md", report)
        self.store.write_text(record.run_id, "result.txt", result.content)
        self.store.save(
            record.model_copy(
                update={
                    "status": result.status,
                    "failure_reason": result.failure_reason,
                    "summary": result.summary,
                    "question": None,
                    "sandbox": handle.sandbox,
                }
            )
        )
        emit(
            RunFinished(
                run_id=record.run_id,
                status=result.status,
                summary=result.summary,
                failure_reason=result.failure_reason,
            )
        )
        handle.queue.put_nowait(None)
        return result

    def paused(
        self, handle: RunHandle, record: RunRecord, interrupt: dict[str, Any], emit: Emit
    ) -> None:
        question = str(interrupt.get("question", "the run needs an answer"))
        self.store.save(record.model_copy(update={"status": "paused", "question": question}))
        emit(
            NeedsInput(
                run_id=record.run_id,
                question=question,
                report_path=str(interrupt.get("report_path", "")),
                options=list(interrupt.get("options", [])),
            )
        )
        handle.queue.put_nowait(None)

    def awaiting(self, handle: RunHandle, record: RunRecord, emit: Emit) -> None:
        """A host task that has its brief and waits for the host's migration."""
        question = (
            "waiting for the host's migration: submit the migrated test with "
            f"submit_migration('{record.run_id}', content)"
        )
        self.store.save(record.model_copy(update={"status": "paused", "question": question}))
        emit(NeedsInput(run_id=record.run_id, question=question, report_path="", options=[]))
        handle.queue.put_nowait(None)

    def stopped(
        self,
        handle: RunHandle,
        record: RunRecord,
        status: RunStatus,
        reason: str,
        usage: UsageRecorder,
        checkpointed: dict[str, Any],
        emit: Emit,
    ) -> None:
        """A run that ended without a result: recorded, with the tokens it spent — its finished
        steps' (``checkpointed``: the run's last checkpoint, across resumes) and the step's
        under way (still in ``usage``)."""
        tokens = sum(u.total for u in usage.by_step.values())
        cost = sum(u.cost for u in usage.by_step.values())
        tokens += sum(checkpointed.get("tokens_by_step", {}).values())
        cost += sum(checkpointed.get("cost_by_step", {}).values())
        summary = Summary(tokens_used=tokens, cost=cost if usage.priced else None)
        self.store.save(
            record.model_copy(
                update={"status": status, "failure_reason": reason, "summary": summary}
            )
        )
        emit(
            RunFinished(run_id=record.run_id, status=status, summary=summary, failure_reason=reason)
        )
        handle.queue.put_nowait(None)

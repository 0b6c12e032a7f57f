"""The acceptance policy: the one place that decides what a finished run's result is.

- ``discarded``: a person said to drop it (at an escalation).
- ``failed``: a step failed, or (migrations) the result's tests do not all pass or it still uses
  Enzyme.
- ``partial``: a person chose to keep the best partial result (at an escalation).
- ``succeeded``: tests pass, lint and types are clean, the test inventory holds, the intent
  check is met (fidelity ≥ ``fidelity.threshold``, or no mutant the original catches; a check
  whose jest run failed or was stopped is not met), a fix lost no passing test, and a reviewer
  agent (when there is a model) approved.
- ``needs_review``: anything else that works: kept, never applied or written without an
  explicit accept (the editor offers it with its findings; the CLI's ``--accept-review``).

The faces (CLI, language server) ask :attr:`Decision.applies`; they never decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import FidelityConfig
from ..workflow.state import MigrationState, RunStatus, review_left

APPLIED = frozenset({"succeeded", "partial"})
"""Statuses whose result is applied (editor) or written (``--write``) without another word."""


@dataclass(frozen=True)
class Decision:
    status: RunStatus
    reasons: list[str] = field(default_factory=list)
    """Why: what failed, or what a reviewer has to look at."""

    @property
    def applies(self) -> bool:
        return self.status in APPLIED

    def summary(self) -> str | None:
        if not self.reasons:
            return None
        return "; ".join(self.reasons[:4]) + (
            f" (and {len(self.reasons) - 4} more)" if len(self.reasons) > 4 else ""
        )


def decide(state: MigrationState, settings: FidelityConfig) -> Decision:
    exit_state = state.exit
    summary = exit_state.summary
    if state.user_choice == "discard":
        return Decision("discarded", ["a person chose to discard the result"])
    if exit_state.status == "failed" and state.user_choice != "apply_partial":
        return Decision("failed", [exit_state.failure_reason or "a step failed"])
    if state.user_choice == "apply_partial":
        return Decision("partial", ["a person chose to keep the best partial result"])
    if state.mode == "migrate":
        if summary.tests_total == 0:
            return Decision("failed", ["the result has no test that runs"])
        if summary.tests_passing < summary.tests_total:
            failing = summary.tests_total - summary.tests_passing
            findings = [f.message for f in state.fidelity.findings()] if state.fidelity else []
            left = [item for item in exit_state.left_to_do if item not in findings]
            left = [item for item in left if not item.endswith("test(s) still fail")]
            return Decision(
                "failed", [f"{failing} of {summary.tests_total} tests fail", *findings, *left[:3]]
            )
        if not summary.enzyme_free:
            return Decision("failed", ["the file still uses Enzyme"])
    review: list[str] = []
    if summary.lint_errors:
        review.append(f"{summary.lint_errors} lint message(s) left")
    if summary.type_errors:
        review.append(f"{summary.type_errors} type error(s) left")
    fidelity = state.fidelity
    if fidelity is not None:
        review += [f.message for f in fidelity.inventory_findings]
        review += [f.message for f in fidelity.behaviour_findings]
        intent = fidelity.intent
        if intent is not None and intent.incomplete:
            # Accepted means the intent check was met; one stopped on the way is not.
            why = (intent.skipped_reason or "").split(" (`")[0]  # the command is in the report
            review.append(f"intent not checked: {why}")
        score = intent.fidelity if intent is not None else None
        if score is not None and score < settings.threshold:
            review.append(
                f"fidelity {score:.2f} is below {settings.threshold:.2f}: the result catches "
                f"{intent.killed_by_both if intent else 0} of the "
                f"{intent.killed_by_original if intent else 0} mutants the original catches"
            )
            review += [f.message for f in intent.findings()] if intent is not None else []
    review += review_left(state.review)
    if review:
        return Decision("needs_review", review)
    return Decision("succeeded", [])

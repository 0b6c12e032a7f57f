"""What the fidelity checks find: test inventories, mutants and their outcomes, findings.

These models are part of the migration state (and so of checkpoints and reports).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..runners.models import TestRunResult


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


FindingKind = Literal[
    "test-missing",
    "test-disabled",
    "test-emptied",
    "no-assertion",
    "fewer-assertions",
    "tautology",
    "parse-error",
    "intent-lost",
    "test-lost",
]


class Finding(_Model):
    """One thing the result lost, with the test it is about (when there is one)."""

    kind: FindingKind
    message: str
    test: str | None = None
    line: int | None = None


class InventoryTest(_Model):
    __test__ = False

    name: str
    """Full name: ``describe`` titles and the test title, space-separated."""
    line: int
    marks: list[str] = []
    """``skip``, ``only``, ``todo``, ``failing``, ``each``, ``concurrent`` (own or inherited)."""
    empty: bool = False
    assertions: int = 0
    tautologies: list[str] = []


class Inventory(_Model):
    tests: list[InventoryTest] = []
    parse_error: bool = False


class InventoryRow(_Model):
    """An original test and the result's test of the same name (None: absent)."""

    original: InventoryTest | None
    result: InventoryTest | None
    note: str = ""


MutantKind = Literal["expression", "statement", "jsx-child", "jsx-attribute", "property-key"]


class Mutant(_Model):
    id: int
    file: str
    """Project-relative path of the mutated source file."""
    line: int
    operator: str
    """What was changed, e.g. ``comparison``, ``number``, ``remove-call``, ``jsx-text``."""
    original: str
    replacement: str
    start: int
    """Byte offsets of the replaced text in the file."""
    end: int
    kind: MutantKind = "expression"
    """What the replaced text is, so the schemata can put it behind a switch: an expression,
    a statement, a JSX child (text), a JSX attribute's string value (``className="a b"``) or an
    object's string key (``cx({ 'is-active': active })``)."""

    def describe(self) -> str:
        return f"{self.file}:{self.line} `{_short(self.original)}` → `{_short(self.replacement)}`"


def _short(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class MutantOutcome(_Model):
    mutant: Mutant
    killed_by_original: list[str] = []
    """Tests of the original that pass on the real code and fail on this mutant."""
    killed_by_candidate: list[str] = []
    candidate_ran: bool = True
    """False: no test of the original catches this mutant, so the candidate was not run
    against it (it cannot be lost)."""

    @property
    def lost(self) -> bool:
        return bool(self.killed_by_original) and not self.killed_by_candidate


class OriginalMutantRuns(BaseModel):
    """The original test's runs in an intent check, by mutant id (0: the baseline), as kept
    across runs (``runners/kept.py``)."""

    results: dict[int, TestRunResult]


class IntentReport(_Model):
    """The intent check: mutants the original test kills must be killed by the candidate."""

    targets: list[str] = []
    """The source files that were mutated (the component under test and its own modules)."""
    outcomes: list[MutantOutcome] = []
    skipped_reason: str | None = None
    """Why the check did not run (or did not finish): no component found, timed out, …"""
    incomplete: bool = False
    """The check began and could not finish (its jest run failed or was stopped): unlike a
    check with nothing to mutate, or one turned off, it leaves the result unchecked."""
    duration_s: float = 0.0
    candidate_hash: str = ""
    """Of the candidate it checked, so a later step knows whether to check again."""
    original_reused: bool = False
    """The original's runs were kept from an earlier check (nothing they depend on changed):
    only the candidate ran against the mutants."""

    @property
    def killed_by_original(self) -> int:
        return sum(bool(o.killed_by_original) for o in self.outcomes)

    @property
    def killed_by_both(self) -> int:
        return sum(bool(o.killed_by_original and o.killed_by_candidate) for o in self.outcomes)

    @property
    def fidelity(self) -> float | None:
        """Mutants killed by the candidate / mutants killed by the original (None: no basis)."""
        if self.skipped_reason is not None or self.killed_by_original == 0:
            return None
        return self.killed_by_both / self.killed_by_original

    def lost(self) -> list[MutantOutcome]:
        return [o for o in self.outcomes if o.lost]

    def findings(self) -> list[Finding]:
        found = []
        for outcome in self.lost():
            tests = ", ".join(f"'{t}'" for t in outcome.killed_by_original[:3])
            found.append(
                Finding(
                    kind="intent-lost",
                    test=outcome.killed_by_original[0],
                    message=f"intent lost: the original test {tests} catches the bug "
                    f"{outcome.mutant.describe()} ({outcome.mutant.operator}), no test of the "
                    "result does",
                )
            )
        return found


class FidelityReport(_Model):
    """Everything the acceptance policy needs to know about what the result still checks."""

    rows: list[InventoryRow] = []
    inventory_findings: list[Finding] = []
    intent: IntentReport | None = None
    behaviour_findings: list[Finding] = []
    """Fix runs: tests that passed before the fix and fail after it."""

    def findings(self) -> list[Finding]:
        intent = self.intent.findings() if self.intent is not None else []
        return [*self.inventory_findings, *intent, *self.behaviour_findings]

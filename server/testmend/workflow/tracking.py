"""Error fingerprints and the retry limits, enforced in code rather than asked of a model.

An *attempt* is one check (tests, lint or type check) of a candidate in a step. Each check
reports the errors it saw; the tracker fingerprints them (numbers, paths, positions and ids
normalised away, so "expected 3, got 2 at line 14" and "expected 4, got 1 at line 15" are the
same error), counts attempts per error and per step, marks which errors are new, still active or
regressions (a test that passed before fails again), and says when a limit is reached.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .state import ErrorTracker, Step, StepAttempts, TrackedError

_NORMALISERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]"), ""),
    (re.compile(r"(?:[A-Za-z]:)?(?:[\w.@-]*/)+[\w.@-]+"), "<path>"),
    (re.compile(r"\b[0-9a-f]{8,}\b"), "<id>"),
    (re.compile(r":\d+(?::\d+)?\b"), ":<pos>"),
    (re.compile(r"\(\d+,\d+\)"), "(<pos>)"),
    (re.compile(r"\b\d+(?:\.\d+)?\b"), "<n>"),
    (re.compile(r"\s+"), " "),
)
_PRIORITY = {"regressed": 0, "new": 1, "active": 2}


def normalise(message: str) -> str:
    text = message
    for pattern, replacement in _NORMALISERS:
        text = pattern.sub(replacement, text)
    return text.strip()


def fingerprint(step: Step, subject: str, message: str) -> str:
    """Stable id of an error: the step, what it is about (test name, rule, TS code) and the
    normalised first line of its message."""
    first_line = next((line for line in message.splitlines() if line.strip()), "")
    key = f"{step}|{subject}|{normalise(first_line)[:300]}"
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class ObservedError:
    subject: str
    """Test full name, lint rule or TS code: what the error is about."""
    message: str
    test_name: str | None = None


@dataclass(frozen=True)
class CheckVerdict:
    tracker: ErrorTracker
    ordered: list[TrackedError]
    """Errors of this check, most urgent first: regressed, new, then active."""
    feedback: list[str]
    """Lines for the agent ("same error 3 times: change approach")."""
    limit_reason: str | None
    """Why the step must stop now (a limit is reached), else None."""


def record_check(
    tracker: ErrorTracker,
    step: Step,
    observed: Sequence[ObservedError],
    passing_tests: Sequence[str],
    *,
    max_attempts_per_error: int,
    max_total_attempts: int,
) -> CheckVerdict:
    """Fold one check's result into the tracker (pure: returns a new tracker)."""
    steps = dict(tracker.steps)
    attempts = steps.get(step, StepAttempts()).attempts + 1
    steps[step] = StepAttempts(attempts=attempts)
    ever_passed = set(tracker.ever_passed)
    errors = dict(tracker.errors)

    seen: list[TrackedError] = []
    for item in observed:
        fp = fingerprint(step, item.subject, item.message)
        previous = errors.get(fp)
        regressed = item.test_name is not None and item.test_name in ever_passed
        if previous is None:
            kind = "regressed" if regressed else "new"
            entry = TrackedError(
                fingerprint=fp, step=step, message=item.message[:2000], attempts=1, kind=kind
            )
        else:
            kind = "regressed" if regressed or previous.status == "resolved" else "active"
            entry = previous.model_copy(
                update={
                    "attempts": previous.attempts + 1,
                    "message": item.message[:2000],
                    "status": "active",
                    "kind": kind,
                }
            )
        errors[fp] = entry
        seen.append(entry)

    seen_ids = {e.fingerprint for e in seen}
    for fp, entry in list(errors.items()):
        if entry.step == step and fp not in seen_ids and entry.status == "active":
            errors[fp] = entry.model_copy(update={"status": "resolved"})
    ever_passed.update(passing_tests)

    ordered = sorted(seen, key=lambda e: (_PRIORITY[e.kind], -e.attempts))
    feedback = []
    for entry in ordered:
        if entry.kind == "regressed":
            feedback.append(f"REGRESSION: this passed before and fails now: {entry.message[:200]}")
        elif entry.attempts > 1:
            feedback.append(
                f"same error {entry.attempts} times: change approach — {entry.message[:200]}"
            )

    limit_reason = None
    worst = max(seen, key=lambda e: e.attempts, default=None)
    if worst is not None and worst.attempts >= max_attempts_per_error:
        limit_reason = (
            f"the same error was seen {worst.attempts} times (limit maxAttemptsPerError="
            f"{max_attempts_per_error}): {worst.message.splitlines()[0][:200]}"
        )
    elif seen and attempts >= max_total_attempts:
        limit_reason = (
            f"{attempts} checks in the {step} step without success "
            f"(limit maxTotalAttempts={max_total_attempts})"
        )

    new_tracker = ErrorTracker(steps=steps, errors=errors, ever_passed=sorted(ever_passed))
    return CheckVerdict(new_tracker, ordered, feedback, limit_reason)


def note_fix_tried(tracker: ErrorTracker, fingerprints: Sequence[str], fix: str) -> ErrorTracker:
    """Remember what an edit tried against the currently active errors."""
    errors = dict(tracker.errors)
    for fp in fingerprints:
        if fp in errors:
            entry = errors[fp]
            errors[fp] = entry.model_copy(update={"fixes_tried": [*entry.fixes_tried, fix][-10:]})
    return tracker.model_copy(update={"errors": errors})


def step_attempts(tracker: ErrorTracker, step: Step) -> int:
    return tracker.steps.get(step, StepAttempts()).attempts


def active_errors(tracker: ErrorTracker, step: Step) -> list[TrackedError]:
    return [e for e in tracker.errors.values() if e.step == step and e.status == "active"]


def describe_attempts(tracker: ErrorTracker, step: Step) -> str:
    """The step's errors so far, for its agent: status, attempts, fixes tried."""
    errors = [e for e in tracker.errors.values() if e.step == step]
    return "\n".join(
        f"- ({e.status}, seen {e.attempts}×) {e.message.splitlines()[0][:200]}"
        + (f"; tried: {', '.join(e.fixes_tried[-3:])}" if e.fixes_tried else "")
        for e in errors[-10:]
    )

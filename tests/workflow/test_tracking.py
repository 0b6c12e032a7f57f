"""Error fingerprints and retry limits (pure functions)."""

from __future__ import annotations

from testmend.workflow.state import ErrorTracker
from testmend.workflow.tracking import (
    ObservedError,
    active_errors,
    fingerprint,
    normalise,
    note_fix_tried,
    record_check,
    step_attempts,
)

LIMITS = {"max_attempts_per_error": 3, "max_total_attempts": 5}


def test_normalise_removes_what_changes_between_attempts() -> None:
    a = "Expected: 3\nat Object.<anonymous> (/tmp/run-1/src/Counter.test.tsx:14:5)"
    b = "Expected: 4\nat Object.<anonymous> (/tmp/run-2/src/Counter.test.tsx:15:9)"
    assert normalise(a) == normalise(b)
    # Error codes stay: they say what the error is.
    assert normalise("src/x.tsx(3,7): TS2322 deadbeefcafe") == "<path>(<pos>): TS2322 <id>"


def test_fingerprint_depends_on_step_subject_and_first_line() -> None:
    base = fingerprint("migrate", "t1", "expect(received).toBe(expected) line 3\nmore")
    assert base == fingerprint("migrate", "t1", "expect(received).toBe(expected) line 9\nother")
    assert base != fingerprint("lint", "t1", "expect(received).toBe(expected) line 3")
    assert base != fingerprint("migrate", "t2", "expect(received).toBe(expected) line 3")


def test_same_error_counts_up_to_the_per_error_limit() -> None:
    tracker = ErrorTracker()
    error = [ObservedError("counter increments", "Expected: 2 Received: 1", "counter increments")]
    for attempt in range(1, 4):
        verdict = record_check(tracker, "migrate", error, [], **LIMITS)
        tracker = verdict.tracker
        assert verdict.ordered[0].attempts == attempt
    assert verdict.feedback == ["same error 3 times: change approach — Expected: 2 Received: 1"]
    assert verdict.limit_reason is not None
    assert "maxAttemptsPerError=3" in verdict.limit_reason
    assert step_attempts(tracker, "migrate") == 3


def test_total_attempts_limit_with_changing_errors() -> None:
    tracker = ErrorTracker()
    verdict = None
    for attempt in range(5):
        observed = [ObservedError(f"test {attempt}", f"error kind {chr(97 + attempt)}")]
        verdict = record_check(tracker, "lint", observed, [], **LIMITS)
        tracker = verdict.tracker
    assert verdict is not None and verdict.limit_reason is not None
    assert "maxTotalAttempts=5" in verdict.limit_reason
    # Errors not seen again are resolved; only the last one is active.
    assert len(active_errors(tracker, "lint")) == 1


def test_regressions_come_first_then_new_then_active() -> None:
    tracker = ErrorTracker()
    first = record_check(
        tracker,
        "migrate",
        [ObservedError("a", "A fails", "a")],
        ["b"],  # b passes now
        **LIMITS,
    ).tracker
    verdict = record_check(
        first,
        "migrate",
        [
            ObservedError("a", "A fails", "a"),
            ObservedError("c", "C fails", "c"),
            ObservedError("b", "B fails", "b"),
        ],
        [],
        **LIMITS,
    )
    assert [e.kind for e in verdict.ordered] == ["regressed", "new", "active"]
    assert verdict.feedback[0].startswith("REGRESSION: this passed before")
    assert verdict.limit_reason is None


def test_no_error_resolves_everything_and_fixes_are_remembered() -> None:
    tracker = record_check(
        ErrorTracker(), "migrate", [ObservedError("a", "A")], [], **LIMITS
    ).tracker
    fps = [e.fingerprint for e in active_errors(tracker, "migrate")]
    tracker = note_fix_tried(tracker, fps, "search/replace")
    assert tracker.errors[fps[0]].fixes_tried == ["search/replace"]
    verdict = record_check(tracker, "migrate", [], ["a"], **LIMITS)
    assert active_errors(verdict.tracker, "migrate") == []
    assert verdict.limit_reason is None and verdict.ordered == []

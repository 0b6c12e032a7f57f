"""Intent: where the original Enzyme test catches a bug in its component, the migrated test
must catch it too. Each case writes a buggy variant of an example component into a copy of
the app (after migrating against the correct component) and compares per-test failures."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from testmend.codemod import capture_dom, convert_enzyme_test, detect_conventions
from testmend.config import load_config
from testmend.runners import ProjectRunners, TestRunResult
from tests.support.git import git

MUTATIONS = {
    "countdown-ticks-twice": (
        "src/components/Countdown/Countdown.test.tsx",
        "src/hooks/useCountdown.ts",
        "Math.max(current - 1, 0)",
        "Math.max(current - 2, 0)",
    ),
    "signup-digit-rule-removed": (
        "src/components/SignupForm/SignupForm.test.tsx",
        "src/components/SignupForm/validation.ts",
        "} else if (!/\\d/.test(values.password)) {",
        "} else if (false) {",
    ),
    "todo-wrong-item-removed": (
        "src/components/TodoList/TodoList.test.tsx",
        "src/components/TodoList/todoReducer.ts",
        "state.todos.filter((todo) => todo.id !== action.id)",
        "state.todos.filter((todo) => todo.id !== action.id + 1)",
    ),
    "pagination-next-skips-a-page": (
        "src/components/Pagination/Pagination.test.tsx",
        "src/components/Pagination/Pagination.tsx",
        "onPageChange(page + 1)",
        "onPageChange(page + 2)",
    ),
    "modal-dialog-click-closes": (
        "src/components/Modal/Modal.test.tsx",
        "src/components/Modal/Modal.tsx",
        "onClick={(event) => event.stopPropagation()}",
        "onClick={() => undefined}",
    ),
    "usermenu-initials-lowercase": (
        "src/components/UserMenu/UserMenu.test.tsx",
        "src/components/UserMenu/UserMenu.tsx",
        ".map((part) => part[0].toUpperCase())",
        ".map((part) => (part[1] ?? '').toUpperCase())",
    ),
    # The toggle test reads a TodoItem prop (recorded) beside its DOM assertions.
    "todo-wrong-item-toggled": (
        "src/components/TodoList/TodoList.test.tsx",
        "src/components/TodoList/todoReducer.ts",
        "todo.id === action.id ? { ...todo, completed: !todo.completed }",
        "todo.id === action.id + 1 ? { ...todo, completed: !todo.completed }",
    ),
    # Counter's tests read state() and call instance(), through a ref to the instance.
    "counter-off-by-one": (
        "src/components/Counter/Counter.test.tsx",
        "src/components/Counter/Counter.tsx",
        "this.setCount(this.state.count + this.step)",
        "this.setCount(this.state.count + this.step + 1)",
    ),
}


def write_support_files(app: Path, files: dict[str, str]) -> None:
    """The modules a conversion adds beside the test (the props-recording helper)."""
    for rel, content in files.items():
        (app / rel).write_text(content)


def failing(result: TestRunResult) -> set[str]:
    if result.suite_error is not None:
        return {"<suite>"}
    return {t.full_name for t in result.failing()}


@pytest.mark.parametrize("case", sorted(MUTATIONS))
async def test_migrated_test_catches_the_bug(example_copy: Path, case: str) -> None:
    app_copy = example_copy
    test_file, component, good, bad = MUTATIONS[case]
    runners = ProjectRunners(load_config(app_copy, environ={}), cwd=app_copy)
    original = (app_copy / test_file).read_text()
    migrated_file = test_file.replace(".test.tsx", ".migrated.test.tsx")
    capture = await capture_dom(runners, test_file, workspace_root=app_copy)
    result = convert_enzyme_test(
        original, path=migrated_file, options=detect_conventions(app_copy), dom=capture
    )
    (app_copy / migrated_file).write_text(result.content)
    write_support_files(app_copy, result.support_files)
    source = (app_copy / component).read_text()
    assert good in source
    partial = {t.name for t in result.tests if t.status == "partial"}
    try:
        # On the correct component only the tests left for the agent fail.
        baseline = await runners.run_tests(migrated_file, extra_args=["--ci=false"])
        assert failing(baseline) == partial
        (app_copy / component).write_text(source.replace(good, bad))
        before = await runners.run_tests(test_file)
        after = await runners.run_tests(migrated_file, extra_args=["--ci=false"])
    finally:
        (app_copy / component).write_text(source)
        (app_copy / migrated_file).unlink()
        snap = app_copy / Path(migrated_file).parent / "__snapshots__"
        for stale in snap.glob(Path(migrated_file).name + ".snap"):
            stale.unlink()
    caught_before = failing(before)
    assert caught_before, "the original test suite should catch this bug"
    missed = caught_before - failing(after)
    assert not missed, f"migrated tests miss the bug: {missed}"
    # The check is not only carried by tests that fail anyway (left for the agent).
    assert caught_before - partial, "pick a bug that a fully converted test catches"
    assert (caught_before - partial) <= failing(after)


async def test_the_products_intent_check_finds_the_hand_made_bugs(example_copy: Path) -> None:
    """The same hand-made bugs, through testmend's own intent check (one jest process for all
    of them): each bug the original test catches, the codemod's output catches too, and the
    check says which tests of each file catch it."""
    from testmend.fidelity.intent import IntentInputs, check_intent, text_mutant

    app_copy = example_copy
    runners = ProjectRunners(load_config(app_copy, environ={}), cwd=app_copy)
    by_test: dict[str, list[str]] = {}
    for case in sorted(MUTATIONS):
        by_test.setdefault(MUTATIONS[case][0], []).append(case)
    for test_file, cases in sorted(by_test.items()):
        original = (app_copy / test_file).read_text()
        capture = await capture_dom(runners, test_file, workspace_root=app_copy)
        converted = convert_enzyme_test(
            original, path=test_file, options=detect_conventions(app_copy), dom=capture
        )
        write_support_files(app_copy, converted.support_files)
        mutants = [
            text_mutant(
                index + 1,
                MUTATIONS[case][1],
                (app_copy / MUTATIONS[case][1]).read_text(),
                MUTATIONS[case][2],
                MUTATIONS[case][3],
            )
            for index, case in enumerate(cases)
        ]
        inputs = IntentInputs(
            test_file=test_file,
            original=original,
            candidate=converted.content,
            targets=sorted({m.file for m in mutants}),
            mutants=mutants,
            original_snapshot=None,
            candidate_snapshot=None,
        )
        report = await check_intent(runners, app_copy, inputs)
        assert report.skipped_reason is None, report.skipped_reason
        for outcome, case in zip(report.outcomes, cases, strict=True):
            assert outcome.killed_by_original, f"{case}: the original should catch it"
            assert outcome.killed_by_candidate, f"{case}: the migrated test misses it"
        assert report.fidelity == 1.0
        # Nothing of the check is left in the app.
        assert not list(app_copy.rglob("*.testmend-m*"))
        for mutant in mutants:
            assert "__testmendMutant" not in (app_copy / mutant.file).read_text()


class RecordingRunners(ProjectRunners):
    """The project's real runners, noting which files each jest run was given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ran: list[list[str]] = []

    async def run_test_files(self, files: Sequence[str], **kwargs: Any) -> dict[str, TestRunResult]:
        self.ran.append(list(files))
        return await super().run_test_files(files, **kwargs)


async def test_the_originals_runs_are_kept_until_what_they_depend_on_changes(
    example_copy: Path, tmp_path: Path
) -> None:
    """In the warm jest, the original runs first and the candidate only against the mutants it
    catches (one the original lets through cannot be lost); with jest as the plain command
    (each run a new jest), both run in one jest against every mutant. A second intent check
    (a new run: a new ``KeptResults`` over the same store) runs only the candidate and reaches
    the same outcomes; once a file the original depends on changes, the original runs again (a
    kept result would give the old verdict)."""
    from testmend.fidelity.intent import IntentInputs, check_intent, text_mutant
    from testmend.fidelity.mutants import copy_name
    from testmend.runners.kept import KeptResults, ResultCache

    app = example_copy
    test_file, component, good, bad = MUTATIONS["pagination-next-skips-a-page"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "app"]):
        git(app, *args)
    runners = RecordingRunners(load_config(app, environ={}), cwd=app, warm=True)
    store = ResultCache(tmp_path / "results")
    original = (app / test_file).read_text()
    snapshot = app / Path(test_file).parent / "__snapshots__" / f"{Path(test_file).name}.snap"
    # The file under migration holds the candidate, as in a run: it misses the bug.
    candidate = "it('renders', () => {\n  expect(1).toBe(1);\n});\n"
    (app / test_file).write_text(candidate)
    source = (app / component).read_text()
    mutants = [
        text_mutant(1, component, source, good, bad),
        # Seven pages shown at most instead of eight: no test of the original notices.
        text_mutant(2, component, source, "siblingCount * 2 + 5", "siblingCount * 3 + 5"),
    ]
    inputs = IntentInputs(
        test_file=test_file,
        original=original,
        candidate=candidate,
        targets=[component],
        mutants=mutants,
        original_snapshot=snapshot.read_text(),
    )

    def check() -> Any:
        kept = KeptResults(store, workspace_root=app, tools=runners.identity())
        return check_intent(runners, app, inputs, kept=kept)

    plain = RecordingRunners(load_config(app, environ={}), cwd=app)
    together = await check_intent(plain, app, inputs)
    copies = [copy_name(test_file, m, side) for side in "oc" for m in (0, 1, 2)]
    assert [sorted(files) for files in plain.ran] == [sorted(copies)]
    assert [o.candidate_ran for o in together.outcomes] == [True, True]
    assert together.fidelity == 0.0

    try:
        first = await check()
        assert first.skipped_reason is None and not first.original_reused
        caught, let_through = first.outcomes
        assert caught.killed_by_original and not caught.killed_by_candidate and caught.lost
        assert not let_through.killed_by_original and not let_through.candidate_ran
        assert first.fidelity == 0.0
        assert [o.killed_by_original for o in first.outcomes] == [
            o.killed_by_original for o in together.outcomes
        ]
        originals = {copy_name(test_file, m, "o") for m in (0, 1, 2)}
        assert set(runners.ran[-2]) == originals
        assert runners.ran[-1] == [copy_name(test_file, m, "c") for m in (0, 1)]

        second = await check()
        assert second.original_reused
        assert not originals & set(runners.ran[-1])  # only the candidate ran
        assert {copy_name(test_file, m, "c") for m in (0, 1)} == set(runners.ran[-1])
        assert second.outcomes == first.outcomes

        # The project's test setup changes (the component and the mutant stay the same): every
        # test now fails, which the kept runs did not see.
        setup = app / "src" / "setupTests.ts"
        setup.write_text(setup.read_text() + "\nbeforeEach(() => {\n  throw new Error('x');\n});\n")
        third = await check()
        assert set(runners.ran[-1]) == originals  # and the candidate not at all: no basis
        assert not third.original_reused
        assert third.skipped_reason and "the original test does not pass" in third.skipped_reason
    finally:
        await runners.aclose()  # the warm jest


async def test_a_mutant_that_makes_a_loop_endless_is_caught_and_the_check_goes_on(
    example_copy: Path,
) -> None:
    """A mutant that makes a loop never end (`getPageItems`' loop never stopping): jest cannot
    stop a synchronous loop, so its run would go on until the check timed out, leaving the
    result unchecked. The loop guard throws in that test instead: both
    sides catch the mutant, and the other mutant of the same run is still judged."""
    # Never ends, and never fills the heap either: the items are dropped at each turn.
    await _endless_then_skipping(example_copy, "items.splice(1) !== null", migrated=True)


async def test_a_mutant_whose_test_never_ends_is_caught_and_the_others_run_again(
    example_copy: Path,
) -> None:
    """A mutant that makes a test run without end where the loop guard cannot see it (here a
    loop the mutant itself brings; in visx, a render that allocates until the heap is full):
    jest reports nothing until the file is done, so the check used to stop at its timeout,
    unchecked. The run is watched: the copy whose test has run ``stall`` seconds stops the run,
    counts as catching its mutant, and the other copies go again, so the check completes and
    the other mutant is still judged."""
    await _endless_then_skipping(example_copy, "(() => { for (;;) {} })()", migrated=False, stall=8)
    assert not list(example_copy.rglob("*.testmend-m*"))
    assert not list(example_copy.glob("*testmend*intent*"))


async def _endless_then_skipping(
    app: Path, endless: str, *, migrated: bool, stall: float | None = None
) -> None:
    """The intent check of Pagination's test (its migration with ``migrated``, else the test
    itself as the candidate) against two hand-made mutants: ``endless`` for its loop's
    condition, then the bug that skips a page. The check completes, and both sides catch both."""
    from testmend.fidelity.intent import IntentInputs, check_intent, text_mutant

    runners = ProjectRunners(load_config(app, environ={}), cwd=app)
    test_file, component, find, replace = MUTATIONS["pagination-next-skips-a-page"]
    original = (app / test_file).read_text()
    candidate = original
    if migrated:
        capture = await capture_dom(runners, test_file, workspace_root=app)
        converted = convert_enzyme_test(
            original, path=test_file, options=detect_conventions(app), dom=capture
        )
        write_support_files(app, converted.support_files)
        candidate = converted.content
    source = (app / component).read_text()
    mutants = [
        text_mutant(1, component, source, "current <= end", endless),
        text_mutant(2, component, source, find, replace),
    ]
    inputs = IntentInputs(
        test_file=test_file,
        original=original,
        candidate=candidate,
        targets=[component],
        mutants=mutants,
        timeout=90,
        stall=stall,
    )
    report = await check_intent(runners, app, inputs)
    assert not report.incomplete, report.skipped_reason
    endless_outcome, skipping = report.outcomes
    assert endless_outcome.killed_by_original and endless_outcome.killed_by_candidate
    assert skipping.killed_by_original and skipping.killed_by_candidate
    assert report.fidelity == 1.0

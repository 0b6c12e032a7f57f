"""The intent check: run the original test and the candidate against mutants of the code under
test, in one jest process, and see which mutants each of them catches.

In the shadow workspace (never the user's tree): each target source file is replaced by its
schemata (every mutant behind a switch, see ``mutants.py``); the original and the candidate are
written once next to the test, and for each mutant (and for the baseline, mutant 0) a copy
that imports one of them is written beside it, with the snapshot file. One jest run takes the
original's copies (every mutant), a second the candidate's (only the mutants the original
catches: one it lets through cannot be lost), or one run takes both when jest is the plain
command (a second run would start jest again); then everything is put back as it was,
whatever happened. A mutant is *killed* by a file when a test that passed in the baseline
fails (or the file cannot run, or one of its tests runs without end: ``stalls.py``) with the
mutant active.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..js_syntax import parse
from ..runners import ProjectRunners, RunnerError, TestRunResult, snapshot_file
from ..runners.kept import KeptResults
from ..workspace.paths import resolve_in_root
from .models import IntentReport, Mutant, MutantOutcome, OriginalMutantRuns
from .mutants import (
    asserted_classes,
    body_name,
    copy_name,
    generate_mutants,
    schemata_source,
)
from .stalls import run_watched, stall_after


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class IntentInputs:
    test_file: str
    original: str
    candidate: str
    targets: Sequence[str]
    """Project-relative source files to mutate, the component under test first."""
    original_snapshot: str | None = None
    candidate_snapshot: str | None = None
    max_mutants: int = 12
    timeout: float = 120.0
    mutants: Sequence[Mutant] | None = None
    """Given mutants (e.g. hand-made bugs, see :func:`text_mutant`) instead of generated ones."""
    stall: float | None = None
    """Seconds one test may run before it counts as endless (None: ``stall_after(timeout)``)."""


def _passed(result: TestRunResult) -> set[str]:
    return {t.full_name for t in result.tests if t.status == "passed"}


def _killers(baseline: TestRunResult, mutant: TestRunResult) -> list[str]:
    """Tests that pass in the baseline and not with the mutant (all of them if it can't run)."""
    passing = _passed(baseline)
    if mutant.suite_error is not None and baseline.suite_error is None:
        return sorted(passing) or ["<the file>"]
    return sorted(passing - _passed(mutant))


_EXPRESSIONS = {
    "arrow_function",
    "function_expression",
    "number",
    "identifier",
    "string",
    "template_string",
    "true",
    "false",
    "null",
    "regex",
    "object",
    "array",
}


def text_mutant(mutant_id: int, path: str, source: str, find: str, replace: str) -> Mutant:
    """A hand-made mutant: the first ``find`` in ``source`` replaced by ``replace``, widened to
    the smallest expression that holds the change (so it can sit behind a schemata switch)."""
    old = source.encode("utf-8")
    at = old.index(find.encode("utf-8"))
    new = old[:at] + replace.encode("utf-8") + old[at + len(find.encode("utf-8")) :]
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    tail = 0
    while tail < min(len(old), len(new)) - start and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    end = len(old) - tail
    node = parse(old, path).root_node.descendant_for_byte_range(start, max(start, end))
    while node is not None and not (node.type.endswith("_expression") or node.type in _EXPRESSIONS):
        node = node.parent
    if node is None:
        raise ValueError(f"{find!r} → {replace!r} changes no expression of {path}")
    delta = len(new) - len(old)
    return Mutant(
        id=mutant_id,
        file=path,
        line=old[: node.start_byte].count(b"\n") + 1,
        operator="hand-made",
        original=old[node.start_byte : node.end_byte].decode("utf-8"),
        replacement=new[node.start_byte : node.end_byte + delta].decode("utf-8"),
        start=node.start_byte,
        end=node.end_byte,
    )


class _Workspace:
    """Writes into the shadow workspace and puts everything back on exit."""

    def __init__(self, root: Path):
        self.root = root
        self.restore: dict[Path, bytes | None] = {}

    def write(self, relative: str, text: str) -> None:
        path = resolve_in_root(self.root, relative)
        if path not in self.restore:
            self.restore[path] = path.read_bytes() if path.is_file() else None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def read(self, relative: str) -> str | None:
        path = resolve_in_root(self.root, relative)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def close(self) -> None:
        for path, content in self.restore.items():
            if content is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(content)
        self.restore.clear()


async def _original_key(
    kept: KeptResults | None, inputs: IntentInputs, mutants: Sequence[Mutant]
) -> str | None:
    if kept is None:
        return None
    names = [body_name(inputs.test_file, "o")]
    names += [copy_name(inputs.test_file, m, "o") for m in [0, *(m.id for m in mutants)]]
    return await kept.key(
        "intent-original",
        inputs.test_file,
        inputs.original,
        inputs.original_snapshot or "",
        json.dumps([m.model_dump(mode="json") for m in mutants]),
        json.dumps(names),
        exclude=[inputs.test_file, snapshot_file(inputs.test_file)],
    )


async def _run_copies(
    runners: ProjectRunners,
    files: _Workspace,
    inputs: IntentInputs,
    sides: Mapping[str, Sequence[int]],
) -> dict[str, dict[int, TestRunResult]]:
    """Each side's test (``o``: the original, ``c``: the candidate) against each of its mutant
    ids (0: none), all in one jest run: a side's body once, a copy importing it per mutant."""
    copies: dict[tuple[str, int], str] = {}
    for which, mutant_ids in sides.items():
        content, snapshot = (
            (inputs.original, inputs.original_snapshot)
            if which == "o"
            else (inputs.candidate, inputs.candidate_snapshot)
        )
        body = body_name(inputs.test_file, which)
        files.write(body, content)
        for mutant_id in mutant_ids:
            name = copy_name(inputs.test_file, mutant_id, which)
            files.write(name, f"import './{body.rsplit('/', 1)[-1].rsplit('.', 1)[0]}';\n")
            if snapshot is not None:
                files.write(snapshot_file(name), snapshot)
            copies[(which, mutant_id)] = name
    # The only jest of the run at this point; a copy whose test runs without end is taken out.
    stall = inputs.stall if inputs.stall is not None else stall_after(inputs.timeout)
    results = await run_watched(
        runners, files.root, list(copies.values()), timeout=inputs.timeout, stall=stall
    )
    ran: dict[str, dict[int, TestRunResult]] = {which: {} for which in sides}
    for (which, mutant_id), name in copies.items():
        ran[which][mutant_id] = results[name]
    return ran


async def check_intent(
    runners: ProjectRunners,
    workspace_root: Path,
    inputs: IntentInputs,
    *,
    kept: KeptResults | None = None,
) -> IntentReport:
    """Mutate ``inputs.targets`` and compare what the original and the candidate catch.

    The original runs first (against no mutant and every mutant), then the candidate against
    no mutant and the mutants the original catches, each side in one jest run; when jest runs
    as the plain command (each run a new jest), both sides run in one, against every mutant.
    ``kept``: where the original's runs are kept across checks; when they are there for the
    workspace as it is and these mutants, only the candidate runs."""
    started = time.monotonic()
    report = IntentReport(
        targets=list(inputs.targets), candidate_hash=content_hash(inputs.candidate)
    )
    if not inputs.targets:
        return report.model_copy(
            update={"skipped_reason": "no component under test was found for this test"}
        )
    files = _Workspace(workspace_root)
    reused = False
    try:
        mutants: list[Mutant] = []
        classes = asserted_classes(inputs.original)
        sources: dict[str, str] = {}
        for index, target in enumerate(inputs.targets):
            source = files.read(target)
            if source is None:
                continue
            sources[target] = source
            if inputs.mutants is not None:
                mutants += [m for m in inputs.mutants if m.file == target]
                continue
            # Half the budget to the component, the rest shared; what a file cannot use goes on.
            left = inputs.max_mutants - len(mutants)
            remaining = len(inputs.targets) - index
            share = -(-left // remaining) if index or remaining == 1 else max(1, (left + 1) // 2)
            if share <= 0:
                break
            mutants += generate_mutants(
                source, target, share, first_id=len(mutants) + 1, classes=classes
            )
        if not mutants:
            return report.model_copy(
                update={"skipped_reason": f"no mutation site in {', '.join(inputs.targets)}"}
            )
        # The original's runs depend on the workspace as it is (before anything is written
        # for the check) without the file under migration, which holds the candidate.
        key = await _original_key(kept, inputs, mutants)
        ids = [0, *(m.id for m in mutants)]
        kept_runs = await kept.get(key, OriginalMutantRuns) if kept is not None else None
        if kept_runs is not None and set(kept_runs.results) != set(ids):
            kept_runs = None
        for target, source in sources.items():
            mine = [m for m in mutants if m.file == target]
            if mine:
                files.write(target, schemata_source(source, target, mine))
        try:
            # The original first, then the candidate only against the mutants it catches (one
            # it lets through cannot be lost), when a second jest run costs only its tests (the
            # warm jest); a plain jest would start again, so both sides go in one run.
            candidate: dict[int, TestRunResult] | None = None
            if kept_runs is None:
                sides = {"o": ids} if runners.jest_runs_warm else {"o": ids, "c": ids}
                ran = await _run_copies(runners, files, inputs, sides)
                kept_runs = OriginalMutantRuns(results=ran["o"])
                candidate = ran.get("c")
                if kept is not None and ran["o"][0].success:  # a clean run only
                    await kept.put(key, kept_runs)
            else:
                reused = True
            original = kept_runs.results
            if original[0].suite_error is not None or not _passed(original[0]):
                error = original[0].suite_error
                why = error.headline if error else "no test of it passes"
                return report.model_copy(
                    update={
                        "skipped_reason": "the original test does not pass beside the mutants: "
                        + why,
                        "duration_s": time.monotonic() - started,
                    }
                )
            if candidate is None:
                caught = [m.id for m in mutants if _killers(original[0], original[m.id])]
                candidate = (
                    (await _run_copies(runners, files, inputs, {"c": [0, *caught]}))["c"]
                    if caught
                    else {}
                )
        except RunnerError as exc:
            return report.model_copy(
                update={
                    "skipped_reason": f"the mutants could not be run: {exc.message}",
                    "incomplete": True,
                    "duration_s": time.monotonic() - started,
                }
            )
    finally:
        files.close()
    outcomes = [
        MutantOutcome(
            mutant=mutant,
            killed_by_original=_killers(original[0], original[mutant.id]),
            killed_by_candidate=(
                _killers(candidate[0], candidate[mutant.id]) if mutant.id in candidate else []
            ),
            candidate_ran=mutant.id in candidate,
        )
        for mutant in mutants
    ]
    return report.model_copy(
        update={
            "outcomes": outcomes,
            "duration_s": time.monotonic() - started,
            "original_reused": reused,
        }
    )

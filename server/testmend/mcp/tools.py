"""The MCP tools, by name: each translates its arguments for the engine and the engine's answer
into its payload. The names and argument names are a contract with the agents that call them.

Long work returns a handle: ``migrate``, ``run_status``, ``begin_migration`` and
``submit_migration`` wait at most ``wait_seconds`` (≤ 45) with progress notifications, then
answer where the run is; the run goes on and is found again by its id.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..enzyme_import import enzyme_apis
from ..layout import DEPENDENCY_DIRS
from .payloads import (
    Done,
    FoundTest,
    FoundTests,
    ResultAnswer,
    RunStatusAnswer,
    Task,
    Tests,
    Verdict,
    result_answer,
    tests_of,
    verdict,
)
from .runs import Followed, Progress, Runs, ToolProblem

if TYPE_CHECKING:
    from ..engine import RunRecord, RunResult

_GLOB = frozenset("*?[")
FOUND_STATES = {
    "kept": "kept result",
    "applied": "migrated",
    "partly applied": "partly migrated",
    "taken": "partly migrated",
}
"""How ``find_enzyme_tests`` names where a file stands with its latest result (a stale or
discarded result: ``no run``)."""
TERMINAL = frozenset({"succeeded", "needs_review", "failed", "partial", "discarded", "cancelled"})


class Tools:
    def __init__(self, runs: Runs):
        self.runs = runs

    # -- find ----------------------------------------------------------------------------------

    async def find_enzyme_tests(self, path: str) -> FoundTests:
        files, problems = await asyncio.to_thread(self._files_under, path)
        latest: dict[str, tuple[Path, RunRecord]] = {}
        for root, record in await self.runs.records():
            latest[self.runs.shown(root, record.file)] = (root, record)
        prefix = None if _GLOB.intersection(path) else self.runs.relative(path or ".")
        rows = await asyncio.to_thread(self._rows, files, latest, prefix)
        return FoundTests(project=str(self.runs.root), files=rows, problems=problems)

    def _rows(
        self,
        files: list[tuple[str, list[str]]],
        latest: dict[str, tuple[Path, RunRecord]],
        prefix: str | None,
    ) -> list[FoundTest]:
        """A row per Enzyme test, and per file under ``prefix`` (not a glob) whose latest
        result was applied: migrated files no longer import Enzyme."""
        rows = [self._found(relative, apis, latest.get(relative)) for relative, apis in files]
        named = {r.path for r in rows}
        for relative, located in latest.items():
            if prefix is None or relative in named:
                continue
            if prefix != "." and relative != prefix and not relative.startswith(prefix + "/"):
                continue
            row = self._found(relative, [], located)
            if row.state in ("migrated", "partly migrated"):
                rows.append(row)
        return sorted(rows, key=lambda r: r.path)

    def _files_under(self, path: str) -> tuple[list[tuple[str, list[str]]], list[str]]:
        """The Enzyme tests a file, folder or glob names (a glob is matched against the files a
        project walk sees: never ``node_modules``, never outside the project)."""
        from ..project import enzyme_test_files

        root = self.runs.root
        problems: list[str] = []
        if _GLOB.intersection(path):
            pattern = _glob_pattern(self.runs.relative_pattern(path))
            files = [f for f in enzyme_test_files(root) if pattern.fullmatch(_rel(root, f))]
            if not files:
                problems.append(f"no Enzyme test of the project matches {path}")
        else:
            relative = self.runs.relative(path)
            named = root / relative
            if not named.exists():
                raise ToolProblem(f"{path}: no such file or folder in the project {root}")
            if DEPENDENCY_DIRS.intersection(Path(relative).parts):
                raise ToolProblem(f"{relative} is inside a package folder, not the project's")
            files = enzyme_test_files(named) if named.is_dir() else [named]
        out = []
        for file in dict.fromkeys(files):
            relative = _rel(root, file)
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                problems.append(f"{relative}: cannot be read ({exc})")
                continue
            out.append((relative, enzyme_apis(text)))
        if len(out) == 1 and not out[0][1] and not _GLOB.intersection(path):
            problems.append(f"{out[0][0]} calls no Enzyme API")
        return out, problems

    def _found(
        self, relative: str, apis: list[str], located: tuple[Path, RunRecord] | None
    ) -> FoundTest:
        state = "no run"
        record = located[1] if located else None
        if located is not None:
            state = self._state(*located)
        return FoundTest(
            path=relative,
            apis=apis,
            state=state,
            run_id=record.run_id if record else None,
            status=record.status if record else None,
        )

    def _state(self, root: Path, record: RunRecord) -> str:
        from ..engine.kept import kept_result

        if self.runs.live(record.run_id) or record.status == "running":
            return "running"
        if record.host and record.status == "paused":
            return "waiting for submission"
        kept = kept_result(root, record)
        return FOUND_STATES.get(kept.state if kept else "", "no run")

    # -- runs ----------------------------------------------------------------------------------

    async def migrate(
        self, path: str, offline: bool, wait_seconds: float, progress: Progress
    ) -> RunStatusAnswer:
        relative = self.runs.relative(path)
        followed = self.runs.live_for(relative)
        if followed is None:
            followed = await self.runs.start(relative, offline=offline)
        ended = await self.runs.wait(followed, wait_seconds, progress)
        return await self._status(followed, ended)

    async def run_status(
        self, run_id: str, wait_seconds: float, progress: Progress
    ) -> RunStatusAnswer:
        followed = self.runs.live(run_id) or self.runs.followed.get(run_id)
        if followed is not None:
            ended = await self.runs.wait(followed, wait_seconds, progress)
            return await self._status(followed, ended)
        record = await self.runs.record(run_id)
        result = await self.runs.result(run_id) if record.status in TERMINAL else None
        return self._from_record(self.runs.root_of(run_id), record, result)

    async def _status(self, followed: Followed, ended: bool) -> RunStatusAnswer:
        handle = followed.handle
        if not ended:
            tally = _last_tally(followed)
            return RunStatusAnswer(
                run_id=handle.run_id,
                file=self.runs.shown(followed.root, handle.file),
                status="running",
                step=followed.step,
                tests=tally,
                message=f"running ({followed.step or 'starting'}): call "
                f"run_status('{handle.run_id}') to follow it",
            )
        result = await self.runs.outcome(followed)
        record = await self.runs.record(handle.run_id)
        return self._from_record(followed.root, record, result, followed.step)

    def _from_record(
        self, root: Path, record: RunRecord, result: RunResult | None, step: str | None = None
    ) -> RunStatusAnswer:
        file = self.runs.shown(root, record.file)
        if result is not None:
            line = f"{file}: {result.status.replace('_', ' ')}"
            if result.reasons:
                line += f" ({result.reasons[0]})"
            return RunStatusAnswer(
                run_id=record.run_id,
                file=file,
                status=result.status,
                step=step or "finish",
                tests=tests_of(result),
                message=f"{line}. get_result('{record.run_id}') gives the diff and the findings"
                + (
                    "; apply_result writes it"
                    if result.applies
                    else "; apply_result with accept_review=true writes it anyway"
                    if result.status == "needs_review"
                    else ""
                ),
            )
        message = {
            "running": "running in another testmend process",
            "paused": record.question or "paused",
            "interrupted": "its process died: `testmend resume --all` continues it",
            "queued": record.waiting or "queued for the team's workers (`testmend worker`)",
        }.get(record.status, f"{record.status}: {record.failure_reason or 'no result'}")
        return RunStatusAnswer(
            run_id=record.run_id, file=file, status=record.status, step=step, message=message
        )

    async def get_result(self, run_id: str) -> ResultAnswer:
        from ..engine.changes import sha256_text
        from ..engine.hunks import hunks

        record = await self.runs.record(run_id)
        result = await self.runs.result(run_id)
        if result is None:
            raise ToolProblem(
                f"run {run_id} has no result ({record.status}"
                + (f": {record.failure_reason}" if record.failure_reason else "")
                + ")"
            )
        state = await self.runs.state(run_id)
        summary = state.last_test_summary if state is not None else ""
        changes = hunks(result.original, result.content)
        root = self.runs.root_of(run_id)
        answer = result_answer(result, sha256_text(result.original), changes, summary)
        return answer.model_copy(
            update={
                "file": self.runs.shown(root, result.file),
                "other_files": [self.runs.shown(root, f) for f in answer.other_files],
            }
        )

    async def apply_result(
        self, run_id: str, expected_sha256: str, hunks: list[int] | None, accept_review: bool
    ) -> Done:
        from ..engine.changes import write_result

        result = await self.runs.result(run_id)
        if result is None:
            raise ToolProblem(f"run {run_id} has no result to apply")
        root = self.runs.root_of(run_id)
        try:
            written = await asyncio.to_thread(
                write_result,
                root,
                result,
                accept_review=accept_review,
                chosen=hunks,
                expected_sha256=expected_sha256,
            )
        except KeyError as exc:
            raise ToolProblem(str(exc).strip("'\"")) from None
        except OSError as exc:
            raise ToolProblem(f"not written: {exc.strerror or exc}") from None
        if written.written and hunks is not None:
            from ..engine.hunks import hunks as hunks_of
            from ..engine.kept import record_taken

            total = len(hunks_of(result.original, result.content))
            await asyncio.to_thread(record_taken, root, run_id, hunks, total, done=True)
        message = f"{self.runs.shown(root, result.file)}: {written.message}"
        files = [self.runs.shown(root, f) for f in written.files]
        return Done(ok=written.written, message=message, files=files)

    async def discard_result(self, run_id: str) -> Done:
        await self.runs.record(run_id)
        root = self.runs.root_of(run_id)
        record = await (await self.runs.engine(root, True)).discard(run_id)
        file = self.runs.shown(root, record.file)
        return Done(ok=True, message=f"{file}: the result of run {run_id} is discarded")

    async def cancel_run(self, run_id: str) -> Done:
        record = await self.runs.record(run_id)
        if await self.runs.cancel(run_id):
            file = self.runs.shown(self.runs.root_of(run_id), record.file)
            return Done(ok=True, message=f"{file}: run {run_id} cancelled; its workspace is gone")
        return Done(ok=False, message=f"run {run_id} is not running here ({record.status})")

    # -- the host's model ----------------------------------------------------------------------

    async def begin_migration(self, path: str, wait_seconds: float, progress: Progress) -> Task:
        relative = self.runs.relative(path)
        followed = self.runs.live_for(relative)
        if followed is None:
            ready = await self._ready_task(relative)
            if ready is not None:
                return ready
            followed = await self.runs.start(relative, offline=True, host=True)
        ended = await self.runs.wait(followed, wait_seconds, progress)
        run_id = followed.handle.run_id
        if not ended:
            return Task(
                task_id=run_id,
                file=relative,
                status="preparing",
                message="testmend is still reading the test and converting it: call "
                f"begin_migration('{path}') again for the brief",
            )
        return await self._task(run_id)

    async def _ready_task(self, relative: str) -> Task | None:
        """The task of this file that waits for a submission, when there is one."""
        for root, record in reversed(await self.runs.records()):
            if self.runs.shown(root, record.file) == relative:
                if record.host and record.status == "paused":
                    return await self._task(record.run_id)
                return None
        return None

    async def _task(self, run_id: str) -> Task:
        from ..engine.tasks import brief

        record = await self.runs.record(run_id)
        root = self.runs.root_of(run_id)
        file = self.runs.shown(root, record.file)
        if not (record.host and record.status == "paused"):
            reason = record.failure_reason or record.status
            return Task(
                task_id=run_id,
                file=file,
                status=record.status,
                message=f"the task did not get ready: {reason}",
            )
        state = await self.runs.state(run_id)
        assert state is not None
        return Task(
            task_id=run_id,
            file=file,
            status="ready",
            brief=brief(state, root, run_id),
            message=f"migrate the test as the brief says, then submit_migration('{run_id}', "
            "content)",
        )

    async def submit_migration(
        self, task_id: str, content: str, wait_seconds: float, progress: Progress
    ) -> Verdict:
        if not content.strip():
            raise ToolProblem("the submission is empty: send the whole migrated test file")
        followed = self.runs.live(task_id)
        if followed is not None and followed.submitted != content:
            raise ToolProblem(
                f"another submission of task {task_id} is still being checked: wait for its "
                "verdict (submit it again, or call run_status) before sending a new one"
            )
        if followed is None:
            record = await self.runs.record(task_id)
            state = await self.runs.state(task_id)
            checked = state is not None and state.submission == content
            if checked and record.status in TERMINAL - {"cancelled"}:
                return await self.verdict(task_id)  # the same file again: the same verdict
            followed = await self.runs.submit(task_id, content)
        ended = await self.runs.wait(followed, wait_seconds, progress)
        if not ended:
            return Verdict(
                task_id=task_id,
                outcome="checking",
                next=f"the checks still run ({followed.step}): send the same content again "
                "to wait for the verdict (it is not checked twice)",
            )
        return await self.verdict(task_id)

    async def verdict(self, task_id: str) -> Verdict:
        from ..engine.changes import sha256_text
        from ..engine.tasks import next_instruction

        record = await self.runs.record(task_id)
        result = await self.runs.result(task_id)
        engine = await self.runs.engine(self.runs.root_of(task_id), True)
        state = await engine.state(task_id)
        if result is None or state is None:
            return Verdict(
                task_id=task_id,
                outcome=record.status,
                next=f"the checks did not finish ({record.failure_reason or record.status}); "
                "submit again",
            )
        following = next_instruction(result, state, engine.config, task_id)
        return verdict(result, state, sha256_text(result.original), following)


def _last_tally(followed: Followed) -> Tests | None:
    from ..workflow.events import TestTally

    for event in reversed(followed.handle.history):
        if isinstance(event, TestTally):
            return Tests(passing=event.passed, total=event.total)
    return None


def _rel(root: Path, file: Path) -> str:
    return file.relative_to(root).as_posix()


def _glob_pattern(pattern: str) -> re.Pattern[str]:
    """A glob over project-relative paths: ``**`` any folders, ``*`` and ``?`` within one."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[" and "]" in pattern[i + 1 :]:
            close = pattern.index("]", i + 1)
            body = pattern[i + 1 : close].replace("\\", "\\\\")
            out, i = out + "[" + ("^" + body[1:] if body.startswith("!") else body) + "]", close + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out)

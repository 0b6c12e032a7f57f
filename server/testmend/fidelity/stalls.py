"""The intent check's jest runs, watched for a test that never ends.

A mutant can make a test run without end where the loop guard (``mutants.py``) cannot see it:
a loop in a module it did not mutate, a render that allocates until the heap is full (jest
then starts the file again in a new worker). jest reports a file only once it is done, so one
such copy used to stop the whole run at its timeout, and the check came back incomplete. The
runs here carry the hang probe (``runners/hang_probe.js``: a line when each test starts and
ends, with its file); once one test has been running for ``stall`` seconds, the run stops, that
copy counts as failing under its mutant (a test that does not end catches the mutant, as a
failing one does), and the copies not run yet go again, without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from ..layout import TEMP_DIR_PREFIX
from ..runners import ProjectRunners, RunnerError, SuiteError, TestRunResult
from ..runners.hangs import POLL_SECONDS, PROGRESS_ENV, open_tests, probe_script
from ..runners.setup_files import added_setup_file


def stall_after(timeout: float) -> float:
    """How long one test may run before it counts as endless: a quarter of the run's timeout,
    at least 20 s (a test of a component takes well under a second; a loaded machine's first
    render, a few)."""
    return max(20.0, timeout / 4)


async def run_watched(
    runners: ProjectRunners,
    root: Path,
    files: list[str],
    *,
    timeout: float,
    stall: float,
) -> dict[str, TestRunResult]:
    """``runners.run_test_files(files)`` (project-relative, under ``root``), all cores, with a
    copy whose test runs ``stall`` seconds without end taken out of the run (its result: a
    suite error saying so) and the others run again. Raises what the run raises otherwise
    (``RunnerError``: a timeout, jest itself failing)."""
    results: dict[str, TestRunResult] = {}
    left = list(files)
    while left:
        with runners.temp_dir(f"{TEMP_DIR_PREFIX}intent-") as tmp:
            progress = Path(tmp) / "progress.tsv"
            progress.write_text("", encoding="utf-8")
            with added_setup_file(runners, root, probe_script(), "intent") as extra_args:
                run = asyncio.create_task(
                    runners.run_test_files(
                        left,
                        extra_args=extra_args,
                        extra_env={PROGRESS_ENV: str(progress)},
                        timeout=timeout,
                        all_cores=True,
                    )
                )
                try:
                    hung = await _first_hang(run, progress, stall)
                finally:
                    if not run.done():
                        run.cancel()
                    with contextlib.suppress(asyncio.CancelledError, RunnerError, OSError):
                        await run
        if hung is None:
            results.update(run.result())
            return results
        path, test = hung
        copy = _copy_of(root, path, left)
        if copy is None:
            raise RunnerError(
                "jest",
                f"a test ran for {stall:g} s without end ({test or 'a hook'}), in a file "
                "testmend could not tell",
            )
        results[copy] = TestRunResult(
            file=copy,
            exit_code=1,
            tests=[],
            suite_error=SuiteError(message=f"{test or 'a hook'} ran for {stall:g} s without end"),
            duration_s=stall,
        )
        left.remove(copy)
    return results


async def _first_hang(
    run: asyncio.Task[dict[str, TestRunResult]], progress: Path, stall: float
) -> tuple[str, str] | None:
    """The (file, test) that has been running ``stall`` seconds when that happens before
    ``run`` ends; None once it ended."""
    since: dict[tuple[str, str], float] = {}
    while not run.done():
        await asyncio.wait({run}, timeout=POLL_SECONDS)
        try:
            now_open = open_tests(progress.read_text(encoding="utf-8"))
        except OSError:
            continue
        now = time.monotonic()
        since = {key: since.get(key, now) for key in now_open}
        for key, started in since.items():
            if now - started >= stall:
                return key
    return None


def _copy_of(root: Path, path: str, files: list[str]) -> str | None:
    """Which of ``files`` (project-relative) the probe's absolute ``path`` is."""
    for file in files:
        if path == str(root / file) or path.endswith("/" + file):
            return file
    return None

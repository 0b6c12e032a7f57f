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

from functools import partial
from pathlib import Path

from ..runners import ProjectRunners, RunnerError, SuiteError, TestRunResult
from ..runners.hangs import probed_run


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
        run, hung, _lines = await probed_run(
            runners,
            root,
            "intent",
            stall,
            partial(_run_all, runners, list(left), timeout),
        )
        if not hung:
            results.update(run.result())
            return results
        for path, test in hung:
            copy = _copy_of(root, path, files)
            if copy in results:
                continue  # a second test of it, or the same one started again
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
                suite_error=SuiteError(
                    message=f"{test or 'a hook'} ran for {stall:g} s without end"
                ),
                duration_s=stall,
            )
            left.remove(copy)
    return results


async def _run_all(
    runners: ProjectRunners,
    files: list[str],
    timeout: float,
    extra_args: list[str],
    extra_env: dict[str, str],
) -> dict[str, TestRunResult]:
    return await runners.run_test_files(
        files, extra_args=extra_args, extra_env=extra_env, timeout=timeout, all_cores=True
    )


def _copy_of(root: Path, path: str, files: list[str]) -> str | None:
    """Which of ``files`` (project-relative) the probe's absolute ``path`` is."""
    for file in files:
        if path == str(root / file) or path.endswith("/" + file):
            return file
    return None

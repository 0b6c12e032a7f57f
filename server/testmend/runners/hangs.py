"""Naming a test that never finishes. A jest run stopped at its timeout says nothing about its
tests (jest reports a file when it is done); one more run of the file, with a setup file that
marks each test's start and end (``hang_probe.js``), shows the test that started and has not
ended. The probe stops as soon as a test has been running for a while (a fraction of the
timeout): naming it costs a small part of the timeout, not another one."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..assets import read_asset
from ..layout import TEMP_DIR_PREFIX
from .errors import RunnerError
from .setup_files import JestRuns, added_setup_file


class ProbedRunners(JestRuns, Protocol):
    """What the probe needs of the project's runners (``ProjectRunners`` has it)."""

    def temp_dir(self, prefix: str) -> tempfile.TemporaryDirectory[str]: ...

    async def run_tests(
        self,
        file: str,
        *,
        extra_args: Sequence[str] = (),
        extra_env: Mapping[str, str] | None = None,
        timeout: float | None = None,
        probe: bool = True,
    ) -> Any: ...


POLL_SECONDS = 0.25
PROGRESS_ENV = "TESTMEND_PROGRESS_OUT"


def probe_script() -> str:
    """The probe as a setup script that may join another one (its names in a scope of their
    own): a run that has it names its own hanging test, with no probe run after it."""
    return "(() => {\n" + read_asset("testmend.runners", "hang_probe.js") + "\n})();\n"


def stuck_in(progress: Path) -> list[str]:
    """:func:`stuck` of a progress file; empty when there is none."""
    try:
        return stuck(progress.read_text(encoding="utf-8"))
    except OSError:
        return []


def stuck(progress: str) -> list[str]:
    """Tests with a start and no end in the probe's lines, in the order they started."""
    return [name or "(a hook outside any test)" for _path, name in open_tests(progress)]


def open_tests(progress: str) -> list[tuple[str, str]]:
    """(test file, test name) of the tests with a start and no end in the probe's lines, in
    the order they started (the file is empty where jest did not say it)."""
    open_: dict[tuple[str, str], int] = {}
    for line in progress.splitlines():
        kind, name, path = ([*line.split("\t"), "", ""])[:3]
        key = (path, name)
        if kind == "start":
            open_[key] = open_.get(key, 0) + 1
        elif kind == "end" and open_.get(key):
            open_[key] -= 1
    return [key for key, n in open_.items() if n > 0]


async def hanging_tests(runners: ProbedRunners, root: Path, file: str, timeout: float) -> list[str]:
    """The tests of ``file`` (project-relative, under ``root``) that start and do not end
    within a fraction of ``timeout``; empty when the probe could not tell."""
    stall = max(2.0, 0.08 * timeout)
    budget = max(stall + 10.0, 0.2 * timeout)
    _run, hung, progress = await probed_run(
        runners,
        root,
        "probe",
        stall,
        lambda args, env: runners.run_tests(
            file, extra_args=args, extra_env=env, timeout=budget, probe=False
        ),
    )
    if hung:
        return [name or "(a hook outside any test)" for _path, name in hung]
    return stuck(progress)


T = TypeVar("T")


async def probed_run(
    runners: ProbedRunners,
    root: Path,
    purpose: str,
    stall: float,
    start: Callable[[list[str], dict[str, str]], Coroutine[Any, Any, T]],
) -> tuple[asyncio.Task[T], list[tuple[str, str]], str]:
    """``start(jest arguments, environment)``, a run of the project's jest in ``root`` with the
    probe added, stopped as soon as a test has been running ``stall`` seconds: (the run, done or
    cancelled; the (file, test) pairs that ran that long, empty when it ended first; the
    probe's lines)."""
    with runners.temp_dir(f"{TEMP_DIR_PREFIX}{purpose}-") as tmp:
        progress = Path(tmp) / "progress.tsv"
        progress.write_text("", encoding="utf-8")
        with added_setup_file(runners, root, probe_script(), purpose) as extra_args:
            run = asyncio.create_task(start(extra_args, {PROGRESS_ENV: str(progress)}))
            try:
                hung = await _stalled(run, progress, stall)
            finally:
                if not run.done():
                    run.cancel()
                with contextlib.suppress(asyncio.CancelledError, RunnerError, OSError):
                    await run
        return run, hung, progress.read_text(encoding="utf-8")


async def _stalled(run: asyncio.Task[Any], progress: Path, stall: float) -> list[tuple[str, str]]:
    """The (file, test) pairs that have been running ``stall`` seconds, as soon as there are
    any while ``run`` goes on; empty once it ended."""
    since: dict[tuple[str, str], float] = {}
    while not run.done():
        await asyncio.wait({run}, timeout=POLL_SECONDS)
        try:
            now_open = open_tests(progress.read_text(encoding="utf-8"))
        except OSError:
            continue
        now = time.monotonic()
        since = {key: since.get(key, now) for key in now_open}
        hung = [key for key, started in since.items() if now - started >= stall]
        if hung and not run.done():
            return hung
    return []

"""The warm jest against the example app's real jest: the same results as the plain command,
from one process that stays up; what it cannot drive goes back to the plain command."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest

from testmend.config import load_config
from testmend.runners import ProjectRunners, RunnerTimeoutError
from testmend.runners.warm import WarmJest
from tests.support.runners import PASSING_TEST, write


def warm_runners(root: Path, **settings: object) -> ProjectRunners:
    config = load_config(root, environ={}, editor_settings=settings)
    return ProjectRunners(config, warm=True)


def pid_of(runners: ProjectRunners) -> int | None:
    assert runners.warm is not None
    return runners.warm.pid


def group_left(pgid: int) -> list[str]:
    """The processes still in the warm jest's process group: its own, not every testmend's on
    the machine (another run's warm jest has the same script on its command line)."""
    out = subprocess.run(["pgrep", "-g", str(pgid)], capture_output=True, text=True).stdout
    return out.split()


async def test_an_edit_then_a_rerun_in_the_same_process(example_copy: Path) -> None:
    runners = warm_runners(example_copy)
    test = write(
        example_copy,
        "src/Edited.test.tsx",
        """
        it('adds', () => {
          expect(1 + 1).toBe(3);
        });
        """,
    )
    try:
        first = await runners.run_tests(test)
        pid = pid_of(runners)
        assert pid is not None and runners.warm is not None and runners.warm.version
        assert [t.status for t in first.tests] == ["failed"]
        assert "Expected: 3" in first.tests[0].failure_messages[0]
        assert first.tests[0].failure_location is not None
        assert first.tests[0].failure_location.line == 2
        # The agent's edit, then the re-run: jest sees the file as it is now.
        (example_copy / test).write_text("it('adds', () => {\n  expect(1 + 1).toBe(2);\n});\n")
        second = await runners.run_tests(test)
        assert [t.status for t in second.tests] == ["passed"] and second.exit_code == 0
        # Several files in one run (the intent check), still the same process.
        both = await runners.run_test_files([test, PASSING_TEST])
        assert both[test].passed_count == 1 and both[PASSING_TEST].success
        assert pid_of(runners) == pid and group_left(pid)
    finally:
        await runners.aclose()
    assert pid_of(runners) is None and not group_left(pid)


async def test_several_files_run_in_the_warm_process_itself(example_copy: Path) -> None:
    """The intent check's many files (``all_cores``) run in band in the warm jest, whose
    modules are loaded, not in worker processes jest would start cold for the run: every file
    sees the process that ran a single file."""
    runners = warm_runners(example_copy)
    body = """
        it('notes its process', () => {
          require('fs').writeFileSync(__filename + '.pid', String(process.pid));
        });
        """
    single = write(example_copy, "src/Single.test.ts", body)
    # Files jest has no timings of (with timings of fast files it would go in band itself).
    files = [write(example_copy, f"src/InBand{n}.test.ts", body) for n in range(4)]

    def pids(names: Sequence[str]) -> set[str]:
        return {(example_copy / f"{name}.pid").read_text() for name in names}

    try:
        assert (await runners.run_tests(single)).success
        alone = pids([single])
        results = await runners.run_test_files(files, all_cores=True)
        assert all(results[f].success for f in files), results
        assert pids(files) == alone
    finally:
        await runners.aclose()


async def test_the_environment_of_one_run_reaches_its_tests_only(example_copy: Path) -> None:
    runners = warm_runners(example_copy)
    test = write(
        example_copy,
        "src/Env.test.ts",
        """
        it('sees the variable', () => {
          expect(process.env.TESTMEND_PROBE).toBe('on');
        });
        """,
    )
    try:
        with_env = await runners.run_tests(test, extra_env={"TESTMEND_PROBE": "on"})
        without = await runners.run_tests(test)
    finally:
        await runners.aclose()
    assert with_env.success
    assert not without.success


async def test_a_killed_process_is_started_again(example_copy: Path) -> None:
    runners = warm_runners(example_copy)
    try:
        assert (await runners.run_tests(PASSING_TEST)).success
        pid = pid_of(runners)
        assert pid is not None
        os.killpg(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)
        result = await runners.run_tests(PASSING_TEST)  # the plain command, then a new process
        assert result.success
        assert (await runners.run_tests(PASSING_TEST)).success
        assert pid_of(runners) not in (None, pid)
    finally:
        await runners.aclose()


async def test_a_hanging_test_is_killed_at_the_timeout(example_copy: Path) -> None:
    runners = warm_runners(example_copy, timeouts={"test": 8})
    hanging = write(
        example_copy,
        "src/Hangs.test.ts",
        """
        it('never ends', () => new Promise(() => {}), 600_000);
        """,
    )
    try:
        run = asyncio.ensure_future(runners.run_tests(hanging))
        while (pid := pid_of(runners)) is None and not run.done():
            await asyncio.sleep(0.05)
        assert pid is not None
        with pytest.raises(RunnerTimeoutError):
            await run
        assert pid_of(runners) is None and not group_left(pid)  # its group was killed
        assert (await runners.run_tests(PASSING_TEST)).success  # a new process serves the next
    finally:
        await runners.aclose()


def node_spawner(cwd: Path) -> Callable[[Sequence[str]], Awaitable[asyncio.subprocess.Process]]:
    async def spawn(args: Sequence[str]) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            "node",
            *args,
            cwd=cwd,
            env={**os.environ, "CI": "true", "COLORS": "false"},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )

    return spawn


async def test_a_worn_process_is_replaced_once_not_at_every_run(example_copy: Path) -> None:
    worn = WarmJest(node_spawner(example_copy), max_runs=2)
    argv = ["--ci", "--coverage=false", "--runTestsByPath", str(example_copy / PASSING_TEST)]
    pids: list[int | None] = []
    try:
        for _ in range(4):
            done = await worn.run(argv, {}, timeout=60)
            assert done is not None and done.returncode == 0
            pids.append(worn.pid)
    finally:
        await worn.aclose()
    # Two runs per process: the first serves two and stops, a second serves the next two.
    assert pids[0] is not None and pids[1] is None
    assert pids[2] not in (None, pids[0]) and pids[3] is None


def test_wrapped_or_turned_off_jest_runs_as_the_plain_command(example_copy: Path) -> None:
    wrapped = warm_runners(example_copy, commands={"test": "npx jest"})
    off = warm_runners(example_copy, workspace={"warmJest": False})
    plain = ProjectRunners(load_config(example_copy, environ={}))
    assert wrapped.warm is None and off.warm is None and plain.warm is None


async def test_an_old_jest_says_why_and_is_not_driven(tmp_path: Path, node: str) -> None:
    cli = tmp_path / "node_modules" / "jest-cli"
    cli.mkdir(parents=True)
    (cli / "package.json").write_text(json.dumps({"name": "jest-cli", "version": "26.6.3"}))

    warm = WarmJest(node_spawner(tmp_path))
    assert await warm.run(["--ci"], {}, timeout=30) is None
    assert warm.unusable == "jest 26.6.3 (the warm runner drives jest 27 and later)"
    assert await warm.run(["--ci"], {}, timeout=30) is None  # not started again
    await warm.aclose()

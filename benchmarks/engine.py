"""A scripted full migration: wall time against the jest/eslint/tsc time it spent, peak memory.

    .venv/bin/python benchmarks/engine.py [--runs N]

Each run copies the example app into a fresh git repository, migrates one Enzyme test with the
scripted model (research → planning → migrate with one edit → lint → typescript → finish) and
prints: the run's wall time, the summed wall time of every jest, eslint and tsc command it ran,
their ratio (target: at most 1.25×), and peak resident memory of this process and of its
children (node). The difference is testmend's own work: workspace, graph, checkpoints, codemod.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(REPO))

from tests.engine.conftest import (  # noqa: E402
    GIT_ENV,
    SIMPLE_ENZYME,
    SIMPLE_RTL,
    SIMPLE_TEST,
    call,
    quiet_agents,
    rewrite_to,
)

from testmend.config import Config, load_config  # noqa: E402
from testmend.engine import Engine, RunRequest  # noqa: E402
from testmend.llm import ScriptedChatModel, reply  # noqa: E402
from testmend.runners import ProjectRunners  # noqa: E402

APP = REPO / "examples" / "react-app"


class TimedRunners(ProjectRunners):
    """The real runners, adding up how long each command took."""

    spent: ClassVar[list[tuple[str, float]]] = []

    async def _timed(self, tool: str, call: Any) -> Any:
        started = time.perf_counter()
        try:
            return await call
        finally:
            TimedRunners.spent.append((tool, time.perf_counter() - started))

    async def run_tests(self, file: str, **kwargs: Any) -> Any:  # type: ignore[override]
        return await self._timed("jest", super().run_tests(file, **kwargs))

    async def lint(self, file: str) -> Any:  # type: ignore[override]
        return await self._timed("eslint", super().lint(file))

    async def lint_fix(self, file: str) -> Any:  # type: ignore[override]
        return await self._timed("eslint --fix", super().lint_fix(file))

    async def typecheck(self, file: str) -> Any:  # type: ignore[override]
        return await self._timed("tsc", super().typecheck(file))


def make_project(base: Path) -> Path:
    root = base / "app"
    shutil.copytree(APP, root, ignore=shutil.ignore_patterns("node_modules", ".testmend"))
    (root / "node_modules").symlink_to(APP / "node_modules", target_is_directory=True)
    (root / SIMPLE_TEST).write_text(SIMPLE_ENZYME, encoding="utf-8")
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "app"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True)
    return root


async def one_run(base: Path) -> tuple[float, float, dict[str, float]]:
    project = make_project(base)
    config: Config = load_config(project, environ={})
    model = ScriptedChatModel(
        scripts={
            **quiet_agents(),
            "migrate": [rewrite_to(SIMPLE_RTL), call("run_test_file"), reply("done")],
        }
    )
    TimedRunners.spent = []
    engine = Engine(
        config,
        models=lambda agent: model,
        workspaces_dir=base / "workspaces",
        runners_factory=lambda cfg, cwd, sandbox: TimedRunners(cfg, cwd=cwd, sandbox=sandbox),
    )
    started = time.perf_counter()
    async with engine:
        handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        result = await handle.wait()
    wall = time.perf_counter() - started
    assert result is not None and result.status == "succeeded", result
    by_tool: dict[str, float] = {}
    for tool, seconds in TimedRunners.spent:
        by_tool[tool] = by_tool.get(tool, 0.0) + seconds
    return wall, sum(by_tool.values()), by_tool


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    walls, tools, ratios = [], [], []
    print(f"scripted migration of {SIMPLE_TEST}, {args.runs} runs\n")
    print(f"{'run':<5}{'wall s':>8}{'tools s':>9}{'ratio':>7}   per tool")
    for index in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="testmend-bench-engine-") as tmp:
            wall, spent, by_tool = await one_run(Path(tmp))
        walls.append(wall)
        tools.append(spent)
        ratios.append(wall / spent)
        detail = ", ".join(f"{tool} {seconds:.1f}" for tool, seconds in sorted(by_tool.items()))
        print(f"{index + 1:<5}{wall:>8.1f}{spent:>9.1f}{wall / spent:>6.2f}×   {detail}")
    print(
        f"\nmedian: wall {statistics.median(walls):.1f} s, tools {statistics.median(tools):.1f} s, "
        f"ratio {statistics.median(ratios):.2f}× (target ≤ 1.25×)"
    )
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS: testmend {own:.0f} MiB, largest child process {children:.0f} MiB")


if __name__ == "__main__":
    asyncio.run(main())

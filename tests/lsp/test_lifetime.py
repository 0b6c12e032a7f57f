"""A long-lived server does not accumulate: engines that settings changes retired are closed once
no run uses them, ended runs leave no handle in their engine, kept results and report links are
bounded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from testmend.lsp.core import MAX_REPORTS, RunReport, prune
from testmend.lsp.engine_host import worker_command
from testmend.lsp.server import TestmendServer


def open_in_state_dir(pid: int, root: Path) -> list[str]:
    """The files under the project's ``.testmend/`` that a process holds open."""
    state = str(root / ".testmend")
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith(state):
            found.append(target)
    return found


async def test_a_retired_engine_is_closed_when_no_run_uses_it(
    example_copy: Path, tmp_path: Path
) -> None:
    server = TestmendServer(
        worker=worker_command("--offline"), workspaces_dir=tmp_path / "workspaces"
    )
    first = server._engine_for(example_copy)
    assert await first.result("no-such-run") is None  # opens it (its SQLite store)
    pid = server.engine_process.pid
    assert pid is not None and open_in_state_dir(pid, example_copy)
    assert server._engine_for(example_copy) is first  # same settings: same engine
    server.settings = {"retry": {"maxTotalAttempts": 3}}
    second = server._engine_for(example_copy)
    assert second is not first and server.engines[example_copy].retired == [first]
    await server._close_retired()
    assert server.engines[example_copy].retired == []
    assert open_in_state_dir(pid, example_copy) == []  # its SQLite connection is closed
    await server.close_all()
    assert server.engine_process.pid is None  # and the engine process is gone


@pytest.mark.parametrize("count", [MAX_REPORTS - 1, MAX_REPORTS + 25])
def test_report_links_are_bounded_oldest_first(count: int) -> None:
    reports = {f"run-{i}": RunReport(f"file:///t{i}.test.tsx", f"/r{i}.md") for i in range(count)}
    prune(reports, MAX_REPORTS)
    assert len(reports) == min(count, MAX_REPORTS)
    assert f"run-{count - 1}" in reports  # the newest stays

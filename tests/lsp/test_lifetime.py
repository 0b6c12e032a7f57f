"""A long-lived server does not accumulate: engines that settings changes retired are closed once
no run uses them, ended runs leave no handle in their engine, kept results and report links are
bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.lsp.core import MAX_REPORTS, RunReport, prune
from testmend.lsp.runs import load_engine
from testmend.lsp.server import TestmendServer


async def test_a_retired_engine_is_closed_when_no_run_uses_it(
    example_copy: Path, tmp_path: Path
) -> None:
    server = TestmendServer(models=None, workspaces_dir=tmp_path / "workspaces")
    api = await load_engine()
    first = server._engine_for(example_copy, api)
    await first.open()
    assert server._engine_for(example_copy, api) is first  # same settings: same engine
    server.settings = {"retry": {"maxTotalAttempts": 3}}
    second = server._engine_for(example_copy, api)
    assert second is not first and server.engines[example_copy].retired == [first]
    await server._close_retired()
    assert server.engines[example_copy].retired == []
    assert first._saver is None  # its SQLite connection is closed
    await server.close_all()


@pytest.mark.parametrize("count", [MAX_REPORTS - 1, MAX_REPORTS + 25])
def test_report_links_are_bounded_oldest_first(count: int) -> None:
    reports = {f"run-{i}": RunReport(f"file:///t{i}.test.tsx", f"/r{i}.md") for i in range(count)}
    prune(reports, MAX_REPORTS)
    assert len(reports) == min(count, MAX_REPORTS)
    assert f"run-{count - 1}" in reports  # the newest stays

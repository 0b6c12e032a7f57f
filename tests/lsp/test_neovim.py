"""Headless Neovim (built-in LSP client) runs "Migrate to RTL" on an example test."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

import pytest

from ..engine.conftest import SIMPLE_RTL, SIMPLE_TEST
from .conftest import SCRIPTED_SERVER, server_env

SCRIPT = Path(__file__).with_name("neovim_migrate.lua")


@pytest.mark.skipif(shutil.which("nvim") is None, reason="neovim is not installed (.ci/run)")
async def test_neovim_migrates_the_buffer(project: Path, workspaces: Path, tmp_path: Path) -> None:
    result_file = tmp_path / "nvim-result.json"
    env = server_env(
        workspaces,
        NVIMTEST_APP=str(project),
        NVIMTEST_FILE=str(project / SIMPLE_TEST),
        NVIMTEST_RESULT=str(result_file),
        NVIMTEST_SERVER_CMD=json.dumps([sys.executable, str(SCRIPTED_SERVER), "seats"]),
        HOME=str(tmp_path),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    process = await asyncio.create_subprocess_exec(
        "nvim", "--headless", "--clean", "-c", f"luafile {SCRIPT}",
        cwd=project, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    try:
        out, _ = await asyncio.wait_for(process.communicate(), 400)
    except TimeoutError:
        process.kill()
        raise
    assert result_file.is_file(), out.decode(errors="replace")
    result = json.loads(result_file.read_text())
    assert "error" not in result, result
    assert result["diagnostic"] == "This test uses Enzyme — Migrate to RTL"
    assert "Migrate to RTL" in result["offered"]
    assert result["migrated"] and result["progress_done"], result
    assert result["text"].rstrip("\n") == SIMPLE_RTL.rstrip("\n")
    await asyncio.sleep(0.5)
    assert list(workspaces.iterdir()) == []

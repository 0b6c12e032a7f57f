"""Headless Neovim (built-in LSP client) runs "Migrate to RTL" on an example test: the
system's Neovim (Debian 12: 0.7.2) and a current one (Debian 13's 0.10, installed under
.cache/ by scripts/install-neovim-current.sh)."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.apps import REPO_ROOT
from tests.support.engine import SIMPLE_RTL, SIMPLE_TEST
from tests.support.leftovers import left_behind
from tests.support.lsp import SCRIPTED_SERVER, server_env

SCRIPT = Path(__file__).with_name("neovim_migrate.lua")
CURRENT_NVIM = REPO_ROOT / ".cache" / "neovim-current" / "nvim"

NEOVIMS = [
    pytest.param(
        shutil.which("nvim"),
        id="system",
        marks=pytest.mark.skipif(
            shutil.which("nvim") is None, reason="neovim is not installed (scripts/setup.sh)"
        ),
    ),
    pytest.param(
        str(CURRENT_NVIM),
        id="current",
        marks=pytest.mark.skipif(
            not CURRENT_NVIM.is_file(), reason="scripts/install-neovim-current.sh did not run"
        ),
    ),
]


@pytest.mark.parametrize("nvim", NEOVIMS)
async def test_neovim_migrates_the_buffer(
    nvim: str, project: Path, workspaces: Path, tmp_path: Path
) -> None:
    server = [sys.executable, str(SCRIPTED_SERVER), "seats"]
    result = await _headless(
        nvim, SCRIPT, project, project / SIMPLE_TEST, server, workspaces, tmp_path
    )
    version = (await _version(nvim)).removeprefix("NVIM v")
    assert version.startswith(result["version"] + "."), (version, result["version"])
    assert result["diagnostic"] == "This test uses Enzyme — Migrate to RTL"
    assert "Migrate to RTL" in result["offered"]
    assert result["migrated"] and result["progress_done"], result
    assert result["text"].rstrip("\n") == SIMPLE_RTL.rstrip("\n")
    await asyncio.sleep(0.5)
    assert left_behind(workspaces) == []


async def _headless(
    nvim: str,
    script: Path,
    project: Path,
    file: Path,
    server: list[str],
    workspaces: Path,
    home: Path,
) -> dict[str, Any]:
    """``script`` run by a headless Neovim (its home ``home``) in ``project`` on ``file`` with
    ``server`` as its language server: what the script wrote (no error in it)."""
    result_file = home / "nvim-result.json"
    env = server_env(
        workspaces,
        NVIMTEST_APP=str(project),
        NVIMTEST_FILE=str(file),
        NVIMTEST_RESULT=str(result_file),
        NVIMTEST_SERVER_CMD=json.dumps(server),
        HOME=str(home),
        XDG_STATE_HOME=str(home / "state"),
    )
    process = await asyncio.create_subprocess_exec(
        nvim, "--headless", "--clean", "-c", f"luafile {script}",
        cwd=project, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    try:
        out, _ = await asyncio.wait_for(process.communicate(), 400)
    except TimeoutError:
        process.kill()
        raise
    assert result_file.is_file(), out.decode(errors="replace")
    result: dict[str, Any] = json.loads(result_file.read_text())
    assert "error" not in result, result
    return result


async def _version(nvim: str) -> str:
    process = await asyncio.create_subprocess_exec(
        nvim, "--version", stdout=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL
    )
    out, _ = await process.communicate()
    return out.decode().splitlines()[0]


REVIEW_SCRIPT = Path(__file__).with_name("neovim_review.lua")
COUNTDOWN = "src/components/Countdown/Countdown.test.tsx"


@pytest.mark.skipif(not CURRENT_NVIM.is_file(), reason="scripts/install-neovim-current.sh")
async def test_neovim_takes_one_hunk_of_a_kept_result_through_the_code_action(
    project: Path, workspaces: Path, tmp_path: Path
) -> None:
    """Neovim 0.10: the kept result opens as a document with its findings, and the code action
    at its first hunk takes that hunk into the test's buffer."""
    from testmend.engine.hunks import take

    original = (project / COUNTDOWN).read_text(encoding="utf-8")
    server = [sys.executable, "-m", "testmend", "serve"]
    result = await _headless(
        str(CURRENT_NVIM), REVIEW_SCRIPT, project, project / COUNTDOWN, server, workspaces, tmp_path
    )
    assert result["took"], result
    assert f"Accept hunk 1/{result['hunks']}" in result["offered"]
    assert any("no-node-access" in finding for finding in result["findings"]), result
    content = Path(result["result_uri"].removeprefix("file://")).read_text(encoding="utf-8")
    assert result["before"].rstrip("\n") == original.rstrip("\n")
    assert result["text"].rstrip("\n") == take(original, content, [0]).rstrip("\n")

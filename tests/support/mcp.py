"""A real MCP client (the SDK's own) talking to ``testmend mcp`` in a subprocess over stdio."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from .lsp import server_env


@asynccontextmanager
async def mcp_session(root: Path, workspaces: Path, **env: str) -> AsyncIterator[ClientSession]:
    """``testmend mcp`` started in ``root`` (this tree's code), initialized."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "testmend", "mcp"],
        cwd=str(root),
        env=server_env(workspaces, **env),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's structured answer; the call must succeed."""
    result = await session.call_tool(tool, arguments)
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert not result.is_error, f"{tool} failed: {text}"
    assert result.structured_content is not None, text
    return result.structured_content


async def refusal(session: ClientSession, tool: str, **arguments: Any) -> str:
    """The one sentence a refused call answers with."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return " ".join(getattr(c, "text", "") for c in result.content)


async def until_ended(session: ClientSession, run_id: str) -> dict[str, Any]:
    """``run_status`` until the run is no longer running."""
    for _ in range(40):
        status = await call(session, "run_status", run_id=run_id, wait_seconds=45)
        if status["status"] != "running":
            return status
    raise AssertionError(f"run {run_id} did not end")

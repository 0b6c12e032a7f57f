"""How soon ``testmend mcp`` answers ``initialize`` and ``tools/list``, and its first tool call.

    .venv/bin/python benchmarks/mcp_start.py [--runs N]

Starts the server N times (default 7) in the example app through the MCP SDK's own stdio client
and prints, per run and as medians: the time from spawning the process to the ``initialize``
answer, to the ``tools/list`` answer, and to the first ``find_enzyme_tests`` answer (the first
call that loads the engine's store). Target: ``initialize`` under 1 s on an idle machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "react-app"


async def once() -> tuple[float, float, float]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "testmend", "mcp"], cwd=str(EXAMPLE)
    )
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        initialized = time.perf_counter() - started
        await session.list_tools()
        listed = time.perf_counter() - started
        await session.call_tool("find_enzyme_tests", {"path": "src/components/Pagination"})
        called = time.perf_counter() - started
    return initialized, listed, called


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    figures = []
    for n in range(args.runs):
        figure = await once()
        figures.append(figure)
        print(
            f"run {n + 1}: initialize {figure[0]:.2f} s, tools/list {figure[1]:.2f} s, "
            f"first find_enzyme_tests {figure[2]:.2f} s"
        )
    medians = [statistics.median(f[i] for f in figures) for i in range(3)]
    print(
        f"median of {args.runs}: initialize {medians[0]:.2f} s, tools/list {medians[1]:.2f} s, "
        f"first find_enzyme_tests {medians[2]:.2f} s (target: initialize < 1 s)"
    )


if __name__ == "__main__":
    asyncio.run(main())

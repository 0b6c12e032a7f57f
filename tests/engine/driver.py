"""Runs one scripted migration in its own process, printing events as JSON lines.

    python -m tests.engine.driver PROJECT WORKSPACES start [--endpoint URL]
    python -m tests.engine.driver PROJECT WORKSPACES resume RUN_ID [--endpoint URL]

Used to kill a run with SIGKILL mid-way and resume it in a new process. With ``--endpoint``
the model is the real client against that chat-completions endpoint (a replay the test serves
and counts), else the scripted model.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from testmend.engine import Engine, RunRequest
from testmend.llm import ScriptedChatModel, reply
from tests.support.engine import (
    SIMPLE_RTL,
    SIMPLE_TEST,
    call,
    make_config,
    provider_config,
    quiet_agents,
    rewrite_to,
)


def scripts() -> dict[str, list[object]]:
    return {
        **quiet_agents(),
        "migrate": [
            call("read_file", path=SIMPLE_TEST),
            rewrite_to(SIMPLE_RTL),
            call("run_test_file"),
            reply("done"),
        ],
    }


async def main(
    project: Path, workspaces: Path, action: str, run_id: str | None, endpoint: str | None
) -> int:
    def show(event: object) -> None:
        print(event.model_dump_json(), flush=True)  # type: ignore[attr-defined]

    if endpoint is not None:
        config = provider_config(project, endpoint)
        engine = Engine(config, workspaces_dir=workspaces, on_event=show)
    else:
        model = ScriptedChatModel(scripts=scripts())
        engine = Engine(
            make_config(project),
            models=lambda agent: model,
            workspaces_dir=workspaces,
            on_event=show,
        )
    async with engine:
        if action == "start":
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        else:
            assert run_id is not None
            handle = await engine.resume(run_id)
        result = await handle.wait()
    assert result is not None
    print("RESULT " + result.model_dump_json(), flush=True)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    endpoint = None
    if "--endpoint" in args:
        at = args.index("--endpoint")
        endpoint = args[at + 1]
        del args[at : at + 2]
    run = args[3] if len(args) > 3 else None
    sys.exit(asyncio.run(main(Path(args[0]), Path(args[1]), args[2], run, endpoint)))

"""A test entry point: ``testmend serve`` with a scripted model injected (no network).

``python tests/lsp/scripted_server.py SCRIPT`` where SCRIPT names a script below. Production
code has no switch for this: the model factory is a constructor parameter of the server.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # started as a script by the test client
    sys.path.insert(0, str(REPO_ROOT))

from testmend.llm import ScriptedChatModel, reply  # noqa: E402
from testmend.lsp.server import MAX_ACTIVE_RUNS, main  # noqa: E402
from tests.support.engine import (  # noqa: E402
    CHEATS,
    LINT_AFTER,
    SIMPLE_RTL,
    call,
    quiet_agents,
    rewrite_to,
)

SCRIPTS: dict[str, dict[str, list[object]]] = {
    "seats": {
        **quiet_agents(),
        "migrate": [rewrite_to(SIMPLE_RTL), call("run_test_file"), reply("done")],
    },
    "lint": {"lint": [rewrite_to(LINT_AFTER), call("run_lint_check"), reply("lint clean")]},
    # Four failed checks, then a call for help; after the person's answer, the fix.
    "escalate": {
        **quiet_agents(),
        "migrate": [
            call("run_test_file", "t1"),
            call("run_test_file", "t2"),
            call("run_test_file", "t3"),
            call("run_test_file", "t4"),
            call(
                "escalate_for_external_help",
                "e1",
                goal="Migrate the increment test",
                tried="reran the tests",
                last_error="state() has no equivalent",
                analysis="the test reads component state",
            ),
            rewrite_to(SIMPLE_RTL),
            call("run_test_file", "t5"),
            reply("done"),
        ],
    },
}


# An agent that deletes the test it cannot migrate and declares victory (each time it is sent
# back with the finding).
SCRIPTS["cheat"] = {
    **quiet_agents(),
    "migrate": [
        rewrite_to(CHEATS["deletes-the-failing-test"][0]),
        call("run_test_file"),
        reply("all tests pass"),
    ],
}
SCRIPTS["one-run"] = SCRIPTS["seats"]
MAX_RUNS = {"one-run": 1}
"""Scripts whose server takes fewer runs at once than the default."""


def run(script: str) -> int:
    model = ScriptedChatModel(scripts=SCRIPTS[script])
    return main(models=lambda agent: model, max_runs=MAX_RUNS.get(script, MAX_ACTIVE_RUNS))


if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else "seats"))

"""The scripted models the language server's tests run with (``scripted_worker.py``)."""

from __future__ import annotations

from testmend.llm import reply
from tests.support.engine import (
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

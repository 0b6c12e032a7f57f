"""A test entry point: ``testmend serve`` whose engine process has a scripted model (no
network).

``python tests/lsp/scripted_server.py SCRIPT`` where SCRIPT names a script of ``scripts.py``.
Production code has no switch for this: the engine process's command is a parameter of the
server (``scripted_worker.py`` here).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # started as a script by the test client
    sys.path.insert(0, str(REPO_ROOT))

from testmend.lsp.server import MAX_ACTIVE_RUNS, main  # noqa: E402
from tests.lsp.scripts import MAX_RUNS, SCRIPTS  # noqa: E402

WORKER = Path(__file__).resolve().parent / "scripted_worker.py"


def run(script: str) -> int:
    if script not in SCRIPTS:
        raise SystemExit(f"no script {script!r}")
    worker = [sys.executable, str(WORKER), script]
    return main(worker=worker, max_runs=MAX_RUNS.get(script, MAX_ACTIVE_RUNS))


if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else "seats"))

"""A test entry point: the language server's engine process with a scripted model (no network).

``python tests/lsp/scripted_worker.py SCRIPT [options] FRAMES_FD``, started by
``scripted_server.py``'s server as its engine process. Production code has no switch for this:
the model factory is a parameter of the engine process's ``main``.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # started as a script by the server
    sys.path.insert(0, str(REPO_ROOT))

from testmend.llm import ScriptedChatModel  # noqa: E402
from testmend.lsp.engine_worker import main  # noqa: E402
from tests.lsp.scripts import SCRIPTS  # noqa: E402


def run(script: str, argv: list[str]) -> int:
    model = ScriptedChatModel(scripts=SCRIPTS[script])
    return main(argv, models=lambda agent: model)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], sys.argv[2:]))

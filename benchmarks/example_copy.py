"""The example app as a benchmark's project: copied into a new git repository (one commit),
its node_modules linked."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "examples" / "react-app"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def make_project(base: Path) -> Path:
    root = base / "app"
    shutil.copytree(APP, root, ignore=shutil.ignore_patterns("node_modules", ".testmend"))
    (root / "node_modules").symlink_to(APP / "node_modules", target_is_directory=True)
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "app"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True)
    return root

"""The project's runners on a copy of the example app, and files written into it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from testmend.config import load_config
from testmend.runners import ProjectRunners

PASSING_TEST = "src/components/Counter/Counter.test.tsx"


def runners_for(root: Path, **settings: object) -> ProjectRunners:
    """The runners of the project at ``root`` (``settings``: as an editor would give them)."""
    return ProjectRunners(load_config(root, environ={}, editor_settings=settings), cwd=root)


def write(root: Path, relative: str, content: str) -> str:
    """``content`` (dedented) at ``root/relative``; the relative path."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(content).lstrip(), encoding="utf-8")
    return relative

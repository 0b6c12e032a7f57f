"""The bundled example app, copied so that tests may write into it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_APP = REPO_ROOT / "examples" / "react-app"
FIXTURES = REPO_ROOT / "tests" / "fixtures"
_COPY_IGNORE = shutil.ignore_patterns("node_modules", "coverage", ".testmend")


def example_app_installed() -> bool:
    return (EXAMPLE_APP / "node_modules" / ".bin" / "jest").exists()


_node_test: bool | None = None
"""Whether the running test is marked ``node`` (None outside a test: module fixtures)."""


def set_node_test(marked: bool | None) -> None:
    global _node_test
    _node_test = marked


def require_example_app() -> None:
    if _node_test is False:
        pytest.fail(
            "this test runs the example app's node but is not marked node, so the fast tier "
            "runs it too: give it the example_copy (or app_copy, project, example_app) fixture"
        )
    if not example_app_installed():
        pytest.fail(
            "examples/react-app/node_modules is missing: run `npm ci` in examples/react-app"
        )


def copy_example_app(target: Path) -> Path:
    """The example app's sources copied to ``target``, its node_modules linked."""
    require_example_app()
    shutil.copytree(EXAMPLE_APP, target, ignore=_COPY_IGNORE, symlinks=True)
    (target / "node_modules").symlink_to(EXAMPLE_APP / "node_modules", target_is_directory=True)
    return target


def fixture_text(relative: str) -> str:
    """A file of ``tests/fixtures``."""
    return (FIXTURES / relative).read_text(encoding="utf-8")

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


def require_example_app() -> None:
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

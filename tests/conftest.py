"""Shared fixtures: the example React app, copied so that tests may write into it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_APP = REPO_ROOT / "examples" / "react-app"
_COPY_IGNORE = shutil.ignore_patterns("node_modules", "coverage", ".testmend")


def example_app_installed() -> bool:
    return (EXAMPLE_APP / "node_modules" / ".bin" / "jest").exists()


@pytest.fixture
def example_copy(tmp_path: Path) -> Iterator[Path]:
    """A private copy of the example app (sources copied, node_modules linked)."""
    if not example_app_installed():
        pytest.fail(
            "examples/react-app/node_modules is missing: run `npm ci` in examples/react-app"
        )
    target = tmp_path / "react-app"
    shutil.copytree(EXAMPLE_APP, target, ignore=_COPY_IGNORE, symlinks=True)
    (target / "node_modules").symlink_to(EXAMPLE_APP / "node_modules", target_is_directory=True)
    yield target

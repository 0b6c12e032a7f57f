"""A module-scoped copy of the example app for the (slower) jest-backed codemod tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE_APP, example_app_installed

_COPY_IGNORE = shutil.ignore_patterns("node_modules", "coverage", ".testmend")


@pytest.fixture(scope="module")
def app_copy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if not example_app_installed():
        pytest.fail(
            "examples/react-app/node_modules is missing: run `npm ci` in examples/react-app"
        )
    target = tmp_path_factory.mktemp("codemod") / "react-app"
    shutil.copytree(EXAMPLE_APP, target, ignore=_COPY_IGNORE, symlinks=True)
    (target / "node_modules").symlink_to(EXAMPLE_APP / "node_modules", target_is_directory=True)
    yield target

"""The workspace tests' git: an identity of its own, no user configuration, no repository above
the test's folder; the workspaces directory outside every project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from testmend.workspace import WORKSPACES_DIR_ENV


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Commits need an identity; the user's global git config must not leak in."""
    for var in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{var}_NAME", "Test Mend")
        monkeypatch.setenv(f"GIT_{var}_EMAIL", "test@example.com")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.delenv(WORKSPACES_DIR_ENV, raising=False)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """The workspaces directory (outside every project)."""
    return tmp_path / "workspaces"

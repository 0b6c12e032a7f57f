"""Packages found the way Node finds them: through every ``node_modules`` from the project's
package up to the repository root (a workspaces monorepo keeps a partial one in the package and
hoists the rest; pnpm links its store in)."""

from __future__ import annotations

import json
from pathlib import Path

from testmend.codemod import detect_conventions
from testmend.engine.prechecks import check_node_modules
from testmend.project.packages import installed_version, node_modules_dirs
from testmend.project.testing_library import testing_library_status as library_status


def install(modules: Path, name: str, version: str) -> None:
    folder = modules / name
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"name": name, "version": version}))


def monorepo(root: Path) -> Path:
    """A yarn-workspaces repository: the package ``packages/web`` has React 17 of its own (the
    root holds React 18 for another package) and finds Testing Library hoisted to the root."""
    (root / ".git").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"private": True, "workspaces": ["packages/*"]}))
    (root / "yarn.lock").write_text("")
    hoisted = root / "node_modules"
    for name, version in [
        ("react", "18.2.0"),
        ("jest", "29.7.0"),
        ("@testing-library/react", "12.1.5"),
        ("@testing-library/jest-dom", "6.1.0"),
        ("@testing-library/user-event", "14.5.0"),
    ]:
        install(hoisted, name, version)
    package = root / "packages" / "web"
    package.mkdir(parents=True)
    (package / "package.json").write_text(
        json.dumps({"name": "web", "dependencies": {"react": "^17.0.2"}})
    )
    install(package / "node_modules", "react", "17.0.2")
    return package


def test_a_package_with_a_partial_node_modules_finds_what_is_hoisted(tmp_path: Path) -> None:
    package = monorepo(tmp_path / "repo")
    assert node_modules_dirs(package) == [
        package / "node_modules",
        tmp_path / "repo" / "node_modules",
    ]
    # The nearest copy wins, as in Node: the package's React, the root's Testing Library.
    assert installed_version(package, "react") == "17.0.2"
    assert installed_version(package, "@testing-library/react") == "12.1.5"
    status = library_status(package, user_event=True)
    assert status.ready, status.summary()
    assert status.react == "17.0.2"
    options = detect_conventions(package)
    assert options.user_event_installed and options.user_event_major == 14
    check_node_modules(package)  # does not refuse


def test_nothing_above_the_repository_root_counts(tmp_path: Path) -> None:
    install(tmp_path / "node_modules", "@testing-library/react", "12.1.5")
    package = monorepo(tmp_path / "repo")
    (tmp_path / "repo" / "node_modules" / "@testing-library" / "react" / "package.json").unlink()
    assert installed_version(package, "@testing-library/react") is None
    status = library_status(package)
    assert not status.ready
    assert "@testing-library/react: not installed" in status.message()
    assert "yarn add --dev @testing-library/react@12" in status.message()


def test_pnpm_links_into_its_store(tmp_path: Path) -> None:
    package = monorepo(tmp_path / "repo")
    store = tmp_path / "repo" / "node_modules" / ".pnpm" / "@testing-library+dom@8.20.1"
    install(store / "node_modules", "@testing-library/dom", "8.20.1")
    link = package / "node_modules" / "@testing-library" / "dom"
    link.parent.mkdir()
    link.symlink_to(store / "node_modules" / "@testing-library" / "dom", target_is_directory=True)
    assert installed_version(package, "@testing-library/dom") == "8.20.1"

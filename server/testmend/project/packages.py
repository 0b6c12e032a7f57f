"""Facts about the project's packages, read from disk: its package.json, its package manager
(``packageManager`` or a lockfile), the ``node_modules`` its tools use and the binaries there.

A project may sit inside a larger repository (a monorepo's package): lockfiles, ``node_modules``
and binaries are looked for in the project's folder and its parents up to the repository root,
never above it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

PackageManager = Literal["npm", "yarn", "pnpm", "bun"]

_LOCKFILES: tuple[tuple[str, PackageManager], ...] = (
    ("pnpm-lock.yaml", "pnpm"),
    ("yarn.lock", "yarn"),
    ("bun.lockb", "bun"),
    ("bun.lock", "bun"),
    ("package-lock.json", "npm"),
    ("npm-shrinkwrap.json", "npm"),
)
_INSTALL: dict[PackageManager, str] = {
    "npm": "npm ci",
    "yarn": "yarn install --frozen-lockfile",
    "pnpm": "pnpm install --frozen-lockfile",
    "bun": "bun install --frozen-lockfile",
}


def read_package_json(root: Path) -> dict[str, Any]:
    try:
        data = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _ancestors_within_repo(root: Path) -> list[Path]:
    """``root`` and its parents up to (and including) the directory that holds ``.git``."""
    chain = [root]
    if (root / ".git").exists():
        return chain
    for parent in root.parents:
        chain.append(parent)
        if (parent / ".git").exists():
            return chain
    # Not in a repository: only the project itself, never unrelated parent directories.
    return [root]


def detect_package_manager(root: Path) -> tuple[PackageManager, str]:
    """The package manager and why we think so (``packageManager`` field or a lockfile)."""
    declared = read_package_json(root).get("packageManager")
    if isinstance(declared, str):
        name = declared.split("@", 1)[0]
        if name in _INSTALL:
            return name, f'package.json "packageManager": "{declared}"'
    for directory in _ancestors_within_repo(root):
        for lockfile, manager in _LOCKFILES:
            if (directory / lockfile).is_file():
                return manager, os.path.relpath(directory / lockfile, root)
    return "npm", "no lockfile found (assuming npm)"


def install_command(manager: PackageManager) -> str:
    return _INSTALL[manager]


def node_modules_dirs(root: Path) -> list[Path]:
    """Every ``node_modules`` a module of ``root`` resolves packages through, nearest first:
    the package's own (often partial in a workspaces monorepo), then each parent's up to the
    repository root, where yarn, npm and pnpm workspaces hoist the rest."""
    return [
        directory / "node_modules"
        for directory in _ancestors_within_repo(root)
        if (directory / "node_modules").is_dir()
    ]


def node_modules_dir(root: Path) -> Path | None:
    """The nearest ``node_modules`` (where the project's tools are installed, when any is)."""
    found = node_modules_dirs(root)
    return found[0] if found else None


def package_dir(root: Path, package: str) -> Path | None:
    """Where Node finds ``package`` from ``root``: the first ``node_modules`` on the way up that
    has it (a symlink into pnpm's store counts as it)."""
    for modules in node_modules_dirs(root):
        if (modules / package / "package.json").is_file():
            return modules / package
    return None


def needs_node_modules(root: Path) -> bool:
    pkg = read_package_json(root)
    return bool(pkg.get("dependencies") or pkg.get("devDependencies"))


def find_bin(root: Path, name: str) -> str | None:
    """``node_modules/.bin/NAME`` relative to the project when it is there, else absolute."""
    for directory in _ancestors_within_repo(root):
        candidate = directory / "node_modules" / ".bin" / name
        if candidate.exists():
            if directory == root:
                return f"node_modules/.bin/{name}"
            return str(candidate)
    return None


def installed_version(root: Path, package: str) -> str | None:
    """The version of ``package`` Node resolves from ``root`` (the package's own
    ``node_modules``, or one hoisted up to the repository root)."""
    found = package_dir(root, package)
    if found is None:
        return None
    try:
        data = json.loads((found / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None

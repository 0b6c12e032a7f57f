"""testmend's footprint on disk: the names it gives what it writes, and the folders it never
walks. Every other module takes these names from here.

In the user's project testmend writes only ``.testmend/`` (run records, reports, checkpoints,
kept results; ignored by git through its own ``.gitignore``). In a shadow workspace it also
writes, for the length of one check, files whose names carry :data:`TEMP_MARK` (the capture's
jest config, the intent check's copies of a test, a file written by rename) and the narrowed
type check's tsconfig in the workspace's ``.testmend/``.
"""

from __future__ import annotations

import re
from pathlib import Path

STATE_DIR = ".testmend"
"""testmend's own folder in a project (and in a workspace): never walked, copied or listed."""

TEMP_MARK = ".testmend-"
"""In the name of every file testmend writes beside the user's files for a while."""

TEMP_DIR_PREFIX = "testmend-"
"""The prefix of testmend's temporary folders (under the sandbox's temp dir, or the system's)."""

VCS_DIRS: frozenset[str] = frozenset({".git", ".hg", ".svn"})

INTERNAL_DIRS: frozenset[str] = VCS_DIRS | {STATE_DIR}
"""Never listed into, searched, read or copied, even when a path names them explicitly."""

DEPENDENCY_DIRS: frozenset[str] = frozenset({"node_modules", "bower_components", "jspm_packages"})
"""Installed packages: linked into a workspace, never copied or searched."""

NEVER_WALKED: frozenset[str] = (
    INTERNAL_DIRS
    | DEPENDENCY_DIRS
    | frozenset(
        {
            # generated: coverage reports, build output, tool caches
            "coverage",
            ".nyc_output",
            "build",
            "dist",
            "out",
            ".next",
            ".nuxt",
            ".output",
            ".vercel",
            ".cache",
            ".parcel-cache",
            ".turbo",
            ".yarn",
            "storybook-static",
        }
    )
)
"""Skipped by every recursive walk (searches, the conventions' scan, a copy of a project that
is not a git repository). A path or pattern that names one explicitly still reaches it, except
the internal ones."""


TOOL_CACHE_DIR = f"{TEMP_DIR_PREFIX}cache"
"""In a workspace slot's temp dir: testmend's caches of the tools' results (kept from run to
run, like jest's own ``jest_*`` cache)."""


_SECRET_FILE = re.compile(r"^(?:\.env(?:\..+)?|\.npmrc|\.yarnrc\.yml|\.netrc|\.pypirc)$")
_SECRET_TEMPLATE = re.compile(r"^\.env\.(?:example|sample|template|dist|defaults)$")


def is_secret_name(name: str) -> bool:
    """Files that usually hold credentials (``.env``, ``.npmrc``): never read, searched or
    copied into a workspace."""
    return bool(_SECRET_FILE.match(name)) and not _SECRET_TEMPLATE.match(name)


def state_dir(root: Path) -> Path:
    """``root/.testmend``."""
    return root / STATE_DIR


def temp_name(path: Path) -> Path:
    """Where ``path`` is written before it is renamed into place: ``.NAME.testmend-tmp``
    beside it (the same file system, so the rename is atomic)."""
    return path.with_name(f".{path.name}{TEMP_MARK}tmp")


def is_own_file(name: str) -> bool:
    """Whether a file name is one testmend writes into a workspace for a while."""
    return TEMP_MARK in name


def find_project_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` holding a package.json (else ``start``'s
    folder), never one inside ``node_modules`` (a package there is not a project). ``start``
    is taken where it was named: a file that is a symlink is not followed."""
    start = Path(start).expanduser().absolute()
    here = (start if start.is_dir() else start.parent).resolve()
    for candidate in (here, *here.parents):
        if DEPENDENCY_DIRS.intersection(candidate.parts):
            continue
        if (candidate / "package.json").is_file():
            return candidate
    return here

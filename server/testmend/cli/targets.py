"""What the user named on the command line, as the files to run: globs expanded when the shell
did not (a quoted ``'src/**/*.test.tsx'``), folders searched for Enzyme tests, each file kept as
it was named (a symlink is not followed here: the engine resolves it once, and refuses one that
leads out of the project). Before any engine starts, every file goes through the engine's own
checks, so a refusal costs no engine and no workspace, and the state folder is checked to be
writable."""

from __future__ import annotations

import glob
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..config import Config
from ..engine import EngineError, RunRequest
from ..engine.prechecks import check_request
from ..layout import DEPENDENCY_DIRS, STATE_DIR, find_project_root
from ..project import enzyme_test_files
from ..workspace.paths import PathEscapeError
from .commands import CONFIGURED

_GLOB = frozenset("*?[")


@dataclass
class Prepared:
    """The files a command runs, after every check that needs no engine."""

    root: Path
    files: list[Path]
    problems: list[str]
    refused_rows: list[dict[str, Any]]
    config: Config


@dataclass
class Targets:
    files: list[Path] = field(default_factory=list)
    """Absolute, as named (not resolved)."""
    problems: list[tuple[str, str]] = field(default_factory=list)
    """(what was named, why it is not run): one sentence each."""


def expand(paths: list[str]) -> Targets:
    """The files ``paths`` name: files as they are, folders' Enzyme tests, globs' matches."""
    found = Targets()
    for raw in paths:
        named = Path(raw).expanduser()
        if not named.exists() and _GLOB.intersection(raw):
            matches = sorted(glob.glob(os.path.expanduser(raw), recursive=True))
            if not matches:
                found.problems.append((raw, f"no file matches {raw}"))
            for match in matches:
                path = Path(match).absolute()
                if path.is_dir():
                    found.files.extend(enzyme_test_files(path))
                else:
                    found.files.append(path)
            continue
        if not named.exists() and not named.is_symlink():
            found.problems.append((raw, f"{raw}: no such file or folder"))
        elif named.is_dir():
            found.files.extend(enzyme_test_files(named.absolute()))
        else:
            found.files.append(named.absolute())
    kept = []
    for file in dict.fromkeys(found.files):
        inside = DEPENDENCY_DIRS.intersection(file.parts) or DEPENDENCY_DIRS.intersection(
            Path(os.path.realpath(file)).parts
        )
        if inside:
            found.problems.append(
                (str(file), f"{file} is inside {min(inside)}: a package's file, not a project's")
            )
        else:
            kept.append(file)
    found.files = kept
    return found


def project_of(args: object) -> Path | None:
    """The project of a command's ``--project`` (or ``PROJECT``) argument: the folder or file
    named, up to its project's root; None (the reason printed) when it does not exist."""
    named = Path(getattr(args, "project", ".")).expanduser()
    if not named.exists():
        print(f"testmend: {named}: no such file or folder", file=sys.stderr)
        return None
    return find_project_root(named.absolute())


def environ_of(args: object) -> dict[str, str]:
    """The environment settings are read from, with ``--store URL`` as ``TESTMEND_STORE__URL``
    and ``--broker URL`` as ``TESTMEND_TEAM__BROKER``."""
    environ = dict(os.environ)
    if store := getattr(args, "store", None):
        environ["TESTMEND_STORE__URL"] = store
    broker = getattr(args, "broker", None)
    if broker and broker != CONFIGURED:
        environ["TESTMEND_TEAM__BROKER"] = broker
    return environ


def shard_of(files: list[Path], root: Path, shard: tuple[int, int]) -> list[Path]:
    """The ``index``-th of ``count`` slices (from 1) of ``files``: every ``count``-th file, in
    the order of their paths in the project, so that the same commit gives every job of a CI
    matrix the same slice, the slices are disjoint, cover every file, and differ in size by at
    most one file."""
    index, count = shard
    ordered = sorted(files, key=lambda f: os.path.relpath(f, root))
    return ordered[index - 1 :: count]


def refusal(root: Path, file: Path, mode: Literal["migrate", "fix"]) -> str | None:
    """Why the engine would refuse ``file`` (one sentence), or None: its own checks, run
    before it starts."""
    try:
        check_request(root, RunRequest(file=str(file), mode=mode))
    except (EngineError, PathEscapeError) as exc:
        return str(exc)
    except OSError as exc:
        return f"{file}: {exc.strerror or exc}"
    return None


def unwritable_state(root: Path) -> str | None:
    """Why testmend could not keep its runs in ``<root>/.testmend`` (a read-only tree, a full
    disk), or None."""
    state = root / STATE_DIR
    try:
        state.mkdir(exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=state, prefix=".write-check-"):
            pass
    except OSError as exc:
        why = exc.strerror or str(exc)
        return (
            f"cannot write {state} ({why}): testmend keeps its runs and reports there; "
            "run it where the project is writable"
        )
    return None

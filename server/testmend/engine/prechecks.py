"""What the engine checks before a run starts, and refuses with one sentence: the project's
packages installed, Testing Library ready, the test file readable text of a sane size, and for
a fix the tests that will show nothing was lost. Each reads files: the engine calls them in a
worker thread (:func:`prepare`), never on the event loop an editor's requests share."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..js_syntax import syntax_error_at
from ..layout import DEPENDENCY_DIRS
from ..project.dependencies import covering_tests, is_test_file
from ..project.enzyme_helpers import EnzymeHelpers
from ..project.packages import (
    detect_package_manager,
    install_command,
    needs_node_modules,
    node_modules_dir,
)
from ..project.testing_library import testing_library_status
from ..workspace.paths import PathEscapeError, resolve_in_root, to_relative
from .models import EngineError, RunRequest

MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True)
class Prepared:
    """A request that passed the checks."""

    relative: str
    """The test file, project-relative."""
    source: str
    """Its content (the editor's buffer, or the file's)."""
    verify_tests: list[str]
    """For a fix: the tests that must keep passing."""


def relative_path(root: Path, file: str) -> str:
    """``file`` (absolute inside ``root``, or relative to it) as a project-relative path,
    resolved once: refused with one sentence when it leads out of the project (a symlink into
    another checkout) or into ``node_modules`` (a package's file is never the project's)."""
    path = Path(file)
    try:
        relative = to_relative(root, path if path.is_absolute() else resolve_in_root(root, file))
        resolve_in_root(root, relative)
    except PathEscapeError:
        named = path if path.is_absolute() else root / file
        raise EngineError(
            f"{named} leads to {os.path.realpath(named)}, outside the project {root}: "
            "migrate it from its own project"
        ) from None
    inside = DEPENDENCY_DIRS.intersection(PurePosixPath(relative).parts)
    if inside:
        raise EngineError(
            f"{relative} is inside {min(inside)}: a package's file, not the project's"
        )
    return relative


def check_node_modules(root: Path) -> None:
    """Refuse at once what every tool run would fail on later."""
    if needs_node_modules(root) and node_modules_dir(root) is None:
        manager, _ = detect_package_manager(root)
        raise EngineError(
            f"{root} has no node_modules: install the project's dependencies "
            f"({install_command(manager)}) first"
        )


def check_testing_library(root: Path) -> None:
    """Refuse a migration whose result could not run: every migrated test imports Testing
    Library."""
    status = testing_library_status(root)
    if not status.ready:
        raise EngineError(f"{status.message()} (in {root})")


def read_source(root: Path, relative: str, content: str | None) -> str:
    """The editor's buffer, or the file: refused when it is too large, binary or not UTF-8."""
    if content is not None:
        if len(content.encode("utf-8")) > MAX_FILE_BYTES:
            raise EngineError(f"{relative} is larger than 1 MB: not a test file to migrate")
        if "\0" in content:
            raise EngineError(f"{relative} is a binary file")
        return content
    path = resolve_in_root(root, relative)
    if not path.is_file():
        raise EngineError(f"{relative}: no such file in {root}")
    data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise EngineError(f"{relative} is larger than 1 MB: not a test file to migrate")
    if b"\0" in data:
        raise EngineError(f"{relative} is a binary file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EngineError(f"{relative} is not UTF-8 text: {exc}") from None


def verify_tests(root: Path, relative: str) -> list[str]:
    """A fix must show it loses no passing test: the file's own tests, or for a source file
    the tests that cover it; a source file no test covers is refused."""
    if is_test_file(relative):
        return [relative]
    found = covering_tests(root, relative)
    if not found:
        raise EngineError(
            f"{relative}: no test covers it (no {Path(relative).stem}.test.* or test "
            "beside it that imports it), so a fix could not be checked: fix it by hand"
        )
    return found


def _prepare(root: Path, request: RunRequest, relative: str) -> Prepared:
    check_node_modules(root)
    if request.mode == "migrate":
        check_testing_library(root)
    source = read_source(root, relative, request.content)
    broken = syntax_error_at(source, relative)
    if broken is not None:
        line, column = broken
        raise EngineError(
            f"{relative}:{line}:{column}: a syntax error; testmend works on code that parses, "
            "fix it first"
        )
    if request.mode == "migrate" and not EnzymeHelpers(root).uses_enzyme(relative, source):
        raise EngineError(
            f"{relative} does not use Enzyme (nor a module of the project that imports it): "
            "nothing to migrate"
        )
    tests = verify_tests(root, relative) if request.mode == "fix" else []
    return Prepared(relative, source, tests)


def check_request(root: Path, request: RunRequest) -> Prepared:
    """Every check of a new run, at once (a face may call it before it starts an engine, so
    a refusal costs no engine and no workspace); raises :class:`EngineError`."""
    return _prepare(root, request, relative_path(root, request.file))


async def prepare(root: Path, request: RunRequest, relative: str) -> Prepared:
    """Every check of a new run, in a worker thread; raises :class:`EngineError`."""
    return await asyncio.to_thread(_prepare, root, request, relative)

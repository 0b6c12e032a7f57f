"""The codemod on components of its own written into a copy of the example app: migrate a
suite offline, and break a component on purpose to see which tests notice."""

from __future__ import annotations

import textwrap
from pathlib import Path

from testmend.config import load_config
from testmend.engine import Engine, RunRequest, RunResult
from testmend.engine.changes import result_changes, write_changes

from .engine import testmend_environ
from .runners import runners_for


async def migrate_offline(app: Path, file: str, *, write: bool = False) -> RunResult:
    """``file`` of the project ``app`` through the engine offline, as ``testmend migrate
    --offline`` runs it (in a workspace of its own); ``write``: the result's files (the test,
    its snapshot, a module it adds) written into ``app`` whatever the outcome."""
    workspaces = app.parent / "workspaces"
    workspaces.mkdir(exist_ok=True)
    config = load_config(app, environ=testmend_environ())
    async with Engine(config, offline=True, workspaces_dir=workspaces) as engine:
        handle = await engine.start(RunRequest(file=file))
        result = await handle.wait()
    assert result is not None
    if write:
        write_changes(app, result_changes(result))
    return result


def untranslated(result: RunResult) -> list[str]:
    return [f.message for f in result.codemod_findings if f.kind == "untranslated"]


def write_components(folder: Path, sources: dict[str, str]) -> Path:
    """A new folder of the app with ``sources`` (file name → indented source) in it."""
    folder.mkdir()
    for name, source in sources.items():
        (folder / name).write_text(textwrap.dedent(source).lstrip())
    return folder


async def migrated(app: Path, file: str, suite: str) -> RunResult:
    """``suite`` written at ``file`` and migrated offline; the result (every test passing,
    nothing left untranslated) written in its place, its other files too."""
    (app / file).write_text(suite.lstrip())
    result = await migrate_offline(app, file, write=True)
    assert result.tests_pass and result.summary.enzyme_free, result.reasons
    assert untranslated(result) == []
    return result


async def migrate(app: Path, file: str, suite: str) -> str:
    """``migrated``'s content."""
    return (await migrated(app, file, suite)).content


async def broken_tests(app: Path, file: str, module: Path, correct: str, broken: str) -> list[str]:
    original = module.read_text()
    assert correct in original
    module.write_text(original.replace(correct, broken))
    try:
        run = await runners_for(app).run_tests(file)
    finally:
        module.write_text(original)
    assert run.suite_error is None, run.suite_error
    return [t.full_name for t in run.failing()]

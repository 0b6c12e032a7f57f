"""The codemod on components of its own written into a copy of the example app: migrate a
suite offline, and break a component on purpose to see which tests notice."""

from __future__ import annotations

import textwrap
from pathlib import Path

from testmend.codemod import detect_conventions
from testmend.codemod.offline import migrate_offline
from testmend.config import load_config

from .runners import runners_for


def write_components(folder: Path, sources: dict[str, str]) -> Path:
    """A new folder of the app with ``sources`` (file name → indented source) in it."""
    folder.mkdir()
    for name, source in sources.items():
        (folder / name).write_text(textwrap.dedent(source).lstrip())
    return folder


async def migrate(app: Path, file: str, suite: str) -> str:
    (app / file).write_text(suite.lstrip())
    result = await migrate_offline(
        load_config(app, environ={}), file, workspace_root=app, options=detect_conventions(app)
    )
    assert result.fully_passing, result.errors or [
        t.failure_messages for t in result.tests.failing()
    ]
    assert result.codemod.untranslated_count == 0
    return result.final_content


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

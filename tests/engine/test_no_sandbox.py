"""Without a sandbox, a run that would execute model-written tests is refused with the way to
get one; the offline codemod (no model code) still runs, and its report says it ran
unsandboxed. A sandbox named explicitly but missing refuses every run."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.engine import Engine, EngineError, RunRequest
from testmend.llm import ScriptedChatModel
from testmend.sandbox import SandboxChoice
from tests.support.engine import SIMPLE_TEST, make_config
from tests.support.leftovers import left_behind

NOTHING = SandboxChoice(mode="auto", kind="none", problem="bwrap was not found")


async def test_model_code_is_refused_without_a_sandbox(project: Path, workspaces: Path) -> None:
    model = ScriptedChatModel(scripts={})
    engine = Engine(
        make_config(project),
        models=lambda agent: model,
        workspaces_dir=workspaces,
        sandbox=NOTHING,
    )
    async with engine:
        with pytest.raises(EngineError) as refused:
            await engine.start(RunRequest(file=SIMPLE_TEST))
    message = str(refused.value)
    assert "refusing to run model-written tests without a sandbox: bwrap was not found" in message
    assert "bubblewrap" in message and 'sandbox.mode to "off"' in message
    assert model.requests == []  # nothing ran
    assert left_behind(workspaces) == []


async def test_the_offline_codemod_runs_unsandboxed_and_says_so(
    project: Path, workspaces: Path
) -> None:
    engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces, sandbox=NOTHING)
    async with engine:
        result = await (await engine.start(RunRequest(file=SIMPLE_TEST))).wait()
    assert result is not None and result.status != "discarded"
    assert result.sandbox.startswith("unsandboxed — none: bwrap was not found")
    assert f"- sandbox: {result.sandbox}" in Path(result.report_path).read_text()


async def test_an_explicit_sandbox_that_is_missing_refuses_every_run(
    project: Path, workspaces: Path
) -> None:
    missing = SandboxChoice(mode="seatbelt", kind="none", problem="Seatbelt is macOS only")
    engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces, sandbox=missing)
    async with engine:
        with pytest.raises(EngineError, match=r'sandbox\.mode is "seatbelt" but Seatbelt is macOS'):
            await engine.start(RunRequest(file=SIMPLE_TEST))


def test_off_never_refuses() -> None:
    off = SandboxChoice(mode="off", kind="none")
    assert off.refusal(model_code=True) is None
    assert off.summary() == "none (sandbox.mode is off)"

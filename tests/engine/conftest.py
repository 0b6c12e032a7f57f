"""Fixtures for engine runs: a git project holding the example app, and scripted models."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage

from testmend.config import Config, load_config
from testmend.engine import Engine
from testmend.llm import ScriptedChatModel, reply, tool_call

from ..conftest import EXAMPLE_APP, example_app_installed

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}

# An Enzyme test whose first test the codemod converts and whose second it cannot (it calls a
# prop directly): the agent has to finish it.
SIMPLE_TEST = "src/components/Counter/Seats.test.tsx"
SIMPLE_ENZYME = textwrap.dedent(
    """\
    import { mount } from 'enzyme';
    import { Counter } from './Counter';

    describe('Seats counter', () => {
      it('shows the label', () => {
        const wrapper = mount(<Counter initialCount={1} label="Seats" />);
        expect(wrapper.find('.counter__label').text()).toBe('Seats');
      });

      it('increments', () => {
        const wrapper = mount(<Counter initialCount={1} label="Seats" />);
        wrapper.find('button[aria-label="Increase seats"]').props().onClick();
        wrapper.update();
        expect(wrapper.find('[data-testid="counter-value"]').text()).toBe('2');
      });
    });
    """
)
SIMPLE_RTL = (Path(__file__).parents[1] / "fixtures" / "replay" / "seats_rtl.tsx").read_text()


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The example app in a git repository of its own (committed), with SIMPLE_TEST added."""
    if not example_app_installed():
        pytest.fail(
            "examples/react-app/node_modules is missing: run `npm ci` in examples/react-app"
        )
    root = tmp_path / "app"
    shutil.copytree(
        EXAMPLE_APP, root, ignore=shutil.ignore_patterns("node_modules", ".testmend", "coverage")
    )
    (root / "node_modules").symlink_to(EXAMPLE_APP / "node_modules", target_is_directory=True)
    (root / SIMPLE_TEST).write_text(SIMPLE_ENZYME, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "app")
    return root


@pytest.fixture
def workspaces(tmp_path: Path) -> Path:
    path = tmp_path / "workspaces"
    path.mkdir()
    return path


def make_config(root: Path, **settings: object) -> Config:
    return load_config(root, environ={}, editor_settings=settings)


def quiet_agents() -> dict[str, list[object]]:
    """Research and planning agents that note one thing and accept the default plans; a
    reviewer that approves."""
    return {
        "research": [
            call("write_to_scratchpad", note="Counter renders labelled +/- buttons"),
            reply("research done"),
        ],
        "planning": [reply("planned: the default plans stand")],
        "review": [call("approve_migration", summary="every test kept, user-level queries")],
    }


def scripted_engine(
    root: Path, workspaces: Path, scripts: dict[str, list[object]], **settings: object
) -> tuple[Engine, ScriptedChatModel]:
    model = ScriptedChatModel(scripts={**quiet_agents(), **scripts})
    engine = Engine(
        make_config(root, **settings), models=lambda agent: model, workspaces_dir=workspaces
    )
    return engine, model


_CANDIDATE = re.compile(r"## Current candidate[^\n]*\n```\n(.*?)\n```", re.S)
_NUMBERED = re.compile(r"^\s*\d+\| ?", re.M)


def candidate_in(messages: Sequence[BaseMessage]) -> str:
    """The candidate the agent was shown in its system prompt (line numbers removed)."""
    system = next(m for m in messages if isinstance(m, SystemMessage))
    match = _CANDIDATE.search(str(system.content))
    assert match, "the system prompt shows no candidate"
    return _NUMBERED.sub("", match.group(1))


def rewrite_to(
    new_content: str, call_id: str = "call_rewrite"
) -> Callable[[Sequence[BaseMessage]], AIMessage]:
    """A turn that replaces the whole candidate (as shown in the prompt) with ``new_content``."""

    def turn(messages: Sequence[BaseMessage]) -> AIMessage:
        old = candidate_in(messages)
        blocks = f"<<<<<<< SEARCH\n{old}\n=======\n{new_content.rstrip(chr(10))}\n>>>>>>> REPLACE\n"
        return reply("", tool_call("edit_file", {"blocks": blocks}, call_id))

    return turn


def call(name: str, call_id: str | None = None, **args: object) -> AIMessage:
    return reply("", tool_call(name, args, call_id or f"call_{name}"))


def tool_messages(model: ScriptedChatModel) -> list[str]:
    """Every tool result the model was shown, in order, from its last request per agent."""
    seen: dict[str, str] = {}
    for request in model.requests:
        for message in request:
            if isinstance(message, ToolMessage):
                seen[message.tool_call_id + str(len(seen))] = str(message.content)
    return list(dict.fromkeys(seen.values()))

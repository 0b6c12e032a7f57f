"""Engine runs in tests: the example's tests they migrate, configurations, scripted models and
their turns, and what a finished run must leave as it found."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage

from testmend.config import Config, load_config
from testmend.engine import Engine, RunRequest, RunResult
from testmend.llm import ScriptedChatModel, reply, tool_call
from testmend.workflow.events import RunEvent

from .apps import fixture_text
from .git import git
from .leftovers import foreign_worktrees, left_behind

# An Enzyme test whose first test the codemod converts and whose second it cannot (it calls a
# prop directly): the agent has to finish it.
SIMPLE_TEST = "src/components/Counter/Seats.test.tsx"
SIMPLE_ENZYME = fixture_text("engine/seats_enzyme.tsx")
SIMPLE_RTL = fixture_text("replay/seats_rtl.tsx")

# A Testing Library test with lint problems, and the same test fixed.
LINT_TEST = "src/components/Counter/Lint.test.tsx"
LINT_BEFORE = fixture_text("engine/lint_before.tsx")
LINT_AFTER = fixture_text("engine/lint_after.tsx")

KEY = "sk-test-0123456789"
"""The API key the tests' model endpoints are given (never to appear in logs or reports)."""

CHEATS: dict[str, tuple[str, str]] = {
    # name: (the candidate a dishonest agent writes, the finding kind it must raise)
    name: (fixture_text(f"engine/cheats/{name}.tsx"), kind)
    for name, kind in {
        "deletes-the-failing-test": "test-missing",
        "skips-the-failing-test": "test-disabled",
        "empties-the-failing-test": "test-emptied",
        "asserts-a-tautology": "tautology",
        "weakens-the-assertion": "intent-lost",
    }.items()
}


def testmend_environ() -> dict[str, str]:
    """The testmend settings the test's environment sets (``TESTMEND_*``: the fixtures turn
    the intent check off there for tests not about it)."""
    return {k: v for k, v in os.environ.items() if k.startswith("TESTMEND_")}


def make_config(root: Path, **settings: object) -> Config:
    return load_config(root, environ=testmend_environ(), editor_settings=settings)


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


def provider_config(
    project: Path,
    base_url: str,
    *,
    streaming: bool = False,
    retry: dict[str, int] | None = None,
    settings: dict[str, Any] | None = None,
    **model: Any,
) -> Config:
    """The project's config with its model at ``base_url`` (``model``: more model settings,
    ``settings``: more sections)."""
    return load_config(
        project,
        environ={"OPENAI_API_KEY": KEY, **testmend_environ()},
        editor_settings={
            "model": {
                "baseUrl": base_url,
                "tiers": {"full": "gpt-4.1", "mini": "gpt-4.1-mini"},
                "streaming": streaming,
                "maxRetries": 0,
                **model,
            },
            "retry": retry or {},
            **(settings or {}),
        },
    )


def assert_untouched(project: Path, workspaces: Path) -> None:
    """The user's tree is as committed, no run's workspace is left and no slot held, and the
    only worktrees registered in the user's repository are the warm slots."""
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""
    assert (project / SIMPLE_TEST).read_text(encoding="utf-8") == SIMPLE_ENZYME
    assert left_behind(workspaces) == []
    assert foreign_worktrees(project / ".git", workspaces) == []


async def run_to_end(engine: Engine, request: RunRequest) -> RunResult:
    return (await run_with_events(engine, request))[0]


async def run_with_events(engine: Engine, request: RunRequest) -> tuple[RunResult, list[RunEvent]]:
    async with engine:
        handle = await engine.start(request)
        result = await handle.wait()
    assert result is not None
    assert engine.handles == {}  # an ended run leaves nothing behind in a long-lived engine
    return result, handle.history


# An eslint rule whose --fix changes what runs: it rewrites the tests' relative import of
# ./Counter to a package jest cannot resolve (as import/no-relative-packages does in a monorepo).
PACKAGE_IMPORT_RULE = """
module.exports.push({
  files: ['src/**/*.test.tsx'],
  plugins: {
    local: {
      rules: {
        'package-import': {
          meta: { type: 'suggestion', fixable: 'code', schema: [] },
          create(context) {
            return {
              ImportDeclaration(node) {
                if (node.source.value !== './Counter') return;
                context.report({
                  node: node.source,
                  message: 'Import the package, not a relative path.',
                  fix: (fixer) => fixer.replaceText(node.source, "'@example/counter'"),
                });
              },
            };
          },
        },
      },
    },
  },
  rules: { 'local/package-import': 'error' },
});
"""

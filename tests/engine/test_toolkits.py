"""Every agent's tools, exercised through scripted agents on a real run."""

from __future__ import annotations

from pathlib import Path

from testmend.engine import RunRequest
from testmend.llm import reply
from testmend.patching import unified_diff
from testmend.workflow.events import ToolCalled
from tests.support.engine import (
    SIMPLE_RTL,
    SIMPLE_TEST,
    call,
    candidate_in,
    rewrite_to,
    scripted_engine,
    tool_messages,
)

TYPED_TEST = "src/components/Counter/Typed.test.tsx"
TYPED_BEFORE = """\
import { render, screen } from '@testing-library/react';
import { Counter } from './Counter';

it('shows its label', () => {
  const label: number = 'Seats';
  render(<Counter label={label} />);
  expect(screen.getByText('Seats')).toBeInTheDocument();
});
"""
TYPED_AFTER = TYPED_BEFORE.replace("const label: number = 'Seats';", "const label = 'Seats';")


async def test_research_tools_and_a_diff_edit(project: Path, workspaces: Path) -> None:
    diff_to_rtl = None  # computed by the turn below from the candidate it is shown

    def diff_turn(messages):  # type: ignore[no-untyped-def]
        nonlocal diff_to_rtl
        diff_to_rtl = unified_diff(candidate_in(messages) + "\n", SIMPLE_RTL, SIMPLE_TEST)
        return call("apply_diff", "d1", diff=diff_to_rtl)

    engine, model = scripted_engine(
        project,
        workspaces,
        {
            "research": [
                call("glob", "g1", pattern="src/**/Counter*.tsx"),
                call("grep", "g2", pattern="aria-label", glob="*.tsx"),
                call("ls", "g3", path="src/components"),
                call("read_files", "g4", paths=["src/components/Counter/Counter.tsx", "../x"]),
                call("get_dependency_tree", "g5", path=SIMPLE_TEST),
                call("read_file", "g6", path="/etc/passwd"),
                call("write_to_scratchpad", "g7", note="buttons are labelled"),
                # Library sources and types, through the workspace's node_modules link.
                call("read_file", "g8", path="node_modules/@types/react/index.d.ts", limit=3),
                call("glob", "g9", pattern="node_modules/@testing-library/react/*.json"),
                call(
                    "grep",
                    "g10",
                    pattern="interface FunctionComponent",
                    glob="node_modules/@types/react/index.d.ts",
                ),
                call("ls", "g11", path="."),
                reply("done"),
            ],
            "planning": [
                call("add_test_plan", "p1", test_name="Seats counter increments", action="migrate"),
                call(
                    "add_multiple_test_plans",
                    "p2",
                    plans=[
                        {
                            "test_name": "Seats counter increments",
                            "action": "migrate",
                            "gherkin": "When the user clicks Increase seats\nThen 2 is shown",
                        },
                        {
                            "test_name": "Seats counter shows the label",
                            "action": "delete",
                            "reason": "",
                        },
                    ],
                ),
                reply("planned"),
            ],
            "migrate": [diff_turn, call("run_test_file"), reply("done")],
        },
    )
    async with engine:
        handle = await engine.start(RunRequest(file=SIMPLE_TEST))
        result = await handle.wait()
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    assert result.content == SIMPLE_RTL
    messages = tool_messages(model)
    assert "src/components/Counter/Counter.tsx" in messages[0]  # glob
    assert any("aria-label" in m for m in messages[1:2])  # grep
    assert "Counter/" in messages[2]  # ls
    assert "export class Counter" in messages[3] and "../x" in messages[3]  # read_files
    assert "./Counter" in messages[4]  # dependency tree of the test
    assert messages[5].startswith("error:") and "absolute" in messages[5]  # refused path
    assert messages[6].startswith("noted (1 notes)")
    assert messages[7].startswith("node_modules/@types/react/index.d.ts (lines 1-3 of ")
    assert '/// <reference path="global.d.ts" />' in messages[7]
    assert "node_modules/@testing-library/react/package.json" in messages[8]
    assert "node_modules/@types/react/index.d.ts:" in messages[9]
    assert "node_modules/  (link to the installed packages: read-only" in messages[10]
    plan_replies = [m for m in messages if "plan(s) recorded" in m]
    assert "needs a Gherkin plan" in plan_replies[0]
    assert "say why the test can be deleted" in plan_replies[1]
    tools = [e.tool for e in handle.history if isinstance(e, ToolCalled)]
    assert {"glob", "grep", "ls", "read_files", "apply_diff", "run_test_file"} <= set(tools)


async def test_typescript_agent_fixes_a_type_error(project: Path, workspaces: Path) -> None:
    (project / TYPED_TEST).write_text(TYPED_BEFORE, encoding="utf-8")
    engine, model = scripted_engine(
        project,
        workspaces,
        {
            "typescript": [
                call("run_ts_check", "t1"),
                rewrite_to(TYPED_AFTER),
                call("run_ts_check", "t2"),
                reply("types clean"),
            ]
        },
    )
    async with engine:
        handle = await engine.start(RunRequest(file=TYPED_TEST, mode="fix"))
        result = await handle.wait()
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    assert result.content == TYPED_AFTER
    messages = tool_messages(model)
    assert "TS2322" in messages[0] and "line 5:9" in messages[0]
    assert messages[1].startswith("edit applied")
    # The clean check ends the agent: the model is not asked again.
    assert len([r for r in model.requests if model.agent_of(r) == "typescript"]) == 3


async def test_lint_auto_fix_tool(project: Path, workspaces: Path) -> None:
    source = SIMPLE_RTL.replace(
        "expect(screen.getByTestId('counter-value')).toHaveTextContent('2');",
        "expect(screen.getByTestId('counter-value')).toHaveTextContent('2');\n"
        "    const spy = jest.fn();\n    spy();\n    expect(spy).toBeCalled();",
    )
    (project / "src/components/Counter/Alias.test.tsx").write_text(source, encoding="utf-8")
    engine, _model = scripted_engine(
        project,
        workspaces,
        {"lint": [call("lint_auto_fix"), call("run_lint_check"), reply("clean")]},
    )
    async with engine:
        handle = await engine.start(
            RunRequest(file="src/components/Counter/Alias.test.tsx", mode="fix", content=source)
        )
        result = await handle.wait()
    assert result is not None
    assert "toHaveBeenCalled()" in result.content
    assert result.summary.lint_errors == 0

"""Prompt templates: loaded from the package, slots filled, long values trimmed."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.workflow.agent.prompts import (
    PromptError,
    estimate_tokens,
    load_template,
    render_prompt,
    trim_to_budget,
    with_line_numbers,
)

AGENTS = ("research", "planning", "migrate", "lint", "typescript")


@pytest.mark.parametrize("agent", AGENTS)
def test_every_agent_has_a_template_with_the_required_sections(agent: str) -> None:
    text = render_prompt(agent, {})  # type: ignore[arg-type]
    assert text.splitlines()[0] == f"agent: {agent}"
    for section in (
        "# Role",
        "# Objective",
        "# Instructions",
        "# Reasoning steps",
        "# Output format",
    ):
        assert section in text
    assert "{{" not in text  # every slot filled
    assert "(none)" in text  # empty slots say so


def test_slots_are_filled_and_long_values_trimmed() -> None:
    huge = "\n".join(f"line {i}" for i in range(20_000))
    text = render_prompt(
        "migrate",
        {"test_file": "src/A.test.tsx", "original_test": huge, "user_instructions": "be brief"},
        budgets={"original_test": 500},
    )
    assert "## Test file: src/A.test.tsx" in text
    assert "be brief" in text
    assert "lines omitted to fit the context budget" in text
    assert "line 0" in text and "line 19999" in text  # head and tail are kept
    assert estimate_tokens(text) < 4000


def test_trim_keeps_short_text() -> None:
    assert trim_to_budget("short", 10) == "short"


def test_line_numbers() -> None:
    assert with_line_numbers("a\nb\n") == "1 | a\n2 | b"
    assert with_line_numbers("x\f\u2028y") == "1 | x\f\u2028y"  # one line, as the patcher counts


def test_missing_or_wrong_template(tmp_path: Path) -> None:
    with pytest.raises(PromptError, match="missing"):
        render_prompt("lint", {}, directory=tmp_path)
    (tmp_path / "lint.md").write_text("agent: migrate\n")
    with pytest.raises(PromptError, match="first line"):
        render_prompt("lint", {}, directory=tmp_path)


def test_templates_ship_inside_the_package() -> None:
    """An installed testmend finds its templates in the package, not beside the sources."""
    import testmend.workflow.agent as agent_package

    folder = Path(agent_package.__file__).parent / "templates"
    for agent in (*AGENTS, "review"):
        assert load_template(agent) == (folder / f"{agent}.md").read_text(encoding="utf-8")

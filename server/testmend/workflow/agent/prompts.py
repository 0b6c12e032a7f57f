"""Prompt templates (``templates/``, in the package), loaded at run time, with long contents
trimmed.

A template is Markdown with ``{{slot}}`` placeholders; its first line names the agent
(``agent: migrate``). Slots left without a value read "(none)". Each value is trimmed to a token
budget (estimated at four characters a token), keeping its head and tail, so one huge file
cannot crowd the rest of the context out. The budgets are shares of the model's context window
(``slot_budgets``): the rest is left to the template, the conversation and the answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from ...assets import read_asset
from ...config import DEFAULT_CONTEXT_WINDOW, AgentName
from ...patching.lines import text_to_lines
from ...patching.model import numbered

CHARS_PER_TOKEN = 4
SLOT_SHARES: dict[str, float] = {
    "candidate": 0.22,
    "diff": 0.22,
    "original_test": 0.14,
    "previous_attempts": 0.10,
    "research_context": 0.08,
    "errors": 0.08,
    "findings": 0.06,
    "checks": 0.04,
    "test_plans": 0.05,
    "user_instructions": 0.03,
}
"""Each slot's share of the context window. An agent's slots add up to at most 0.64 (review):
about a third is left for the template (~1,000 tokens), the conversation and the answer."""
OTHER_SLOT_SHARE = 0.02
CONVERSATION_SHARE = 0.25
"""The conversation (tool calls and their results) is kept within this share of the window:
older tool results are shortened first (``agents.fit_conversation``)."""
MIN_SLOT_TOKENS = 64
_SLOT = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


class PromptError(RuntimeError):
    pass


TEMPLATES = "templates"
"""The templates' folder in this package: ``<agent>.md`` each."""


def estimate_tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def trim_to_budget(text: str, budget_tokens: int) -> str:
    """Keep the head and the tail of ``text`` within the budget, saying what was cut."""
    budget_chars = budget_tokens * CHARS_PER_TOKEN
    if len(text) <= budget_chars:
        return text
    head = text[: budget_chars * 2 // 3]
    tail = text[-(budget_chars // 3) :]
    head = head[: head.rfind("\n") + 1] or head
    tail = tail[tail.find("\n") + 1 :] if "\n" in tail else tail
    omitted = text.count("\n") - head.count("\n") - tail.count("\n")
    return f"{head}[… {max(omitted, 1)} lines omitted to fit the context budget …]\n{tail}"


def with_line_numbers(text: str) -> str:
    """The text numbered as the patcher counts lines (so its errors' line numbers agree)."""
    return numbered(text_to_lines(text), 1)


def load_template(agent: AgentName, directory: Path | None = None) -> str:
    """The template of ``agent``: the package's, or the one in ``directory``."""
    path = f"{directory or TEMPLATES}/{agent}.md"
    try:
        if directory is None:
            text = read_asset(__name__.rpartition(".")[0], path)
        else:
            text = (directory / f"{agent}.md").read_text(encoding="utf-8")
    except OSError as exc:
        raise PromptError(f"prompt template for the {agent} agent is missing: {path}") from exc
    if f"agent: {agent}" not in text.splitlines()[0]:
        raise PromptError(f"{path}: the first line must be 'agent: {agent}'")
    return text


def slot_budgets(context_window: int, scale: float = 1.0) -> dict[str, int]:
    """Token budget of each slot for a model with ``context_window`` tokens; ``scale`` < 1
    shrinks them (after the endpoint said the prompt did not fit)."""
    budgets = {
        slot: max(MIN_SLOT_TOKENS, int(context_window * share * scale))
        for slot, share in SLOT_SHARES.items()
    }
    budgets["*"] = max(MIN_SLOT_TOKENS, int(context_window * OTHER_SLOT_SHARE * scale))
    return budgets


def render_prompt(
    agent: AgentName,
    values: Mapping[str, str | None],
    *,
    budgets: Mapping[str, int] | None = None,
    directory: Path | None = None,
) -> str:
    template = load_template(agent, directory)
    budgets = {**slot_budgets(DEFAULT_CONTEXT_WINDOW), **(budgets or {})}

    def fill(match: re.Match[str]) -> str:
        slot = match.group(1)
        value = values.get(slot)
        if value is None or not str(value).strip():
            return "(none)"
        return trim_to_budget(str(value), budgets.get(slot, budgets["*"]))

    return _SLOT.sub(fill, template)

"""Prompt templates from ``prompts/``, loaded at run time, with long contents trimmed.

A template is Markdown with ``{{slot}}`` placeholders; its first line names the agent
(``agent: migrate``). Slots left without a value read "(none)". Each value is trimmed to a token
budget (estimated at four characters a token), keeping its head and tail, so one huge file
cannot crowd the rest of the context out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from ..config import AgentName
from ..patching._lines import text_to_lines
from ..patching.model import numbered

CHARS_PER_TOKEN = 4
DEFAULT_SLOT_BUDGET_TOKENS = 6_000
_SLOT = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


class PromptError(RuntimeError):
    pass


def prompts_dir() -> Path:
    """``testmend/prompts`` inside an installed wheel, else ``prompts/`` of the source tree."""
    packaged = Path(__file__).resolve().parents[1] / "prompts"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "prompts"


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
    path = (directory or prompts_dir()) / f"{agent}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PromptError(f"prompt template for the {agent} agent is missing: {path}") from exc
    if f"agent: {agent}" not in text.splitlines()[0]:
        raise PromptError(f"{path}: the first line must be 'agent: {agent}'")
    return text


def render_prompt(
    agent: AgentName,
    values: Mapping[str, str | None],
    *,
    budgets: Mapping[str, int] | None = None,
    directory: Path | None = None,
) -> str:
    template = load_template(agent, directory)
    budgets = budgets or {}

    def fill(match: re.Match[str]) -> str:
        slot = match.group(1)
        value = values.get(slot)
        if value is None or not str(value).strip():
            return "(none)"
        return trim_to_budget(str(value), budgets.get(slot, DEFAULT_SLOT_BUDGET_TOKENS))

    return _SLOT.sub(fill, template)

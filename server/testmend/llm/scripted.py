"""A scripted chat model for tests and demos: replies come from a script, not a network.

Each agent has its own list of turns. The reply to a request is the turn whose index is the
number of AI messages already in the request, so the model keeps no state of its own: a run
resumed in a new process from a checkpoint gets the same replies as the run that died.
The agent is recognised by the ``agent: NAME`` marker the prompts carry in their first line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

AGENT_MARKER = re.compile(r"agent:\s*([a-z_]+)")

# A turn is a fixed reply, or a function of the conversation so far (to echo a file's text back).
Turn = AIMessage | Callable[[Sequence[BaseMessage]], AIMessage]


def tool_call(name: str, args: Mapping[str, Any], call_id: str | None = None) -> dict[str, Any]:
    return {"name": name, "args": dict(args), "id": call_id or f"call_{name}", "type": "tool_call"}


def reply(text: str = "", *calls: dict[str, Any], tokens: int = 50) -> AIMessage:
    """An AI turn with optional tool calls and a nominal token usage."""
    return AIMessage(
        content=text,
        tool_calls=list(calls),
        usage_metadata={
            "input_tokens": tokens,
            "output_tokens": max(1, tokens // 5),
            "total_tokens": tokens + max(1, tokens // 5),
        },
    )


class ScriptExhaustedError(RuntimeError):
    pass


class ScriptedChatModel(BaseChatModel):
    """Replies from ``scripts[agent][n]`` where n counts the AI turns in the request."""

    scripts: dict[str, list[Any]] = Field(default_factory=dict)
    requests: list[list[BaseMessage]] = Field(default_factory=list)
    """Every request received, in order (tests assert on prompts)."""

    @property
    def _llm_type(self) -> str:
        return "testmend-scripted"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    @staticmethod
    def agent_of(messages: Sequence[BaseMessage]) -> str:
        for message in messages:
            if isinstance(message, SystemMessage):
                match = AGENT_MARKER.search(str(message.content)[:200])
                if match:
                    return match.group(1)
        return "default"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.requests.append(list(messages))
        agent = self.agent_of(messages)
        turns = self.scripts.get(agent, [])
        index = sum(isinstance(m, AIMessage) for m in messages)
        if index >= len(turns):
            raise ScriptExhaustedError(
                f"the script for agent {agent!r} has {len(turns)} turn(s); turn {index + 1} was "
                f"asked for. Last message: {json.dumps(str(messages[-1].content))[:300]}"
            )
        turn = turns[index]
        message = turn(messages) if callable(turn) else turn
        # A fresh copy: the same scripted turn may be replayed after a resume.
        return ChatResult(generations=[ChatGeneration(message=message.model_copy(deep=True))])

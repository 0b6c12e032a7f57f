"""State of one step's agent (a LangGraph subgraph): its conversation and what its tools change.

Plain JSON-able values only: the agent's own checkpoints hold it, and the step node copies the
results back into :class:`~testmend.workflow.state.MigrationState` when the agent ends.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from langchain.agents import AgentState

CheckKind = Literal["tests", "lint", "types"]


class StepAgentState(AgentState[Any]):
    step: NotRequired[str]
    test_file: NotRequired[str]
    original: NotRequired[str]
    """The file as the run found it: what the candidate's test inventory is checked against."""
    candidate: NotRequired[str]
    """The candidate test file's content: the source of truth (the file on disk follows it)."""
    changed: NotRequired[list[tuple[int, int]]]
    """The candidate's lines the last edit changed (1-based, inclusive): shown when the file is
    too long to show whole."""
    latest: NotRequired[dict[str, str]]
    """The latest result of each kind of check (``CheckKind``), as the agent was told it: the
    prompt shows these, not the results the step started with."""
    tracker: NotRequired[dict[str, Any]]
    """``ErrorTracker`` as a dict."""
    best: NotRequired[dict[str, Any] | None]
    """``CandidateSnapshot`` of the best candidate so far (most tests passing)."""
    patches: NotRequired[int]
    all_passing: NotRequired[bool]
    stop_reason: NotRequired[str | None]
    """Set when a limit is reached: the agent stops before its next model call."""
    plans: NotRequired[list[dict[str, Any]]]
    scratchpad: NotRequired[list[str]]
    focus: NotRequired[list[str]]
    """After a scope reduction: the failing tests to fix, one at a time, in order."""
    escalation: NotRequired[dict[str, Any] | None]
    instructions: NotRequired[list[str]]
    """Answers a person gave during the run (escalations): added to the user's instructions."""
    verdict: NotRequired[dict[str, Any] | None]
    """The reviewer's answer (``review_tools``): the agent ends once it is given."""

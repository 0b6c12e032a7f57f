"""The migration graph: research → planning → migrate → lint → typescript → review → finish.

The start is conditional (``choose_start``); a step that fails goes straight to ``finish``, which
records the failure and its reason. The review may send the result back to ``migrate`` (bounded
by ``retry.maxReviewRounds``), which starts from the reviewed candidate. A host task (the host's
model migrates: ``MigrationState.host``) ends after ``migrate`` until it has a submission.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from pydantic import BaseModel

from ..fidelity import models as fidelity_models
from . import state as state_module
from .context import RunDeps
from .state import STEPS, MigrationState, Step
from .steps import NODES, choose_start

_NEXT: dict[Step, Step] = dict(pairwise(STEPS))


def _after(step: Step) -> Any:
    def route(state: MigrationState) -> str:
        if state.exit.status == "failed":
            return "finish"
        if step == "review" and state.review.send_back:
            return "migrate"
        if step == "migrate" and state.host and state.submission is None:
            return END  # a host task waits for the host's submission
        return _NEXT[step]

    route.__name__ = f"after_{step}"
    return route


def build_graph(
    checkpointer: BaseCheckpointSaver[Any] | None = None,
) -> CompiledStateGraph[MigrationState, RunDeps, MigrationState, MigrationState]:
    graph = StateGraph(MigrationState, context_schema=RunDeps)
    for name, node in NODES.items():
        graph.add_node(name, node)
    graph.add_conditional_edges(
        START, choose_start, {s: s for s in ("research", "migrate", "lint", "typescript")}
    )
    for step in STEPS[:-1]:
        targets = {_NEXT[step], "finish", *(["migrate"] if step == "review" else [])}
        targets |= {END} if step == "migrate" else set()
        graph.add_conditional_edges(step, _after(step), {t: t for t in targets})
    graph.add_edge("finish", END)
    return graph.compile(checkpointer=checkpointer, name="testmend-migration")


def checkpoint_serializer() -> JsonPlusSerializer:
    """Checkpoints may only rebuild testmend's own state classes (no arbitrary imports): the
    state's and the fidelity report's."""
    classes = [
        value
        for module in (state_module, fidelity_models)
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel
    ]
    allowed = [(cls.__module__, cls.__name__) for cls in classes]
    return JsonPlusSerializer(allowed_msgpack_modules=allowed)

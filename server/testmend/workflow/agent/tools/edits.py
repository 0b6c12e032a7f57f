"""Editing the candidate: search/replace blocks and unified diffs, applied with the lenient
matcher; an edit that does not apply leaves the candidate unchanged and says where it looked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain.tools import tool
from langchain_core.tools import BaseTool
from langgraph.types import Command

from ....patching import EditOutcome, PatchError, apply_search_replace, apply_unified_diff
from ....patching.lines import text_to_lines
from ...candidate import sync_candidate
from ...events import EditApplied
from ...tracking import active_errors, note_fix_tried
from ..views import changed_region
from .common import Runtime, emit_call, reply, step_of, tracker_of


def _apply_edit(runtime: Runtime, how: str, edit: Callable[[str], EditOutcome]) -> Command[Any]:
    deps = runtime.context
    state = runtime.state
    candidate = state.get("candidate", "")
    try:
        outcome = edit(candidate)
    except PatchError as exc:
        return reply(runtime, f"edit not applied (the candidate is unchanged): {exc}")
    updated = outcome.content
    if updated == candidate:
        return reply(runtime, "the edit changes nothing; the candidate is unchanged")
    sync_candidate(deps, state.get("test_file", ""), updated)
    tracker = note_fix_tried(
        tracker_of(runtime),
        [e.fingerprint for e in active_errors(tracker_of(runtime), step_of(runtime))],
        how,
    )
    patches = state.get("patches", 0) + 1
    deps.emit(EditApplied(run_id=deps.run_id, step=step_of(runtime), source="agent", detail=how))
    fuzzy = f"\n{outcome.summary()}" if outcome.fuzzy else ""
    region, spans = changed_region(candidate, updated)
    return reply(
        runtime,
        f"edit applied ({how}); the candidate now has {len(text_to_lines(updated))} lines. "
        f"Run the check again to see its effect.{fuzzy}\nThe changed region now reads:\n{region}",
        candidate=updated,
        changed=spans,
        patches=patches,
        tracker=tracker.model_dump(),
    )


@tool
def edit_file(blocks: str, runtime: Runtime) -> Command[Any]:
    """Edit the candidate test file with SEARCH/REPLACE blocks:

    <<<<<<< SEARCH
    exact lines from the file
    =======
    replacement lines
    >>>>>>> REPLACE

    Several blocks apply in order; if one fails nothing changes and the nearest region is shown.
    """
    emit_call(runtime, "edit_file")
    path = runtime.state.get("test_file")
    return _apply_edit(
        runtime,
        "search/replace",
        lambda text: apply_search_replace(text, blocks, path=path),
    )


@tool
def apply_diff(diff: str, runtime: Runtime) -> Command[Any]:
    """Edit the candidate test file with a unified diff (---/+++ headers, @@ hunks)."""
    emit_call(runtime, "apply_diff")
    path = runtime.state.get("test_file")
    return _apply_edit(
        runtime, "unified diff", lambda text: apply_unified_diff(text, diff, path=path)
    )


EDIT_TOOLS: list[BaseTool] = [edit_file, apply_diff]

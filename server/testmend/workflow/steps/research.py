"""The research step: what the project says about the test (dependency tree, mocks, the
component under test and what the intent check will mutate, example tests), the DOM the
original test renders, and (with a model) the research agent's notes."""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from ...codemod import DomCapture, capture_dom
from ...codemod.capture import setup_script
from ...project import ModuleResolver
from ...project import dependencies as deps_mod
from ..agent import run_agent
from ..context import RunDeps
from ..state import DependencyTest, MigrationState, MockRequirement, ResearchContext
from .common import Update, done, emit_start, fail

_MOCK_KINDS: dict[str, Any] = {
    "module": "module",
    "timers": "timers",
    "global": "browser-api",
    "spy": "other",
}


def _static_research(deps: RunDeps, state: MigrationState) -> ResearchContext:
    """What reading the project tells about the test (parses and walks: run it in a thread)."""
    root = deps.workspace_root
    resolver = ModuleResolver(root)  # one tsconfig/jest config read for every lookup
    tree = deps_mod.dependency_tree(root, state.test_file, resolver=resolver)
    mocks = deps_mod.find_mocks(state.original_content, state.test_file)
    helper = deps.conventions.render_helper
    component = (
        deps_mod.component_under_test(root, state.test_file, tree)
        if state.mode == "migrate"
        else None
    )
    mocked = {
        resolved
        for m in mocks
        if m.kind == "module"
        and (resolved := resolver.resolve(state.test_file, m.module).resolved) is not None
    }
    return ResearchContext(
        dependency_tree=list(tree),
        mocks_required=[
            MockRequirement(
                module=m.module,
                reason="mocked by the original test" + (" with a factory" if m.factory else ""),
                kind=_MOCK_KINDS.get(m.kind, "other"),
            )
            for m in mocks
        ],
        mock_patterns=deps_mod.mock_patterns(root, state.test_file),
        coverage_from_dependencies=[
            DependencyTest(path=test, covers=dep)
            for dep, test in deps_mod.tests_of_dependencies(root, tree, resolver=resolver)
        ],
        example_tests=deps_mod.find_example_tests(root, near=state.test_file, resolver=resolver),
        files_to_read=[n.path for n in tree[1:6]],
        render_helper=f"{helper.render_name} from '{helper.module}'" if helper else None,
        component_under_test=component,
        mutation_targets=deps_mod.mutation_targets(tree, component, mocked=mocked),
    )


async def research(state: MigrationState, runtime: Runtime[RunDeps]) -> Update:
    deps = runtime.context
    emit_start(deps, "research")
    root = deps.workspace_root

    async def original_run() -> DomCapture | None:
        if state.mode != "migrate":
            return None
        kept = deps.kept
        key = await kept.key("capture", state.test_file, setup_script()) if kept else None
        if kept is not None and (capture := await kept.get(key, DomCapture)) is not None:
            return capture.model_copy(update={"reused": True})
        capture = await capture_dom(deps.runners, state.test_file, workspace_root=root)
        if kept is not None and capture.error is None:  # clean only: a flaky failure is retried
            await kept.put(key, capture)
        return capture

    # The project is read off the event loop (the language server answers the editor
    # meanwhile) while jest runs the original test and captures its DOM.
    context, capture = await asyncio.gather(
        asyncio.to_thread(_static_research, deps, state), original_run()
    )
    if capture is not None and capture.hangs and capture.error:
        # Every later run of this file would hang too: the run stops here, naming the test.
        return fail(deps, state, "research", f"the original test hangs: {capture.error}")
    if capture is not None:
        context = context.model_copy(update={"rendered_html": capture.html_by_test})
    detail = (
        f"{len(context.dependency_tree)} files in the dependency tree, "
        f"{len(context.mocks_required)} mocks"
    )
    if context.component_under_test:
        detail += f"; component under test: {context.component_under_test}"
    if capture is not None:
        detail += (
            f"; original test: {capture.tests_passed} passed, {capture.tests_failed} failed"
            + (" (as in an earlier run: nothing it depends on changed)" if capture.reused else "")
            + (f" ({capture.error.splitlines()[0][:120]})" if capture.error else "")
        )
    if deps.models is not None:
        values = {
            "test_file": state.test_file,
            "original_test": state.original_content,
            "research_context": context.model_dump_json(indent=1, exclude={"rendered_html"}),
            "user_instructions": state.user_instructions,
        }
        result = await run_agent(
            deps,
            "research",
            values,
            {"test_file": state.test_file, "scratchpad": []},
            task=f"Research {state.test_file} for its migration to React Testing Library.",
        )
        context = context.model_copy(update={"scratchpad": list(result.get("scratchpad", []))})
        detail += f"; {len(context.scratchpad)} research notes"
    return done(
        deps,
        state,
        "research",
        detail,
        research=context,
        dom_capture=capture.model_dump_json() if capture is not None else None,
    )

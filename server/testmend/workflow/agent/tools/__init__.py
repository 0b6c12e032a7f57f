"""The agents' tools, one module per kind: reading the project (``read``), notes and plans
(``plans``), editing the candidate (``edits``), checks (``checks``), escape hatches
(``escalation``) and the reviewer's answers (``review``). Each works in the shadow workspace,
never outside the project root, and runs only the configured test / lint / typecheck commands.

Tools that change what the run knows return a LangGraph ``Command`` with the state update and
the ``ToolMessage`` the model sees. Failures the agent can act on (a path outside the project, an
edit that does not apply, a tool that could not run) come back as messages, not exceptions.
"""

from __future__ import annotations

from langchain_core.tools import BaseTool

from ...state import Step
from .checks import lint_auto_fix, run_lint_check, run_test_file, run_ts_check
from .edits import EDIT_TOOLS
from .escalation import escalate_for_external_help, request_scope_reduction
from .plans import add_multiple_test_plans, add_test_plan, write_to_scratchpad
from .read import FILE_TOOLS, get_dependency_tree
from .review import REVIEW_TOOLS


def toolkit(step: Step) -> list[BaseTool]:
    extra: dict[Step, list[BaseTool]] = {
        "research": [get_dependency_tree, write_to_scratchpad],
        "planning": [add_test_plan, add_multiple_test_plans],
        "migrate": [
            *EDIT_TOOLS,
            run_test_file,
            request_scope_reduction,
            escalate_for_external_help,
        ],
        "lint": [lint_auto_fix, run_lint_check, *EDIT_TOOLS],
        "typescript": [run_ts_check, *EDIT_TOOLS],
        "review": REVIEW_TOOLS,
    }
    return [*FILE_TOOLS, *extra.get(step, [])]

"""A step's tool-calling agent: how it runs (``run.py``), what it sees each turn (``turns.py``,
``views.py``, ``prompts.py`` with the templates in ``templates/``), its state (``state.py``) and
its tools (``tools/``, one module per kind).

The steps reach their agent through :func:`run_agent` here: LangChain's agent builder, the
agents' middleware and their tools load with the first agent a run builds, so an offline run,
which builds none, does not pay for them (measured with ``python -X importtime``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the type checker sees the real function and its signature
    from .run import run_agent as run_agent
else:

    async def run_agent(*args: Any, **kwargs: Any) -> Any:
        """``run.run_agent``, imported on the first call."""
        from .run import run_agent as run

        return await run(*args, **kwargs)

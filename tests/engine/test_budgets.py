"""What a run spends on the model, through the real client against a replaying endpoint: a
budget stops the run cleanly with its best candidate, the cost is estimated from the configured
prices, and both are in the progress events, the report and the CLI's JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from testmend.engine import Engine, RunRequest
from testmend.workflow.events import TokensUsed
from tests.support.engine import SIMPLE_ENZYME, SIMPLE_TEST, provider_config
from tests.support.leftovers import left_behind
from tests.support.replay_server import FIXTURES, Replay, serve

RECORDING = json.loads((FIXTURES / "seats_migration.json").read_text())
PRICES = {"gpt-4.1": {"input": 2.0, "output": 8.0}, "gpt-4.1-mini": {"input": 0.4, "output": 1.6}}


def recorded_cost() -> float:
    """What the recorded migration costs at PRICES (research runs on mini, the rest on full,
    the reviewer too)."""
    cost = 0.0
    for agent, model in (
        ("research", "gpt-4.1-mini"),
        ("planning", "gpt-4.1"),
        ("migrate", "gpt-4.1"),
        ("review", "gpt-4.1"),
    ):
        for turn in RECORDING[agent]:
            usage, price = turn["usage"], PRICES[model]
            cost += (
                usage["prompt_tokens"] * price["input"]
                + usage["completion_tokens"] * price["output"]
            )
    return cost / 1_000_000


async def run(project: Path, workspaces: Path, settings: dict[str, Any]) -> tuple[Any, Any, Replay]:
    replay = Replay("seats_migration.json")
    with serve(replay) as url:
        engine = Engine(provider_config(project, url, settings=settings), workspaces_dir=workspaces)
        async with engine:
            handle = await engine.start(RunRequest(file=SIMPLE_TEST))
            result = await handle.wait()
    return result, handle, replay


async def test_the_cost_is_estimated_from_the_prices(project: Path, workspaces: Path) -> None:
    result, handle, _ = await run(project, workspaces, {"budget": {"prices": PRICES}})
    assert result is not None and result.status == "succeeded", result and result.failure_reason
    assert result.summary.cost is not None
    assert abs(result.summary.cost - recorded_cost()) < 1e-9
    spent = [e for e in handle.history if isinstance(e, TokensUsed)]
    # One event per model call, the run's totals growing, the last one the whole run's.
    agents = ("research", "planning", "migrate", "review")
    assert len(spent) == sum(len(RECORDING[a]) for a in agents)
    assert [e.run_tokens for e in spent] == sorted(e.run_tokens for e in spent)
    assert spent[-1].run_tokens == result.summary.tokens_used
    assert spent[-1].cost is not None and abs(spent[-1].cost - result.summary.cost) < 1e-9
    report = Path(result.report_path).read_text()
    assert f"| estimated cost | ${result.summary.cost:.4f} |" in report


async def test_without_prices_there_is_no_cost(project: Path, workspaces: Path) -> None:
    result, handle, _ = await run(project, workspaces, {})
    assert result is not None and result.summary.tokens_used > 0
    assert result.summary.cost is None
    assert all(e.cost is None for e in handle.history if isinstance(e, TokensUsed))
    assert "| estimated cost | n/a |" in Path(result.report_path).read_text()


async def test_a_token_budget_stops_the_run_with_its_best_candidate(
    project: Path, workspaces: Path
) -> None:
    first_call = RECORDING["research"][0]["usage"]["total_tokens"]
    result, _, replay = await run(project, workspaces, {"budget": {"maxTokens": first_call}})
    # The first answer spends the budget: no agent asks the model again.
    assert len(replay.requests) == 1
    assert result is not None
    assert result.status == "failed"
    assert result.failure_reason is not None
    assert (
        f"the token budget is spent ({first_call} of {first_call} tokens)" in result.failure_reason
    )
    assert result.summary.tokens_used == first_call
    # The best candidate (the codemod's conversion) is kept for the user to look at.
    assert result.content and result.content != SIMPLE_ENZYME
    assert "enzyme" not in result.content.split("describe(")[0]
    assert (project / SIMPLE_TEST).read_text() == SIMPLE_ENZYME
    assert left_behind(workspaces) == []


async def test_a_cost_budget_stops_the_run(project: Path, workspaces: Path) -> None:
    settings = {"budget": {"prices": PRICES, "maxCost": 1e-9}}
    result, _, replay = await run(project, workspaces, settings)
    assert len(replay.requests) == 1
    assert result is not None and result.status == "failed"
    assert (
        result.failure_reason is not None and "the cost budget is spent ($" in result.failure_reason
    )
    assert result.summary.cost is not None and result.summary.cost > 0

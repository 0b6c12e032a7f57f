"""The review step with real jest, eslint and tsc: a scripted reviewer approves, or sends
concrete findings back to migrate (bounded rounds), and offline the checks are the review."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from testmend.engine import Engine, RunRequest
from testmend.llm import reply
from testmend.workflow.events import StepFinished, StepStarted
from tests.support.engine import (
    SIMPLE_RTL,
    SIMPLE_TEST,
    assert_untouched,
    call,
    make_config,
    rewrite_to,
    run_with_events,
    scripted_engine,
)

FINDING = (
    "'Seats counter shows the label': toBeInTheDocument() on getByText passes for a hidden "
    "label too; assert toBeVisible() instead"
)
IMPROVED = SIMPLE_RTL.replace(
    "expect(screen.getByText('Seats')).toBeInTheDocument();",
    "expect(screen.getByText('Seats')).toBeVisible();",
)
assert IMPROVED != SIMPLE_RTL


def _sent_back(messages: Sequence[BaseMessage]) -> bool:
    """Is this migrate agent working on a reviewer's findings?"""
    return any(isinstance(m, HumanMessage) and "reviewer" in str(m.content) for m in messages)


def _reviewed_before(messages: Sequence[BaseMessage]) -> bool:
    system = next(m for m in messages if isinstance(m, SystemMessage))
    return "Round 1: you sent it back" in str(system.content)


def migrate_turn(first: Callable[..., AIMessage], again: Callable[..., AIMessage]) -> object:
    return lambda messages: (again if _sent_back(messages) else first)(messages)


def review_turn(first: AIMessage, later: AIMessage) -> object:
    return lambda messages: later if _reviewed_before(messages) else first


REQUEST = call("request_changes", findings=[FINDING])
APPROVE = call("approve_migration", summary="every test kept; the label is asserted visible")


async def test_a_finding_goes_back_to_migrate_and_the_next_round_carries_it(
    project: Path, workspaces: Path
) -> None:
    engine, model = scripted_engine(
        project,
        workspaces,
        {
            "migrate": [
                migrate_turn(rewrite_to(SIMPLE_RTL), rewrite_to(IMPROVED)),
                call("run_test_file"),
            ],
            "review": [review_turn(REQUEST, APPROVE)],
        },
    )
    result, history = await run_with_events(engine, RunRequest(file=SIMPLE_TEST))
    assert result.status == "succeeded", result.failure_reason
    assert result.content == IMPROVED
    steps = [e.step for e in history if isinstance(e, StepStarted)]
    assert steps == [
        *("research", "planning", "migrate", "lint", "typescript", "review"),
        *("migrate", "lint", "typescript", "review", "finish"),
    ]
    # The migrate agent's first request after the review carries the finding, and the
    # reviewer's second look knows what it asked for the first time.
    agents = [model.agent_of(request) for request in model.requests]
    first_review = agents.index("review")
    again = model.requests[agents.index("migrate", first_review)]
    assert any(FINDING in str(m.content) for m in again if isinstance(m, HumanMessage))
    second_review = model.requests[agents.index("review", first_review + 1)]
    assert FINDING in str(second_review[0].content)
    reviews = [e.detail for e in history if isinstance(e, StepFinished) and e.step == "review"]
    assert reviews[0].startswith("1 finding(s), sent back to migrate (round 1 of 2)")
    assert reviews[1].startswith("approved: every test kept")
    assert result.summary.review == "approved" and result.summary.review_rounds == 1
    assert_untouched(project, workspaces)


async def test_findings_left_after_the_last_round_need_a_persons_review(
    project: Path, workspaces: Path
) -> None:
    engine, _ = scripted_engine(
        project,
        workspaces,
        {
            "migrate": [rewrite_to(SIMPLE_RTL), call("run_test_file"), reply("nothing to do")],
            "review": [REQUEST],
        },
        retry={"maxReviewRounds": 1},
    )
    result, history = await run_with_events(engine, RunRequest(file=SIMPLE_TEST))
    # Tests pass and the checks hold, but the reviewer's finding is still open: never a
    # silent success.
    assert result.status == "needs_review", result.failure_reason
    assert any(FINDING in reason for reason in result.reasons)
    assert any(FINDING in item for item in result.left_to_do)
    reviews = [e.detail for e in history if isinstance(e, StepFinished) and e.step == "review"]
    assert reviews == [
        "1 finding(s), sent back to migrate (round 1 of 1)",
        "1 finding(s), left for a person (no review round left)",
    ]
    assert result.summary.review == "changes" and result.summary.review_rounds == 1


async def test_a_reviewer_without_a_verdict_does_not_pass_the_result(
    project: Path, workspaces: Path
) -> None:
    engine, _ = scripted_engine(
        project,
        workspaces,
        {
            "migrate": [rewrite_to(SIMPLE_RTL), call("run_test_file")],
            "review": [call("request_changes", findings=[" "]), reply("Looks fine to me.")],
        },
    )
    result, _ = await run_with_events(engine, RunRequest(file=SIMPLE_TEST))
    assert result.status == "needs_review"
    assert any("the reviewer gave no verdict" in reason for reason in result.reasons)


async def test_offline_the_checks_are_the_review(project: Path, workspaces: Path) -> None:
    engine = Engine(make_config(project), offline=True, workspaces_dir=workspaces)
    result, history = await run_with_events(engine, RunRequest(file=SIMPLE_TEST))
    (detail,) = [e.detail for e in history if isinstance(e, StepFinished) and e.step == "review"]
    assert detail.startswith("the checks are the review: 0 fidelity findings")
    assert result.summary.review == "checks" and result.summary.review_rounds == 0

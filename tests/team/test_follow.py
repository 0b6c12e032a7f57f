"""Following a batch on a real Postgres: a run's record ends when its engine finishes, and its
worker keeps the result a moment later. ``runs --batch`` read the results as soon as every
record had ended and, on a busy machine, reported a run that had succeeded as a problem
("succeeded (run …): None") and exited 1. Following now waits for each ended run's result, or
a grace period for a run that has none."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

from testmend.engine.pg_store import PostgresRunStore
from testmend.engine.store import RunRecord
from testmend.team.batches import follow, result_rows
from testmend.team.tasks import RESULT_TEXT


async def followed(store: PostgresRunStore, run_id: str, **options: float) -> list[RunRecord]:
    """The run followed to its end, as ``runs --batch`` follows it, its progress unseen."""
    return await follow(
        store, [run_id], on_event=lambda _event: None, on_records=lambda _records: None, **options
    )


def ended(run_id: str, status: str, **changes: object) -> RunRecord:
    now = datetime.now(UTC)
    fields: dict[str, object] = {
        "run_id": run_id, "file": f"src/{run_id}.test.tsx", "mode": "migrate",
        "status": status, "offline": True, "start_step": "research", "created_at": now,
        "updated_at": now, "pid": 0, "machine": "",
    }  # fmt: skip
    return RunRecord.model_validate({**fields, **changes})


async def test_a_run_that_ended_is_followed_until_its_worker_keeps_its_result(
    postgres_url: str, tmp_path: Path
) -> None:
    store = PostgresRunStore(tmp_path, postgres_url)
    store.save(ended("20261129-000001-aaaaaa", "succeeded"))
    row = {"run_id": "20261129-000001-aaaaaa", "file": "src/a.test.tsx", "status": "succeeded"}

    async def keep_result_later() -> None:
        await asyncio.sleep(1.5)
        store.write_text("20261129-000001-aaaaaa", RESULT_TEXT, json.dumps(row))

    keeper = asyncio.create_task(keep_result_later())
    records = await followed(store, "20261129-000001-aaaaaa", poll_seconds=0.1)
    rows = result_rows(store, records)  # as the batch's report reads them, at once
    await keeper
    assert [r.status for r in records] == ["succeeded"]
    assert rows == [row]


async def test_a_run_with_no_result_ends_the_following_after_the_grace(
    postgres_url: str, tmp_path: Path
) -> None:
    """A run its worker failed (it gave up after its deliveries) keeps no result: following
    still ends, and the batch's report names it."""
    store = PostgresRunStore(tmp_path, postgres_url)
    store.save(ended("20261129-000002-bbbbbb", "failed", failure_reason="gave up"))
    records = await followed(
        store, "20261129-000002-bbbbbb", poll_seconds=0.1, result_grace_seconds=0.5
    )
    assert [r.failure_reason for r in records] == ["gave up"]
    assert result_rows(store, records) == []

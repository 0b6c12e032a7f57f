"""The team's faces on the command line: ``migrate --broker`` (a batch sent to the workers and
followed), ``runs --batch [--now]``, ``apply --batch`` and ``testmend worker``. The policy
is the engine's and ``team/``'s; this only translates."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any, Literal

from ..config import ConfigError, load_config, redact_url
from ..engine import EngineError
from ..engine.exported import Imported, rows_imported
from ..engine.pg_store import PostgresRunStore
from ..engine.store import RunRecord
from ..engine.stores import open_store
from ..team.batches import batch_runs, ended, enqueue, follow, result_rows
from ..team.tasks import Options, celery_app, head_commit
from .batch import Progress, clock_text, result_line, summary_table
from .targets import Prepared, environ_of, project_of

NO_STORE = (
    "a queue's runs are kept in the team's Postgres: name it with --store postgresql://… "
    "(or TESTMEND_STORE__URL), the one the workers use"
)


def _team_store(root: Path, location: str | None) -> PostgresRunStore | None:
    store = open_store(root, location)
    if isinstance(store, PostgresRunStore):
        return store
    print(f"testmend: {NO_STORE}", file=sys.stderr)
    return None


async def on_queue(
    args: argparse.Namespace, mode: Literal["migrate", "fix"], prepared: Prepared
) -> int:
    """``migrate --broker``: a task per file, then the batch followed (unless ``--detach``)."""
    config, root = prepared.config, prepared.root
    broker = config.team.broker_url
    if broker is None:
        print("testmend: --broker needs a URL (or team.broker, TESTMEND_TEAM__BROKER)",
              file=sys.stderr)  # fmt: skip
        return 2
    if getattr(args, "jsonl", False):
        print("testmend: with --broker, --json gives the batch's results at its end "
              "(`testmend runs --batch ID --json` too)", file=sys.stderr)  # fmt: skip
        return 2
    if getattr(args, "write", False):
        print("testmend: with --broker the results are written by `testmend apply --batch ID` "
              "once the batch ended (this command names the batch)", file=sys.stderr)  # fmt: skip
        return 2
    store = _team_store(root, config.store.location)
    if store is None:
        return 2
    options = Options(mode=mode, offline=args.offline, start_step=getattr(args, "from_step", None),
                      instructions=getattr(args, "instructions", None))  # fmt: skip
    try:
        app = celery_app(broker, config.team)
        queued = await asyncio.to_thread(enqueue, app, store, root, prepared.files, options)
    except EngineError as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        print(f"testmend: cannot reach the broker {redact_url(broker)}: {redact_url(first)}",
              file=sys.stderr)  # fmt: skip
        return 2
    for warning in queued.warnings:
        print(f"testmend: {warning}", file=sys.stderr)
    problems = prepared.problems + [why for _file, why in queued.refused]
    before = len(queued.runs) - queued.sent
    print(f"testmend: batch {queued.batch}: {queued.sent} files sent to the workers at commit "
          f"{queued.commit[:12]}" + (f", {before} ended before" if before else ""),
          file=sys.stderr)  # fmt: skip
    if args.detach:
        if args.json:
            print(json.dumps({"batch": queued.batch, "runs": queued.runs, "problems": problems}))
        print(f"testmend: `testmend runs --batch {queued.batch}` follows it; "
              f"`testmend apply --batch {queued.batch}` writes its accepted results",
              file=sys.stderr)  # fmt: skip
        return 0 if queued.runs and not problems else 1
    return await follow_batch(args, root, store, queued.batch, queued.runs, problems)


async def follow_batch(
    args: argparse.Namespace,
    root: Path,
    store: PostgresRunStore,
    batch: str,
    runs: dict[str, str],
    problems: list[str],
) -> int:
    """Follow a batch to its end: each run's progress, the batch's line when a run changes,
    then the results (or ``--json``) and the closing table."""
    names = {run_id: file for file, run_id in runs.items()}
    began = time.monotonic()
    said: set[str] = set()

    def on_records(records: list[RunRecord]) -> None:
        if args.json:
            return
        print(batch_line(records, len(runs), time.monotonic() - began), file=sys.stderr,
              flush=True)  # fmt: skip
        for record in records:
            if record.waiting and record.waiting not in said:
                said.add(record.waiting)
                print(f"[{Path(record.file).name}] waiting: {record.waiting}", file=sys.stderr)

    def on_event(event: Any) -> None:
        if not args.json:
            Progress(sys.stderr, names)(event)

    try:
        records = await follow(store, list(runs.values()), on_event=on_event, on_records=on_records)
    except asyncio.CancelledError:
        print(f"testmend: stopped following batch {batch}; its runs go on, on the workers "
              f"(`testmend runs --batch {batch}` follows it again)",
              file=sys.stderr)  # fmt: skip
        return 130
    return batch_report(args, root, store, batch, records, problems, time.monotonic() - began)


def batch_line(records: list[RunRecord], total: int, elapsed: float) -> str:
    done = sum(map(ended, records))
    running = sum(r.status == "running" for r in records)
    line = f"[batch] {done}/{total} files done, {running} running, {clock_text(elapsed)}"
    if done and done < total:
        line += f", about {clock_text(elapsed / done * (total - done))} left"
    return line


def batch_report(
    args: argparse.Namespace,
    root: Path,
    store: PostgresRunStore,
    batch: str,
    records: list[RunRecord],
    problems: list[str],
    wall: float,
) -> int:
    rows = result_rows(store, records)
    found = rows_imported(rows, root)
    by_run = {row["run_id"]: row for row in rows}
    unfinished = [
        {"file": r.file, "run_id": r.run_id, "status": r.status, "failure_reason": r.failure_reason}
        for r in records
        if r.run_id not in by_run
    ]
    problems = problems + [f"{u['file']}: {u['status']} (run {u['run_id']}): {u['failure_reason']}"
                           for u in unfinished]  # fmt: skip
    accepted = {r.run_id for r in found.results if r.applies}
    if args.json:
        results = [{**row, "accepted": row["run_id"] in accepted} for row in rows]
        payload = {"batch": batch, "results": results, "unfinished": unfinished,
                   "problems": problems + found.problems}  # fmt: skip
        print(json.dumps(payload, indent=2))
    else:
        for result in found.results:
            print(result_line(result, None), file=sys.stderr)
        for problem in problems + found.problems:
            print(f"testmend: {problem}", file=sys.stderr)
        table = [table_row(r) for r in records]
        workers = len({(r.machine, r.pid) for r in records if r.pid})
        ran = f"on {workers} worker process" + ("" if workers == 1 else "es")
        print(summary_table(table, wall, 1, ran), file=sys.stderr)
        review = sum(r.status == "needs_review" for r in found.results)
        line = f"{len(accepted)} of {len(records)} accepted"
        if accepted or review:
            line += f"; `testmend apply --batch {batch}` writes them"
            if review:
                line += f" (with --accept-review, also the {review} that need review)"
        print(f"testmend: {line}", file=sys.stderr)
    return 0 if records and len(accepted) == len(records) and not problems else 1


def table_row(record: RunRecord) -> dict[str, Any]:
    summary = record.summary
    seconds = (record.updated_at - record.created_at).total_seconds() if ended(record) else None
    return {
        "file": record.file,
        "status": record.status,
        "tests_passing": summary.tests_passing if summary else 0,
        "tests_total": summary.tests_total if summary else 0,
        "seconds": seconds,
    }


def _project_store(args: argparse.Namespace) -> tuple[Path, PostgresRunStore] | int:
    root = project_of(args)
    if root is None:
        return 2
    try:
        config = load_config(root, environ=environ_of(args))
    except ConfigError as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2
    store = _team_store(root, config.store.location)
    return (root, store) if store is not None else 2


def runs_of_batch(args: argparse.Namespace) -> int:
    """``runs --batch ID``: the batch followed to its end (``--now``: as it is now)."""
    found = _project_store(args)
    if isinstance(found, int):
        return found
    root, store = found
    try:
        runs = batch_runs(store, args.batch)
    except (KeyError, EngineError) as exc:
        print(f"testmend: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return 2
    if not args.now:
        from .signals import run_until_stopped

        return run_until_stopped(follow_batch(args, root, store, args.batch, runs, []))
    records = {r.run_id: r for r in store.all() if r.run_id in set(runs.values())}
    listed = [records[run_id] for run_id in runs.values() if run_id in records]
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in listed], indent=2))
        return 0
    for record in listed:
        why = record.failure_reason or record.waiting
        print(f"{record.run_id}  {record.status:<12} {record.file}" + (f"  — {why}" if why else ""))
    done = sum(map(ended, listed))
    print(f"batch {args.batch}: {done}/{len(runs)} files done", file=sys.stderr)
    return 0


def stored_results(root: Path, store: PostgresRunStore, batch: str | None) -> Imported:
    """``apply --store``: the results of a batch, or the newest of each file in the store."""
    if batch is not None:
        wanted = set(batch_runs(store, batch).values())
        records = [r for r in store.all() if r.run_id in wanted]
    else:
        newest: dict[str, RunRecord] = {}
        for record in store.all():
            kept = newest.get(record.file)
            if ended(record) and (kept is None or record.updated_at > kept.updated_at):
                newest[record.file] = record
        records = list(newest.values())
    rows = result_rows(store, records)
    found = rows_imported(rows, root)
    with_result = {row["run_id"] for row in rows}
    for record in records:
        if not ended(record):
            found.problems.append(f"{record.file}: still {record.status} (run {record.run_id}): "
                                  "apply again once it ended")  # fmt: skip
        elif record.run_id not in with_result:
            why = f": {record.failure_reason}" if record.failure_reason else ""
            found.problems.append(f"{record.file}: {record.status} (run {record.run_id}){why}")
    return found


def worker(args: argparse.Namespace) -> int:
    """``testmend worker``."""
    from ..team.worker import serve

    root = project_of(args)
    if root is None:
        return 2
    overrides = {"model": {"offline": True}} if args.offline else None
    try:
        config = load_config(root, editor_settings=overrides, environ=environ_of(args))
    except ConfigError as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2
    store = _team_store(root, config.store.location)
    if store is None:
        return 2
    commit = head_commit(root)
    if commit is None:
        print(f"testmend: {root} is not in a git checkout: a worker takes the tasks of the "
              "commit it has checked out", file=sys.stderr)  # fmt: skip
        return 2
    try:
        store.all()  # reachable, before taking any task
        print(f"testmend: worker for {store.project} at commit {commit[:12]}, "
              f"{args.concurrency} at once", file=sys.stderr, flush=True)  # fmt: skip
        return serve(config, store.project, concurrency=args.concurrency)
    except EngineError as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2

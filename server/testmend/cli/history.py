"""``testmend runs`` and ``testmend resume``: the runs a project keeps in ``.testmend/``, and
continuing one (paused, interrupted), or every interrupted one with ``--all``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..config import ConfigError, load_config, store_location
from ..engine import EngineError, RunResult
from ..engine.stores import open_store
from ..workflow.events import spent_text
from .batch import Progress
from .runs import no_result, report, unfinished_row
from .signals import run_until_stopped
from .targets import environ_of, project_of


def runs(args: argparse.Namespace) -> int:
    if args.batch:
        from .team import runs_of_batch  # a queue's batch: in the team's store

        return runs_of_batch(args)
    if args.now:
        print("testmend: --now is about a batch: add --batch ID", file=sys.stderr)
        return 2
    root = project_of(args)
    if root is None:
        return 2
    try:
        records = open_store(root, store_location(root, environ_of(args))).all()
    except (ConfigError, EngineError) as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in records], indent=2))
        return 0
    if not records:
        print(f"no runs in {root} (testmend keeps them in {root}/.testmend/runs)")
        return 0
    for record in records:
        tally = ""
        if record.summary and record.summary.tests_total:
            tally = f" {record.summary.tests_passing}/{record.summary.tests_total} tests"
        if record.summary and record.summary.tokens_used:
            tally += ", " + spent_text(record.summary.tokens_used, record.summary.cost)
        if record.taken is not None:
            taken = ", ".join(map(str, record.taken)) or "none"
            tally += f", hunks taken: {taken} of {record.hunks_total}"
        kind = "task" if record.host else record.mode  # a host's model migrates a task
        print(
            f"{record.run_id}  {record.status:<11} {kind:<7} {record.file}{tally}"
            + (f"  — {record.failure_reason}" if record.failure_reason else "")
        )
    return 0


async def _resume(args: argparse.Namespace) -> int:
    root = project_of(args)
    if root is None:
        return 2
    if not args.all and not args.run_id:
        print("testmend: name a run (`testmend runs` lists them) or pass --all", file=sys.stderr)
        return 2
    if args.accept_review and not args.write:
        print("testmend: --accept-review only matters with --write", file=sys.stderr)
        return 2
    try:
        config = load_config(
            root,
            editor_settings={"model": {"offline": True}} if args.offline else None,
            environ=environ_of(args),
        )
    except ConfigError as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2
    store = open_store(root, config.store.location)
    if args.all:
        try:
            records = store.stopped()
        except EngineError as exc:  # the store is out of reach
            print(f"testmend: {exc}", file=sys.stderr)
            return 2
        if not records:
            print(f"testmend: no interrupted run in {root}", file=sys.stderr)
            return 0
    else:
        try:
            records = [store.load(args.run_id)]
        except EngineError as exc:
            print(f"testmend: {exc}", file=sys.stderr)
            return 2
        except KeyError as exc:
            print(
                f"testmend: {exc.args[0]}: runs are kept in the project they ran in (pass "
                "--project, or run testmend there; `testmend runs` lists them)",
                file=sys.stderr,
            )
            return 2
    from ..engine.engine import Engine

    names: dict[str, str] = {}
    results: list[RunResult] = []
    problems: list[str] = []
    unfinished: list[dict[str, Any]] = []
    async with Engine(config, on_event=Progress(sys.stderr, names)) as engine:
        handles = []
        for run_id in [r.run_id for r in records]:
            try:
                if args.all:
                    handle = await engine.continue_stopped(run_id)
                else:
                    handle = await engine.resume(run_id, args.answer)
            except EngineError as exc:
                problems.append(str(exc))
                continue
            names[handle.run_id] = handle.file
            handles.append(handle)
        for handle in handles:
            result = await handle.wait()
            if result is None:
                problems.append(f"{handle.file}: {no_result(handle)}")
                unfinished.append(unfinished_row(handle))
            else:
                results.append(result)
    if not results and not args.json:
        for problem in problems:
            print(f"testmend: {problem}", file=sys.stderr)
        return 1 if handles else 2
    return report(args, root, results, problems, unfinished)


def resume(args: argparse.Namespace) -> int:
    return run_until_stopped(_resume(args))

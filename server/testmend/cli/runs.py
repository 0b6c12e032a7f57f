"""``testmend migrate | fix | runs | resume``: the engine from a terminal or a CI job."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any, Literal

from ..config import ConfigError, load_config
from ..engine import EngineError, RunHandle, RunRequest, RunResult
from ..engine.changes import write_result
from ..engine.exported import exported
from ..layout import find_project_root
from ..llm.probe import tier_line
from ..workflow.events import RunEvent, RunFinished, spent_text
from ..workspace.paths import PathEscapeError
from .batch import Batch, Progress, json_line, result_line, summary_table
from .signals import run_until_stopped
from .targets import Prepared, environ_of, expand, refusal, shard_of, unwritable_state


def _write_result(root: Path, result: RunResult, accept_review: bool) -> str:
    """Write what the engine accepted (or, with ``--accept-review``, what needs review), and
    only over the content the run started from."""
    written = write_result(root, result, accept_review=accept_review)
    return written.message.replace("accepting the review writes it", "--accept-review writes it")


def _accepted(result: RunResult, written: str | None, accept_review: bool) -> bool:
    """Exit status 0 needs every result accepted (by the engine, or by the user with
    ``--accept-review``) and, with ``--write``, written."""
    accepted = result.applies or (accept_review and result.status == "needs_review")
    return accepted and (written is None or written.startswith("written"))


async def _run_many(args: argparse.Namespace, mode: Literal["migrate", "fix"]) -> int:
    prepared = await _prepare(args, mode)
    if isinstance(prepared, int):
        return prepared
    if getattr(args, "broker", None):
        from .team import on_queue  # Celery: only for a queue

        return await on_queue(args, mode, prepared)
    return await _run_here(args, mode, prepared)


async def _prepare(args: argparse.Namespace, mode: Literal["migrate", "fix"]) -> Prepared | int:
    """What to run, or the exit status of a command that stops before any run."""
    if getattr(args, "accept_review", False) and not getattr(args, "write", False):
        print("testmend: --accept-review only matters with --write", file=sys.stderr)
        return 2
    targets = expand(args.paths)
    files = targets.files
    if not files:
        for _named, problem in targets.problems:
            print(f"testmend: {problem}", file=sys.stderr)
        if not targets.problems:
            print("testmend: no Enzyme test file found in the given paths", file=sys.stderr)
        return 2
    root = find_project_root(files[0])
    if not (root / "package.json").is_file():
        print(f"testmend: no package.json at or above {files[0].parent}", file=sys.stderr)
        return 2
    outside = [f for f in files if not f.is_relative_to(root)]
    if outside:
        print(f"testmend: {outside[0]} is not in the project {root}", file=sys.stderr)
        return 2
    shard = getattr(args, "shard", None)
    if shard is not None:
        every = len(files)
        files = shard_of(files, root, shard)
        print(
            f"testmend: shard {shard[0]}/{shard[1]}: {len(files)} of {every} files", file=sys.stderr
        )
        if not files:
            return report(args, root, [], [], [])
    blocked = unwritable_state(root)
    if blocked:
        print(f"testmend: {blocked}", file=sys.stderr)
        return 2
    jsonl = bool(getattr(args, "jsonl", False))
    problems = [problem for _named, problem in targets.problems]
    refused_rows: list[dict[str, Any]] = [
        {"file": named, "status": "refused", "reason": problem}
        for named, problem in targets.problems
    ]
    checked = await asyncio.gather(*(asyncio.to_thread(refusal, root, f, mode) for f in files))
    for file, why in zip(files, checked, strict=True):
        if why is not None:
            problems.append(why)
            refused_rows.append(
                {"file": os.path.relpath(file, root), "status": "refused", "reason": why}
            )
    files = [f for f, why in zip(files, checked, strict=True) if why is None]
    if jsonl:
        for row in refused_rows:
            json_line(row, sys.stdout)
    if not files:
        return report(args, root, [], problems, refused_rows)
    overrides: dict[str, Any] = {"model": {"offline": True}} if args.offline else {}
    jobs = getattr(args, "jobs", None)
    if jobs is not None:
        overrides["maxConcurrentRuns"] = jobs
    try:
        config = load_config(root, editor_settings=overrides or None, environ=environ_of(args))
    except ConfigError as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2
    return Prepared(root, files, problems, refused_rows, config)


async def _run_here(
    args: argparse.Namespace, mode: Literal["migrate", "fix"], prepared: Prepared
) -> int:
    """The files run by this machine's engine, ``--jobs`` at once."""
    from ..engine.engine import Engine  # langgraph and the rest: only once a run starts

    root, files, problems = prepared.root, prepared.files, prepared.problems
    refused_rows, config = prepared.refused_rows, prepared.config
    jsonl = bool(getattr(args, "jsonl", False))
    if not getattr(args, "json", False):
        print(f"testmend: {tier_line(config.model)}", file=sys.stderr)

    names: dict[str, str] = {}
    progress = Progress(sys.stderr, names)
    batch = Batch(total=len(files), jobs=config.max_concurrent_runs, stream=sys.stderr)

    def on_event(event: RunEvent) -> None:
        progress(event)
        batch.observe(event)

    results: list[RunResult] = []
    unfinished: list[dict[str, object]] = list(refused_rows)
    async with Engine(config, on_event=on_event) as engine:
        handles = []
        for file in files:
            request = RunRequest(
                file=str(file),
                mode=mode,
                start_step=getattr(args, "from_step", None),
                user_instructions=getattr(args, "instructions", None),
            )
            try:
                handle = await engine.start(request)
            except (EngineError, PathEscapeError) as exc:
                problems.append(str(exc))
                batch.total -= 1
                row: dict[str, object] = {"file": str(file), "status": "refused",
                                          "reason": str(exc)}  # fmt: skip
                unfinished.append(row)
                if jsonl:
                    json_line(row, sys.stdout)
                continue
            names[handle.run_id] = handle.file
            handles.append(handle)
        for finished in asyncio.as_completed([_outcome(h) for h in handles]):
            ended, result, why_not = await finished
            if result is not None:
                results.append(result)
            else:
                problems.append(f"{ended.file}: {why_not}")
                unfinished.append({**unfinished_row(ended), "seconds": batch.seconds(ended.run_id)})
            if jsonl:
                json_line(_row(ended, result, batch), sys.stdout)
    order = {h.run_id: n for n, h in enumerate(handles)}
    results.sort(key=lambda r: order.get(r.run_id, 0))
    by_run = {r.run_id: r for r in results}
    rows = [_row(h, by_run.get(h.run_id), batch) for h in handles]
    code = report(args, root, results, problems, unfinished, batch)
    if len(files) > 1 and not args.json and not jsonl:
        print(summary_table(rows, batch.elapsed(), batch.jobs), file=sys.stderr)
    return code


async def _outcome(handle: RunHandle) -> tuple[RunHandle, RunResult | None, str | None]:
    """A run's result, or why there is none (the run is recorded; the batch goes on)."""
    try:
        result = await handle.wait()
    except Exception as exc:
        return handle, None, f"{type(exc).__name__}: {exc}"
    if result is None:
        return handle, None, no_result(handle)
    return handle, result, None


def _row(handle: RunHandle, result: RunResult | None, batch: Batch) -> dict[str, Any]:
    """One file's line of the batch (``--jsonl``, the closing table)."""
    if result is None:
        return {**unfinished_row(handle), "seconds": batch.seconds(handle.run_id)}
    return {
        "file": result.file,
        "run_id": result.run_id,
        "status": result.status,
        "tests_passing": result.summary.tests_passing,
        "tests_total": result.summary.tests_total,
        "tokens_used": result.summary.tokens_used,
        "cost": result.summary.cost,
        "reasons": result.reasons,
        "seconds": batch.seconds(result.run_id),
    }


def unfinished_row(handle: RunHandle) -> dict[str, object]:
    """A run that gave no result, for ``--json``: how it ended and what it spent."""
    last = handle.history[-1] if handle.history else None
    summary = last.summary if isinstance(last, RunFinished) else None
    return {
        "file": handle.file,
        "run_id": handle.run_id,
        "status": last.status if isinstance(last, RunFinished) else "paused",
        "failure_reason": last.failure_reason if isinstance(last, RunFinished) else None,
        "tokens_used": summary.tokens_used if summary else None,
        "cost": summary.cost if summary else None,
    }


def no_result(handle: RunHandle) -> str:
    """Why a run gave no result: it stopped (failed, cancelled) or it waits for an answer."""
    ended = unfinished_row(handle)
    if ended["status"] != "paused":
        reason = f": {ended['failure_reason']}" if ended["failure_reason"] else ""
        tokens, cost = ended["tokens_used"], ended["cost"]
        priced = cost if isinstance(cost, float) else None
        spent = ""
        if isinstance(tokens, int) and tokens:
            spent = f"; {spent_text(tokens, priced)} spent"
        return f"{ended['status']} (run {handle.run_id}){reason}{spent}"
    return (
        f"paused for input (run {handle.run_id}); answer with "
        f"`testmend resume {handle.run_id} --answer retry|apply_partial|discard|TEXT`"
    )


def report(
    args: argparse.Namespace,
    root: Path,
    results: list[RunResult],
    problems: list[str],
    unfinished: list[dict[str, object]] | None = None,
    batch: Batch | None = None,
) -> int:
    """Prints the results (a diff and a line each, or ``--json``; with ``--jsonl`` the lines
    are out already); exit status 0 when every file has an accepted result. ``unfinished``:
    runs without a result (failed, cancelled, paused), listed in ``--json`` besides their line
    in ``problems``."""
    written: dict[str, str] = {}
    accept_review = bool(getattr(args, "accept_review", False))
    if getattr(args, "write", False):
        for result in results:
            try:
                written[result.run_id] = _write_result(root, result, accept_review)
            except OSError as exc:
                written[result.run_id] = f"not written: {exc}"
    if args.json:
        payload = {
            "results": [
                {
                    **result.model_dump(mode="json", exclude={"original", "content"}),
                    **exported(result),
                    "tests_pass": result.tests_pass,
                    "accepted": result.applies,
                    "written": written.get(result.run_id),
                    "seconds": batch.seconds(result.run_id) if batch else None,
                }
                for result in results
            ],
            "unfinished": unfinished or [],
            "problems": problems,
        }
        print(json.dumps(payload, indent=2))
    elif getattr(args, "jsonl", False):
        for result in results:
            if written.get(result.run_id):
                print(f"{result.file}: {written[result.run_id]}", file=sys.stderr)
        for problem in problems:
            print(f"testmend: {problem}", file=sys.stderr)
    else:
        for result in results:
            print(result.diff, end="" if result.diff.endswith("\n") else "\n")
            print(result_line(result, written.get(result.run_id)), file=sys.stderr)
            if result.sandbox.startswith("unsandboxed"):
                print(f"  ran {result.sandbox}", file=sys.stderr)
            if result.model_fallback:
                print(f"  tier: deterministic, because {result.model_fallback}", file=sys.stderr)
            print(f"  report: {result.report_path}", file=sys.stderr)
        for problem in problems:
            print(f"testmend: {problem}", file=sys.stderr)
        if results:
            print(f"testmend: {_outcome_line(args, results, written)}", file=sys.stderr)
    ok = bool(results) and not problems
    if not results and not problems and getattr(args, "shard", None) is not None:
        return 0  # a shard with no file: nothing to do is not a failure
    ok = ok and all(_accepted(r, written.get(r.run_id), accept_review) for r in results)
    return 0 if ok else 1


def _files(n: int) -> str:
    return f"{n} file" + ("" if n == 1 else "s")


def _outcome_line(
    args: argparse.Namespace, results: list[RunResult], written: dict[str, str]
) -> str:
    """The last line: what was written, and what to do next."""
    accepted = sum(1 for r in results if r.applies)
    review = sum(1 for r in results if r.status == "needs_review")
    if getattr(args, "write", False):
        done = sum(1 for w in written.values() if w.startswith("written"))
        line = f"wrote {_files(done)} of {len(results)}"
        if done:
            line += " (`git diff` shows them, `git checkout -- FILE` undoes one)"
        if review and not getattr(args, "accept_review", False):
            line += f"; {_files(review)} need review: read the report, then add --accept-review"
        return line
    line = f"nothing written; {accepted} of {len(results)} accepted"
    if review:
        line += f", {review} need review"
    if accepted or review:
        hint = "--write" if not review else "--write (and --accept-review for those in review)"
        them = "it" if accepted + review == 1 else "them"
        return f"{line}. Read the report above, then run again with {hint} to write {them}"
    return f"{line}. The report above says why and what is left"


def migrate(args: argparse.Namespace) -> int:
    return run_until_stopped(_run_many(args, "migrate"))


def fix(args: argparse.Namespace) -> int:
    return run_until_stopped(_run_many(args, "fix"))

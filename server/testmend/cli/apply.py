"""``testmend apply --from DIR``: the results of a CI matrix (``testmend migrate --shard I/N
--json`` in each job) written into a checkout, with the policy and the stale check of
``--write`` (``engine/exported.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..engine.changes import write_result
from ..engine.exported import Imported, read_outputs
from ..engine.pg_store import PostgresRunStore
from ..engine.stores import open_store
from .targets import environ_of, project_of


def apply(args: argparse.Namespace) -> int:
    root = project_of(args)
    if root is None:
        return 2
    if args.source is None:
        found = _from_store(args, root)
        if isinstance(found, int):
            return found
        what = f"batch {args.batch}" if args.batch else "the store"
    else:
        source = Path(args.source).expanduser()
        if not source.is_dir():
            print(f"testmend: {source}: no such folder", file=sys.stderr)
            return 2
        found = read_outputs(source, root)
        if not found.outputs:
            for problem in found.problems:
                print(f"testmend: {problem}", file=sys.stderr)
            print(f"testmend: no `testmend migrate --json` output in {source}", file=sys.stderr)
            return 2
        what = f"{found.outputs} outputs"
    rows: list[dict[str, Any]] = []
    accepted = 0
    for result in found.results:
        accepted += result.applies or (args.accept_review and result.status == "needs_review")
        stale = found.stale.get(result.run_id)
        if stale == "already has this result":
            rows.append(_row(result.file, result.run_id, result.status, False, "nothing to write: "
                             "the file already has this result", done=True))  # fmt: skip
            continue
        if stale is not None:
            rows.append(_row(result.file, result.run_id, result.status, False, f"not written: "
                             f"{result.file} {stale}"))  # fmt: skip
            continue
        try:
            written = write_result(root, result, accept_review=args.accept_review)
        except OSError as exc:
            rows.append(
                _row(result.file, result.run_id, result.status, False, f"not written: {exc}")
            )
            continue
        message = written.message.replace(
            "accepting the review writes it", "--accept-review writes it"
        )
        rows.append(_row(result.file, result.run_id, result.status, written.written, message))
    wrote = sum(1 for r in rows if r["written"])
    if args.json:
        print(json.dumps({"files": rows, "problems": found.problems, "written": wrote}, indent=2))
    else:
        for row in rows:
            print(f"{row['file']}: {row['status']}: {row['message']}", file=sys.stderr)
        for problem in found.problems:
            print(f"testmend: {problem}", file=sys.stderr)
        line = f"wrote {wrote} of {len(rows)} results from {what}"
        if wrote:
            line += " (`git diff` shows them)"
        print(f"testmend: {line}", file=sys.stderr)
    # 0: every result accepted (by the engine, or with --accept-review) and in the checkout now
    done = all(r["done"] for r in rows)
    return 0 if not found.problems and accepted == len(rows) and done else 1


def _row(
    file: str, run_id: str, status: str, written: bool, message: str, *, done: bool = False
) -> dict[str, Any]:
    return {
        "file": file,
        "run_id": run_id,
        "status": status,
        "written": written,
        "done": written or done,
        "message": message,
    }


def _from_store(args: argparse.Namespace, root: Path) -> Imported | int:
    """The results kept in the team's store (a batch's, or each file's newest)."""
    from ..config import ConfigError, load_config
    from ..engine import EngineError
    from .team import NO_STORE, stored_results

    try:
        config = load_config(root, environ=environ_of(args))
        store = open_store(root, config.store.location)
        if not isinstance(store, PostgresRunStore):
            said = (
                NO_STORE
                if args.batch
                else (
                    "name the results to write: --from DIR (a CI matrix's `migrate --json` "
                    "outputs), or a team's store (--store URL, with --batch ID for one batch)"
                )
            )
            print(f"testmend: {said}", file=sys.stderr)
            return 2
        found = stored_results(root, store, args.batch)
    except (ConfigError, EngineError) as exc:
        print(f"testmend: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"testmend: {exc.args[0]}", file=sys.stderr)
        return 2
    if not found.results and not found.problems:
        print("testmend: no result in the store yet (the batch's runs still going?)",
              file=sys.stderr)  # fmt: skip
        return 1
    return found

"""The command line's parsers. Handlers are imported when their command runs: the engine
(langgraph, langchain) loads only for the commands that need it, so ``testmend serve`` starts
without it."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable

CONFIGURED = "configured"
"""``--broker`` without a URL: the one ``team.broker`` names."""


def lazy(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A handler that imports ``module`` (relative to ``testmend.cli``) when it is called."""

    def handler(args: argparse.Namespace) -> int:
        function = getattr(importlib.import_module(module, __package__), name)
        code: int = function(args)
        return code

    return handler


def _jobs(value: str) -> int:
    jobs = int(value)
    if not 1 <= jobs <= 32:
        raise argparse.ArgumentTypeError("from 1 to 32")
    return jobs


def _shard(value: str) -> tuple[int, int]:
    index, sep, count = value.partition("/")
    if not (sep and index.isdigit() and count.isdigit()) or not 1 <= int(index) <= int(count):
        raise argparse.ArgumentTypeError("I/N with 1 <= I <= N, as 2/4")
    return int(index), int(count)


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, help_text in (
        ("migrate", "migrate Enzyme test files (or folders of them) to Testing Library"),
        ("fix", "fix the lint and type errors of test files (enters at the lint step)"),
    ):
        parser = sub.add_parser(name, help=help_text, description=help_text)
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--offline", action="store_true", help="deterministic tier only")
        output = parser.add_mutually_exclusive_group()
        output.add_argument("--json", action="store_true", help="machine-readable results")
        output.add_argument(
            "--jsonl",
            action="store_true",
            help="one JSON line per file on stdout as it ends (for CI logs)",
        )
        parser.add_argument(
            "--jobs",
            type=_jobs,
            metavar="N",
            help="files worked on at once (default: maxConcurrentRuns, 2)",
        )
        _write_options(parser)
        parser.add_argument(
            "--shard",
            type=_shard,
            metavar="I/N",
            help="only the I-th of N slices of the files (a CI matrix job; "
            "`testmend apply --from DIR` merges their --json outputs)",
        )
        parser.add_argument("--instructions", help="extra instructions for the agents")
        _store_option(parser)
        parser.add_argument(
            "--broker",
            nargs="?",
            const=CONFIGURED,
            metavar="URL",
            help="send a task per file to the team's workers (`testmend worker`) on this "
            "broker (redis://, amqp://; alone: team.broker) and follow the batch; the runs "
            "are kept in the --store",
        )
        parser.add_argument(
            "--detach",
            action="store_true",
            help="with --broker, return once the tasks are sent "
            "(`testmend runs --batch ID` follows them)",
        )
        if name == "migrate":
            parser.add_argument(
                "--from-step",
                choices=["lint", "typescript"],
                help="treat the file as already migrated and start at this step",
            )
        parser.set_defaults(handler=lazy(".runs", name))

    help_text = "list the runs recorded in the project's .testmend/ (newest last)"
    parser = sub.add_parser("runs", help=help_text, description=help_text)
    parser.add_argument(
        "project", nargs="?", default=".", help="project folder or a file in it (default: .)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable records")
    _store_option(parser)
    parser.add_argument(
        "--batch",
        metavar="ID",
        help="a queue's batch (`migrate --broker`): followed until every run of it ended",
    )
    parser.add_argument(
        "--now", action="store_true", help="with --batch, its runs as they are now (no waiting)"
    )
    parser.set_defaults(handler=lazy(".history", "runs"))

    help_text = (
        "write accepted results into this checkout: a CI matrix's `migrate --json` outputs "
        "(--from DIR) or a team store's runs (--store, --batch)"
    )
    parser = sub.add_parser("apply", help=help_text, description=help_text)
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--from",
        dest="source",
        metavar="DIR",
        help="a folder of `testmend migrate --json` outputs (searched recursively)",
    )
    source.add_argument(
        "--batch",
        metavar="ID",
        help="the results of a queue's batch (`migrate --broker`), from the store (without "
        "--from or --batch: each file's newest result in the store)",
    )
    _store_option(parser)
    parser.add_argument("--project", default=".", help="the checkout to write into (default: .)")
    parser.add_argument(
        "--accept-review",
        action="store_true",
        help="also write results that need review (you accept them)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable outcome")
    parser.set_defaults(handler=lazy(".apply", "apply"))

    help_text = "take a team's tasks (`migrate --broker`) in this checkout, until stopped"
    parser = sub.add_parser("worker", help=help_text, description=help_text + ": only the "
                            "tasks of the commit it has checked out; its runs are kept in the "
                            "team's store (docs/scale.md)")  # fmt: skip
    parser.add_argument("--broker", metavar="URL", help="the broker (else team.broker)")
    _store_option(parser)
    parser.add_argument(
        "--concurrency", type=_jobs, default=1, metavar="N", help="files at once (default: 1)"
    )
    parser.add_argument("--project", default=".", help="the checkout (default: .)")
    parser.add_argument("--offline", action="store_true", help="deterministic tier only")
    parser.set_defaults(handler=lazy(".team", "worker"))

    help_text = "continue a paused or interrupted run (or, with --all, every interrupted one)"
    parser = sub.add_parser("resume", help=help_text, description=help_text)
    parser.add_argument("run_id", nargs="?", help="the run's id, as `testmend runs` lists it")
    parser.add_argument(
        "--all", action="store_true", help="every interrupted run of the project, one by one"
    )
    parser.add_argument(
        "--project", default=".", help="the project the run belongs to (default: .)"
    )
    parser.add_argument(
        "--answer", help="answer to a paused run: retry, apply_partial, discard or text"
    )
    parser.add_argument("--offline", action="store_true", help="deterministic tier only")
    parser.add_argument("--json", action="store_true", help="machine-readable results")
    _write_options(parser)
    _store_option(parser)
    parser.set_defaults(handler=lazy(".history", "resume"))


def _store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="URL",
        help="where runs are kept: a postgresql:// URL (as store.url; prefer "
        "TESTMEND_STORE__URL when it holds a password: a command line is visible to others)",
    )


def _write_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--write", action="store_true", help="write the results the engine accepted"
    )
    parser.add_argument(
        "--accept-review",
        action="store_true",
        help="with --write, also write results that need review (you accept them)",
    )

"""The ``testmend`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import __version__
from .commands import add_parsers


def _doctor(args: argparse.Namespace) -> int:
    from ..doctor import render_report, run_doctor

    report = run_doctor(Path(args.path))
    if args.json:
        print(json.dumps({"ready": report.ready, **report.model_dump(mode="json")}, indent=2))
    else:
        print(render_report(report))
    return 0 if report.ready else 1


def _serve(args: argparse.Namespace) -> int:
    from ..lsp.server import main as serve  # imported late: the other commands start faster

    log_file = Path(args.log_file).expanduser() if args.log_file else None
    return serve(tcp=args.tcp, verbose=args.verbose, log_file=log_file)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="testmend",
        description="Migrate React test suites from Enzyme to React Testing Library.",
    )
    parser.add_argument("--version", action="version", version=f"testmend {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    doctor = sub.add_parser(
        "doctor",
        help="check a project: tools found, versions, what is missing and how to fix it",
        description="Report what testmend finds in a project and what is missing, with the fix "
        "for each. Exit status 0 when a migration can run.",
    )
    doctor.add_argument("path", nargs="?", default=".", help="project folder or a file in it")
    doctor.add_argument("--json", action="store_true", help="print a machine-readable report")
    doctor.set_defaults(handler=_doctor)
    add_parsers(sub)
    serve = sub.add_parser(
        "serve",
        help="run the language server (LSP over stdio, or TCP with --tcp)",
        description="Run testmend's language server for an editor. Speaks LSP over stdio "
        "unless --tcp is given.",
    )
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    serve.add_argument(
        "--verbose",
        action="store_true",
        help="also log each run's progress lines and the messages shown to the user (INFO)",
    )
    serve.add_argument(
        "--log-file",
        metavar="PATH",
        help="also log to this file, with times (appended; stderr still gets the log)",
    )
    serve.set_defaults(handler=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        print("testmend: interrupted", file=sys.stderr)
        return 130
    return code

"""The ``testmend`` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
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


Handler = Callable[[argparse.Namespace], int]


def build_parser(
    serve: Handler | None = None, mcp: Handler | None = None
) -> argparse.ArgumentParser:
    """The command line's parser; ``serve`` and ``mcp``: the handlers of ``testmend serve`` and
    ``testmend mcp`` (the language server and the MCP server are other faces: the program's
    entry point, ``testmend.main``, hands them in)."""
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
    serving = sub.add_parser(
        "serve",
        help="run the language server (LSP over stdio, or TCP with --tcp)",
        description="Run testmend's language server for an editor. Speaks LSP over stdio "
        "unless --tcp is given.",
    )
    serving.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    serving.add_argument(
        "--verbose",
        action="store_true",
        help="also log each run's progress lines and the messages shown to the user (INFO)",
    )
    serving.add_argument(
        "--log-file",
        metavar="PATH",
        help="also log to this file, with times (appended; stderr still gets the log)",
    )
    serving.set_defaults(handler=serve or _no_server)
    mcp_server = sub.add_parser(
        "mcp",
        help="run the MCP server (stdio, or Streamable HTTP with --http) for agentic IDEs",
        description="Run testmend's MCP server for an agent (VS Code, Claude Code, Cursor): "
        "find Enzyme tests, migrate them, check a migration the agent wrote, apply results. "
        "Speaks MCP over stdio unless --http is given.",
    )
    mcp_server.add_argument(
        "--project", default=".", help="the project (default: the one the current folder is in)"
    )
    mcp_server.add_argument("--http", metavar="HOST:PORT", help="serve Streamable HTTP here")
    mcp_server.set_defaults(handler=mcp or _no_server)
    return parser


def _no_server(args: argparse.Namespace) -> int:
    print(f"testmend: this entry point has no {args.command} server", file=sys.stderr)
    return 2


def main(
    argv: Sequence[str] | None = None,
    *,
    serve: Handler | None = None,
    mcp: Handler | None = None,
) -> int:
    """Every error a user can cause ends in one line and a non-zero status, never a traceback:
    a closed pipe (``testmend runs --json | head``) ends quietly; a file system that refuses a
    write (read-only, full) is named."""
    args = build_parser(serve, mcp).parse_args(argv)
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        print("testmend: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away: nothing more can be said on stdout (nor flushed at exit).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(f"testmend: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return code

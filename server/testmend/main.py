"""The ``testmend`` program: the command line, ``testmend serve`` (the language server) and
``testmend mcp`` (the MCP server). The faces never import each other; this entry point joins them
(and imports a server only for its command: the other commands start faster without it)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from . import cli


def serve(args: argparse.Namespace) -> int:
    """``testmend serve``: the language server over stdio, or TCP."""
    from .lsp.server import main as run_server

    log_file = Path(args.log_file).expanduser() if args.log_file else None
    return run_server(tcp=args.tcp, verbose=args.verbose, log_file=log_file)


def mcp(args: argparse.Namespace) -> int:
    """``testmend mcp``: the MCP server over stdio, or Streamable HTTP."""
    from .mcp.server import main as run_server

    return run_server(Path(args.project), http=args.http)


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, serve=serve, mcp=mcp)

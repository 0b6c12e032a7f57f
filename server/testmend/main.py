"""The ``testmend`` program: the command line, and ``testmend serve``, the language server. The
two faces never import each other; this entry point joins them (and imports the language server
only for ``serve``: the other commands start faster without it)."""

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


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, serve=serve)

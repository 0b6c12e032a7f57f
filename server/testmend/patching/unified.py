"""Results as a git-style unified diff (what reports and the editor's preview show)."""

from __future__ import annotations

import difflib

from ._paths import clean_path

__all__ = ["unified_diff"]

_NO_NEWLINE = "\\ No newline at end of file\n"


def _split_keepends(text: str) -> list[str]:
    """Lines with their endings, split at ``\\n`` only (what diff tools treat as a line)."""
    lines = text.split("\n")
    keep = [f"{line}\n" for line in lines[:-1]]
    if lines[-1]:
        keep.append(lines[-1])
    return keep


def unified_diff(original: str, updated: str, path: str, *, context: int = 3) -> str:
    """A git-style diff (``diff --git a/p b/p``, ``--- a/p``, ``+++ b/p``); "" when equal.

    Lines keep their own endings (a CRLF file gives ``\\r\\n`` lines) and a last line without
    a newline gets git's ``\\ No newline at end of file`` marker.
    """
    if original == updated:
        return ""
    name = clean_path(path)
    out = [f"diff --git a/{name} b/{name}\n"]
    for line in difflib.unified_diff(
        _split_keepends(original),
        _split_keepends(updated),
        fromfile=f"a/{name}",
        tofile=f"b/{name}",
        n=context,
    ):
        out.append(line if line.endswith("\n") else f"{line}\n{_NO_NEWLINE}")
    return "".join(out)

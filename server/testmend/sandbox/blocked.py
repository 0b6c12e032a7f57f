"""Tell what the sandbox blocked apart from a failing test: "blocked by the sandbox: <path>".

A test that writes outside the workspace gets EROFS (bubblewrap), EACCES (Landlock, Seatbelt)
or EPERM; one that reads a hidden secret gets ENOENT (an empty tmpfs) or an empty file; one that
reaches for the network gets a DNS failure or an unreachable network. The raw message stays
(the stack is useful); a plain line in front of it says what happened and why.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .policy import SandboxPolicy

_FS_ERROR = re.compile(r"\b(?P<code>EROFS|EACCES|EPERM|ENOENT)\b[^\n']*?'(?P<path>[^'\n]+)'")
_NET_ERROR = re.compile(
    r"\b(?:getaddrinfo (?:EAI_AGAIN|ENOTFOUND) (?P<host>[\w.-]+)"
    r"|connect (?:ENETUNREACH|ECONNREFUSED|EACCES|EPERM) (?P<addr>[\w.:\[\]-]+))"
)
_LEAD = "blocked by the sandbox"


def explain(text: str, policy: SandboxPolicy) -> str:
    """``text`` with a line per blocked access in front; unchanged when nothing was blocked."""
    if _LEAD in text:
        return text
    notes: list[str] = []
    for match in _FS_ERROR.finditer(text):
        # Relative paths are the command's (the workspace); links resolve to where they lead.
        path = Path(os.path.realpath(policy.workdir / match["path"]))
        if policy.is_hidden(path):
            notes.append(f"{_LEAD}: {path} (secrets outside the workspace are hidden)")
        elif match["code"] != "ENOENT" and not policy.may_write(path):
            notes.append(
                f"{_LEAD}: {path} (tests may write only in the workspace and its temp dir)"
            )
    for match in _NET_ERROR.finditer(text):
        target = match["host"] or match["addr"]
        notes.append(f"{_LEAD}: network access to {target} (tests run without network)")
    if not notes:
        return text
    return "\n".join(dict.fromkeys(notes)) + "\n" + text

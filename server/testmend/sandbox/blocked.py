"""Tell what the sandbox blocked apart from a failing test: "blocked by the sandbox: <path>".

A test that writes outside the workspace gets EROFS (bubblewrap), EACCES (Landlock, Seatbelt)
or EPERM; one that reads a hidden secret gets ENOENT (an empty tmpfs) or an empty file; one that
reaches for the network gets a DNS failure or an unreachable network. The raw message stays
(the stack is useful); a plain line in front of it says what happened and why.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from .policy import SandboxPolicy

_FS_ERROR = re.compile(r"\b(?P<code>EROFS|EACCES|EPERM|ENOENT)\b[^\n']*?'(?P<path>[^'\n]+)'")
_NET_ERROR = re.compile(
    r"\b(?:getaddrinfo (?:EAI_AGAIN|ENOTFOUND) (?P<host>[\w.-]+)"
    r"|connect (?:ENETUNREACH|ECONNREFUSED|EACCES|EPERM) (?P<addr>[\w.:\[\]-]+))"
)
_LEAD = "blocked by the sandbox"


def explain(text: str, policy: SandboxPolicy, proxy_blocked: Sequence[str] = ()) -> str:
    """``text`` with a line per blocked access in front; unchanged when nothing was blocked.

    ``proxy_blocked``: the ``host:port`` the allow-list proxy refused during the run; named
    where the text mentions the host (the client shows only a 403).
    """
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
    why = (
        "tests reach only the hosts in sandbox.network, through the proxy in HTTP(S)_PROXY"
        if policy.network
        else "tests run without network"
    )
    direct = set()
    for match in _NET_ERROR.finditer(text):
        target = match["host"] or match["addr"]
        direct.add(target)
        notes.append(f"{_LEAD}: network access to {target} ({why})")
    if not direct and ("403" in text or any(t.rsplit(":", 1)[0] in text for t in proxy_blocked)):
        for target in dict.fromkeys(proxy_blocked):
            notes.append(f"{_LEAD}: network access to {target} (not in sandbox.network)")
    if not notes:
        return text
    return "\n".join(dict.fromkeys(notes)) + "\n" + text

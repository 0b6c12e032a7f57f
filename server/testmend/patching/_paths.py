"""Comparing the file path an agent wrote with the path being edited."""

from __future__ import annotations

import re

__all__ = ["clean_path", "same_file"]

_DIFF_PREFIX = re.compile(r"^[abciow12]/")


def clean_path(raw: str, *, diff_prefix: bool = False) -> str:
    path = raw.strip().strip("`'\"*").strip().replace("\\", "/")
    if diff_prefix:
        path = _DIFF_PREFIX.sub("", path, count=1)
    while path.startswith("./"):
        path = path[2:]
    return path


def same_file(written: str, expected: str) -> bool:
    """Whether ``written`` names ``expected``: equal, or one ends with the other's components.

    Agents write ``src/Button.test.tsx`` for ``examples/app/src/Button.test.tsx``, or an absolute
    path; both are accepted, another file name is not.
    """
    left = [part for part in clean_path(written).split("/") if part not in ("", ".")]
    right = [part for part in clean_path(expected).split("/") if part not in ("", ".")]
    if not left or not right:
        return False
    shorter, longer = sorted((left, right), key=len)
    return longer[len(longer) - len(shorter) :] == shorter

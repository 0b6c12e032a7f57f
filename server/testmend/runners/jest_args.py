"""What testmend changes in a project's jest command: the reporters it names go (testmend's
runs print with jest's default reporter and read results from a file)."""

from __future__ import annotations

from collections.abc import Sequence


def without_reporters(argv: Sequence[str]) -> list[str]:
    """A jest command without the reporters it names (``--reporters=x``, ``--reporters x``)."""
    kept: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--reporters":
            skip = True
        elif not word.startswith("--reporters="):
            kept.append(word)
    return kept

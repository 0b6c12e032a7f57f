"""The one path-resolution function every part of testmend uses.

Tools, runners and the agent only ever see paths *relative to the project root*.
:func:`resolve_in_root` turns such a path into an absolute one and refuses anything that
would leave the root: absolute paths (POSIX, Windows drive and UNC forms), ``~``, any ``..``
component, NUL bytes, the empty string, and symlinks whose target lies outside the root
(also for files that do not exist yet, by resolving the nearest existing ancestor).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

__all__ = ["PathEscapeError", "is_within", "resolve_in_root", "split_relative", "to_relative"]

_DRIVE_RE = re.compile(r"^[A-Za-z]:")


class PathEscapeError(ValueError):
    """A path that is not a safe location inside the project root."""

    def __init__(self, path: object, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"refusing path {_show(path)}: {reason}")


def _show(path: object) -> str:
    text = os.fspath(path) if isinstance(path, os.PathLike) else path
    return repr(text)


def split_relative(relative: str | os.PathLike[str]) -> tuple[str, ...]:
    """Validate a project-relative path lexically and return its components.

    Accepts POSIX (``/``) and Windows (``\\``) separators. ``"."`` (or ``"./"``) means the root
    itself and yields ``()``. Raises :class:`PathEscapeError` for anything that is not a plain
    relative path.
    """
    if not isinstance(relative, str | os.PathLike):
        raise PathEscapeError(relative, f"expected a path string, got {type(relative).__name__}")
    text = os.fspath(relative)
    if not isinstance(text, str):
        raise PathEscapeError(relative, "expected a text path, not bytes")
    if text == "":
        raise PathEscapeError(relative, "the path is empty (use '.' for the project root)")
    if "\x00" in text:
        raise PathEscapeError(relative, "the path contains a NUL byte")
    if text.startswith(("/", "\\")):
        raise PathEscapeError(
            relative, "absolute paths are not allowed; use a project-relative path"
        )
    if _DRIVE_RE.match(text):
        raise PathEscapeError(
            relative, "Windows drive paths are not allowed; use a project-relative path"
        )
    if text.startswith("~"):
        raise PathEscapeError(relative, "home-directory paths ('~') are not allowed")
    parts = tuple(p for p in re.split(r"[\\/]", text) if p not in ("", "."))
    if ".." in parts:
        raise PathEscapeError(relative, "'..' components are not allowed")
    if os.name == "nt" and any(":" in part for part in parts):  # drive-relative / ADS forms
        raise PathEscapeError(relative, "':' is not allowed in a path component")
    return parts


def is_within(path: str, base: str) -> bool:
    """Whether ``path`` equals ``base`` or lies below it (plain string check, no symlinks)."""
    path = os.path.normcase(path)
    base = os.path.normcase(base)
    if path == base:
        return True
    prefix = base if base.endswith(os.sep) else base + os.sep
    return path.startswith(prefix)


def resolve_in_root(
    root: Path,
    relative: str | os.PathLike[str],
    *,
    extra_read_roots: Sequence[Path] = (),
) -> Path:
    """Resolve ``relative`` against ``root`` and refuse every way out of the root.

    Returns the absolute path ``<root>/<relative>`` (lexically normalised, symlinks *not*
    replaced, so callers keep seeing paths under ``root``). The path need not exist: the check
    follows every symlink on the way (including a dangling last one) with
    :func:`os.path.realpath`, and the result must stay inside ``realpath(root)``, or inside one
    of ``extra_read_roots`` (callers pass those only for reads, e.g. the user's ``node_modules``
    that a shadow workspace links to).
    """
    parts = split_relative(relative)
    root_abs = Path(os.path.abspath(root))
    candidate = root_abs.joinpath(*parts)
    real_root = os.path.realpath(root_abs)
    real = os.path.realpath(candidate)
    if is_within(real, real_root):
        return candidate
    for extra in extra_read_roots:
        if is_within(real, os.path.realpath(extra)):
            return candidate
    raise PathEscapeError(
        relative, f"a symlink leads outside the project root {str(root_abs)!r} (to {real!r})"
    )


def to_relative(root: Path, path: Path | str) -> str:
    """Turn a path inside ``root`` into a POSIX project-relative path (``"."`` for the root).

    An absolute path is compared with ``root`` lexically first, then by real paths (so
    ``/tmp/x`` and ``/private/tmp/x`` on macOS both work). A relative path is validated like
    :func:`resolve_in_root` validates it. Raises :class:`PathEscapeError` when the path is
    outside the root. This is a naming function: it does not check where symlinks under the
    root lead; resolve the result with :func:`resolve_in_root` before touching the file.
    """
    text = os.fspath(path)
    if not os.path.isabs(text):
        parts = split_relative(text)
        return PurePosixPath(*parts).as_posix() if parts else "."
    if "\x00" in text:
        raise PathEscapeError(path, "the path contains a NUL byte")
    root_abs = os.path.abspath(root)
    abs_path = os.path.abspath(text)
    if not is_within(abs_path, root_abs):
        real_root = os.path.realpath(root_abs)
        real_path = os.path.realpath(abs_path)
        if not is_within(real_path, real_root):
            raise PathEscapeError(path, f"it is outside the project root {root_abs!r}")
        root_abs, abs_path = real_root, real_path
    rel = os.path.relpath(abs_path, root_abs)
    return Path(rel).as_posix()

"""Errors the project tools raise: each message is written for the agent (and the user) to read.

Every error is a :class:`ProjectToolError` (a :class:`ValueError`), so a tool wrapper can catch
``TOOL_ERRORS`` and hand ``str(error)`` back to the model. Paths that leave the project root
raise :class:`testmend.workspace.paths.PathEscapeError` (also a :class:`ValueError`).
"""

from __future__ import annotations

from testmend.workspace.paths import PathEscapeError

__all__ = [
    "TOOL_ERRORS",
    "BinaryFileError",
    "FileMissingError",
    "FileTooLargeError",
    "InvalidPatternError",
    "NotAFileError",
    "ProjectToolError",
    "RefusedPathError",
]


class ProjectToolError(ValueError):
    """Base class: a request a project tool cannot serve (the message says why)."""


class FileMissingError(ProjectToolError):
    """The path does not exist."""


class NotAFileError(ProjectToolError):
    """The path is a directory (or something else that is not a regular file)."""


class BinaryFileError(ProjectToolError):
    """The file is not text."""


class FileTooLargeError(ProjectToolError):
    """The file is larger than the tool reads."""


class RefusedPathError(ProjectToolError):
    """The path is inside the project but off limits (``.git``, ``.testmend``, secrets)."""


class InvalidPatternError(ProjectToolError):
    """A glob or regular expression that cannot be used."""


TOOL_ERRORS: tuple[type[ValueError], ...] = (ProjectToolError, PathEscapeError)
"""Catch these around a tool call and return ``str(error)`` to the model."""

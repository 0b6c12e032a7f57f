"""The shadow workspace's errors."""

from __future__ import annotations


class ShadowWorkspaceError(RuntimeError):
    """The shadow workspace could not be created, used or removed."""


class ShadowWorkspaceCancelled(ShadowWorkspaceError):
    """Creation was cancelled (everything it had made is removed)."""

"""The shadow workspace and the one path-resolution function (see DESIGN.md, ``workspace/``)."""

from .paths import PathEscapeError, is_within, resolve_in_root, split_relative, to_relative
from .pool import acquire_workspace, acquire_workspace_async, collect_stale_slots
from .shadow import (
    GIT_TIMEOUT_SECONDS,
    WORKSPACES_DIR_ENV,
    ShadowWorkspace,
    ShadowWorkspaceCancelled,
    ShadowWorkspaceError,
    WorkspaceKind,
    collect_stale_workspaces,
    create_shadow_workspace,
    create_shadow_workspace_async,
    default_workspaces_dir,
)

__all__ = [
    "GIT_TIMEOUT_SECONDS",
    "WORKSPACES_DIR_ENV",
    "PathEscapeError",
    "ShadowWorkspace",
    "ShadowWorkspaceCancelled",
    "ShadowWorkspaceError",
    "WorkspaceKind",
    "acquire_workspace",
    "acquire_workspace_async",
    "collect_stale_slots",
    "collect_stale_workspaces",
    "create_shadow_workspace",
    "create_shadow_workspace_async",
    "default_workspaces_dir",
    "is_within",
    "resolve_in_root",
    "split_relative",
    "to_relative",
]

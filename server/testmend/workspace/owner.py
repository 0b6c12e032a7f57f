"""Owner records (who holds a workspace, locked while it lives), liveness, and the base
directory of the workspaces."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..layout import TEMP_DIR_PREFIX
from .errors import ShadowWorkspaceError
from .paths import is_within

if sys.platform != "win32":
    import fcntl

#: Environment variable that overrides the default workspaces directory.
WORKSPACES_DIR_ENV = "TESTMEND_WORKSPACES_DIR"
OWNER_FILE = "owner.json"
OWNER_FORMAT = 1


def proc_stat(pid: int) -> tuple[str, str] | None:
    """(state, start time in clock ticks since boot) from /proc, or None where unavailable."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = data[data.rindex(")") + 2 :].split()
    return fields[0], fields[19]


def process_alive(pid: int, start_time: str | None) -> bool:
    if sys.platform == "win32":  # pragma: no cover - no safe liveness probe without psutil
        return True
    if pid <= 0:
        return False
    try:
        # PermissionError: it exists, owned by someone else; its start time decides.
        with contextlib.suppress(PermissionError):
            os.kill(pid, 0)
    except ProcessLookupError:
        return False
    info = proc_stat(pid)
    if info is None:
        return True
    state, started = info
    if state in ("Z", "X"):
        return False
    return start_time is None or started == start_time


def flock(fd: int, *, blocking: bool) -> bool:
    if sys.platform == "win32":  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def write_owner(container: Path, record: Mapping[str, Any]) -> int:
    """Write owner.json atomically, locked; return the fd that holds the lock."""
    tmp = container / f".{OWNER_FILE}.tmp"
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        flock(fd, blocking=True)
        os.write(fd, json.dumps(record, indent=2).encode("utf-8"))
        os.replace(tmp, container / OWNER_FILE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_owner(path: Path) -> dict[str, Any] | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("pid"), int):
        return None
    return record


def user_tag() -> str:
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        return str(getuid())
    return re.sub(r"[^A-Za-z0-9._-]", "_", os.environ.get("USERNAME", "user"))  # pragma: no cover


def default_workspaces_dir() -> Path:
    """``$TESTMEND_WORKSPACES_DIR`` or ``<tmp>/testmend-<uid>/workspaces``."""
    configured = os.environ.get(WORKSPACES_DIR_ENV)
    if configured:
        return Path(os.path.abspath(os.path.expanduser(configured)))
    return Path(tempfile.gettempdir()) / f"{TEMP_DIR_PREFIX}{user_tag()}" / "workspaces"


def ensure_private_dir(path: Path) -> None:
    """Create ``path`` (mode 0700) and make sure it is ours and not a symlink (shared /tmp)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise ShadowWorkspaceError(f"{path} is not a directory (is it a symlink?)")
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        if st.st_uid != getuid():
            raise ShadowWorkspaceError(f"{path} belongs to another user; refusing to use it")
        if stat.S_IMODE(st.st_mode) & 0o077:
            os.chmod(path, 0o700)


def prepare_base_dir(base_dir: Path | None, project: Path, repo: Path | None) -> Path:
    base = Path(os.path.abspath(base_dir if base_dir is not None else default_workspaces_dir()))
    real = os.path.realpath(base)
    for inside, what in ((project, "the project"), (repo, "the project's git work tree")):
        if inside is not None and is_within(real, str(inside)):
            raise ShadowWorkspaceError(
                f"the workspaces directory {str(base)!r} is inside {what} ({str(inside)!r}); "
                "it must be outside, or jest and tsc would crawl the shadow copies. "
                f"Choose another base_dir or set ${WORKSPACES_DIR_ENV}."
            )
    if base_dir is None and not os.environ.get(WORKSPACES_DIR_ENV):
        ensure_private_dir(base.parent)
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ShadowWorkspaceError(f"cannot create the workspaces directory {base}: {exc}") from exc
    return Path(os.path.realpath(base))

"""What a sandboxed command may touch: the policy every backend enforces.

One :class:`SandboxPolicy` per working directory (a run's shadow workspace): the paths it may
write (the workspace and a private temp dir), the paths hidden from it (the user's secrets), the
hosts it may reach (none by default; through the allow-list proxy otherwise) and the environment
it gets (only what the tools need). Backends (bubblewrap, Landlock, Seatbelt) turn it into their
own terms.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..config import SandboxConfig

#: Under the user's home: credentials, keys, tokens and shell histories. Hidden (not readable).
HOME_SECRETS: tuple[str, ...] = (
    ".ssh",
    ".aws",
    ".azure",
    ".config",
    ".gnupg",
    ".docker",
    ".kube",
    ".netrc",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pypirc",
    ".git-credentials",
    ".password-store",
    ".local/share/keyrings",
    ".terraform.d",
    ".vault-token",
    ".claude",
    ".codex",
    ".mozilla",
    ".pki",
    ".bash_history",
    ".zsh_history",
    ".python_history",
    ".node_repl_history",
    ".psql_history",
    ".mysql_history",
)
#: System files with secrets that a root (or badly configured) account could read.
SYSTEM_SECRETS: tuple[str, ...] = ("/etc/shadow", "/etc/gshadow", "/etc/ssh", "/etc/sudoers.d")
#: ``.env`` files: hidden in the project root, its parents up to the repository and the home.
_DOTENV = re.compile(r"^\.env(\..+)?$")

# -- the environment ------------------------------------------------------------------------

#: Variables the project's tools may need, by exact name.
_ENV_NAMES = frozenset(
    {
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "CI",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "SYSTEMROOT",
        "COMSPEC",
        "PATHEXT",
    }
)
#: … and by prefix (node and its version managers, the usual test tooling, public build vars).
_ENV_PREFIXES = (
    "LC_",
    "NODE_",
    "NVM_",
    "VOLTA_",
    "FNM_",
    "BABEL_",
    "JEST_",
    "TS_NODE_",
    "REACT_APP_",
    "VITE_",
    "NEXT_PUBLIC_",
    "npm_config_",
)
#: Never passed on, whatever the prefix says, unless named in ``sandbox.env``.
_ENV_SECRET = re.compile(
    r"TOKEN|SECRET|PASSW|KEY|AUTH|CREDENTIAL|COOKIE|SESSION|PRIVATE|CERT_PASS", re.I
)
_ENV_SECRET_ALLOWED = frozenset({"SSL_CERT_FILE", "SSL_CERT_DIR"})
#: Set for every tool run: no colours (RTL's DOM dumps included), no watch mode, no prompts.
TOOL_ENV = {"CI": "true", "COLORS": "false", "FORCE_COLOR": "0", "NO_COLOR": "1"}


def tool_env(
    base: Mapping[str, str], *, passed: Iterable[str] = (), never: Iterable[str] = ()
) -> dict[str, str]:
    """The environment of the project's tools: ``base`` reduced to what they need.

    Kept: a short list of names and prefixes (PATH, HOME, locale, ``NODE_*``, ``JEST_*``, …)
    minus anything that looks like a credential; plus the names in ``passed`` (the
    configuration's ``sandbox.env``). ``never`` (the model's API key) goes in any case.
    """
    named = set(passed)
    banned = set(never) | {"OPENAI_API_KEY"}
    env: dict[str, str] = {}
    for name, value in base.items():
        if name in banned:
            continue
        if name in named:
            env[name] = value
            continue
        wanted = name in _ENV_NAMES or name.startswith(_ENV_PREFIXES)
        if wanted and (name in _ENV_SECRET_ALLOWED or not _ENV_SECRET.search(name)):
            env[name] = value
    env.update(TOOL_ENV)
    return env


# -- paths ----------------------------------------------------------------------------------


def _real(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(os.path.expanduser(os.fspath(path))))


def is_under(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


@dataclass(frozen=True)
class SandboxPolicy:
    """Real (symlink-free) absolute paths, so that every backend sees the same places."""

    workdir: Path
    """Where the command runs (the shadow workspace's project root)."""
    writable: tuple[Path, ...]
    """Writable trees: the workspace, the temp dir and ``sandbox.writable``."""
    temp_dir: Path
    """The private temp dir (``TMPDIR``): under the run's workspace, removed with it."""
    hidden: tuple[Path, ...]
    """Existing paths whose content the command cannot read."""
    readable: tuple[Path, ...] = ()
    """``sandbox.readable``: readable even if under a hidden path."""
    network: tuple[str, ...] = ()
    """``sandbox.network``: hosts reachable through the allow-list proxy; empty: none."""

    def environment(self, env: Mapping[str, str]) -> dict[str, str]:
        """``env`` with the temp dir set (node, jest's cache and most tools honour TMPDIR)."""
        temp = str(self.temp_dir)
        return {**env, "TMPDIR": temp, "TMP": temp, "TEMP": temp}

    def may_write(self, path: Path) -> bool:
        return is_under(path, self.writable)

    def is_hidden(self, path: Path) -> bool:
        return is_under(path, self.hidden) and not is_under(path, self.readable)

    def describe(self) -> str:
        writable = ", ".join(str(p) for p in self.writable)
        network = f"only {', '.join(self.network)} (proxy)" if self.network else "none"
        return f"writable: {writable}; network: {network}; {len(self.hidden)} secret paths hidden"


def _dotenv_files(directories: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for directory in directories:
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        found += [Path(e.path) for e in entries if _DOTENV.match(e.name) and e.is_file()]
    return found


def _between(start: Path, stop: Path | None) -> list[Path]:
    """``start`` and its parents up to ``stop`` (``start`` alone when ``stop`` is not above)."""
    if stop is None or not (stop == start or stop in start.parents):
        return [start]
    chain = [start]
    for parent in start.parents:
        if parent == stop or stop in parent.parents:
            chain.append(parent)
    return chain


def build_policy(
    settings: SandboxConfig,
    *,
    workdir: Path,
    writable: Sequence[Path],
    temp_dir: Path,
    project_root: Path,
    repo_root: Path | None = None,
    home: str | None = None,
) -> SandboxPolicy:
    """The policy for commands run in ``workdir``.

    ``writable`` are the run's own trees (the shadow workspace); ``temp_dir`` must be under one
    of them. Hidden: the home's secrets (:data:`HOME_SECRETS`), :data:`SYSTEM_SECRETS`, the
    ``.env`` files of the project, of the directories up to its repository root and of the home,
    the repository's ``.git/config``, and ``sandbox.deny``; never a path the command needs (a
    writable tree, the project, or an ancestor of either).
    """
    temp = _real(temp_dir)
    trees = [_real(p) for p in writable]
    extra_writable = [_real(p) for p in settings.writable]
    needed = [*trees, *extra_writable, _real(project_root), _real(workdir)]
    candidates: list[Path] = []
    home_dir = _real(home) if home else None
    if home_dir is not None:
        candidates += [home_dir / name for name in HOME_SECRETS]
    candidates += [Path(p) for p in SYSTEM_SECRETS]
    directories = _between(_real(project_root), _real(repo_root) if repo_root else None)
    if home_dir is not None:
        directories.append(home_dir)
    candidates += _dotenv_files(directories)
    # Remote URLs with tokens live in the repository's config; the tools need no git.
    candidates += [d / ".git" / "config" for d in directories if (d / ".git").is_dir()]
    candidates += [_real(p) for p in settings.deny]
    hidden: list[Path] = []
    for candidate in candidates:
        path = _real(candidate)
        if not os.path.lexists(path) or path in hidden:
            continue
        # Hiding a directory the command works in (or above it) would hide the work itself.
        if any(path == n or path in n.parents for n in needed):
            continue
        hidden.append(path)
    return SandboxPolicy(
        workdir=_real(workdir),
        writable=tuple(dict.fromkeys([*trees, temp, *extra_writable])),
        temp_dir=temp,
        hidden=tuple(hidden),
        readable=tuple(_real(p) for p in settings.readable),
        network=tuple(settings.network),
    )

"""Is Testing Library installed, in versions that work with the project's React and jest?

A migrated test imports ``@testing-library/react`` (and ``@testing-library/jest-dom`` for its
matchers). Without them every migrated test fails at its first line, and a run would report
"0/0 tests passing" and blame whatever tool failed next; so ``doctor`` reports this and the
engine refuses a migration with the exact install command instead.

Version rules (from the packages' peer dependencies):

- ``@testing-library/react`` 12 renders with ``ReactDOM.render`` (React 16.8–17; React 18 only
  warns; React 19 removed it). 13 and later use ``createRoot``: React 18 or newer.
- ``@testing-library/react`` 16 takes ``@testing-library/dom`` as a peer: it must be installed
  beside it.
- ``@testing-library/jest-dom`` 6 declares jest ≥ 28; older jest gets 5.
- ``@testing-library/user-event`` only when the codemod's event style uses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .packages import (
    PackageManager,
    detect_package_manager,
    installed_version,
    read_package_json,
)

_ADD_DEV: dict[PackageManager, str] = {
    "npm": "npm install --save-dev",
    "yarn": "yarn add --dev",
    "pnpm": "pnpm add --save-dev",
    "bun": "bun add --dev",
}
_RTL_FOR_REACT = {16: 12, 17: 12, 18: 16, 19: 16}
"""The @testing-library/react major to install for a React major (16: the current one)."""


def declared_version(pkg: dict[str, Any], name: str) -> str | None:
    for section in ("dependencies", "devDependencies", "peerDependencies"):
        deps = pkg.get(section)
        if isinstance(deps, dict) and isinstance(deps.get(name), str):
            return str(deps[name])
    return None


def major(version: str | None) -> int | None:
    match = re.search(r"\d+", version or "")
    return int(match.group(0)) if match else None


@dataclass(frozen=True)
class Problem:
    package: str
    installed: str | None
    want: str
    """The version to install (a major, e.g. ``12``)."""
    why: str


@dataclass(frozen=True)
class TestingLibraryStatus:
    react: str | None
    jest: str | None
    installed: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    install: str | None = None
    """The one command that installs what is missing, with the project's package manager."""

    @property
    def ready(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.ready:
            return ", ".join(f"{name} {version}" for name, version in self.installed.items())
        return "; ".join(f"{p.package}: {p.why}" for p in self.problems)

    def message(self) -> str:
        """One sentence for a refused run: what is wrong and the command that fixes it."""
        return f"Testing Library is not ready: {self.summary()}. Install it: `{self.install}`"


def testing_library_status(root: Path, *, user_event: bool = False) -> TestingLibraryStatus:
    """What a migrated test needs from Testing Library in ``root``, and what is missing
    (user-event only with ``user_event``: the codemod's default event style is fireEvent)."""
    pkg = read_package_json(root)
    react = installed_version(root, "react") or declared_version(pkg, "react")
    jest = installed_version(root, "jest") or declared_version(pkg, "jest")
    react_major = major(react)
    packages = [
        "@testing-library/react",
        "@testing-library/dom",
        "@testing-library/jest-dom",
        "@testing-library/user-event",
    ]
    installed = {name: v for name in packages if (v := installed_version(root, name))}
    problems: list[Problem] = []

    rtl = installed.get("@testing-library/react")
    want_rtl = _RTL_FOR_REACT.get(react_major or 0, 16 if (react_major or 0) > 19 else 12)
    rtl_major = major(rtl)
    if rtl is None:
        problems.append(Problem("@testing-library/react", None, str(want_rtl), "not installed"))
    elif rtl_major is not None and react_major is not None:
        if rtl_major >= 13 and react_major < 18:
            why = f"{rtl} needs React 18 or newer; React {react} needs version 12"
            problems.append(Problem("@testing-library/react", rtl, "12", why))
        elif rtl_major <= 12 and react_major >= 19:
            why = f"{rtl} renders with ReactDOM.render, which React {react} removed"
            problems.append(Problem("@testing-library/react", rtl, str(want_rtl), why))
    effective_rtl = (rtl_major or want_rtl) if rtl and not problems else want_rtl
    if effective_rtl >= 16 and "@testing-library/dom" not in installed:
        why = f"not installed (@testing-library/react {effective_rtl} needs it beside it)"
        problems.append(Problem("@testing-library/dom", None, "10", why))
    if "@testing-library/jest-dom" not in installed:
        want = "5" if (major(jest) or 99) < 28 else "6"
        problems.append(Problem("@testing-library/jest-dom", None, want, "not installed"))
    if user_event and "@testing-library/user-event" not in installed:
        problems.append(Problem("@testing-library/user-event", None, "14", "not installed"))

    install = None
    if problems:
        manager, _ = detect_package_manager(root)
        specs = " ".join(f"{p.package}@{p.want}" for p in problems)
        install = f"{_ADD_DEV[manager]} {specs}"
    return TestingLibraryStatus(
        react=react, jest=jest, installed=installed, problems=problems, install=install
    )

"""The project's jest / eslint / tsc commands, and what they check.

Configured commands win; otherwise binaries are looked up in ``node_modules/.bin`` of the project
and of its ancestors up to the repository root (hoisted monorepo installs; see
``project/packages.py``).
"""

from __future__ import annotations

import os
import posixpath
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config
from ..project.configs import load_tsconfig
from ..project.packages import find_bin, read_package_json


@dataclass(frozen=True)
class ResolvedCommands:
    """The command prefix for each tool, or None when the tool is not available."""

    test: list[str] | None
    lint: list[str] | None
    lint_fix: list[str] | None
    typecheck: list[str] | None
    origin: dict[str, str] = field(default_factory=dict)
    lint_max_warnings: int | None = None
    """Warnings the project's lint allows (None: any number; eslint fails only on errors)."""
    """For each tool: 'configured', 'detected' or why it is missing."""


def _tsconfig(root: Path) -> str | None:
    for name in ("tsconfig.json", "tsconfig.test.json"):
        if (root / name).is_file():
            return name
    return None


_TS_CHECK = re.compile(r"^\s*(//\s*@ts-check|/\*\s*@ts-check)", re.M)


TSC_NAMES = ("tsc", "tsc.js", "tsc.cmd")
"""What a type check command that is tsc itself starts with (its path's last part)."""
TSC_PROJECT_FLAGS = ("-p", "--project")


def tsc_project(root: Path, typecheck: list[str], default: str | None) -> str | None:
    """The project-relative tsconfig a tsc command checks: its ``-p``/``--project`` (a folder
    means the ``tsconfig.json`` in it), else ``default``; None when there is none or it is
    outside ``root``."""
    tsconfig = default
    for flag in TSC_PROJECT_FLAGS:
        if flag in typecheck[:-1]:
            tsconfig = typecheck[typecheck.index(flag) + 1]
    if tsconfig is not None and os.path.isabs(tsconfig):
        inside = Path(tsconfig).resolve().is_relative_to(root.resolve())
        tsconfig = os.path.relpath(Path(tsconfig).resolve(), root.resolve()) if inside else None
    if tsconfig is None:
        return None
    tsconfig = posixpath.normpath(Path(tsconfig).as_posix())
    if (root / tsconfig).is_dir():
        tsconfig = posixpath.normpath(f"{tsconfig}/tsconfig.json")
    return tsconfig


def tsc_checks_file(root: Path, typecheck: list[str], file: str, source: str) -> bool:
    """Whether the type check says anything about ``file``: files the ``-p`` tsconfig's program
    holds (``files``/``include``/``exclude``, through the local configs it extends); of those,
    TypeScript always, JavaScript only under ``checkJs`` or with a ``// @ts-check`` comment. A
    test tsc never checks (a JavaScript test, a monorepo whose root tsconfig includes only
    ``src``) must not fail on that project's type errors or broken tsconfig."""
    tsconfig = tsc_project(root, typecheck, _tsconfig(root))
    typescript = re.search(r"\.[cm]?jsx?$", file) is None
    if tsconfig is None:
        return typescript
    config = load_tsconfig(root, tsconfig)
    if not config.problems and not config.covers(file):
        return False  # not in the program (``include`` elsewhere): tsc never looks at it
    if typescript:
        return True
    return config.check_js or _TS_CHECK.search(source[:2000]) is not None


_TSC_OWN_STATE = (
    "--incremental",
    "--tsBuildInfoFile",
    "--build",
    "-b",
    "--composite",
    "--watch",
    "-w",
)


def tsc_incremental_args(root: Path, typecheck: list[str], build_info: Path) -> list[str]:
    """Arguments that make a ``tsc --noEmit`` type check incremental, its state kept in
    ``build_info`` (a run's warm workspace slot keeps it for the next): only for tsc itself,
    from TypeScript 4.0 (earlier ones refuse ``--incremental`` with ``--noEmit``), and only
    when the command does not manage that state itself."""
    if not typecheck or os.path.basename(typecheck[0]) not in TSC_NAMES:
        return []
    if "--noEmit" not in typecheck or any(a.split("=")[0] in _TSC_OWN_STATE for a in typecheck):
        return []
    # node_modules/.bin/tsc links to typescript/bin/tsc: its package is two levels up.
    package = Path(os.path.realpath(root / typecheck[0])).parent.parent
    version = str(read_package_json(package).get("version", "")).split(".")
    if not version[0].isdigit() or int(version[0]) < 4:
        return []
    return ["--incremental", "--tsBuildInfoFile", str(build_info)]


_APP_RUNNERS = ("react-scripts", "react-app-rewired", "craco")
"""Wrappers that run jest with a configuration of their own (Create React App and the tools
that customise it): jest alone would not transform the tests."""
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def runs_through_app(test: list[str] | None) -> bool:
    """Whether a test command runs jest through Create React App (or a tool customising it),
    which passes a jest ``--config`` of its own."""
    names = [os.path.basename(word) for word in test or []]
    return any(name in _APP_RUNNERS for name in names) and "test" in names


def _app_test_script(root: Path) -> tuple[list[str], str] | None:
    """The package.json ``test`` script when it runs jest through Create React App (or
    react-app-rewired, craco): its runner from node_modules/.bin with the script's arguments,
    its environment assignments through cross-env (or env), and ``--watchAll=false``."""
    scripts = read_package_json(root).get("scripts")
    script = scripts.get("test") if isinstance(scripts, dict) else None
    if not isinstance(script, str):
        return None
    try:
        words = shlex.split(script.split("&&")[-1])
    except ValueError:
        return None
    assignments = []
    while words and (words[0] in ("cross-env", "env") or _ASSIGNMENT.match(words[0])):
        word = words.pop(0)
        if _ASSIGNMENT.match(word):
            assignments.append(word)
    if len(words) < 2 or words[0] not in _APP_RUNNERS or words[1] != "test":
        return None
    runner = find_bin(root, words[0])
    if runner is None:
        return None
    args = [w for w in words[2:] if not w.startswith(("--watch", "--coverage"))]
    prefix: list[str] = []
    if assignments:
        prefix = [find_bin(root, "cross-env") or shutil.which("env") or "env", *assignments]
    argv = [*prefix, runner, "test", *args, "--watchAll=false"]
    return argv, f"detected (package.json test script: {words[0]} test)"


def resolve_commands(config: Config, root: Path | None = None) -> ResolvedCommands:
    root = (root or config.project_root).resolve()
    configured = config.commands
    origin: dict[str, str] = {}

    test = configured.test
    if test is not None:
        origin["test"] = "configured"
    elif script := _app_test_script(root):
        test, origin["test"] = script
    elif jest := find_bin(root, "jest"):
        test, origin["test"] = [jest], "detected"
    else:
        origin["test"] = "jest not found in node_modules/.bin"

    lint = configured.lint
    if lint is not None:
        origin["lint"] = "configured"
    elif eslint := find_bin(root, "eslint"):
        lint, origin["lint"] = [eslint], "detected"
    else:
        origin["lint"] = "eslint not found in node_modules/.bin"

    lint_fix = configured.lint_fix
    if lint_fix is not None:
        origin["lintFix"] = "configured"
    elif lint is not None:
        lint_fix, origin["lintFix"] = [*lint, "--fix"], "lint command with --fix"
    else:
        origin["lintFix"] = "no lint command"

    typecheck = configured.typecheck
    if typecheck is not None:
        origin["typecheck"] = "configured"
    elif (tsconfig := _tsconfig(root)) and (tsc := find_bin(root, "tsc")):
        # `--emitDeclarationOnly false`: TypeScript < 5 refuses it with --noEmit (TS5053), and
        # monorepo base configs often set it.
        typecheck = [tsc, "--noEmit", "--emitDeclarationOnly", "false", "-p", tsconfig]
        origin["typecheck"] = "detected"
    elif _tsconfig(root) is None:
        origin["typecheck"] = "no tsconfig.json (JavaScript project: no type check)"
    else:
        origin["typecheck"] = "tsc not found in node_modules/.bin"

    max_warnings = configured.lint_max_warnings
    if max_warnings is not None:
        origin["lintMaxWarnings"] = "configured"
    elif (max_warnings := _script_max_warnings(root)) is not None:
        origin["lintMaxWarnings"] = "detected (--max-warnings of the package.json lint script)"
    return ResolvedCommands(test, lint, lint_fix, typecheck, origin, max_warnings)


_MAX_WARNINGS = re.compile(r"--max-warnings(?:=|\s+)(\d+)")


def _script_max_warnings(root: Path) -> int | None:
    """The lowest ``--max-warnings`` of the package.json scripts that run eslint."""
    scripts = read_package_json(root).get("scripts")
    found = [
        int(m.group(1))
        for script in (scripts.values() if isinstance(scripts, dict) else [])
        if isinstance(script, str) and "eslint" in script
        for m in _MAX_WARNINGS.finditer(script)
    ]
    return min(found) if found else None

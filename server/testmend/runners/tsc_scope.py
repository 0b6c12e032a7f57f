"""The type check narrowed to what one test file needs.

tsc cannot check one file with a project's settings; it checks a program. The project's
program is every file its tsconfig includes, most of which a test never reaches. This writes a
tsconfig that ``extends`` the project's and lists as the program's root files only:

- the test file (tsc brings in everything it imports, as in the project's program);
- the project's declaration files (``*.d.ts``: ambient modules such as ``declare module
  '*.css'``, global types);
- every source file of the project's program that may add to the global scope itself:
  scripts (no ``import``/``export``: their declarations are global), ``declare global``,
  ``declare module``, ``/// <reference``, side-effect imports of project files;
- one import of each package the program's files import for its side effects
  (``import '@testing-library/jest-dom'`` in a jest setup file, or in every test, adds its
  matchers to every test's types), in ``.testmend/side-effect-imports.d.ts``, rather than the
  files importing them; a file whose package resolves elsewhere from ``.testmend/`` (another
  copy in a nested ``node_modules``) is listed itself instead.

Each of those is in the project's program, so the narrowed program is part of the project's:
it can lack a declaration the project's program has, never hold one it lacks. A
missing declaration shows as an error (a name or module not found, a property missing), so a
narrowed program without any error says what the project's would say about the test; when it
reports any error, the runner asks the project's tsc instead (``ProjectRunners.typecheck``).

The tsconfig is written in ``.testmend/`` beside the project's (ignored by git, like testmend's
own folder in the project), so what tsc derives from the config's folder (the default
``typeRoots``: ``node_modules/@types`` up the tree) is the same. Not narrowed: a command other
than ``tsc … --noEmit``, ``tsc --build``, files on the command line, a config with project
references, ``composite`` or ``${configDir}``, a base config from a package when the config
does not set its own ``files``/``include`` (the program's files are then unknown here), or a
config that cannot be read.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from ..layout import DEPENDENCY_DIRS, STATE_DIR, is_own_file
from ..project.configs import TsConfig, load_tsconfig
from .detect import TSC_NAMES, TSC_PROJECT_FLAGS, tsc_project

SCOPE_DIR = STATE_DIR
"""Beside the project's tsconfig, in the workspace (never the user's tree)."""
SCOPE_CONFIG = "tsconfig.scoped.json"
SCOPE_IMPORTS = "side-effect-imports.d.ts"
_NOT_NARROWED = (
    "--build",
    "-b",
    "--watch",
    "-w",
    "--listFilesOnly",
    "--showConfig",
    "--init",
    "--version",
    "-v",
    "--all",
    "--help",
    "-h",
)
_SOURCE = re.compile(r"\.(?:[cm]?tsx?)$")
_JAVASCRIPT = re.compile(r"\.(?:[cm]?jsx?)$")
_DECLARATION = re.compile(r"\.d\.(?:[cm]?ts|[^.]+\.ts)$")
MAX_PROGRAM_FILES = 20_000
"""A larger program is not walked: the project's tsc checks it."""

_MODULE = re.compile(r"^[ \t]*(?:import\b(?![ \t]*[(.])|export\b)", re.M)
_GLOBALS = re.compile(
    r"\bdeclare[ \t]+(?:global\b|module[ \t]+['\"])|^[ \t]*///[ \t]*<reference\b", re.M
)
_SIDE_EFFECT = re.compile(r"^[ \t]*(?:import|require\()[ \t]*['\"]([^'\"]+)['\"]", re.M)
_ASSET = re.compile(
    r"\.(?:css|scss|sass|less|styl|stylus|pcss|svg|png|jpe?g|gif|webp|avif|ico|bmp|"
    r"woff2?|ttf|otf|eot|mp3|mp4|webm|wav|json|html?|md|mdx|txt|ya?ml|graphql|gql)(?:\?.*)?$",
    re.I,
)


@dataclass(frozen=True)
class TscScope:
    argv: list[str]
    """The type check command with ``-p`` naming the narrowed tsconfig."""
    config: Path
    """The narrowed tsconfig (written)."""
    root_files: int
    """Root files it lists (the test included)."""


def _narrowable(typecheck: list[str]) -> bool:
    """Whether the command is tsc itself checking a tsconfig without emitting."""
    if not typecheck or os.path.basename(typecheck[0]) not in TSC_NAMES:
        return False
    args = typecheck[1:]
    if "--noEmit" not in args or any(a.split("=")[0] in _NOT_NARROWED for a in args):
        return False
    if args[-1:] and args[-1] in TSC_PROJECT_FLAGS:
        return False
    # Files on the command line: tsc ignores the tsconfig.
    return not any(
        (i == 0 or args[i - 1] not in TSC_PROJECT_FLAGS)
        and (_SOURCE.search(arg) or _JAVASCRIPT.search(arg))
        for i, arg in enumerate(args)
    )


def _without_project(typecheck: list[str]) -> list[str]:
    """``typecheck`` without its ``-p``/``--project`` and their values."""
    argv: list[str] = []
    skip = False
    for arg in typecheck:
        if skip:
            skip = False
        elif arg in TSC_PROJECT_FLAGS:
            skip = True
        else:
            argv.append(arg)
    return argv


def _global_effects(text: str) -> tuple[bool, set[str]]:
    """Whether a source file may declare something in the global scope itself (see the
    module), and the packages it imports for their side effects (their globals)."""
    packages: set[str] = set()
    own = not _MODULE.search(text) or _GLOBALS.search(text) is not None
    for match in _SIDE_EFFECT.finditer(text):
        specifier = match.group(1)
        if _ASSET.search(specifier):
            continue
        if specifier.startswith((".", "/")):
            own = True  # a project file (maybe outside the program) for its effects
        else:
            packages.add(specifier)
    return own, packages


def _program_files(root: Path, config: TsConfig) -> list[str] | None:
    """The project-relative root files of ``config``'s program that are TypeScript (and
    JavaScript under ``allowJs``), as tsc's wildcards find them: hidden files and folders and
    the package folders left out. None when there are more than :data:`MAX_PROGRAM_FILES`."""
    found: list[str] = []
    listed: set[str] = set()
    if config.files is not None:
        folder, names = config.files
        listed = {posixpath.normpath("/".join((*folder, n))) for n in names}
    for directory, folders, names in os.walk(root):
        folders[:] = sorted(
            f for f in folders if f not in DEPENDENCY_DIRS and not f.startswith(".")
        )
        base = Path(os.path.relpath(directory, root)).as_posix()
        for name in sorted(names):
            rel = name if base == "." else f"{base}/{name}"
            if not _SOURCE.search(name) and not (config.allow_js and _JAVASCRIPT.search(name)):
                continue
            if (name.startswith(".") or name.endswith(".min.js")) and rel not in listed:
                continue
            if is_own_file(name):
                continue  # the intent check's copies, there only while it runs
            if config.covers(rel):
                found.append(rel)
                if len(found) > MAX_PROGRAM_FILES:
                    return None
    return found


def _package(start: Path, specifier: str) -> str | None:
    """The real folder of the package ``specifier`` names, found as node finds it from
    ``start`` (``node_modules`` up the tree)."""
    parts = specifier.split("/")
    name = "/".join(parts[:2] if specifier.startswith("@") else parts[:1])
    for folder in (start, *start.parents):
        candidate = folder / "node_modules" / name
        if candidate.is_dir():
            return os.path.realpath(candidate)
    return None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def scope_typecheck(root: Path, typecheck: list[str], file: str) -> TscScope | None:
    """Write the tsconfig narrowed to ``file`` (project-relative, in ``root``'s program) and
    return the command that checks it; None when this project's type check is not narrowed
    (see the module)."""
    if not _narrowable(typecheck):
        return None
    # Without -p, tsc checks the tsconfig.json of the folder it runs in.
    project = tsc_project(root, typecheck, "tsconfig.json")
    if project is None or not (root / project).is_file():
        return None
    config = load_tsconfig(root, project)
    if config.unread_bases and not config.own_inputs:
        return None
    if (
        len(config.problems) > config.unread_bases  # a config that cannot be read
        or config.references
        or config.composite
        or config.config_dir_template
    ):
        return None
    if not config.covers(file):
        return None
    program = _program_files(root, config)
    if program is None:
        return None
    folder = root / posixpath.dirname(project) / SCOPE_DIR
    roots = [file]
    packages: set[str] = set()
    for rel in program:
        if rel == file:
            continue
        if _DECLARATION.search(rel):
            roots.append(rel)
            continue
        text = _read(root / rel)
        own, imported = _global_effects(text) if text is not None else (True, set())
        importer = (root / rel).parent
        if own or any(_package(importer, p) != _package(folder, p) for p in imported):
            roots.append(rel)  # or a package that resolves elsewhere from .testmend/
        else:
            packages |= imported
    files = [os.path.relpath(root / rel, folder) for rel in roots]
    if packages:
        # One import of each package other files import for their side effects (a test's own
        # `import '@testing-library/jest-dom'`) brings its globals without those files.
        lines = "".join(f"import {json.dumps(p)};\n" for p in sorted(packages))
        _write(folder, folder / SCOPE_IMPORTS, f"{lines}export {{}};\n")
        files.append(SCOPE_IMPORTS)
    target = folder / SCOPE_CONFIG
    content = json.dumps(
        {"extends": f"../{posixpath.basename(project)}", "files": files, "include": []},
        indent=1,
    )
    _write(folder, target, content)
    argv = [*_without_project(typecheck), "-p", str(target)]
    return TscScope(argv=argv, config=target, root_files=len(files))


def _write(folder: Path, target: Path, content: str) -> None:
    """Write ``content`` to ``target`` in ``folder`` unless it holds it already (concurrent
    checks of one workspace write the same), by rename: tsc never reads half a file."""
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n", encoding="utf-8")
    if _read(target) == content:
        return
    temporary = folder / f".{target.name}.{os.getpid()}.{id(content)}"
    temporary.write_text(content, encoding="utf-8")
    os.replace(temporary, target)

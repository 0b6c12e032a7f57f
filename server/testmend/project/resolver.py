"""Module resolution the way jest and TypeScript do it, limited to the project root.

Order for a specifier written in ``importer``: jest ``moduleNameMapper`` (first matching key),
relative paths, tsconfig/jsconfig ``paths``, ``baseUrl``, jest ``moduleDirectories``/
``modulePaths``, and otherwise a package. Every candidate file is checked with
:func:`testmend.workspace.paths.resolve_in_root`; a candidate outside the root is not used.

One :class:`ModuleResolver` caches configs and file checks; make one per call (or per step)
so edits to the project are seen by the next one.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from testmend.js_syntax import JS_TS_EXTENSIONS
from testmend.layout import INTERNAL_DIRS, NEVER_WALKED
from testmend.project.configs import (
    CONFIG_DIR,
    JEST_CONFIG_NAMES,
    TSCONFIG_NAMES,
    JestConfig,
    TsConfig,
    join_rel,
    load_jest_config,
    load_tsconfig,
)
from testmend.workspace.paths import PathEscapeError, resolve_in_root, split_relative

__all__ = ["ImportKind", "ModuleResolver", "Resolution", "specifier_for"]

ImportKind = Literal["relative", "alias", "package", "unresolved"]

RESOLVE_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".json")
_JS_TO_TS = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}
_GROUP_REF = re.compile(r"\$(\d+)")
_STUB_HINT = re.compile(r"mock|stub|identity-obj-proxy|dummy|empty|noop", re.IGNORECASE)
_EXTENSION_KEY = re.compile(r"\\\.[\w()|?:\\.]*\$$")


@dataclass(frozen=True)
class Resolution:
    kind: ImportKind
    resolved: str | None = None
    follow: bool = False
    """Whether the resolved file is project source to walk into (not a stub or a data file)."""
    via: str | None = None
    """What resolved it: ``moduleNameMapper '^@/(.*)$'``, ``tsconfig.json paths '@/*'``…"""


class ModuleResolver:
    """Resolves import specifiers to project-relative files, caching configs per folder."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.abspath(root))
        self._files: dict[str, bool] = {}
        self._dirs: dict[tuple[str, ...], bool] = {}
        self._root_str = str(self.root)
        self._tsconfig_for: dict[tuple[str, ...], TsConfig | None] = {}
        self._tsconfigs: dict[str, TsConfig] = {}
        self._jest_for: dict[tuple[str, ...], JestConfig | None] = {}
        self._jest: dict[str, JestConfig | None] = {}
        self._cache: dict[tuple[tuple[str, ...], str], Resolution] = {}

    # -- filesystem ---------------------------------------------------------------------------

    def is_file(self, rel: str) -> bool:
        """Whether ``rel`` is a regular file inside the root (symlinks out of it count as no).

        The containing folder is checked once with ``resolve_in_root`` (cached); a file that is
        itself a symlink is checked on its own.
        """
        known = self._files.get(rel)
        if known is None:
            known = self._check_file(rel)
            self._files[rel] = known
        return known

    def _check_file(self, rel: str) -> bool:
        try:
            parts = split_relative(rel)
        except PathEscapeError:
            return False
        if not parts or not self._dir_inside(parts[:-1]):
            return False
        absolute = os.path.join(self._root_str, *parts)
        try:
            info = os.lstat(absolute)
            if stat.S_ISLNK(info.st_mode):
                return resolve_in_root(self.root, rel).is_file()
        except (OSError, PathEscapeError):
            return False
        return stat.S_ISREG(info.st_mode)

    def _dir_inside(self, parts: tuple[str, ...]) -> bool:
        known = self._dirs.get(parts)
        if known is None:
            try:
                known = resolve_in_root(self.root, "/".join(parts) or ".").is_dir()
            except PathEscapeError:
                known = False
            self._dirs[parts] = known
        return known

    def _file_candidates(self, parts: tuple[str, ...]) -> str | None:
        if not parts or any(p in INTERNAL_DIRS for p in parts):
            return None
        base = "/".join(parts)
        if self.is_file(base):
            return base
        for ext in RESOLVE_EXTENSIONS:
            if self.is_file(base + ext):
                return base + ext
        stem, ext = posixpath.splitext(base)
        for ts_ext in _JS_TO_TS.get(ext, ()):
            if self.is_file(stem + ts_ext):
                return stem + ts_ext
        for ext in RESOLVE_EXTENSIONS:
            if self.is_file(f"{base}/index{ext}"):
                return f"{base}/index{ext}"
        return None

    # -- configs ------------------------------------------------------------------------------

    def _first_config(self, folder: tuple[str, ...], names: tuple[str, ...]) -> list[str]:
        prefix = "/".join(folder)
        return [r for r in (f"{prefix}/{n}" if prefix else n for n in names) if self.is_file(r)]

    def tsconfig(self, folder: tuple[str, ...]) -> TsConfig | None:
        """The nearest tsconfig.json (or jsconfig.json) at or above ``folder``."""
        if folder not in self._tsconfig_for:
            config: TsConfig | None = None
            for level in range(len(folder), -1, -1):
                names = self._first_config(folder[:level], TSCONFIG_NAMES)
                if names:
                    rel = names[0]
                    if rel not in self._tsconfigs:
                        self._tsconfigs[rel] = load_tsconfig(self.root, rel)
                    config = self._tsconfigs[rel]
                    break
            self._tsconfig_for[folder] = config
        return self._tsconfig_for[folder]

    def jest_config(self, folder: tuple[str, ...]) -> JestConfig | None:
        """The nearest jest config (``jest.config.*`` or ``package.json`` ``jest``) at or above."""
        if folder not in self._jest_for:
            config: JestConfig | None = None
            for level in range(len(folder), -1, -1):
                for rel in self._first_config(folder[:level], (*JEST_CONFIG_NAMES, "package.json")):
                    if rel not in self._jest:
                        self._jest[rel] = load_jest_config(self.root, rel)
                    config = self._jest[rel]
                    if config is not None:
                        break
                if config is not None:
                    break
            self._jest_for[folder] = config
        return self._jest_for[folder]

    def problems(self) -> list[str]:
        """What could not be read in the configs used so far (for notes to the agent)."""
        out: list[str] = []
        for ts in self._tsconfigs.values():
            out.extend(ts.problems)
        for jest in self._jest.values():
            if jest is not None:
                out.extend(jest.problems)
        return list(dict.fromkeys(out))

    # -- resolution ---------------------------------------------------------------------------

    def _as_source(self, rel: str, kind: ImportKind, via: str | None, *, stub: bool) -> Resolution:
        parts = rel.split("/")
        if any(p in NEVER_WALKED for p in parts[:-1]):
            return Resolution("package", None, False, via)
        follow = not stub and rel.endswith(JS_TS_EXTENSIONS) and not rel.endswith(".d.ts")
        return Resolution(kind, rel, follow, via)

    def resolve(self, importer: str, specifier: str) -> Resolution:
        """Resolve ``specifier`` as written in the project file ``importer``."""
        folder = tuple(p for p in posixpath.dirname(importer).split("/") if p)
        key = (folder, specifier)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._resolve(folder, specifier)
            self._cache[key] = cached
        return cached

    def _resolve(self, folder: tuple[str, ...], specifier: str) -> Resolution:
        if not specifier:
            return Resolution("unresolved")
        jest = self.jest_config(folder)
        if jest is not None:
            for entry in jest.mapper:
                match = entry.regex.search(specifier)
                if match is not None:
                    return self._mapped(jest, entry.key, entry.targets, match)
        if specifier.startswith("/"):
            return Resolution("unresolved", via="absolute import paths are not resolved")
        if specifier in (".", "..") or specifier.startswith(("./", "../")):
            target = join_rel(folder, specifier)
            found = self._file_candidates(target) if target is not None else None
            if found is None:
                return Resolution("unresolved")
            return self._as_source(found, "relative", None, stub=False)
        ts = self.tsconfig(folder)
        if ts is not None:
            resolution = self._ts_paths(ts, specifier)
            if resolution is not None:
                return resolution
            if ts.base_url is not None:
                found = self._file_candidates((*ts.base_url, *specifier.split("/")))
                if found is not None:
                    return self._as_source(found, "alias", f"{ts.path} baseUrl", stub=False)
        if jest is not None:
            for directory in (*jest.module_paths, *jest.module_directories):
                if directory == "node_modules":
                    continue
                if directory.startswith("<rootDir>"):
                    base = join_rel(jest.root_dir, directory.replace("<rootDir>", ".", 1))
                else:
                    base = join_rel(jest.root_dir, directory)
                found = self._file_candidates((*base, *specifier.split("/"))) if base else None
                if found is not None:
                    return self._as_source(found, "alias", f"{jest.path} {directory}", stub=False)
        return Resolution("package")

    def _ts_paths(self, ts: TsConfig, specifier: str) -> Resolution | None:
        best: tuple[int, str, list[str], str] | None = None
        for pattern, targets in ts.paths:
            if "*" not in pattern:
                if pattern == specifier:
                    best = (len(pattern) + 1, pattern, targets, "")
                    break
                continue
            prefix, _, suffix = pattern.partition("*")
            if (
                specifier.startswith(prefix)
                and specifier.endswith(suffix)
                and len(specifier) >= len(prefix) + len(suffix)
                and (best is None or len(prefix) > best[0])
            ):
                best = (
                    len(prefix),
                    pattern,
                    targets,
                    specifier[len(prefix) : len(specifier) - len(suffix)],
                )
        if best is None:
            return None
        _, pattern, targets, star = best
        via = f"{ts.path} paths {pattern!r}"
        for target in targets:
            parts = join_rel(ts.paths_base, target.replace("*", star))
            found = self._file_candidates(parts) if parts is not None else None
            if found is not None:
                return self._as_source(found, "alias", via, stub=False)
        if pattern == "*":
            return None  # a catch-all that misses falls through to baseUrl and packages
        return Resolution("unresolved", via=via)

    def _mapped(
        self, jest: JestConfig, key: str, targets: list[str], match: re.Match[str]
    ) -> Resolution:
        via = f"{jest.path} moduleNameMapper {key!r}"
        for raw in targets:
            target = _GROUP_REF.sub(lambda m: _group(match, int(m.group(1))), raw)
            stub = not _GROUP_REF.search(raw) and bool(
                _EXTENSION_KEY.search(key) or _STUB_HINT.search(target)
            )
            if target.startswith(("<rootDir>", CONFIG_DIR)):
                base = jest.root_dir if target.startswith("<rootDir>") else jest.config_dir
                rest = target.split(">", 1)[1].lstrip("/") or "."
                parts = join_rel(base, rest)
                found = self._file_candidates(parts) if parts is not None else None
                if found is not None:
                    return self._as_source(found, "alias", via, stub=stub)
            elif target.startswith(("./", "../")):
                parts = join_rel(jest.root_dir, target)
                found = self._file_candidates(parts) if parts is not None else None
                if found is not None:
                    return self._as_source(found, "alias", via, stub=stub)
            elif not target.startswith("/"):
                return Resolution("package", None, False, via)
        return Resolution("unresolved", via=via)


def _group(match: re.Match[str], index: int) -> str:
    try:
        return match.group(index) or ""
    except IndexError:
        return ""


def specifier_for(importer: str, target: str) -> str:
    """The relative specifier by which the project file ``importer`` imports the project file
    ``target`` (both project-relative): no extension, a folder's ``index`` as the folder."""
    rel = posixpath.relpath(
        re.sub(r"\.[cm]?[jt]sx?$", "", target), posixpath.dirname(importer) or "."
    )
    rel = re.sub(r"/index$", "", rel)
    return rel if rel.startswith(".") else "./" + rel

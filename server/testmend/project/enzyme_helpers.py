"""Enzyme reached through the project's own helpers: a test that imports a local module which
imports Enzyme (``test-helpers.tsx`` exporting ``shallowUntilTarget``, ``mountWithProviders``)
is an Enzyme test even when it never names ``enzyme`` itself. A text scan of the test's imports,
resolved the way jest and TypeScript resolve them (relative paths, ``paths``, ``moduleNameMapper``).
"""

from __future__ import annotations

import re
from pathlib import Path

from testmend.enzyme_import import ENZYME_IMPORT
from testmend.project._walk import read_text_file
from testmend.project.resolver import ModuleResolver
from testmend.workspace.paths import PathEscapeError

from .errors import ProjectToolError

_SPECIFIER = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*|\bjest\.requireActual\s*\(\s*)(['"])([^'"\n]+)\1"""
)


def imported_specifiers(text: str) -> list[str]:
    """The modules ``text`` imports or requires, in order, each once."""
    seen: dict[str, None] = {}
    for match in _SPECIFIER.finditer(text):
        seen.setdefault(match.group(2), None)
    return list(seen)


class EnzymeHelpers:
    """Which project modules import Enzyme, and which tests reach it through them (one per
    scan of a project: the answers are cached)."""

    def __init__(self, root: Path, resolver: ModuleResolver | None = None) -> None:
        self.root = root
        self.resolver = resolver if resolver is not None else ModuleResolver(root)
        self._imports_enzyme: dict[str, bool] = {}

    def imports_enzyme(self, rel: str) -> bool:
        """The project file ``rel`` imports or requires Enzyme itself."""
        known = self._imports_enzyme.get(rel)
        if known is None:
            try:
                _, text = read_text_file(self.root, rel)
            except (ProjectToolError, PathEscapeError, OSError):
                text = ""
            known = self._imports_enzyme[rel] = ENZYME_IMPORT.search(text) is not None
        return known

    def helper_modules(self, rel: str, text: str) -> list[str]:
        """The project modules the test ``rel`` (whose source is ``text``) imports that import
        Enzyme: the helpers it reaches Enzyme through."""
        found = []
        for specifier in imported_specifiers(text):
            if specifier == "enzyme" or specifier.startswith(("enzyme/", "enzyme-")):
                continue
            resolution = self.resolver.resolve(rel, specifier)
            if resolution.resolved is None or not resolution.follow:
                continue
            if resolution.resolved != rel and self.imports_enzyme(resolution.resolved):
                found.append(resolution.resolved)
        return found

    def uses_enzyme(self, rel: str, text: str) -> bool:
        """The test imports Enzyme, directly or through one of the project's modules."""
        return ENZYME_IMPORT.search(text) is not None or bool(self.helper_modules(rel, text))

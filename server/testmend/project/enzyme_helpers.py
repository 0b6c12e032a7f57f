"""Enzyme reached through the project's own helpers: a test that imports a rendering function
(``mount…``, ``shallow…``, ``render…``) from a local module which imports Enzyme
(``test-helpers.tsx`` exporting ``shallowUntilTarget``, ``mountWithProviders``) is an Enzyme test
even when it never names ``enzyme`` itself. One that takes only other names from such a module
(a store's ``initialState``, a ``spyOn``) is not: it renders nothing with Enzyme. A text scan of
the test's imports, resolved the way jest and TypeScript resolve them (relative paths, ``paths``,
``moduleNameMapper``).
"""

from __future__ import annotations

import re
from pathlib import Path

from testmend.enzyme_import import ENZYME_IMPORT
from testmend.project._walk import read_text_file
from testmend.project.resolver import ModuleResolver
from testmend.workspace.paths import PathEscapeError

from .errors import ProjectToolError

_IMPORT_CLAUSE = re.compile(r"""\bimport\s+(?!type\b)([^;'"]*?)\s*\bfrom\s*(['"])([^'"\n]+)\2""")
_REQUIRE_CLAUSE = re.compile(
    r"""\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*require\s*\(\s*(['"])([^'"\n]+)\2"""
)
RENDERING_NAME = re.compile(r"^(mount|shallow|render)")
"""The exports of an Enzyme helper module that render (``mountWrapper``, ``shallowUntilTarget``);
the codemod's conventions convert them like Enzyme's own."""


def imported_names(text: str) -> dict[str, list[str] | None]:
    """Per module ``text`` imports or requires: the names it takes by name, or None when it takes
    the module whole (a default or namespace import, a plain ``require``)."""
    found: dict[str, list[str] | None] = {}
    clauses = [(m.group(1), m.group(3)) for m in _IMPORT_CLAUSE.finditer(text)]
    clauses += [(m.group(1), m.group(3)) for m in _REQUIRE_CLAUSE.finditer(text)]
    for clause, specifier in clauses:
        braces = re.search(r"\{([^}]*)\}", clause)
        outside = re.sub(r"\{[^}]*\}", "", clause).strip(" ,")
        if outside or braces is None:
            found[specifier] = None  # the module whole: what it is used for cannot be told
            continue
        names = [
            part.strip().split(":")[0].split(" as ")[0].strip()
            for part in braces.group(1).split(",")
            if part.strip() and not part.strip().startswith("type ")
        ]
        earlier = found.get(specifier, [])
        if earlier is not None:  # once taken whole, it stays whole
            found[specifier] = [*earlier, *names]
    return found


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

    def uses_enzyme(self, rel: str, text: str) -> bool:
        """The test imports Enzyme, or a rendering function (or a whole module) from one of the
        project's modules that import it."""
        if ENZYME_IMPORT.search(text) is not None:
            return True
        for specifier, taken in imported_names(text).items():
            if taken is not None and not any(RENDERING_NAME.match(n) for n in taken):
                continue
            resolution = self.resolver.resolve(rel, specifier)
            if resolution.resolved is None or not resolution.follow or resolution.resolved == rel:
                continue
            if self.imports_enzyme(resolution.resolved):
                return True
        return False

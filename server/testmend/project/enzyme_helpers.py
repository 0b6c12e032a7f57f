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

_ENZYME_NAMED = re.compile(
    r"""import\s*(?:[A-Za-z_$][\w$]*\s*,\s*)?\{([^}]*)\}\s*from\s*['"]enzyme['"]"""
)
_ENZYME_WHOLE = re.compile(
    r"""import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s*(?:,\s*\{[^}]*\}\s*)?from\s*['"]enzyme['"]"""
    r"""|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"]enzyme['"]\s*\)"""
)
_ENZYME_REQUIRED = re.compile(
    r"""(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\(\s*['"]enzyme['"]\s*\)"""
)
_TOP_EXPORT = re.compile(r"^export\s", re.M)


def enzyme_render_imports(text: str) -> dict[str, str]:
    """Enzyme's renders a module imports by name (``import { mount as m } from 'enzyme'``,
    ``const { shallow } = require('enzyme')``): imported name → local name."""
    found: dict[str, str] = {}
    for clause in [*_ENZYME_NAMED.findall(text), *_ENZYME_REQUIRED.findall(text)]:
        for part in clause.split(","):
            bits = re.split(r"\s+as\s+|\s*:\s*", part.strip())
            if bits and bits[0] in ("mount", "shallow", "render"):
                found[bits[0]] = bits[-1]
    return found


def _enzyme_uses(text: str) -> re.Pattern[str] | None:
    """A pattern of the uses of Enzyme's renders in a module (``mount(…)``, ``_shallow =
    shallow``, ``Enzyme.mount``, by the names it imports them under), or None when it imports
    none."""
    names = [re.escape(local) for local in enzyme_render_imports(text).values()]
    spaces = [re.escape(a or b) for a, b in _ENZYME_WHOLE.findall(text)]
    alternatives = [rf"(?<![\w$.]){n}(?![\w$])" for n in names]
    alternatives += [rf"(?<![\w$.]){n}\.(?:mount|shallow|render)(?![\w$])" for n in spaces]
    return re.compile("|".join(alternatives)) if alternatives else None


def enzyme_renders(text: str, name: str) -> bool:
    """The export ``name`` of the module ``text`` renders with Enzyme: its definition (up to
    the next top-level ``export``) uses what the module imports from Enzyme to render. A
    module that keeps an RTL ``renderWithProviders`` beside its Enzyme ``mountWrapper`` (teams
    moving to Testing Library do) has one of each. True when the definition is not found
    (``export { x }`` of a name defined otherwise) or the module's Enzyme import is not one
    these patterns read: what it does cannot be told."""
    uses = _enzyme_uses(text)
    if uses is None:
        return True
    name = re.escape(name)
    start = re.search(
        rf"^export\s+(?:default\s+)?(?:async\s+)?function\s*\*?\s*{name}\b"
        rf"|^export\s+(?:const|let|var)\s+{name}\b",
        text,
        re.M,
    )
    if start is None:
        return True
    end = _TOP_EXPORT.search(text, start.end())
    return uses.search(text, start.end(), end.start() if end else len(text)) is not None


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
            if self.imports_enzyme(resolution.resolved) and self._renders_any(
                resolution.resolved, taken
            ):
                return True
        return False

    def _renders_any(self, rel: str, taken: list[str] | None) -> bool:
        """Of the names ``taken`` from the project module ``rel`` (None: the module whole),
        one renders with Enzyme."""
        if taken is None:
            return True
        try:
            _, text = read_text_file(self.root, rel)
        except (ProjectToolError, PathEscapeError, OSError):
            return True
        return any(RENDERING_NAME.match(n) and enzyme_renders(text, n) for n in taken)

"""The components the component under test renders from other modules, and how a test file
reaches each of those modules: the ``jest.mock`` specifier that replaces what the component
itself imports (``import { Group } from '@visx/group'``, ``import Axis from './Axis'``).

The codemod records such a child's props when the Enzyme test reads them (see
``codemod/translate/recording.py``); a mock of the module the test imports the child from
would miss the component's own reference when the two differ (an index re-exporting it).

Where the module under test is such an index (a test of several components, each imported
from the package's index: reactstrap's ``Uncontrolled.spec.js`` renders ``UncontrolledAlert``,
``UncontrolledDropdown``, …), the children are those of the modules the index re-exports the
test's imports from; a name two of them import from different places is left out.
"""

from __future__ import annotations

from pathlib import Path

from testmend.project._walk import read_text_file
from testmend.project.errors import ProjectToolError
from testmend.project.module_syntax import default_export_wraps, module_info, reexported_from
from testmend.project.resolver import ModuleResolver, specifier_for
from testmend.workspace.paths import PathEscapeError

__all__ = ["component_children"]


def component_children(root: Path, test_file: str, component: str | None) -> dict[str, list[str]]:
    """What ``component`` (the project-relative module under test) imports under a
    capitalised name, value imports only: local name → [the specifier a ``jest.mock`` in
    ``test_file`` reaches that module by, the exported name (``default`` for a default
    import)]. A default import of a module whose default export wraps a component in
    higher-order components is also listed under the wrapped component's name. Empty when there
    is no component or it cannot be read."""
    if component is None:
        return {}
    try:
        rel, source = read_text_file(root, component)
    except (ProjectToolError, PathEscapeError, OSError):
        return {}
    resolver = ModuleResolver(root)
    own = _children_of(root, resolver, test_file, rel, source)
    if own:
        return own
    found: dict[str, list[str]] = {}
    ambiguous: set[str] = set()
    for module in _reexported_modules(root, resolver, test_file, rel, source):
        try:
            module_rel, module_source = read_text_file(root, module)
        except (ProjectToolError, PathEscapeError, OSError):
            continue
        for name, child in _children_of(
            root, resolver, test_file, module_rel, module_source
        ).items():
            if found.setdefault(name, child) != child:
                ambiguous.add(name)
    return {name: child for name, child in found.items() if name not in ambiguous}


def _reexported_modules(
    root: Path, resolver: ModuleResolver, test_file: str, index: str, source: str
) -> list[str]:
    """The modules (project-relative) that the index ``index`` re-exports the names
    ``test_file`` imports from it, in the test's order; empty when the test imports none
    of its re-exports."""
    reexports = reexported_from(source, index)
    if not reexports:
        return []
    try:
        test_rel, test_source = read_text_file(root, test_file)
    except (ProjectToolError, PathEscapeError, OSError):
        return []
    modules: list[str] = []
    for raw in module_info(test_source, test_rel).imports:
        if raw.how != "import" or resolver.resolve(test_rel, raw.specifier).resolved != index:
            continue
        for name in raw.names:
            imported = name.partition(" as ")[0]
            if imported not in reexports:
                continue
            resolved = resolver.resolve(index, reexports[imported][0])
            if (
                resolved.resolved is not None
                and resolved.follow
                and resolved.resolved not in modules
            ):
                modules.append(resolved.resolved)
    return modules


def _children_of(
    root: Path, resolver: ModuleResolver, test_file: str, rel: str, source: str
) -> dict[str, list[str]]:
    """The capitalised value imports of the module ``rel`` (see ``component_children``)."""
    found: dict[str, list[str]] = {}
    for raw in module_info(source, rel).imports:
        if raw.how != "import":
            continue
        resolution = resolver.resolve(rel, raw.specifier)
        if resolution.kind == "package":
            specifier = raw.specifier
        elif resolution.resolved is not None and resolution.follow:
            specifier = specifier_for(test_file, resolution.resolved)
        else:
            continue
        for name in raw.names:
            if name.startswith(("type ", "* as ")):
                continue
            imported, _, local = name.partition(" as ")
            local = local or imported
            if local[:1].isupper():
                found[local] = [specifier, imported]
                if imported == "default" and resolution.resolved is not None:
                    for inner in _wrapped_default(root, resolution.resolved):
                        found.setdefault(inner, [specifier, "default"])
    return found


def _wrapped_default(root: Path, module: str) -> list[str]:
    """What the default export of ``module`` wraps (``module_syntax.default_export_wraps``);
    empty when it cannot be read."""
    try:
        rel, source = read_text_file(root, module)
    except (ProjectToolError, PathEscapeError, OSError):
        return []
    return default_export_wraps(source, rel)

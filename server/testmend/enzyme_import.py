"""What an Enzyme import looks like, as text: shared by the project inspection, the codemod and
the language server (which must answer before anything heavy is imported)."""

from __future__ import annotations

import re

ENZYME_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*)(['"])(enzyme(?:/[^'"\n]*)?)\1"""
)
"""An import or require of ``enzyme`` (or a module inside it); group 2 is the module name."""

ENZYME_APIS: tuple[str, ...] = tuple(
    [
        "shallow",
        "mount",
        "render",
        "dive",
        "simulate",
        "setProps",
        "setState",
        "setContext",
        "state",
        "props",
        "prop",
        "instance",
        "update",
        "find",
        "findWhere",
        "filter",
        "filterWhere",
        "closest",
        "parents",
        "parent",
        "children",
        "childAt",
        "hostNodes",
        "exists",
        "hasClass",
        "is",
        "contains",
        "containsMatchingElement",
        "text",
        "html",
        "debug",
        "getDOMNode",
        "getElement",
        "invoke",
        "unmount",
        "renderProp",
    ]
)
_API_CALL = re.compile(r"(?:^|[^\w$])(?:\.\s*)?(" + "|".join(ENZYME_APIS) + r")\s*(?:<[^>()]*>)?\(")


def enzyme_apis(text: str) -> list[str]:
    """The Enzyme APIs a test calls, by name (a text scan: ``wrapper.find(…)`` counts as
    ``find``; a rendering call of Enzyme's own, ``mount(…)``, as ``mount``), in the order of
    :data:`ENZYME_APIS`. A name the file also uses for something else may be counted."""
    called = {match.group(1) for match in _API_CALL.finditer(text)}
    return [name for name in ENZYME_APIS if name in called]

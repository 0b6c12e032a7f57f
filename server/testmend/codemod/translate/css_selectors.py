"""Selector code: CSS selectors as the conversion writes them (a JS string literal, or an
expression), joined for a chained find, and whether one could match RTL's container."""

from __future__ import annotations

import re

from ..syntax import js_string
from .state import Untranslatable


def matches_container(css: str) -> bool:
    """Whether the selector's last compound could match RTL's container (a bare ``div``
    or ``*``, perhaps with pseudo-classes): in the document it would."""
    literal = css[1:-1] if css[:1] in "'\"" and css[-1:] == css[:1] else None
    if literal is None:
        return False
    last = re.split(r"[\s>+~]+", literal.strip())[-1]
    return re.fullmatch(r"(div|\*)(:[\w-]+(\([^)]*\))?)*", last) is not None


def join_css(outer: str, inner: str) -> str:
    """The selector (code) of ``inner``'s elements inside ``outer``'s: a string when both
    are, else a template literal holding both (never ``inner`` alone, which would select
    its elements anywhere). A selector list (``'.a, .b'``) cannot be joined this way."""
    if outer[:1] in "'\"" and inner[:1] in "'\"":
        a, b = outer[1:-1], inner[1:-1]
        if "," in a or "," in b:
            raise Untranslatable("chained find() with a selector list (a comma)")
        return js_string(f"{a} {b}")

    def in_template(code: str) -> str:
        if code[:1] in "'\"" and code[-1:] == code[:1]:
            value = code[1:-1].replace("\\" + code[0], code[0])
            return value.replace("`", "\\`").replace("${", "\\${")
        if code[:1] == "`" and code[-1:] == "`":
            return code[1:-1]
        return "${" + code + "}"

    return f"`{in_template(outer)} {in_template(inner)}`"


def names_component(selector: str) -> bool:
    """Whether an Enzyme selector names a component in a compound (``'ArrayParam input'``,
    ``'Modal > .body'``): a type selector starting with a capital letter, which CSS would read
    as a tag name (case-insensitively: no element has it)."""
    bare = re.sub(r"\[[^\]]*\]|'[^']*'|\"[^\"]*\"", "", selector)
    return re.search(r"(?:^|[\s>+~,(])[A-Z]", bare) is not None

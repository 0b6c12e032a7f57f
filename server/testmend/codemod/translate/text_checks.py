"""Assertions on an element's text: what Enzyme's ``text()`` compared, as jest-dom states it."""

from __future__ import annotations

from typing import Literal

from ..syntax import js_string, regex_escape
from .state import Target


def found_by_text(target: Target, literal: str) -> bool:
    """Whether ``target`` is one element a text query finds by exactly ``literal``."""
    return (
        target.kind == "query"
        and target.method == "Text"
        and not target.multi
        and target.args == js_string(literal)
    )


def text_content_check(
    element: str,
    raw: str,
    neg: str,
    kind: Literal["exact", "includes"],
    literal: str | None,
    code: str,
) -> str:
    """An assertion that ``element``'s text is (``exact``) or contains (``includes``) the
    string ``code`` (``literal``: its value, when the source spells it), as Enzyme's
    ``text()`` compares: the raw text. jest-dom's ``toHaveTextContent`` collapses the
    element's whitespace but not the expected string's, so a value whose whitespace is not
    single spaces (``'  lots    of    space'``), or one only the run knows, is compared with
    ``textContent`` itself (read on ``raw``, the element asserted to be there). Every text
    contains the empty string, where ``toHaveTextContent('')`` would say the element is empty:
    ``toContain('')`` says only that the element is there (``text()`` reads one element)."""
    if kind == "includes" and literal == "" and not neg:
        return f"expect({element}).toBeInTheDocument();"
    if literal is not None and " ".join(literal.split()) == literal:
        if kind == "exact":
            pattern = "^" + regex_escape(literal) + "$" if literal else "^$"
            return f"expect({element}){neg}.toHaveTextContent(/{pattern}/);"
        return f"expect({element}){neg}.toHaveTextContent({code});"
    if kind == "exact":
        return f"expect({raw}.textContent){neg}.toBe({code});"
    return f"expect({raw}.textContent){neg}.toContain({code});"

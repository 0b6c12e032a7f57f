"""What a finding says about a CSS selector no query stands for: the elements the capture saw
it select, and what would let a Testing Library query select them; or that it selected nothing
anywhere in the file."""

from __future__ import annotations

from ..models import FindRecord

# What gives an element of each kind an accessible name (or makes it queryable at all).
_NAMED_BY = {
    "input": "a <label> (or aria-label)",
    "select": "a <label> (or aria-label)",
    "textarea": "a <label> (or aria-label)",
    "button": "text or an aria-label",
    "a": "an href and text (or an aria-label)",
    "img": "a non-empty alt",
}


def queryable_hint(record: FindRecord | None) -> str:
    """What the elements a CSS fallback selects are (as ``record`` of the capture saw them),
    and what would let a Testing Library query select them (``""`` when it saw none)."""
    if record is None or not record.elements:
        return ""
    elements = record.elements
    first = elements[0]
    described = f"<{first.tag}"
    if first.classes:
        described += f' class="{" ".join(first.classes[:3])}"'
    described += ">"
    if record.count > 1:
        kinds = {e.tag for e in elements}
        described = f"{record.count} elements ({described}{'' if len(kinds) == 1 else ', …'})"
    else:
        described = f"the {described}"
    fix = _NAMED_BY.get(first.tag)
    if fix is None:
        fix = "a role with an accessible name (aria-label or aria-labelledby)"
    return f"{described} it selects would be queryable with {fix}, or a data-testid"


def _selector(css: str) -> str | None:
    """The selector a string literal's code (``css``) holds; None for other code."""
    if len(css) < 2 or css[0] not in "'\"" or css[-1] != css[0]:
        return None
    return css[1:-1].replace("\\" + css[0], css[0])


def selected(records: list[FindRecord] | None, css: str, test: str | None) -> FindRecord | None:
    """The capture's record (of ``records``, None: no capture) of the elements the CSS
    selector ``css`` (its code) selected the first time it selected any: in the test ``test``
    when it ran there, else anywhere in the file."""
    selector = _selector(css)
    if records is None or selector is None:
        return None
    found = [r for r in records if r.selector == selector and r.elements]
    mine = [r for r in found if r.test == test]
    return (mine or found)[0] if found else None


def never_selected(records: list[FindRecord] | None, css: str) -> bool:
    """Whether the capture ran the CSS selector ``css`` (a string literal's code) and it
    selected nothing wherever it ran in the file (an absence check of what no test renders)."""
    selector = _selector(css)
    if records is None or selector is None:
        return False
    runs = [r for r in records if r.selector == selector]
    return bool(runs) and not any(r.count for r in runs)

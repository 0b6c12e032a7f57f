"""The test's own marker elements: an element the test writes itself and hands to the component
(``filter={<div id="foo" />}``, ``buttons={[<div key="foo" id="foo" />]}``) so that it can find
it in what the component rendered (``find('#foo')``). Such an element has no role, name or
text: the query for it is a test id, which the test may add because the element is its own.

Pure functions over source text: which of the file's JSX elements a selector names, and the
output with the test id added to each (beside the attribute that named it, on its line, so no
line moves)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..syntax import Node, parse, string_value, text, walk

_SELECTOR = re.compile(r"(?P<tag>[a-z][a-z0-9]*)?(?P<kind>[#.])(?P<name>[A-Za-z_][\w-]*)")


@dataclass(frozen=True)
class Marker:
    """JSX host elements of the test file with ``attribute="value"`` (``id`` or ``className``,
    a plain string), named by a selector ``#value`` or ``.value`` (with their tag or none)."""

    attribute: str
    value: str
    tags: frozenset[str]


def marker_for(selector: str, root: Node, test_id: str) -> Marker | None:
    """The marker elements ``selector`` names in the file under ``root``, when the selector is
    one id or class (with a tag or not) and every element of the file that has that id, or that
    class as its whole ``className``, is a host element (a lowercase tag) of the test's own
    JSX without a test id (the attribute ``test_id``); None otherwise."""
    match = _SELECTOR.fullmatch(selector.strip())
    if match is None:
        return None
    attribute = "id" if match["kind"] == "#" else "className"
    elements = list(_named(root, attribute, match["name"]))
    if not elements:
        return None
    tags = set()
    for element in elements:
        tag = text(element.child_by_field_name("name"))
        if not re.fullmatch(r"[a-z][a-z0-9]*", tag) or _has_attribute(element, test_id):
            return None
        tags.add(tag)
    if match["tag"] and tags != {match["tag"]}:
        return None
    return Marker(attribute, match["name"], frozenset(tags))


def with_test_ids(source: str, path: str, markers: Iterable[Marker], test_id: str) -> str:
    """``source`` with ``test_id="value"`` after each marker element's naming attribute (in
    the quotes that attribute uses)."""
    wanted = {(m.attribute, m.value) for m in markers}
    if not wanted:
        return source
    data = source.encode("utf-8")
    inserts: list[tuple[int, bytes]] = []
    tree = parse(source, path)
    for attribute, value in wanted:
        for element in _named(tree.root_node, attribute, value):
            if _has_attribute(element, test_id):
                continue
            named = _attribute(element, attribute)
            if named is None:
                continue
            literal = named.named_children[-1]
            quote = text(literal)[:1] if text(literal)[:1] in "'\"" else '"'
            inserts.append((named.end_byte, f" {test_id}={quote}{value}{quote}".encode()))
    for offset, insert in sorted(inserts, reverse=True):
        data = data[:offset] + insert + data[offset:]
    return data.decode("utf-8")


def _named(root: Node, attribute: str, value: str) -> Iterable[Node]:
    """The JSX opening or self-closing elements under ``root`` with ``attribute`` set to the
    string ``value``."""
    for node in walk(root):
        if node.type in ("jsx_opening_element", "jsx_self_closing_element"):
            named = _attribute(node, attribute)
            if named is not None and _string_of(named) == value:
                yield node


def _attribute(element: Node, name: str) -> Node | None:
    for child in element.named_children:
        named = child.type == "jsx_attribute" and child.named_children
        if named and text(child.named_children[0]) == name:
            return child
    return None


def _has_attribute(element: Node, name: str) -> bool:
    return _attribute(element, name) is not None


def _string_of(attribute: Node) -> str | None:
    if len(attribute.named_children) < 2:
        return None
    value = attribute.named_children[-1]
    if value.type == "string":
        return string_value(value)
    return None

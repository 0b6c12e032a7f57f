"""Which declaration a name refers to: the block, function, loop or catch clause that declares
it, found by walking up from where the name is written, as JavaScript's lexical scoping does.

``var`` is taken as declared in its own block (a test file rarely hoists one out of a nested
block); a name declared nowhere in the file resolves to the file itself."""

from __future__ import annotations

from collections.abc import Iterator

from ..js_syntax import Node, text_of
from .syntax import FUNCTION_TYPES

_FUNCTIONS = (
    *FUNCTION_TYPES,
    "method_definition",
    "generator_function",
    "generator_function_declaration",
)
_BLOCKS = ("statement_block", "program", "class_static_block")
_DECLARATIONS = ("lexical_declaration", "variable_declaration")
_NAMED = ("function_declaration", "generator_function_declaration", "class_declaration")


def declaring_scope(name: str, at: Node) -> Node:
    """The node whose scope holds the declaration ``name`` (written at ``at``) refers to."""
    current: Node | None = at
    outermost = at
    while current is not None:
        if _declares(current, name):
            return current
        outermost = current
        current = current.parent
    return outermost


def _declares(node: Node, name: str) -> bool:
    kind = node.type
    if kind in _FUNCTIONS:
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        return params is not None and name in pattern_names(params)
    if kind in _BLOCKS:
        return any(name in _declared_by(child) for child in node.named_children)
    if kind == "switch_body":
        # One scope for all its cases: a `const` in one case is the same name in the next.
        return any(
            name in _declared_by(statement)
            for case in node.named_children
            for statement in case.named_children
        )
    if kind == "for_statement":
        initializer = node.child_by_field_name("initializer")
        return initializer is not None and name in _declared_by(initializer)
    if kind == "for_in_statement":
        left = node.child_by_field_name("left")
        declared = node.child_by_field_name("kind") is not None
        return declared and left is not None and name in pattern_names(left)
    if kind == "catch_clause":
        parameter = node.child_by_field_name("parameter")
        return parameter is not None and name in pattern_names(parameter)
    return False


def _declared_by(statement: Node) -> set[str]:
    if statement.type == "export_statement":
        inner = statement.child_by_field_name("declaration")
        return _declared_by(inner) if inner is not None else set()
    if statement.type in _DECLARATIONS:
        return {
            found
            for declarator in statement.named_children
            if declarator.type == "variable_declarator"
            for found in pattern_names(declarator.child_by_field_name("name"))
        }
    if statement.type in _NAMED:
        named = statement.child_by_field_name("name")
        return {text_of(named)} if named is not None else set()
    return set()


def pattern_names(pattern: Node | None) -> set[str]:
    """The names a binding pattern declares (``{ a, b: c, ...d }``, ``[e = f]``, ``(g, h)``);
    default values and property keys are not among them."""
    return {text_of(n) for n in pattern_identifiers(pattern)}


def pattern_identifiers(pattern: Node | None) -> Iterator[Node]:
    """Where a binding (or assignment) pattern writes each name it declares."""
    if pattern is None:
        return
    if pattern.type in ("identifier", "shorthand_property_identifier_pattern"):
        yield pattern
        return
    if pattern.type in ("assignment_pattern", "object_assignment_pattern"):
        yield from pattern_identifiers(pattern.child_by_field_name("left"))
        return
    if pattern.type == "pair_pattern":
        yield from pattern_identifiers(pattern.child_by_field_name("value"))
        return
    if pattern.type in ("required_parameter", "optional_parameter"):
        yield from pattern_identifiers(pattern.child_by_field_name("pattern"))
        return
    for child in pattern.named_children:
        if child.type not in ("type_annotation", "comment"):
            yield from pattern_identifiers(child)

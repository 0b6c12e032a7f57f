"""Parsing JavaScript and TypeScript with tree-sitter: the grammar of a file, parsing, a node's
text, call arguments and string literal values.

The one place both ``project/`` (imports, exports, mocks) and ``codemod/`` (the Enzyme→RTL
rewrite) parse from. Each parse gets its own ``Parser``: runs parse in worker threads, and a
parser must not be shared between threads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Literal

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

Node = tree_sitter.Node
Grammar = Literal["tsx", "typescript", "javascript"]

JS_TS_EXTENSIONS: tuple[str, ...] = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def grammar_for(path: str) -> Grammar | None:
    """The grammar of a file by its extension (``None`` for non-JS/TS files)."""
    lower = path.lower()
    if lower.endswith(".tsx"):
        return "tsx"
    if lower.endswith((".ts", ".mts", ".cts")):
        return "typescript"
    if lower.endswith((".js", ".jsx", ".mjs", ".cjs")):
        return "javascript"
    return None


@cache
def language(grammar: Grammar) -> tree_sitter.Language:
    if grammar == "tsx":
        return tree_sitter.Language(tree_sitter_typescript.language_tsx())
    if grammar == "typescript":
        return tree_sitter.Language(tree_sitter_typescript.language_typescript())
    return tree_sitter.Language(tree_sitter_javascript.language())


def parse(source: str | bytes, path: str) -> tree_sitter.Tree:
    """Parse with the grammar of ``path`` (JavaScript, with JSX, for unknown extensions).

    A JavaScript file the JavaScript grammar rejects is parsed again as TSX, and that tree is
    kept when it has no error: tree-sitter-javascript rejects JSX attributes named like
    reserved words (``<Collapse in={open}>``, ``<FormGroup switch>``, ``<svg class="x">``;
    tree-sitter-javascript#387), which are valid JSX and which the TSX grammar accepts. What
    reads the tree already handles TSX's node shapes (typed parameters); whether the output is
    TypeScript is decided by the path, never by the grammar.
    """
    data = source.encode("utf-8") if isinstance(source, str) else source
    grammar = grammar_for(path) or "javascript"
    tree = tree_sitter.Parser(language(grammar)).parse(data)
    if grammar == "javascript" and tree.root_node.has_error:
        as_tsx = tree_sitter.Parser(language("tsx")).parse(data)
        if not as_tsx.root_node.has_error:
            return as_tsx
    return tree


def text_of(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", errors="replace")


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_ESCAPE_RE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")


def unescape_js(body: str) -> str:
    """Decode the escapes of a JS string literal body (``'\\\\.css$'`` → ``\\.css$``)."""

    def repl(match: re.Match[str]) -> str:
        esc = match.group(1)
        if esc.startswith("u{"):
            return chr(int(esc[2:-1], 16))
        if esc[0] in "ux" and len(esc) > 1:
            return chr(int(esc[1:], 16))
        if esc in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
            return ""
        return _ESCAPES.get(esc, esc)

    return _ESCAPE_RE.sub(repl, body)


def string_value(node: Node | None) -> str | None:
    """The value of a string literal or a template literal without substitutions."""
    if node is None:
        return None
    if node.type == "string":
        return unescape_js(text_of(node)[1:-1])
    if node.type == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            return None
        return unescape_js(text_of(node)[1:-1])
    return None


def walk(node: Node) -> Iterator[Node]:
    """Every node under ``node`` (itself included), in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def first_syntax_error(tree: tree_sitter.Tree) -> int | None:
    """The 1-based line of the first syntax error in ``tree`` (``None`` when it parses)."""
    if not tree.root_node.has_error:
        return None
    for node in walk(tree.root_node):
        if node.type == "ERROR" or node.is_missing:
            return node.start_point[0] + 1
    return tree.root_node.start_point[0] + 1


def syntax_error_at(source: str, path: str) -> tuple[int, int] | None:
    """Where the first syntax error of ``source`` (a file named ``path``) is: 1-based line and
    column; None when it parses (or its language is not JavaScript/TypeScript)."""
    if grammar_for(path) is None:
        return None
    tree = parse(source, path)
    if not tree.root_node.has_error:
        return None
    for node in walk(tree.root_node):
        if node.type == "ERROR" or node.is_missing:
            return node.start_point[0] + 1, node.start_point[1] + 1
    return 1, 1


def call_args(call: Node) -> list[Node]:
    """The arguments of a call expression, comments left out."""
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [c for c in arguments.named_children if c.type != "comment"]


def unwrap(node: Node | None) -> Node | None:
    """Skip parentheses, TypeScript ``!``, ``as`` and ``satisfies`` around an expression."""
    while node is not None and node.type in (
        "parenthesized_expression",
        "non_null_expression",
        "as_expression",
        "satisfies_expression",
        "type_assertion",
    ):
        named = [c for c in node.named_children if c.type != "comment"]
        if not named:
            return None
        node = named[-1] if node.type == "type_assertion" else named[0]
    return node

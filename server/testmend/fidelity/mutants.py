"""Mutants of the code under test, generated from its syntax tree, and the schemata source that
holds them all at once.

Operators (each a small bug a test of the component should notice):

- ``comparison``: ``<`` ↔ ``<=``, ``>`` ↔ ``>=``, ``===`` ↔ ``!==``, ``==`` ↔ ``!=``
- ``logical``: ``&&`` ↔ ``||``
- ``arithmetic``: ``+`` ↔ ``-`` (not next to a string), ``*`` ↔ ``/``
- ``number``: a small integer literal (0–100) off by one (larger ones are mostly delays/sizes)
- ``boolean``: ``true`` ↔ ``false``
- ``negate-condition``: the condition of an ``if``, a ``while`` or a ``?:`` negated
- ``remove-call``: a call statement (or an arrow function's call body) not made
- ``remove-handler``: a JSX event handler (``onClick={…}``) not passed
- ``jsx-text`` / ``string``: visible text (JSX text, a message-like string literal) changed
- ``class-name``: a class the test asserts (``hasClass``/``toHaveClass``) renamed where a JSX
  ``className`` sets it, or where a string carrying it is built into one (an argument or an
  object key of ``classNames``/``cx``, a variable); classes a test only selects by are
  implementation details

Nothing in types, imports or ``console`` calls is mutated, nor object keys but for a class a
test asserts. The choice is deterministic (same source, same mutants) and spread over
operators and over the file.

All chosen mutants of a file are written into one *schemata* file: each site becomes
``(__testmendMutant(ID) ? MUTATED : ORIGINAL)``, and ``__testmendMutant`` reads the active
mutant from the name of the test file jest is running (``….testmend-m<ID>-….test.tsx``), so
one jest process runs the original and the candidate against every mutant, each test file in its
own module registry.

A mutant can make a loop of the file never end (a negated ``if`` lets an empty search string
into a ``while`` that then never moves on): jest cannot stop a synchronous loop, the worker runs
until its heap is full and dies, and jest then waits for it until the whole check times out.
So every loop body of the schemata file starts with ``__testmendLoop()``, which, under a mutant
only, throws once the file's loops have turned :data:`LOOP_LIMIT` times in one test: that test
fails, the mutant is caught by whichever side runs into it, and the run goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..assets import read_asset
from ..js_syntax import Node, parse, text_of, walk
from ..layout import TEMP_MARK
from .models import Mutant, MutantKind

HELPER = "__testmendMutant"
LOOP_GUARD = "__testmendLoop"
LOOP_LIMIT = 1_000_000
"""Loop turns in one test, under a mutant, taken as a loop that never ends."""
_LOOPS = ("while_statement", "do_statement", "for_statement", "for_in_statement")
COPY_MARK = f"{TEMP_MARK}m"
"""Test file copies are named ``<stem>.testmend-m<ID>-<o|c><rest>``."""


def _helper_source() -> str:
    """``__testmendMutant`` (``mutant_helper.js``), put at the top of the schemata source: its
    regular expression finds the mutant's id after :data:`COPY_MARK` in the test's path."""
    pattern = COPY_MARK.replace(".", "\\.")  # a dot, dashes and letters: only the dot is special
    source = read_asset("testmend.fidelity", "mutant_helper.js")
    return source.replace("COPY_MARK_PATTERN", pattern).replace("LOOP_LIMIT", str(LOOP_LIMIT))


_COMPARISON = {
    "<": "<=",
    "<=": "<",
    ">": ">=",
    ">=": ">",
    "===": "!==",
    "!==": "===",
    "==": "!=",
    "!=": "==",
}
_LOGICAL = {"&&": "||", "||": "&&"}
_ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*"}
_NO_MUTATION_INSIDE = {
    "import_statement",
    "type_annotation",
    "type_alias_declaration",
    "interface_declaration",
    "type_arguments",
    "type_parameters",
    "literal_type",
    "enum_declaration",
    "decorator",
    "ambient_declaration",
    "abstract_method_signature",
}
_HANDLER = re.compile(r"^on[A-Z]\w*$")
_MESSAGE = re.compile(r"[A-Za-z]{2,}.*\s.*[A-Za-z]|^[A-Z][a-z]+[.!?]?$")
_OPERATOR_ORDER = (
    "comparison",
    "negate-condition",
    "number",
    "remove-call",
    "arithmetic",
    "logical",
    "remove-handler",
    "jsx-text",
    "string",
    "boolean",
    "class-name",
)


@dataclass(frozen=True)
class _Site:
    operator: str
    start: int
    end: int
    line: int
    original: str
    mutated: str
    """The replacement as it reads in the mutant (shown to people)."""
    kind: MutantKind = "expression"
    """How the schemata wraps it (see :attr:`Mutant.kind`)."""


def _excluded(node: Node) -> bool:
    current: Node | None = node.parent
    while current is not None:
        if current.type in _NO_MUTATION_INSIDE:
            return True
        if current.type == "call_expression":
            fn = text_of(current.child_by_field_name("function"))
            if fn.startswith("console.") or fn in ("require", "jest.mock", "import"):
                return True
        current = current.parent
    return False


def _flip_case(text: str) -> str:
    for index, char in enumerate(text):
        if char.isalpha():
            return text[:index] + char.swapcase() + text[index + 1 :]
    return text


def _operator_node(node: Node) -> Node | None:
    return node.child_by_field_name("operator")


def _is_stringy(node: Node | None) -> bool:
    return node is not None and node.type in ("string", "template_string")


def _in_class_attribute(node: Node) -> bool:
    current = node.parent
    while current is not None and current.type not in ("jsx_element", "jsx_self_closing_element"):
        if current.type == "jsx_attribute" and current.named_children:
            return text_of(current.named_children[0]) in ("className", "class")
        current = current.parent
    return False


_NOT_A_VALUE = (
    "jsx_attribute",
    "import_statement",
    "export_statement",
    "expression_statement",
    "subscript_expression",
)
"""Where a string is a non-class attribute, a module name, a directive or an index."""


def _carries(node: Node) -> bool:
    """A string used as a value (an argument, a variable's, a property's) or as an object's
    key, not as a non-class attribute, a directive or a module name: where a component builds
    its classes before they reach ``className`` (``classNames(className, 'card-body')``,
    ``cx({ 'is-active': active })``, ``const base = 'btn'``)."""
    parent = node.parent
    return parent is not None and parent.type not in _NOT_A_VALUE


def _value_kind(node: Node) -> MutantKind:
    """How a string's mutant is put behind its switch: an attribute's value needs braces, an
    object's key a computed key; anything else is an expression."""
    parent = node.parent
    if parent is not None and parent.type == "jsx_attribute":
        return "jsx-attribute"
    if parent is not None and parent.type == "pair" and parent.child_by_field_name("key") == node:
        return "property-key"
    return "expression"


_ASSERTED_CLASS = re.compile(r"(?:hasClass|toHaveClass)\(\s*['\"`]([\w-]+)['\"`]")


def asserted_classes(test_source: str) -> set[str]:
    """Class names a test asserts (``hasClass('x')``, ``toHaveClass('x')``): renaming one of
    them is a bug the test is about. A class a test only selects by is an implementation detail
    Testing Library tests deliberately do not depend on, so it is not mutated."""
    return set(_ASSERTED_CLASS.findall(test_source))


def _sites(source: bytes, root: Node, asserted_classes: set[str]) -> Iterator[_Site]:
    for node in walk(root):
        kind = node.type
        if kind in (
            "binary_expression",
            "number",
            "true",
            "false",
            "jsx_text",
            "string",
            "expression_statement",
            "jsx_attribute",
            "arrow_function",
            "if_statement",
            "while_statement",
            "ternary_expression",
        ):
            if _excluded(node):
                continue
        else:
            continue
        line = node.start_point[0] + 1
        text = text_of(node)
        if kind == "binary_expression":
            op_node = _operator_node(node)
            op = text_of(op_node)
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None or op_node is None:
                continue
            table, operator = None, ""
            if op in _COMPARISON:
                table, operator = _COMPARISON, "comparison"
            elif op in _LOGICAL:
                table, operator = _LOGICAL, "logical"
            elif op in _ARITHMETIC and not (_is_stringy(left) or _is_stringy(right)):
                table, operator = _ARITHMETIC, "arithmetic"
            if table is None:
                continue
            before = source[node.start_byte : op_node.start_byte].decode("utf-8", "replace")
            after = source[op_node.end_byte : node.end_byte].decode("utf-8", "replace")
            yield _Site(
                operator, node.start_byte, node.end_byte, line, text, f"{before}{table[op]}{after}"
            )
        elif kind == "number":
            parent = node.parent
            if (
                parent is not None
                and parent.type == "pair"
                and parent.child_by_field_name("key") == node
            ):
                continue
            if not re.fullmatch(r"\d{1,3}", text) or int(text) > 100:
                continue
            yield _Site("number", node.start_byte, node.end_byte, line, text, str(int(text) + 1))
        elif kind in ("true", "false"):
            yield _Site(
                "boolean",
                node.start_byte,
                node.end_byte,
                line,
                text,
                "false" if kind == "true" else "true",
            )
        elif kind == "jsx_text":
            stripped = text.strip()
            if (
                not stripped
                or "\n" in stripped
                or "&" in stripped
                or not any(c.isalpha() for c in stripped)
            ):
                continue
            offset = len(text.encode("utf-8")) - len(text.lstrip().encode("utf-8"))
            start = node.start_byte + offset
            end = start + len(stripped.encode("utf-8"))
            yield _Site("jsx-text", start, end, line, stripped, _flip_case(stripped), "jsx-child")
        elif kind == "string":
            parent = node.parent
            value = text[1:-1]
            quote = text[:1]
            in_class_attribute = _in_class_attribute(node)
            token = next((t for t in value.split() if t in asserted_classes), None)
            if token is not None and "\\" not in value and (in_class_attribute or _carries(node)):
                renamed = " ".join(f"{t}-mutant" if t == token else t for t in value.split())
                yield _Site(
                    "class-name",
                    node.start_byte,
                    node.end_byte,
                    line,
                    text,
                    f"{quote}{renamed}{quote}",
                    _value_kind(node),
                )
                continue
            if in_class_attribute:
                continue
            if parent is None or parent.type in (*_NOT_A_VALUE, "pair"):
                continue
            if "\\" in value or not _MESSAGE.search(value) or value == _flip_case(value):
                continue
            yield _Site(
                "string",
                node.start_byte,
                node.end_byte,
                line,
                text,
                f"{quote}{_flip_case(value)}{quote}",
            )
        elif kind == "expression_statement":
            expr = node.named_children[0] if node.named_children else None
            if expr is None or expr.type != "call_expression":
                continue
            fn = text_of(expr.child_by_field_name("function"))
            if fn in ("super",) or fn.startswith("console."):
                continue
            yield _Site("remove-call", node.start_byte, node.end_byte, line, text, "", "statement")
        elif kind == "arrow_function":
            body = node.child_by_field_name("body")
            if body is None or body.type != "call_expression":
                continue
            yield _Site(
                "remove-call",
                body.start_byte,
                body.end_byte,
                body.start_point[0] + 1,
                text_of(body),
                "undefined",
            )
        elif kind == "jsx_attribute":
            children = node.named_children
            if len(children) != 2:
                continue
            attribute, expression = text_of(children[0]), children[1]
            if (
                _HANDLER.match(attribute)
                and expression.type == "jsx_expression"
                and expression.named_children
            ):
                inner = expression.named_children[0]
                yield _Site(
                    "remove-handler",
                    inner.start_byte,
                    inner.end_byte,
                    line,
                    f"{attribute}={{{text_of(inner)}}}",
                    "undefined",
                )
        elif kind in ("if_statement", "while_statement", "ternary_expression"):
            condition = node.child_by_field_name("condition")
            if condition is None:
                continue
            if condition.type == "parenthesized_expression" and condition.named_children:
                condition = condition.named_children[0]
            ctext = text_of(condition)
            negated = f"!({ctext})"
            argument = condition.child_by_field_name("argument")
            if condition.type == "unary_expression" and ctext.startswith("!") and argument:
                negated = text_of(argument)  # `!x` → `x`
            yield _Site(
                "negate-condition",
                condition.start_byte,
                condition.end_byte,
                condition.start_point[0] + 1,
                ctext,
                negated,
            )


def _spread(sites: list[_Site], count: int) -> list[_Site]:
    if count >= len(sites):
        return list(sites)
    step = len(sites) / count
    return [sites[int(i * step + step / 2)] for i in range(count)]


def choose_sites(
    source: str, path: str, limit: int, classes: set[str] | None = None
) -> list[_Site]:
    """Up to ``limit`` non-overlapping sites, round-robin over operators, spread over the file."""
    data = source.encode("utf-8")
    tree = parse(data, path)
    if tree.root_node.has_error or limit <= 0:
        return []
    by_operator: dict[str, list[_Site]] = {}
    for site in _sites(data, tree.root_node, classes or set()):
        by_operator.setdefault(site.operator, []).append(site)
    queues = {op: _spread(sites, limit) for op, sites in by_operator.items()}
    chosen: list[_Site] = []
    while len(chosen) < limit and any(queues.values()):
        for operator in _OPERATOR_ORDER:
            queue = queues.get(operator)
            while queue:
                site = queue.pop(0)
                if all(site.end <= c.start or site.start >= c.end for c in chosen):
                    chosen.append(site)
                    break
            if len(chosen) >= limit:
                break
    return sorted(chosen, key=lambda s: s.start)


def generate_mutants(
    source: str, path: str, limit: int, first_id: int = 1, *, classes: set[str] | None = None
) -> list[Mutant]:
    """The mutants of one file, numbered from ``first_id``; ``classes``: the class names the
    test asserts (see :func:`asserted_classes`)."""
    return [
        Mutant(
            id=first_id + index,
            file=path,
            line=site.line,
            operator=site.operator,
            original=site.original,
            replacement=site.mutated,
            start=site.start,
            end=site.end,
            kind=site.kind,
        )
        for index, site in enumerate(choose_sites(source, path, limit, classes))
    ]


def _schema(mutant: Mutant, original: str) -> str:
    guard = f"{HELPER}({mutant.id})"
    if mutant.kind == "statement":
        return f"if (!{guard}) {{ {original} }}"
    if mutant.kind == "jsx-child":
        return f"{{{guard} ? {_js_string(mutant.replacement)} : {_js_string(original)}}}"
    if mutant.kind == "jsx-attribute":
        return f"{{{guard} ? {mutant.replacement} : {original}}}"
    if mutant.kind == "property-key":
        return f"[{guard} ? {mutant.replacement} : {original}]"
    return f"({guard} ? ({mutant.replacement}) : ({original}))"


def _js_string(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _insertion_point(data: bytes, path: str) -> int:
    """After a shebang, the leading comments and directives ('use client'), where the helper
    goes: a pragma must stay before the first token (Babel reads Flow's call type arguments,
    ``useRef<?HTMLElement>(null)``, only under a ``// @flow`` that comes first)."""
    root = parse(data, path).root_node
    offset = 0
    for child in root.named_children:
        if child.type in ("hash_bang_line", "comment"):
            offset = child.end_byte
            continue
        if (
            child.type == "expression_statement"
            and child.named_children
            and child.named_children[0].type == "string"
        ):
            offset = child.end_byte
            continue
        break
    return offset


def _loop_guards(data: bytes, path: str) -> list[tuple[int, str]]:
    """Where ``__testmendLoop();`` goes: at the start of every loop body (a body that is not a
    block becomes one), as (offset, text) insertions."""
    inserts: list[tuple[int, str]] = []
    for node in walk(parse(data, path).root_node):
        body = node.child_by_field_name("body") if node.type in _LOOPS else None
        if body is None:
            continue
        if body.type == "statement_block":
            inserts.append((body.start_byte + 1, f" {LOOP_GUARD}();"))
        else:
            inserts.append((body.start_byte, f"{{ {LOOP_GUARD}(); "))
            inserts.append((body.end_byte, " }"))
    return inserts


def _inserted(data: bytes, start: int, inserts: list[tuple[int, str]]) -> bytes:
    """``data`` (which starts at ``start`` in the file) with ``inserts`` made."""
    for offset, code in sorted(inserts, reverse=True):
        at = offset - start
        data = data[:at] + code.encode("utf-8") + data[at:]
    return data


def schemata_source(source: str, path: str, mutants: list[Mutant]) -> str:
    """``source`` with every mutant behind its switch (``mutants`` must not overlap) and every
    loop guarded (a loop inside a mutated span, such as a handler a mutant takes away, where
    the switch keeps the original)."""
    data = source.encode("utf-8")
    guards = _loop_guards(data, path)
    edits: list[tuple[int, int, int, bytes]] = []  # start, order at that start, end, code
    inside: set[int] = set()
    for mutant in mutants:
        spanned = {i for i, (at, _code) in enumerate(guards) if mutant.start < at < mutant.end}
        inside |= spanned
        within = [guards[i] for i in spanned]
        original = _inserted(data[mutant.start : mutant.end], mutant.start, within)
        schema = _schema(mutant, original.decode("utf-8")).encode("utf-8")
        edits.append((mutant.start, 1, mutant.end, schema))
    # At one offset the mutant's switch is made first, so a guard there goes before it.
    edits += [
        (at, 0, at, code.encode("utf-8")) for i, (at, code) in enumerate(guards) if i not in inside
    ]
    for start, _order, end, code in sorted(edits, reverse=True):
        data = data[:start] + code + data[end:]
    at = _insertion_point(data, path)
    head = data[:at] + (b"\n" if at else b"")
    return "// @ts-nocheck\n" + head.decode("utf-8") + _helper_source() + data[at:].decode("utf-8")


def mutated_source(source: str, mutant: Mutant) -> str:
    """The file as this one mutant alone makes it (for the report's diff)."""
    data = source.encode("utf-8")
    replacement = ";" if mutant.kind == "statement" else mutant.replacement
    return (data[: mutant.start] + replacement.encode("utf-8") + data[mutant.end :]).decode("utf-8")


def body_name(test_file: str, which: str) -> str:
    """``src/A.test.tsx`` → ``src/A.testmend-o.test.tsx``: where the original (``o``) or the
    candidate (``c``) is written once for the copies to import."""
    folder, _, name = test_file.rpartition("/")
    stem, dot, rest = name.partition(".")
    body = f"{stem}{TEMP_MARK}{which}" + (f".{rest}" if dot else "")
    return f"{folder}/{body}" if folder else body


def copy_name(test_file: str, mutant_id: int, which: str) -> str:
    """``src/A.test.tsx`` → ``src/A.testmend-m3-o.test.tsx`` (same folder: imports resolve)."""
    folder, _, name = test_file.rpartition("/")
    stem, dot, rest = name.partition(".")
    copy = f"{stem}{COPY_MARK}{mutant_id}-{which}" + (f".{rest}" if dot else "")
    return f"{folder}/{copy}" if folder else copy

"""The codemod's tree-sitter helpers: node utilities, JS literals, byte-range edits (parsing
itself is in testmend.js_syntax)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..js_syntax import Node as Node
from ..js_syntax import call_args, text_of
from ..js_syntax import parse as parse
from ..js_syntax import string_value as literal_value
from ..js_syntax import unwrap as unwrap
from ..js_syntax import walk as walk

# The shared basics (testmend.js_syntax) under the codemod's short names.
args_of = call_args
text = text_of


def string_value(node: Node | None) -> str | None:
    """The value of a string literal (or a template literal without substitutions), through
    parentheses and TypeScript assertions."""
    return literal_value(unwrap(node))


def pair_key(pair: Node) -> str:
    """The key of an object literal's ``key: value`` pair: ``'aria-label'`` → ``aria-label``,
    ``title`` → ``title``."""
    key = pair.child_by_field_name("key")
    return string_value(key) or text(key)


def object_items(obj: Node) -> list[tuple[str, Node]]:
    """An object literal's ``key: value`` pairs and shorthand ``key`` properties, as (key,
    value node); spreads and methods left out."""
    items: list[tuple[str, Node]] = []
    for child in obj.named_children:
        if child.type == "pair":
            value = child.child_by_field_name("value")
            if value is not None:
                items.append((pair_key(child), value))
        elif child.type == "shorthand_property_identifier":
            items.append((text(child), child))
    return items


def pattern_items(pattern: Node) -> list[tuple[str, str]]:
    """An object pattern's (key, local name) pairs: ``{ wrapper, history: h }`` →
    [("wrapper", "wrapper"), ("history", "h")]; defaults and rest left out."""
    items: list[tuple[str, str]] = []
    for child in pattern.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            items.append((text(child), text(child)))
        elif child.type == "pair_pattern":
            value = child.child_by_field_name("value")
            if value is not None and value.type == "identifier":
                items.append((pair_key(child), text(value)))
    return items


def js_string(value: str) -> str:
    """A single-quoted JS string literal."""
    escaped = value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    return f"'{escaped}'"


# Names Testing Library's lint (eslint-plugin-testing-library's no-node-access) takes for DOM
# node access wherever they follow a dot.
NODE_PROPERTY_NAMES = frozenset(
    [
        "activeElement",
        "children",
        "childElementCount",
        "firstChild",
        "firstElementChild",
        "lastChild",
        "lastElementChild",
        "nextElementSibling",
        "nextSibling",
        "parentElement",
        "parentNode",
        "previousElementSibling",
        "previousSibling",
    ]
)


def prop_access(key: str) -> str:
    """The JS that reads ``key`` of a props object: ``.key``; ``['key']`` for a key that is no
    identifier, or one the lint would take for node access (react-tooltip's ``children``:
    the same read, and a prop, not a node)."""
    if key in NODE_PROPERTY_NAMES or not re.fullmatch(r"[A-Za-z_$][\w$]*", key):
        return f"[{js_string(key)}]"
    return f".{key}"


def js_value(value: object) -> str:
    """JSON-ish value → JS source (single-quoted strings, bare keys when possible)."""
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(js_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if set(value) == {"$regex", "flags"}:
            return regex_literal(str(value["$regex"]), str(value["flags"]))
        parts = []
        for key, item in value.items():
            name = key if re.fullmatch(r"[A-Za-z_$][\w$]*", key) else js_string(key)
            parts.append(f"{name}: {js_value(item)}")
        return "{ " + ", ".join(parts) + " }"
    return json.dumps(value)


def regex_literal(source: str, flags: str = "") -> str:
    """A ``RegExp`` source (as ``new RegExp(source)`` reads it) → the same regex as a literal.

    Only the slashes the source leaves unescaped need a backslash (``\\/`` already has one;
    a second would end the literal early), and line breaks cannot appear inside one.
    """
    breaks = {"\n": "n", "\r": "r", "\u2028": "u2028", "\u2029": "u2029"}
    out: list[str] = []
    escaped = False
    for char in source:
        if escaped:
            out.append(breaks.get(char, char))
            escaped = False
        elif char == "\\":
            out.append(char)
            escaped = True
        elif char == "/":
            out.append("\\/")
        elif char in breaks:
            out.append("\\" + breaks[char])
        else:
            out.append(char)
    return f"/{''.join(out) or '(?:)'}/{flags}"


def regex_escape(value: str) -> str:
    return re.sub(r"[.*+?^${}()|[\]\\/]", lambda m: "\\" + m.group(0), value)


def line_indent(source: bytes, offset: int) -> str:
    start = source.rfind(b"\n", 0, offset) + 1
    match = re.match(rb"[ \t]*", source[start:offset])
    return match.group(0).decode() if match else ""


def line_start(source: bytes, offset: int) -> int:
    return source.rfind(b"\n", 0, offset) + 1


def reindent(lines: list[str], indent: str) -> str:
    """``lines`` moved to ``indent`` (their common indentation replaced; blank lines empty)."""
    body = [line for line in lines if line.strip()]
    common = min((len(line) - len(line.lstrip()) for line in body), default=0)
    return "\n".join((indent + line[common:]) if line.strip() else "" for line in lines)


def moved(source: bytes, start: int, end: int, to: int) -> str:
    """``source[start:end]`` (from ``start``'s line indentation) re-indented to the line of
    ``to``, its first line without that indentation: the code to put at ``to``."""
    block = line_indent(source, start) + source[start:end].decode("utf-8")
    return reindent(block.split("\n"), line_indent(source, to)).lstrip()


@dataclass
class Edit:
    start: int
    end: int
    text: str
    notes: list[tuple[int, str, str]] = field(default_factory=list)
    """(offset in ``text``, kind, message) of the notes this edit carries."""


def splice(source: bytes, start: int, end: int, edits: list[tuple[int, int, str]]) -> str:
    """``source[start:end]`` with non-overlapping ``edits`` (absolute offsets, new text)
    applied: for code built from a piece of the file, not for the file's own edit list."""
    out = source[start:end]
    for edit_start, edit_end, new in sorted(edits, reverse=True):
        out = out[: edit_start - start] + new.encode("utf-8") + out[edit_end - start :]
    return out.decode("utf-8")


def apply_edits(
    source: bytes, edits: list[Edit]
) -> tuple[str, list[tuple[int, str, str]], Callable[[int], int]]:
    """Apply non-overlapping edits; return the text and notes with their output line (1-based).

    Overlapping edits: an edit inside a larger one is dropped (the larger one wins).
    """
    ordered = sorted(edits, key=lambda e: (e.start, -(e.end - e.start)))
    kept: list[Edit] = []
    for edit in ordered:
        if kept and edit.start < kept[-1].end:
            if edit.start == edit.end == kept[-1].start:
                kept.append(edit)  # insertion at the start of a replacement
            continue
        kept.append(edit)
    out: list[bytes] = []
    notes: list[tuple[int, str, str]] = []
    cursor = 0
    length = 0
    for edit in kept:
        chunk = source[cursor : edit.start]
        out.append(chunk)
        length += len(chunk)
        encoded = edit.text.encode("utf-8")
        for offset, kind, message in edit.notes:
            prefix = b"".join(out) + encoded[: len(edit.text[:offset].encode("utf-8"))]
            notes.append((prefix.count(b"\n") + 1, kind, message))
        out.append(encoded)
        length += len(encoded)
        cursor = max(cursor, edit.end)
    out.append(source[cursor:])
    spans = [(e.start, e.end, len(e.text.encode("utf-8"))) for e in kept]

    def mapper(offset: int) -> int:
        """The output offset of a source offset (edits before it shift it)."""
        shift = 0
        for start, end, size in spans:
            if (end <= offset and start < end) or (start == end and start < offset):
                shift += size - (end - start)
            elif start <= offset < end:
                return start + shift
        return offset + shift

    return b"".join(out).decode("utf-8"), notes, mapper


FUNCTION_TYPES = ("arrow_function", "function_expression", "function", "function_declaration")


def holds_outside_functions(nodes: list[Node], types: tuple[str, ...] | frozenset[str]) -> bool:
    """A node of one of ``types`` among ``nodes`` or under them, not counting what lies inside
    a function they define (its body does not run where they do)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.type in types:
            return True
        if node.type not in FUNCTION_TYPES:
            stack.extend(node.named_children)
    return False


def uses_after(name: str, stmt: Node) -> list[Node]:
    """The identifiers ``name`` in the scope of the statement ``stmt`` (its parent), after it."""
    scope = stmt.parent
    return [
        n
        for n in (walk(scope) if scope is not None else [])
        if n.type == "identifier" and text(n) == name and n.start_byte >= stmt.end_byte
    ]


def called_as_statement(callee: Node) -> Node | None:
    """The call of ``callee`` where it is made as a statement of its own, awaited or not
    (``onSubmit();``, ``await confirm.prop('onClick')();``); None for any other use."""
    call = callee.parent
    if call is None or call.type != "call_expression":
        return None
    if call.child_by_field_name("function") != callee:
        return None
    statement = call.parent
    if statement is not None and statement.type == "await_expression":
        statement = statement.parent
    return call if statement is not None and statement.type == "expression_statement" else None


def arrow_of_one(node: Node | None) -> tuple[str, Node] | None:
    """``(n) => …``, ``n => …``, ``(n: T) => …``: the name of its one plain parameter and its
    body; None for anything else (no arrow, several parameters, a pattern)."""
    fn = unwrap(node)
    if fn is None or fn.type != "arrow_function":
        return None
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    body = unwrap(fn.child_by_field_name("body"))
    if params is None or body is None:
        return None
    names = [
        p.child_by_field_name("pattern") or p
        for p in (params.named_children if params.type == "formal_parameters" else [params])
    ]
    if len(names) != 1 or names[0].type != "identifier":
        return None
    return text(names[0]), body


def enclosing_function(node: Node) -> Node | None:
    """The innermost function ``node`` is in."""
    return ancestor(node, FUNCTION_TYPES)


def ancestor(node: Node, types: tuple[str, ...]) -> Node | None:
    """The nearest node above ``node`` of one of ``types``."""
    current = node.parent
    while current is not None and current.type not in types:
        current = current.parent
    return current


def object_declared(name: str, at: Node) -> Node | None:
    """The object literal ``name`` was declared with in a block around ``at``, before it."""
    block = at.parent
    while block is not None:
        if block.type in ("statement_block", "program"):
            found = None
            for stmt in block.named_children:
                if stmt.start_byte >= at.start_byte:
                    break
                if stmt.type not in ("lexical_declaration", "variable_declaration"):
                    continue
                for declarator in stmt.named_children:
                    if text(declarator.child_by_field_name("name")) == name:
                        found = unwrap(declarator.child_by_field_name("value"))
                        if found is None:
                            found = _object_assigned(name, block)
            if found is not None:
                return found
        block = block.parent
    return None


def const_string(node: Node | None) -> str | None:
    """The value of a string literal, or of an identifier a ``const`` in a block around it
    declared with one before it (``const customElement = 'div'``)."""
    literal = string_value(node)
    if literal is not None or node is None or node.type != "identifier":
        return literal
    value = object_declared(text_of(node), node)
    declarator = value.parent if value is not None else None
    if declarator is None or declarator.type != "variable_declarator":
        return None
    kind = declarator.parent.child_by_field_name("kind") if declarator.parent else None
    return string_value(value) if kind is not None and text_of(kind) == "const" else None


def _object_assigned(name: str, block: Node) -> Node | None:
    """``let e;`` … ``e = { stopPropagation };`` in a hook: the object literal ``name`` is
    assigned within its declaring block, when every assignment there is one."""
    objects = []
    for n in walk(block):
        if n.type == "assignment_expression" and text(n.child_by_field_name("left")) == name:
            right = unwrap(n.child_by_field_name("right"))
            if right is None or right.type != "object":
                return None
            objects.append(right)
    return objects[0] if len(objects) == 1 else None


def matcher_on(subject: Node) -> str | None:
    """The matcher of ``expect(subject)[.not].matcher(…)``, when ``subject`` is all of
    ``expect``'s argument."""
    found = expectation_on(subject)
    return text(found[0].child_by_field_name("property")) if found is not None else None


def expectation_on(subject: Node) -> tuple[Node, bool] | None:
    """For ``expect(subject)[.not].matcher``, when ``subject`` is all of ``expect``'s
    argument: the ``….matcher`` member expression, and whether ``.not`` negates it."""
    args = subject.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    if (
        call is None
        or len(args_of(call)) != 1
        or text(call.child_by_field_name("function")) != "expect"
    ):
        return None
    member = call.parent
    negated = (
        member is not None
        and member.type == "member_expression"
        and text(member.child_by_field_name("property")) == "not"
    )
    if negated:
        assert member is not None
        member = member.parent
    if member is None or member.type != "member_expression":
        return None
    return member, negated


def object_keys(props: Node) -> set[str] | None:
    """The keys of the object literal ``props``: its own, and those of a spread of an object
    the file declares (``...defaultProps``); None when some cannot be known (a variable, a
    spread of something else, a computed key)."""
    obj = props if props.type == "object" else None
    if obj is None:
        return None
    keys: set[str] = set()
    for pair in obj.named_children:
        key = pair.child_by_field_name("key") if pair.type == "pair" else None
        if key is not None and key.type != "computed_property_name":
            keys.add(pair_key(pair))
        elif pair.type == "shorthand_property_identifier":
            keys.add(text(pair))
        elif pair.type == "spread_element" and pair.named_children:
            spread = pair.named_children[0]
            declared = None
            if spread.type == "identifier":
                declared = object_declared(text(spread), spread)
            inner = object_keys(declared) if declared is not None else None
            if inner is None:
                return None
            keys |= inner
        else:
            return None
    return keys


def rendered_opening(call: Node) -> Node | None:
    """The opening tag (or the self-closing element) of the JSX element that is ``call``'s
    first argument (``mount(<Provider store={store}>…</Provider>)``), or None."""
    args = args_of(call)
    element = unwrap(args[0]) if args else None
    if element is None or element.type not in ("jsx_element", "jsx_self_closing_element"):
        return None
    return element.child_by_field_name("open_tag") if element.type == "jsx_element" else element

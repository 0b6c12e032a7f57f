"""tree-sitter extraction: import specifiers, export names and mock calls of one JS/TS module."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

import tree_sitter

from testmend.js_syntax import (
    Grammar,
    Node,
    call_args,
    grammar_for,
    language,
    parse,
    string_value,
    text_of,
    unwrap,
)

ImportHow = Literal["import", "export", "require", "dynamic", "mock"]

_CALLS_QUERY = """
(call_expression function: (identifier) @fn (#eq? @fn "require")) @call
(call_expression function: (import)) @call
(call_expression
  function: (member_expression object: (identifier) @obj)
  (#match? @obj "^(jest|vi|Object)$")) @call
(assignment_expression left: (member_expression)) @assign
"""

_MOCK_FUNCTIONS = frozenset({"mock", "doMock"})
_JEST_MODULE_FUNCTIONS = frozenset(
    {
        "mock",
        "doMock",
        "unmock",
        "dontMock",
        "requireActual",
        "requireMock",
        "setMock",
        "createMockFromModule",
        "genMockFromModule",
        "importActual",
        "importMock",
    }
)
_GLOBAL_OBJECTS = frozenset({"global", "globalThis", "window", "self"})
_DEFINE_TARGETS = _GLOBAL_OBJECTS | frozenset({"document", "navigator", "HTMLElement", "Element"})
_SPY_CHAIN = re.compile(r"^mock(Implementation|ReturnValue|ResolvedValue|RejectedValue)")
_STATEMENT_TYPES = frozenset(
    {"expression_statement", "lexical_declaration", "variable_declaration", "return_statement"}
)
_SNIPPET_BOUNDARIES = frozenset(
    {
        "program",
        "statement_block",
        "arrow_function",
        "function_expression",
        "function",
        "arguments",
        "class_body",
    }
)
MAX_SNIPPET_LINES = 15
MAX_SNIPPET_CHARS = 1200


@cache
def _calls_query(grammar: Grammar) -> tree_sitter.Query:
    return tree_sitter.Query(language(grammar), _CALLS_QUERY)


def line_of(node: Node) -> int:
    return node.start_point[0] + 1


@dataclass
class RawImport:
    specifier: str
    how: ImportHow
    line: int
    names: list[str] = field(default_factory=list)


@dataclass
class ModuleInfo:
    imports: list[RawImport] = field(default_factory=list)
    exports: list[str] = field(default_factory=list)


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _import_names(statement: Node) -> list[str]:
    type_only = any(c.type == "type" for c in statement.children)
    prefix = "type " if type_only else ""
    names: list[str] = []
    for clause in statement.named_children:
        if clause.type == "import_require_clause":
            ident = next((c for c in clause.named_children if c.type == "identifier"), None)
            names.append(f"* as {text_of(ident)}")
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                names.append(f"{prefix}default as {text_of(part)}")
            elif part.type == "namespace_import":
                ident = next((c for c in part.named_children if c.type == "identifier"), None)
                names.append(f"{prefix}* as {text_of(ident)}")
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name = text_of(spec.child_by_field_name("name"))
                    alias = spec.child_by_field_name("alias")
                    spec_type = prefix or (
                        "type " if any(c.type == "type" for c in spec.children) else ""
                    )
                    shown = f"{name} as {text_of(alias)}" if alias is not None else name
                    names.append(spec_type + shown)
    return names


def _declaration_names(declaration: Node) -> list[str]:
    kind = declaration.type
    if kind in ("lexical_declaration", "variable_declaration"):
        names: list[str] = []
        for declarator in declaration.named_children:
            if declarator.type == "variable_declarator":
                names.extend(_pattern_names(declarator.child_by_field_name("name")))
        return names
    if kind == "ambient_declaration":
        inner = next((c for c in declaration.named_children), None)
        return _declaration_names(inner) if inner is not None else []
    name = declaration.child_by_field_name("name")
    if name is None:
        return []
    if kind in ("interface_declaration", "type_alias_declaration"):
        return [f"type {text_of(name)}"]
    return [text_of(name)]


def _pattern_names(pattern: Node | None) -> list[str]:
    """The names bound by a destructuring pattern (``{ a, b: [c], d = 1, ...e }``)."""
    if pattern is None:
        return []
    if pattern.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [text_of(pattern)]
    if pattern.type == "pair_pattern":
        return _pattern_names(pattern.child_by_field_name("value"))
    if pattern.type in ("object_assignment_pattern", "assignment_pattern"):
        return _pattern_names(pattern.child_by_field_name("left"))
    names: list[str] = []
    if pattern.type in ("object_pattern", "array_pattern", "rest_pattern"):
        for child in pattern.named_children:
            names.extend(_pattern_names(child))
    return names


def _export_statement(statement: Node, info: ModuleInfo) -> None:
    source = string_value(statement.child_by_field_name("source"))
    type_only = any(c.type == "type" for c in statement.children)
    prefix = "type " if type_only else ""
    is_default = any(c.type == "default" for c in statement.children)
    exported: list[str] = []
    imported: list[str] = []
    declaration = statement.child_by_field_name("declaration")
    if is_default:
        exported.append("default")
    elif declaration is not None:
        exported.extend(_declaration_names(declaration))
    for child in statement.named_children:
        if child.type == "export_clause":
            for spec in child.named_children:
                if spec.type != "export_specifier":
                    continue
                name = text_of(spec.child_by_field_name("name"))
                alias = spec.child_by_field_name("alias")
                exported.append(prefix + (text_of(alias) if alias is not None else name))
                imported.append(
                    prefix + (f"{name} as {text_of(alias)}" if alias is not None else name)
                )
        elif child.type == "namespace_export":
            ident = next(
                (c for c in child.named_children if c.type in ("identifier", "string")), None
            )
            exported.append(text_of(ident))
            imported.append(f"* as {text_of(ident)}")
    if source is not None:
        if not imported:  # export * from '...'
            exported.append(f"* from '{source}'")
            imported.append("*")
        info.imports.append(RawImport(source, "export", line_of(statement), imported))
    info.exports.extend(exported)


def _require_names(call: Node) -> list[str]:
    parent = call.parent
    if parent is not None and parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
        if target is not None and target.type == "identifier":
            return [f"* as {text_of(target)}"]
        names: list[str] = []
        if target is not None and target.type == "object_pattern":
            for child in target.named_children:
                if child.type == "shorthand_property_identifier_pattern":
                    names.append(text_of(child))
                elif child.type == "pair_pattern":
                    key = text_of(child.child_by_field_name("key"))
                    value = _pattern_names(child.child_by_field_name("value"))
                    names.append(f"{key} as {value[0]}" if value and value[0] != key else key)
        return names
    return []


def _member_parts(node: Node | None) -> list[str] | None:
    """``a.b.c`` → ``['a', 'b', 'c']`` (None for computed or call-based members)."""
    parts: list[str] = []
    while node is not None and node.type == "member_expression":
        prop = node.child_by_field_name("property")
        if prop is None or prop.type not in ("property_identifier", "private_property_identifier"):
            return None
        parts.append(text_of(prop))
        node = node.child_by_field_name("object")
    if node is None or node.type not in ("identifier", "this"):
        return None
    parts.append(text_of(node))
    return parts[::-1]


def _commonjs_exports(assign: Node, info: ModuleInfo) -> None:
    parts = _member_parts(assign.child_by_field_name("left"))
    if parts is None:
        return
    value = assign.child_by_field_name("right")
    if parts == ["module", "exports"]:
        if value is not None and value.type == "object":
            for child in value.named_children:
                if child.type == "shorthand_property_identifier":
                    info.exports.append(text_of(child))
                elif child.type in ("pair", "method_definition"):
                    key = child.child_by_field_name("key" if child.type == "pair" else "name")
                    info.exports.append(string_value(key) or text_of(key))
        else:
            info.exports.append("default")
    elif len(parts) == 3 and parts[:2] == ["module", "exports"]:
        info.exports.append(parts[2])
    elif len(parts) == 2 and parts[0] == "exports":
        info.exports.append(parts[1])


def _interesting(tree: tree_sitter.Tree, path: str) -> list[tuple[str, Node]]:
    captures = tree_sitter.QueryCursor(_calls_query(grammar_for(path) or "javascript")).captures(
        tree.root_node
    )
    found = [("call", n) for n in captures.get("call", [])]
    found += [("assign", n) for n in captures.get("assign", [])]
    found.sort(key=lambda item: item[1].start_byte)
    return found


def default_export_wraps(source: str | bytes, path: str) -> list[str]:
    """The components a module's default export wraps in higher-order components, outermost
    first: ``export default connect(mapState)(BadgeBase)`` → ``['BadgeBase']``;
    ``export default withRouter(Connected) as …`` with ``const Connected =
    connect(…)(ChooserBase)`` → ``['Connected', 'ChooserBase']``. React names what renders
    ``Connect(BadgeBase)``, so a child found under such a name is the module's default export.
    Empty when the default export is not such a call."""
    root = parse(source, path).root_node
    declared: dict[str, Node] = {}
    value: Node | None = None
    for statement in root.named_children:
        if statement.type == "export_statement":
            if any(c.type == "default" for c in statement.children):
                value = statement.child_by_field_name("value")
            statement = statement.child_by_field_name("declaration") or statement
        if statement.type == "lexical_declaration":
            for declarator in statement.named_children:
                init = declarator.child_by_field_name("value")
                if declarator.type == "variable_declarator" and init is not None:
                    declared[text_of(declarator.child_by_field_name("name"))] = init
    names: list[str] = []
    node = unwrap(value)
    if node is not None and node.type == "identifier" and text_of(node)[:1].isupper():
        # `export default SidePanelBase` (imported as `SidePanel`), or what it holds.
        names.append(text_of(node))
        node = unwrap(declared.get(names[0]))
    while node is not None and node.type == "call_expression" and len(names) < 4:
        args = call_args(node)
        inner = unwrap(args[0]) if len(args) == 1 else None
        if inner is not None and inner.type == "call_expression":
            node = inner  # withRouter(connect(…)(X))
            continue
        name = text_of(inner) if inner is not None and inner.type == "identifier" else ""
        if not name[:1].isupper() or name in names:
            break
        names.append(name)
        node = unwrap(declared.get(name))
    return names


_DEFAULT_FROM = re.compile(
    r"""^export\s+([A-Za-z_$][\w$]*)\s+from\s+['"]([^'"]+)['"]\s*;?\s*$""", re.M
)


def reexported_from(source: str | bytes, path: str) -> dict[str, tuple[str, str]]:
    """What a module re-exports by name, as an index does: exported name → (the specifier it
    comes from, the name exported there; ``default`` for a default export).
    ``export { default as Alert, Badge } from './x'`` and the ``export Alert from './Alert'``
    that Babel's export-default-from proposal allows (reactstrap's index; no grammar parses
    it). ``export * from`` names nothing."""
    found: dict[str, tuple[str, str]] = {}
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    for name, specifier in _DEFAULT_FROM.findall(text):
        found[name] = (specifier, "default")
    for raw in module_info(source, path).imports:
        if raw.how != "export":
            continue
        for item in raw.names:
            if item.startswith(("type ", "* as ")) or item == "*":
                continue
            imported, _, alias = item.partition(" as ")
            found[alias or imported] = (raw.specifier, imported)
    return found


def module_info(source: str | bytes, path: str) -> ModuleInfo:
    """Imports (static, re-exports, ``require``, ``import()``, ``jest.mock``) and export names."""
    tree = parse(source, path)
    info = ModuleInfo()
    for statement in tree.root_node.named_children:
        if statement.type == "import_statement":
            spec_node = statement.child_by_field_name("source")
            if spec_node is None:  # import x = require('y')
                clause = next(
                    (c for c in statement.named_children if c.type == "import_require_clause"), None
                )
                spec_node = clause.child_by_field_name("source") if clause is not None else None
            specifier = string_value(spec_node)
            if specifier is not None:
                info.imports.append(
                    RawImport(specifier, "import", line_of(statement), _import_names(statement))
                )
        elif statement.type == "export_statement":
            _export_statement(statement, info)
    for kind, node in _interesting(tree, path):
        if kind == "assign":
            _commonjs_exports(node, info)
            continue
        function = node.child_by_field_name("function")
        args = call_args(node)
        first = string_value(args[0]) if args else None
        if function is None or first is None:
            continue
        if function.type == "import":
            info.imports.append(RawImport(first, "dynamic", line_of(node)))
        elif function.type == "identifier":
            info.imports.append(RawImport(first, "require", line_of(node), _require_names(node)))
        else:
            parts = _member_parts(function)
            if (
                parts
                and len(parts) == 2
                and parts[0] in ("jest", "vi")
                and parts[1] in _JEST_MODULE_FUNCTIONS
            ):
                info.imports.append(RawImport(first, "mock", line_of(node)))
    info.exports = _dedupe(info.exports)
    return info


# -- mocks ------------------------------------------------------------------------------------

MockKind = Literal["module", "spy", "timers", "global"]


@dataclass
class RawMock:
    module: str
    factory: bool
    line: int
    kind: MockKind
    code: str


def _statement_text(node: Node, source_lines: list[str]) -> str:
    target = node
    while target.type not in _STATEMENT_TYPES and target.parent is not None:
        if target.parent.type in _SNIPPET_BOUNDARIES:
            break
        target = target.parent
    lines = text_of(target).split("\n")
    row = target.start_point[0]
    first = source_lines[row] if row < len(source_lines) else ""
    indent = len(first) - len(first.lstrip())
    cleaned = [lines[0]] + [
        line[indent:] if line[:indent].strip() == "" else line.strip() for line in lines[1:]
    ]
    if len(cleaned) > MAX_SNIPPET_LINES:
        cleaned = [*cleaned[:MAX_SNIPPET_LINES], "// … (cut)"]
    snippet = "\n".join(cleaned).rstrip()
    if len(snippet) > MAX_SNIPPET_CHARS:
        snippet = snippet[:MAX_SNIPPET_CHARS] + " … (cut)"
    return snippet


def _is_chained_mock(call: Node) -> bool:
    parent = call.parent
    if parent is None or parent.type != "member_expression":
        return False
    prop = parent.child_by_field_name("property")
    return bool(_SPY_CHAIN.match(text_of(prop)))


def mock_calls(source: str, path: str) -> list[RawMock]:
    """``jest.mock``/``vi.mock`` modules, ``jest.spyOn`` targets, fake timers, global stubs."""
    tree = parse(source, path)
    lines = source.splitlines()
    found: list[RawMock] = []
    for kind, node in _interesting(tree, path):
        if kind == "assign":
            parts = _member_parts(node.child_by_field_name("left"))
            if parts and len(parts) >= 2 and parts[0] in _GLOBAL_OBJECTS:
                found.append(
                    RawMock(
                        ".".join(parts), True, line_of(node), "global", _statement_text(node, lines)
                    )
                )
            continue
        parts = _member_parts(node.child_by_field_name("function"))
        if not parts or len(parts) != 2:
            continue
        obj, method = parts
        args = call_args(node)
        if obj in ("jest", "vi") and method in _MOCK_FUNCTIONS:
            module = string_value(args[0]) if args else None
            if module is not None:
                factory = len(args) >= 2 and text_of(args[1]) != "undefined"
                found.append(
                    RawMock(module, factory, line_of(node), "module", _statement_text(node, lines))
                )
        elif obj in ("jest", "vi") and method == "spyOn" and len(args) >= 2:
            member = string_value(args[1]) or text_of(args[1])
            found.append(
                RawMock(
                    f"{text_of(args[0])}.{member}",
                    _is_chained_mock(node),
                    line_of(node),
                    "spy",
                    _statement_text(node, lines),
                )
            )
        elif obj in ("jest", "vi") and method == "useFakeTimers":
            found.append(
                RawMock("timers", False, line_of(node), "timers", _statement_text(node, lines))
            )
        elif obj == "Object" and method == "defineProperty" and len(args) >= 2:
            target = _member_parts(args[0])
            prop = string_value(args[1])
            if target and target[0] in _DEFINE_TARGETS and prop is not None:
                found.append(
                    RawMock(
                        f"{'.'.join(target)}.{prop}",
                        True,
                        line_of(node),
                        "global",
                        _statement_text(node, lines),
                    )
                )
    return found

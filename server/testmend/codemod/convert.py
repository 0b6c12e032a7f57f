"""Enzyme → React Testing Library, deterministically (see docs/codemod.md).

``convert_enzyme_test`` is a pure function: source in, converted source and notes out. It
rewrites by byte ranges, so code it does not touch stays byte-identical. Whatever it cannot
translate faithfully is commented out with a ``// testmend:`` note, and the test (or hook)
that held it gets a ``throw`` at its end, so it fails until a person or the agent resolves it
instead of passing silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from posixpath import dirname, relpath
from typing import Literal

from tree_sitter import Tree

from ..js_syntax import grammar_for
from .models import (
    CodemodOptions,
    CodemodResult,
    DomCapture,
    FindRecord,
    HelperMapping,
    Note,
    NoteKind,
    TestInfo,
)
from .syntax import (
    Edit,
    Node,
    apply_edits,
    args_of,
    js_string,
    js_value,
    line_indent,
    line_start,
    parse,
    regex_escape,
    string_value,
    text,
    unwrap,
    walk,
)

SNAPSHOT_NOTE = "the snapshot now records the DOM; re-record it (jest -u)"
"""The note on a root snapshot; a run that records the snapshot itself drops it (the new
snapshot travels with the test)."""

_ENZYME_MODULE = re.compile(
    r"^(enzyme|enzyme-adapter-[\w-]+|@[\w.-]+/enzyme-adapter-[\w-]+|enzyme-to-json(/.*)?|"
    r"jest-enzyme|chai-enzyme|enzyme-matchers)$"
)
_WRAPPER_TYPES = {"ReactWrapper", "ShallowWrapper", "CommonWrapper", "RenderWrapper"}
_TEST_FUNCS = {"it", "test", "fit", "xit", "xtest"}
_DESCRIBE_FUNCS = {"describe", "fdescribe", "xdescribe"}
_HOOKS = {"beforeEach", "afterEach", "beforeAll", "afterAll"}
_SELECT_OPS = {
    "find",
    "at",
    "first",
    "last",
    "hostNodes",
    "filter",
    "children",
    "childAt",
    "parent",
    "parents",
    "closest",
    "findWhere",
    "filterWhere",
    "not",
    "slice",
}
_UNTRANSLATABLE = {
    "state": "reads component state (state()); assert on what the user sees instead",
    "setState": "sets component state (setState()); drive the component through its UI instead",
    "instance": "calls the component instance (instance()); drive it through its UI instead",
    "context": "reads the component context (context())",
    "dive": "dives into a shallow-rendered child (dive()); the full render already shows it",
    "invoke": "calls a prop directly (invoke()); fire the matching user event instead",
    "renderProp": "calls a render prop directly (renderProp())",
    "contains": "checks for a React element (contains()); assert on the rendered DOM instead",
    "containsMatchingElement": "checks for a React element (containsMatchingElement()); "
    "assert on the rendered DOM instead",
    "containsAllMatchingElements": "checks for React elements; assert on the DOM instead",
    "containsAnyMatchingElements": "checks for React elements; assert on the DOM instead",
    "matchesElement": "compares against a React element (matchesElement())",
    "equals": "compares against a React element (equals())",
    "getElement": "reads the React element tree (getElement())",
    "getElements": "reads the React element tree (getElements())",
    "name": "reads the rendered component or tag name (name())",
    "type": "reads the rendered component type (type())",
    "key": "reads a React key (key())",
    "mount": "remounts the wrapper (mount())",
    "setContext": "sets React context (setContext())",
}
_EVENTS = {
    "click": "click",
    "dblclick": "dblClick",
    "doubleclick": "dblClick",
    "change": "change",
    "input": "input",
    "submit": "submit",
    "focus": "focus",
    "blur": "blur",
    "keydown": "keyDown",
    "keyup": "keyUp",
    "keypress": "keyPress",
    "mouseenter": "mouseEnter",
    "mouseleave": "mouseLeave",
    "mousedown": "mouseDown",
    "mouseup": "mouseUp",
    "mouseover": "mouseOver",
    "mouseout": "mouseOut",
    "mousemove": "mouseMove",
    "contextmenu": "contextMenu",
    "scroll": "scroll",
    "wheel": "wheel",
    "touchstart": "touchStart",
    "touchend": "touchEnd",
    "touchmove": "touchMove",
    "paste": "paste",
    "copy": "copy",
    "cut": "cut",
    "select": "select",
    "load": "load",
    "error": "error",
    "focusin": "focusIn",
    "focusout": "focusOut",
    "drag": "drag",
    "dragstart": "dragStart",
    "dragend": "dragEnd",
    "drop": "drop",
    "dragover": "dragOver",
    "dragenter": "dragEnter",
    "dragleave": "dragLeave",
    "transitionend": "transitionEnd",
    "animationend": "animationEnd",
    "reset": "reset",
    "invalid": "invalid",
    "pointerdown": "pointerDown",
    "pointerup": "pointerUp",
}
# Tags with an implicit ARIA role (only those whose role does not depend on attributes or
# context), used when no DOM capture is available.
_TAG_ROLES = {
    "button": "button",
    "ul": "list",
    "ol": "list",
    "li": "listitem",
    "nav": "navigation",
    "table": "table",
    "tr": "row",
    "textarea": "textbox",
    "select": "combobox",
    "progress": "progressbar",
    "dialog": "dialog",
    "main": "main",
    "article": "article",
    "h1": "heading",
    "h2": "heading",
    "h3": "heading",
    "h4": "heading",
    "h5": "heading",
    "h6": "heading",
    "hr": "separator",
    "output": "status",
    "fieldset": "group",
}
_INPUT_ROLES = {
    "checkbox": "checkbox",
    "radio": "radio",
    "text": "textbox",
    "email": "textbox",
    "search": "searchbox",
    "number": "spinbutton",
    "range": "slider",
    "submit": "button",
    "button": "button",
    "tel": "textbox",
    "url": "textbox",
}
_ATTRIBUTE_QUERIES = {
    "data-testid": "TestId",
    "placeholder": "PlaceholderText",
    "title": "Title",
    "alt": "AltText",
    "aria-label": "LabelText",
}
_PROP_ATTRIBUTES = {
    "className": "class",
    "htmlFor": "for",
    "tabIndex": "tabindex",
    "readOnly": "readonly",
    "maxLength": "maxlength",
    "autoComplete": "autocomplete",
    "autoFocus": "autofocus",
}
_BOOLEAN_ATTRIBUTES = {"required", "readonly", "multiple", "hidden", "open", "selected"}
# Preference of captured queries when the assertion reads the element's text: a query that
# does not itself contain the asserted text keeps the assertion meaningful.
_TEXT_CONTEXT_ORDER = [
    "TestId",
    "LabelText",
    "PlaceholderText",
    "Role-",
    "Title",
    "AltText",
    "Role",
    "DisplayValue",
    "Text",
]
_THROW = (
    "throw new Error('testmend: this test still has untranslated Enzyme code "
    "(see the // testmend: comments)');"
)

Variant = Literal["get", "query"]


class Untranslatable(Exception):
    """An expression or statement the codemod cannot translate faithfully."""


class Dropped(Exception):
    """A statement with no meaning outside Enzyme: it is removed, with a note."""


@dataclass(eq=False)
class Binding:
    name: str
    kind: Literal["decl", "var", "param", "derived"]
    node: Node | None = None
    element: Node | None = None
    members: set[str] = field(default_factory=set)
    target: Target | None = None
    passed_as_arg: bool = False
    used: bool = False
    overrides: dict[str, str | None] = field(default_factory=dict)


@dataclass
class Target:
    kind: Literal["query", "css", "root", "var"]
    method: str = ""
    args: str = ""
    multi: bool = False
    index: str | None = None
    css: str = ""
    binding: Binding | None = None
    component: str | None = None
    checkbox: bool = False
    inline: Node | None = None


@dataclass
class TestDecl:
    name: str
    node: Node
    body: Node | None
    line: int
    untranslated: list[str] = field(default_factory=list)
    touched: bool = False


@dataclass
class _Ctx:
    test: TestDecl | None = None
    owner: Node | None = None
    hook: str | None = None


def _relative_specifier(module: str, module_path: str | None, test_path: str) -> str:
    if not module.startswith("./") or module_path is None:
        return module
    rel = relpath(re.sub(r"\.[cm]?[jt]sx?$", "", module_path), dirname(test_path) or ".")
    rel = re.sub(r"/index$", "", rel)
    return rel if rel.startswith(".") else "./" + rel


class _Converter:
    def __init__(self, source: str, path: str, options: CodemodOptions, dom: DomCapture | None):
        self.src = source.encode("utf-8")
        self.path = path
        self.options = options
        self.dom = dom
        self.ts = grammar_for(path) in ("tsx", "typescript")
        self.tree = parse(self.src, path)
        self.edits: list[Edit] = []
        self.notes: list[tuple[int, NoteKind, str]] = []
        """(byte offset in the source, kind, message) of notes with no comment in the code."""
        self.enzyme_renders: dict[str, str] = {}
        self.enzyme_namespaces: set[str] = set()
        self.helper_renders: dict[str, tuple[str, str, str]] = {}
        self.wrapper_functions: set[str] = set()
        self.to_json: set[str] = set()
        self.bindings: dict[str, list[Binding]] = {}
        self.imports: dict[str, set[str]] = {}
        self.type_imports: dict[str, set[str]] = {}
        self.needs_user_event = False
        self.needs_jest_dom = False
        self.throw_owners: dict[int, Node] = {}
        self.dead_names: set[str] = set()
        self.claimed: list[tuple[int, int]] = []
        self.tests: list[TestDecl] = []
        self.test_by_body: dict[int, TestDecl] = {}
        self.param_call_args: list[tuple[str, int, Node, Node]] = []
        self.dom_queries_used = 0
        self.enzyme_import_nodes: list[Node] = []
        self.uses_require = False
        self.decl_edits: list[tuple[Binding, Node, Node]] = []
        self.records: dict[tuple[int, int], list[FindRecord]] = {}
        self.pending_notes: list[tuple[NoteKind, str]] = []
        self.user_owner_nodes: dict[int, Node] = {}
        self.async_fixed: set[int] = set()
        self.fallbacks_noted: set[tuple[str, str]] = set()
        self.removed_ids: set[int] = set()
        self.var_decls: list[tuple[Binding, Node, Node | None]] = []
        self.var_assigns: list[tuple[Binding, Node, Node]] = []
        if dom is not None:
            for record in dom.records:
                self.records.setdefault((record.line, record.column), []).append(record)

    # -- notes and edits -------------------------------------------------------------------

    def replace(self, node: Node, new: str, notes: Sequence[tuple[NoteKind, str]] = ()) -> None:
        self.replace_range(node.start_byte, node.end_byte, new, notes)

    def replace_range(
        self, start: int, end: int, new: str, notes: Sequence[tuple[NoteKind, str]] = ()
    ) -> None:
        edit = Edit(start, end, new)
        if notes:
            indent = line_indent(self.src, start)
            comments = "".join(f"// testmend: {message}\n{indent}" for _k, message in notes)
            edit.text = comments + new
            offset = 0
            for kind, message in notes:
                edit.notes.append((offset, kind, message))
                offset += len(f"// testmend: {message}\n{indent}")
        self.edits.append(edit)
        self.claimed.append((start, end))

    def note_only(self, node: Node, kind: NoteKind, message: str) -> None:
        self.notes.append((node.start_byte, kind, message))

    def comment_out(self, stmt: Node, message: str, ctx: _Ctx) -> None:
        start = line_start(self.src, stmt.start_byte)
        indent = line_indent(self.src, stmt.start_byte)
        original = self.src[start : stmt.end_byte].decode("utf-8")
        lines = original.splitlines()
        commented = "\n".join(
            (indent + "// " + ln[len(indent) :] if ln.startswith(indent) else "// " + ln.lstrip())
            for ln in lines
        )
        body = f"{indent}// testmend: {message}\n{commented}"
        # Drop edits inside the statement: it is commented out as it was.
        self.edits = [e for e in self.edits if not (start <= e.start and e.end <= stmt.end_byte)]
        edit = Edit(start, stmt.end_byte, body, [(len(indent), "untranslated", message)])
        self.edits.append(edit)
        self.claimed.append((start, stmt.end_byte))
        if ctx.test is not None:
            ctx.test.untranslated.append(message)
        if ctx.owner is not None:
            self.throw_owners[ctx.owner.id] = ctx.owner
        if stmt.type in ("lexical_declaration", "variable_declaration"):
            for declarator in stmt.named_children:
                name = declarator.child_by_field_name("name")
                for ident in walk(name) if name is not None else []:
                    if ident.type in ("identifier", "shorthand_property_identifier_pattern"):
                        self.dead_names.add(text(ident))

    def is_claimed(self, node: Node) -> bool:
        return any(s <= node.start_byte and node.end_byte <= e for s, e in self.claimed)

    # -- imports ---------------------------------------------------------------------------

    def rtl_module(self) -> str:
        helper = self.options.render_helper
        if helper is not None and helper.reexports_rtl:
            return _relative_specifier(helper.module, helper.path, self.path)
        return self.options.rtl_module

    def need(self, name: str, module: str | None = None) -> str:
        self.imports.setdefault(module or self.rtl_module(), set()).add(name)
        return name

    def need_type(self, name: str) -> str:
        self.type_imports.setdefault(self.rtl_module(), set()).add(name)
        return name

    def _register_helper(self, local: str, mapping: HelperMapping) -> None:
        """``local`` is the project's Enzyme render helper: render with its RTL counterpart,
        imported by a path relative to this test."""
        helper = self.options.render_helper
        module = _relative_specifier(
            mapping.render_module, helper.path if helper is not None else None, self.path
        )
        self.helper_renders[local] = (mapping.render_name, module, mapping.options)

    def scan_imports(self) -> None:
        root = self.tree.root_node
        helper_names = {m.enzyme_name: m for m in self.options.helper_mappings}
        helper_modules = set(self.options.enzyme_helper_modules)
        for stmt in root.named_children:
            if stmt.type == "import_statement":
                module = string_value(stmt.child_by_field_name("source")) or ""
                is_enzyme = bool(_ENZYME_MODULE.match(module))
                is_helper = module in helper_modules or any(
                    m.enzyme_module == module for m in self.options.helper_mappings
                )
                if not (is_enzyme or is_helper):
                    continue
                names = self._import_names(stmt)
                for imported, local in names:
                    if is_enzyme and module == "enzyme":
                        if imported in ("mount", "shallow", "render"):
                            self.enzyme_renders[local] = imported
                        elif imported == "default" or imported == "*":
                            self.enzyme_namespaces.add(local)
                    elif is_enzyme and module.startswith("enzyme-to-json"):
                        self.to_json.add(local)
                    elif is_helper and imported in helper_names:
                        self._register_helper(local, helper_names[imported])
                self.enzyme_import_nodes.append(stmt)
            elif stmt.type in ("lexical_declaration", "variable_declaration"):
                for declarator in stmt.named_children:
                    value = unwrap(declarator.child_by_field_name("value"))
                    if value is None:
                        continue
                    call = value
                    if call.type == "member_expression":
                        call = call.child_by_field_name("object") or call
                    if (
                        call.type != "call_expression"
                        or text(call.child_by_field_name("function")) != "require"
                    ):
                        continue
                    args = args_of(call)
                    required = string_value(args[0]) if args else None
                    if required is None or not (
                        _ENZYME_MODULE.match(required) or required in helper_modules
                    ):
                        continue
                    module = required
                    self.uses_require = True
                    pattern = declarator.child_by_field_name("name")
                    if pattern is not None and pattern.type == "object_pattern":
                        for prop in pattern.named_children:
                            if prop.type == "shorthand_property_identifier_pattern":
                                imported = local = text(prop)
                            elif prop.type == "pair_pattern":
                                imported = text(prop.child_by_field_name("key"))
                                local = text(prop.child_by_field_name("value"))
                            else:
                                continue
                            if module == "enzyme" and imported in ("mount", "shallow", "render"):
                                self.enzyme_renders[local] = imported
                            elif imported in helper_names:
                                self._register_helper(local, helper_names[imported])
                    elif pattern is not None and pattern.type == "identifier":
                        if module == "enzyme":
                            self.enzyme_namespaces.add(text(pattern))
                        elif module.startswith("enzyme-to-json"):
                            self.to_json.add(text(pattern))
                    self.enzyme_import_nodes.append(stmt)

    @staticmethod
    def _import_names(stmt: Node) -> list[tuple[str, str]]:
        names: list[tuple[str, str]] = []
        clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
        if clause is None:
            return names
        for part in clause.named_children:
            if part.type == "identifier":
                names.append(("default", text(part)))
            elif part.type == "namespace_import":
                ident = next((c for c in part.named_children if c.type == "identifier"), None)
                names.append(("*", text(ident)))
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias")
                    names.append((text(name), text(alias or name)))
        return names

    # -- structure -------------------------------------------------------------------------

    def callee_name(self, call: Node) -> str:
        fn = call.child_by_field_name("function")
        while fn is not None and fn.type in ("member_expression", "call_expression"):
            fn = (
                fn.child_by_field_name("object")
                if fn.type == "member_expression"
                else fn.child_by_field_name("function")
            )
        return text(fn)

    def _callback(self, call: Node) -> Node | None:
        for arg in args_of(call):
            if arg.type in ("arrow_function", "function_expression", "function"):
                return arg
        return None

    def collect_tests(self) -> None:
        def visit(node: Node, prefix: list[str]) -> None:
            for child in node.named_children:
                if child.type == "call_expression":
                    name = self.callee_name(child)
                    args = args_of(child)
                    title = self._title(args[0]) if args else None
                    callback = self._callback(child)
                    if name in _DESCRIBE_FUNCS and callback is not None:
                        visit(callback, [*prefix, title or "?"])
                        continue
                    if name in _TEST_FUNCS and title is not None:
                        full = " ".join([*prefix, title])
                        body = callback.child_by_field_name("body") if callback else None
                        decl = TestDecl(full, child, body, child.start_point[0] + 1)
                        self.tests.append(decl)
                        if callback is not None:
                            self.test_by_body[callback.id] = decl
                        continue
                visit(child, prefix)

        visit(self.tree.root_node, [])

    @staticmethod
    def _title(node: Node) -> str | None:
        value = string_value(node)
        if value is not None:
            return value
        if node.type in ("template_string", "identifier", "member_expression"):
            return text(node)
        return None

    # -- bindings --------------------------------------------------------------------------

    def is_render_call(self, node: Node | None) -> bool:
        node = unwrap(node)
        if node is not None and node.type == "await_expression":
            node = unwrap(node.named_children[0]) if node.named_children else None
        if node is None or node.type != "call_expression":
            return False
        fn = node.child_by_field_name("function")
        if fn is None:
            return False
        if fn.type == "identifier":
            name = text(fn)
            return (
                name in self.enzyme_renders
                or name in self.helper_renders
                or name in self.wrapper_functions
            )
        if fn.type == "member_expression":
            obj = text(fn.child_by_field_name("object"))
            prop = text(fn.child_by_field_name("property"))
            return obj in self.enzyme_namespaces and prop in ("mount", "shallow", "render")
        return False

    def render_call_of(self, node: Node | None) -> Node | None:
        node = unwrap(node)
        if node is not None and node.type == "await_expression":
            node = unwrap(node.named_children[0]) if node.named_children else None
        return node if self.is_render_call(node) else None

    def _has_wrapper_type(self, node: Node | None) -> bool:
        if node is None:
            return False
        return any(n.type == "type_identifier" and text(n) in _WRAPPER_TYPES for n in walk(node))

    def collect_bindings(self) -> None:
        root = self.tree.root_node
        # Local functions that return wrappers (by return type or by returning a render).
        for node in walk(root):
            if node.type in ("function_declaration", "arrow_function", "function_expression"):
                name = self._function_name(node)
                if name is None:
                    continue
                returns = node.child_by_field_name("return_type")
                body = node.child_by_field_name("body")
                returns_render = body is not None and (
                    self.is_render_call(body)
                    or any(
                        r.type == "return_statement"
                        and r.named_children
                        and self.is_render_call(r.named_children[0])
                        for r in walk(body)
                    )
                )
                if self._has_wrapper_type(returns) or returns_render:
                    self.wrapper_functions.add(name)
        for _ in range(2):  # wrapper functions may call each other
            for node in walk(root):
                if node.type == "variable_declarator":
                    name_node = node.child_by_field_name("name")
                    value = node.child_by_field_name("value")
                    if name_node is None or name_node.type != "identifier":
                        continue
                    name = text(name_node)
                    if any(b.node == node for b in self.bindings.get(name, [])):
                        continue
                    call = self.render_call_of(value)
                    if call is not None:
                        direct = self._direct_render(call)
                        binding = Binding(name, "decl" if direct else "var", node)
                        binding.element = self._element_of(call)
                        self.add_binding(binding)
                    elif value is None and self._has_wrapper_type(node.child_by_field_name("type")):
                        self.add_binding(Binding(name, "var", node))
                    elif value is None:
                        binding = Binding(name, "var", node)
                        if self._assigned_render(name) is not None:
                            self.add_binding(binding)
                elif node.type in ("required_parameter", "optional_parameter"):
                    pattern = node.child_by_field_name("pattern")
                    if pattern is not None and self._has_wrapper_type(
                        node.child_by_field_name("type")
                    ):
                        self.add_binding(Binding(text(pattern), "param", node))
        # Assignments `wrapper = mount(...)`: the element for rerender.
        for node in walk(root):
            if node.type == "assignment_expression":
                left = node.child_by_field_name("left")
                call = self.render_call_of(node.child_by_field_name("right"))
                if left is not None and left.type == "identifier" and call is not None:
                    found = self.binding_named(text(left), node)
                    if found is None:
                        found = Binding(text(left), "var", None)
                        self.add_binding(found)
                    if found.element is None:
                        found.element = self._element_of(call)
        # Untyped parameters of local helpers that receive a wrapper.
        for node in walk(root):
            if node.type != "call_expression":
                continue
            fn = node.child_by_field_name("function")
            if fn is None or fn.type != "identifier":
                continue
            for index, raw in enumerate(args_of(node)):
                arg = unwrap(raw)
                if arg is None or arg.type != "identifier":
                    continue
                bound = self.binding_named(text(arg), node)
                if bound is None:
                    continue
                param = self._param_of(text(fn), index)
                if param is None:
                    continue
                bound.passed_as_arg = True
                if not any(
                    b.node is not None and b.node.start_byte <= param.start_byte < b.node.end_byte
                    for b in self.bindings.get(text(param), [])
                ):
                    self.add_binding(Binding(text(param), "param", param.parent))

    def _param_of(self, function: str, index: int) -> Node | None:
        for node in walk(self.tree.root_node):
            if node.type in ("function_declaration", "arrow_function", "function_expression"):
                if self._function_name(node) != function:
                    continue
                params = node.child_by_field_name("parameters")
                if params is None:
                    return None
                items = [p for p in params.named_children if p.type != "comment"]
                if index >= len(items):
                    return None
                item = items[index]
                pattern = item.child_by_field_name("pattern") if item.type != "identifier" else item
                return pattern if pattern is not None and pattern.type == "identifier" else None
        return None

    @staticmethod
    def _function_name(node: Node) -> str | None:
        if node.type == "function_declaration":
            return text(node.child_by_field_name("name")) or None
        parent = node.parent
        if parent is not None and parent.type == "variable_declarator":
            name = parent.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                return text(name)
        return None

    def _assigned_render(self, name: str) -> Node | None:
        for node in walk(self.tree.root_node):
            if node.type == "assignment_expression":
                left = node.child_by_field_name("left")
                if left is not None and text(left) == name:
                    call = self.render_call_of(node.child_by_field_name("right"))
                    if call is not None:
                        return call
        return None

    def _direct_render(self, call: Node) -> bool:
        fn = call.child_by_field_name("function")
        return fn is not None and text(fn) not in self.wrapper_functions

    @staticmethod
    def _element_of(call: Node) -> Node | None:
        for raw in args_of(call):
            arg = unwrap(raw)
            if arg is not None and arg.type in ("jsx_element", "jsx_self_closing_element"):
                return arg
        return None

    def add_binding(self, binding: Binding) -> None:
        self.bindings.setdefault(binding.name, []).append(binding)

    def binding_named(self, name: str, at: Node | None = None) -> Binding | None:
        candidates = self.bindings.get(name)
        if not candidates:
            return None
        if len(candidates) == 1 or at is None:
            return candidates[-1]
        # The declaration whose scope contains `at` (innermost wins).
        best: Binding | None = None
        best_size = None
        for binding in candidates:
            scope = self._scope_of(binding)
            if scope is None:
                continue
            if scope.start_byte <= at.start_byte and at.end_byte <= scope.end_byte:
                size = scope.end_byte - scope.start_byte
                if best_size is None or size < best_size:
                    best, best_size = binding, size
        if best is not None:
            return best
        return next((b for b in candidates if b.node is None), None)

    @staticmethod
    def _scope_of(binding: Binding) -> Node | None:
        node = binding.node
        if node is None:
            return None
        current = node.parent
        while current is not None and current.type not in (
            "statement_block",
            "program",
            "arrow_function",
            "function_declaration",
            "function_expression",
        ):
            current = current.parent
        return current

    # -- capture lookup ----------------------------------------------------------------------

    def _records_at(self, prop: Node, ctx: _Ctx) -> list[FindRecord] | None:
        if not self.records:
            return None
        key = (prop.start_point[0] + 1, prop.start_point[1] + 1)
        records = self.records.get(key)
        if records is None:
            # Stack columns can point at the call's start on some engines.
            line = key[0]
            same_line = [r for k, rs in self.records.items() if k[0] == line for r in rs]
            selectors = {r.selector for r in same_line}
            records = (
                same_line
                if len(selectors) == 1 and len({(r.line, r.column) for r in same_line}) == 1
                else None
            )
        if records is None:
            return None
        if ctx.test is not None:
            mine = [r for r in records if r.test == ctx.test.name]
            if mine:
                return mine
        return records

    def _consensus(
        self, records: Iterable[FindRecord], *, element: int | None = None
    ) -> list[tuple[str, list[object], bool]]:
        common: list[tuple[str, list[object], bool]] | None = None
        for record in records:
            if record.count == 0:
                continue
            if element is None:
                queries = record.queries
            elif element < len(record.element_queries):
                queries = record.element_queries[element]
            else:
                return []
            keys = [(q.method, list(q.args), q.all) for q in queries]
            if common is None:
                common = keys
            else:
                plain = [(m, a) for m, a, _all in keys]
                several = {(m, str(a)) for m, a, is_all in keys if is_all}
                common = [
                    (m, a, is_all or (m, str(a)) in several)
                    for m, a, is_all in common
                    if (m, a) in plain
                ]
        return common or []

    def _pick(
        self, options: list[tuple[str, list[object], bool]], context: str
    ) -> tuple[str, list[object], bool] | None:
        if not options:
            return None
        if context != "text":
            return options[0]

        def rank(option: tuple[str, list[object], bool]) -> int:
            method, args, _ = option
            key = method
            if method == "Role" and (len(args) < 2 or not isinstance(args[1], dict)):
                key = "Role-"
            return _TEXT_CONTEXT_ORDER.index(key) if key in _TEXT_CONTEXT_ORDER else 99

        return sorted(options, key=rank)[0]

    def captured_target(
        self,
        find_call: Node,
        selector_text: str,
        ctx: _Ctx,
        context: str,
        index: int | None,
        root_level: bool,
    ) -> Target | None:
        fn = find_call.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        if prop is None:
            return None
        records = self._records_at(prop, ctx)
        positives = [r for r in records or [] if r.count > 0]
        if records and positives:
            if index is not None:
                picked = self._pick(self._consensus(positives), context)
                if picked is not None and picked[2]:
                    return self._query_target(picked, multi=True, index=str(index))
                if picked is not None and not picked[2] and all(r.count == 1 for r in positives):
                    return self._query_target(picked, multi=False, index=None)
                element = self._pick(self._consensus(positives, element=index), context)
                if element is not None:
                    return self._query_target(element, multi=False, index=None)
                return None
            picked = self._pick(self._consensus(positives), context)
            if picked is not None:
                return self._query_target(picked, multi=picked[2], index=None)
            return None
        if not root_level or self.dom is None:
            return None
        # Never matched here (absence checks): use the selector's query elsewhere in the file,
        # when it is the same everywhere it matched.
        same = [r for r in self.dom.records if r.selector == selector_text and r.count > 0]
        if not same:
            return None
        picked = self._pick(self._consensus(same), context)
        if picked is None:
            return None
        # The query must not depend on the element's changing text.
        names_vary = len({r.elements[0].text if r.elements else "" for r in same}) > 1
        if (
            names_vary
            and picked[0] in ("Text", "DisplayValue", "Role")
            and (picked[0] != "Role" or len(picked[1]) > 1)
        ):
            return None
        return self._query_target(picked, multi=picked[2], index=None)

    def _query_target(
        self, picked: tuple[str, list[object], bool], *, multi: bool, index: str | None
    ) -> Target:
        method, args, _ = picked
        self.dom_queries_used += 1
        return Target(
            "query",
            method=method,
            args=", ".join(js_value(a) for a in args),
            multi=multi,
            index=index,
        )

    def _captured_css(self, find_call: Node, ctx: _Ctx) -> str | None:
        fn = find_call.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        if prop is None:
            return None
        found = {r.css for r in self._records_at(prop, ctx) or [] if r.count > 0}
        if len(found) == 1:
            return next(iter(found))
        return None

    def _captured_checkbox(self, find_call: Node, ctx: _Ctx) -> bool:
        fn = find_call.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        if prop is None:
            return False
        for record in self._records_at(prop, ctx) or []:
            for element in record.elements:
                if element.tag == "input" and element.attributes.get("type") in (
                    "checkbox",
                    "radio",
                ):
                    return True
        return False

    # -- selectors -------------------------------------------------------------------------

    def source_target(self, selector: Node, context: str) -> Target:
        value = string_value(selector)
        if value is None:
            node = unwrap(selector)
            if node is not None and node.type == "identifier" and text(node)[:1].isupper():
                return Target("css", component=text(node))
            if node is not None and node.type == "object":
                return self._object_selector(node)
            # A selector computed at run time (e.g. a helper's parameter).
            return Target("css", css=text(selector))
        value = value.strip()
        if re.fullmatch(r"[A-Z][\w.$]*", value):
            return Target("css", component=value)
        checkbox = bool(re.search(r"type=['\"]?(checkbox|radio)", value))
        attr = re.fullmatch(r"(\w*)\[([\w-]+)=['\"]?([^'\"\]]*)['\"]?\]", value)
        if attr and attr.group(2) == self.options.test_id_attribute:
            return Target("query", method="TestId", args=js_string(attr.group(3)))
        if context == "capture-only":
            return Target("css", css=js_string(value), checkbox=checkbox)
        if attr and not attr.group(1):
            name, val = attr.group(2), attr.group(3)
            if name == "role":
                return Target("query", method="Role", args=js_string(val))
            if name in _ATTRIBUTE_QUERIES:
                return Target("query", method=_ATTRIBUTE_QUERIES[name], args=js_string(val))
        if re.fullmatch(r"h[1-6]", value):
            return Target("query", method="Role", args=f"'heading', {{ level: {value[1]} }}")
        if value in _TAG_ROLES:
            return Target("query", method="Role", args=js_string(_TAG_ROLES[value]))
        typed = re.fullmatch(r"input\[type=['\"]?(\w+)['\"]?\]", value)
        if typed and typed.group(1) in _INPUT_ROLES and context != "text":
            return Target(
                "query",
                method="Role",
                args=js_string(_INPUT_ROLES[typed.group(1)]),
                checkbox=checkbox,
            )
        return Target("css", css=js_string(value), checkbox=checkbox)

    def _object_selector(self, node: Node) -> Target:
        parts = []
        for pair in node.named_children:
            if pair.type != "pair":
                raise Untranslatable("selects by a props object that is not plain literals")
            key = string_value(pair.child_by_field_name("key")) or text(
                pair.child_by_field_name("key")
            )
            value_node = pair.child_by_field_name("value")
            value = string_value(value_node)
            if value is None:
                raw = text(value_node)
                if re.fullmatch(r"-?\d+(\.\d+)?|true|false", raw):
                    value = raw
                else:
                    raise Untranslatable("selects by a prop value that is not a literal")
            if key == self.options.test_id_attribute:
                return Target("query", method="TestId", args=js_string(value))
            attr = _PROP_ATTRIBUTES.get(key, key)
            if attr == "class":
                parts.append("." + ".".join(value.split()))
            else:
                parts.append(f'[{attr}="{value}"]')
        return Target("css", css=js_string("".join(parts)))

    # -- chains ------------------------------------------------------------------------------

    def chain(self, node: Node | None) -> tuple[Node, list[tuple[str, list[Node], Node]]] | None:
        """``base.op(args).op2 ...`` → (base node, [(op, args, node)]) when the base is a
        wrapper (binding or render call); ops include property reads (args empty, node the
        member expression)."""
        ops: list[tuple[str, list[Node], Node]] = []
        current = unwrap(node)
        while current is not None:
            if current.type == "call_expression":
                fn = unwrap(current.child_by_field_name("function"))
                if fn is not None and fn.type == "member_expression":
                    ops.append(
                        (text(fn.child_by_field_name("property")), args_of(current), current)
                    )
                    current = unwrap(fn.child_by_field_name("object"))
                    continue
                if self.is_render_call(current):
                    break
                if fn is not None and fn.type == "identifier" and text(fn) in self.to_json:
                    inner = self.chain(args_of(current)[0]) if args_of(current) else None
                    if inner is None:
                        return None
                    return inner[0], [*inner[1], *reversed(ops)]
                return None
            if current.type == "member_expression":
                ops.append(("." + text(current.child_by_field_name("property")), [], current))
                current = unwrap(current.child_by_field_name("object"))
                continue
            if current.type == "subscript_expression":
                index = current.child_by_field_name("index")
                ops.append(("[]", [index] if index is not None else [], current))
                current = unwrap(current.child_by_field_name("object"))
                continue
            break
        if current is None:
            return None
        if current.type == "identifier":
            if self.binding_named(text(current), current) is None:
                return None
        elif not self.is_render_call(current):
            return None
        ops.reverse()
        return current, ops

    def refs_wrapper(self, node: Node) -> bool:
        for n in walk(node):
            if n.type == "identifier":
                name = text(n)
                if name in self.dead_names:
                    return True
                binding = self.binding_named(name, n)
                if binding is not None and not self._is_declaration_name(n):
                    return True
            if n.type == "call_expression" and self.is_render_call(n):
                return True
        return False

    @staticmethod
    def _is_declaration_name(n: Node) -> bool:
        parent = n.parent
        return (
            parent is not None
            and parent.type
            in (
                "variable_declarator",
                "required_parameter",
                "optional_parameter",
            )
            and parent.child_by_field_name("name") == n
        ) or (parent is not None and parent.type in ("required_parameter", "optional_parameter"))

    def resolve(
        self, base: Node, ops: list[tuple[str, list[Node], Node]], ctx: _Ctx, context: str
    ) -> tuple[Target, list[tuple[str, list[Node], Node]]]:
        """Apply the selection ops to the base; return the target and the remaining ops."""
        target: Target
        binding: Binding | None = None
        if base.type == "identifier":
            binding = self.binding_named(text(base), base)
        if binding is not None and binding.kind == "derived" and binding.target is not None:
            target = Target(
                "var",
                css=binding.name,
                multi=binding.target.multi,
                binding=binding,
                component=binding.target.component,
                checkbox=binding.target.checkbox,
            )
        else:
            target = Target("root", binding=binding)
            if base.type == "call_expression":
                target.inline = base
                if any(op in _SELECT_OPS or op in ("simulate", "setProps") for op, _a, _n in ops):
                    raise Untranslatable("queries an inline render; assign the render first")
        i = 0
        finds = 0
        while i < len(ops):
            op, args, node = ops[i]
            if op not in _SELECT_OPS:
                break
            if op == "find" or op == "findWhere":
                if op == "findWhere" or not args:
                    target = self._from_capture_only(node, ctx, context, ops, i)
                    i += 1
                    finds += 1
                    continue
                index, skip = self._index_after(ops, i + 1)
                root_level = target.kind == "root" and finds == 0
                selector_text = string_value(args[0]) or text(args[0])
                captured = None
                source = self.source_target(args[0], context)
                if not (source.kind == "query" and source.method == "TestId"):
                    captured = self.captured_target(
                        node, selector_text, ctx, context, index, root_level
                    )
                checkbox = source.checkbox or self._captured_checkbox(node, ctx)
                if captured is not None:
                    captured.checkbox = checkbox
                    captured.component = source.component
                    if index is not None and (captured.index is not None or not captured.multi):
                        i += 1 + skip
                    else:
                        i += 1
                    target = captured
                    finds += 1
                    continue
                css = self._captured_css(node, ctx) if source.component is not None else None
                if css is not None:
                    source = Target("css", css=js_string(css), component=source.component)
                    self.dom_queries_used += 1
                elif source.component is not None:
                    raise Untranslatable(
                        f"selects the component {source.component} by its constructor or name; "
                        "no DOM capture shows what it renders"
                    )
                if target.kind == "root" or (
                    target.kind == "css" and not target.index and not target.multi and target.css
                ):
                    if target.kind == "css" and source.kind == "css":
                        source = Target(
                            "css",
                            css=self._join_css(target.css, source.css),
                            checkbox=source.checkbox,
                        )
                    elif target.kind != "root":
                        raise Untranslatable("chained find() inside an element without a query")
                    target = source
                else:
                    raise Untranslatable("find() inside a list of elements")
                target.checkbox = checkbox
                finds += 1
                i += 1
                continue
            if op in ("at", "first", "last"):
                if op == "at":
                    idx = text(args[0]) if args else "0"
                else:
                    idx = "0" if op == "first" else "last"
                target = self._indexed(target, idx)
                i += 1
                continue
            if op == "hostNodes":
                i += 1
                continue
            if op == "filter" and args and string_value(args[0]) is not None:
                target = self._filtered(target, string_value(args[0]) or "")
                i += 1
                continue
            if op == "closest" and args and string_value(args[0]) is not None:
                target = Target(
                    "css",
                    css=f"{self.element_code(target, 'get')}.closest("
                    f"{js_string(string_value(args[0]) or '')})",
                )
                target.index = "expr"
                i += 1
                continue
            if op in ("children", "parent", "childAt"):
                element = self.element_code(target, "get")
                if op == "parent":
                    target = Target("css", css=f"{element}.parentElement", index="expr")
                elif op == "childAt":
                    target = Target("css", css=f"{element}.children[{text(args[0])}]", index="expr")
                else:
                    target = Target(
                        "css", css=f"Array.from({element}.children)", multi=True, index="list"
                    )
                i += 1
                continue
            raise Untranslatable(f"{op}() has no Testing Library equivalent here")
        return target, ops[i:]

    def _from_capture_only(
        self,
        node: Node,
        ctx: _Ctx,
        context: str,
        ops: list[tuple[str, list[Node], Node]],
        i: int,
    ) -> Target:
        index, _skip = self._index_after(ops, i + 1)
        captured = self.captured_target(node, "", ctx, context, index, False)
        if captured is None:
            raise Untranslatable("findWhere() with a predicate and no DOM capture")
        return captured

    @staticmethod
    def _index_after(ops: list[tuple[str, list[Node], Node]], j: int) -> tuple[int | None, int]:
        if j < len(ops):
            op, args, _ = ops[j]
            if op == "first":
                return 0, 1
            if op == "at" and args and re.fullmatch(r"\d+", text(args[0])):
                return int(text(args[0])), 1
        return None, 0

    @staticmethod
    def _join_css(outer: str, inner: str) -> str:
        a, b = outer[1:-1], inner[1:-1]
        return js_string(f"{a} {b}") if outer[:1] in "'\"" and inner[:1] in "'\"" else inner

    def _indexed(self, target: Target, idx: str) -> Target:
        if target.kind == "root":
            return target
        if target.index not in (None, "list"):
            if idx in ("0",):
                return target
            raise Untranslatable("indexes into a single element")
        return Target(
            target.kind,
            method=target.method,
            args=target.args,
            multi=True,
            index=idx,
            css=target.css,
            binding=target.binding,
            component=target.component,
            checkbox=target.checkbox,
        )

    def _filtered(self, target: Target, selector: str) -> Target:
        items = self.list_code(target, "getAll")
        return Target(
            "css",
            css=f"Array.from({items}).filter((element) => element.matches({js_string(selector)}))",
            multi=True,
            index="list",
        )

    # -- code for targets --------------------------------------------------------------------

    def _screen(self, query: str) -> str:
        self.need("screen")
        return f"screen.{query}"

    def element_code(self, target: Target, variant: Variant, *, non_null: bool = False) -> str:
        bang = "!" if non_null and self.ts else ""
        if target.kind in ("query", "var"):
            bang = ""
        if target.kind == "root":
            return self.member_of(target, "container")
        if target.kind == "var":
            if target.multi:
                return self._index_code(target.css, target.index, variant, bang)
            return target.css
        if target.kind == "query":
            if target.multi:
                query = "getAll" if variant == "get" else "queryAll"
                base = self._screen(f"{query}By{target.method}({target.args})")
                return self._index_code(base, target.index, variant, bang)
            return self._screen(f"{variant}By{target.method}({target.args})")
        # css
        if target.index == "expr":
            return target.css + bang
        if target.index == "list":
            return self._index_code(target.css, None, variant, bang)
        if target.multi:
            return self._index_code(
                f"document.querySelectorAll({target.css})", target.index, variant, ""
            )
        return f"document.querySelector({target.css}){bang}"

    @staticmethod
    def _index_code(base: str, index: str | None, variant: Variant, bang: str) -> str:
        if index is None or index == "list":
            index = "0"
        if index == "last":
            if re.fullmatch(r"[A-Za-z_$][\w$]*", base):
                expr = f"{base}[{base}.length - 1]"
            elif base.startswith("screen."):
                expr = f"{base}.slice(-1)[0]"
            else:
                expr = f"Array.from({base}).slice(-1)[0]"
        else:
            expr = f"{base}[{index}]"
        if variant == "query":
            return f"{expr} ?? null"
        return expr + bang

    def list_code(self, target: Target, variant: Literal["getAll", "queryAll"]) -> str:
        if target.index not in (None, "list"):
            raise Untranslatable("counts the elements of a single element")
        if target.kind == "query":
            return self._screen(f"{variant}By{target.method}({target.args})")
        if target.kind == "var":
            if not target.multi:
                raise Untranslatable("counts a single element")
            return target.css
        if target.kind == "root":
            raise Untranslatable("counts the rendered root")
        if target.index == "list":
            return target.css
        return f"document.querySelectorAll({target.css})"

    def member_of(self, target: Target, name: str) -> str:
        return self.member(target.binding, name, target.inline)

    def member(self, binding: Binding | None, name: str, inline: Node | None = None) -> str:
        if binding is None and inline is not None:
            return f"{self.render_code(inline, _Ctx())}.{name}"
        if binding is None:
            raise Untranslatable("uses the render result of an inline render")
        binding.members.add(name)
        binding.used = True
        if binding.kind == "decl":
            return name
        if binding.kind == "param":
            raise Untranslatable(f"needs the render result ({name}) inside a helper")
        return f"{binding.name}.{name}"

    # -- statements ------------------------------------------------------------------------

    def run(self) -> None:
        """The conversion, after :meth:`collect_tests` and :meth:`scan_imports`."""
        self.collect_bindings()
        self.process_block(self.tree.root_node, _Ctx())
        self.finish_bindings()
        self.finish_vars()
        self.finish_hooks()
        self.retype_all()
        self.finish_params()
        self.finish_imports()
        self.finish_throws()

    def process_block(self, block: Node, ctx: _Ctx) -> None:
        for stmt in block.named_children:
            self.process_statement(stmt, ctx)

    def _ctx_for_function(self, fn: Node, ctx: _Ctx) -> _Ctx:
        test = self.test_by_body.get(fn.id)
        if test is not None:
            for bindings in self.bindings.values():
                for binding in bindings:
                    binding.overrides = {}
            return _Ctx(test=test, owner=fn, hook=None)
        parent_call = fn.parent.parent if fn.parent is not None else None
        if parent_call is not None and parent_call.type == "call_expression":
            name = self.callee_name(parent_call)
            if name in _HOOKS:
                return _Ctx(test=ctx.test, owner=fn, hook=name)
        if ctx.owner is None:
            return _Ctx(test=ctx.test, owner=fn, hook=ctx.hook)
        return ctx

    def process_statement(self, stmt: Node, ctx: _Ctx) -> None:
        if stmt.type == "comment" or self.is_claimed(stmt):
            return
        if stmt in self.enzyme_import_nodes or stmt.type == "import_statement":
            return
        try:
            if self.dead_names and self._refs_dead(stmt) and not self._has_nested_block(stmt):
                self.comment_out(stmt, "depends on code that was left untranslated above", ctx)
                return
            if self.handle_statement(stmt, ctx):
                return
        except Untranslatable as exc:
            self.comment_out(stmt, str(exc), ctx)
            return
        # Not claimed: descend into nested functions and blocks.
        self.descend(stmt, ctx)
        if (
            not self._has_nested_block(stmt)
            and self._unclaimed_wrapper_ref(stmt)
            and not self.is_claimed(stmt)
        ):
            self.comment_out(
                stmt, "uses the Enzyme wrapper in a way testmend cannot translate", ctx
            )

    def _unclaimed_wrapper_ref(self, stmt: Node) -> bool:
        for n in walk(stmt):
            if self.is_claimed(n):
                continue
            if (
                n.type == "identifier"
                and not self._is_declaration_name(n)
                and (text(n) in self.dead_names or self.binding_named(text(n), n) is not None)
            ):
                return True
            if n.type == "call_expression" and self.is_render_call(n):
                return True
        return False

    def _refs_dead(self, stmt: Node) -> bool:
        return any(n.type == "identifier" and text(n) in self.dead_names for n in walk(stmt))

    @staticmethod
    def _has_nested_block(stmt: Node) -> bool:
        return any(n.type == "statement_block" and n != stmt for n in walk(stmt))

    def descend(self, node: Node, ctx: _Ctx) -> None:
        for child in node.named_children:
            if child.type in (
                "arrow_function",
                "function_expression",
                "function_declaration",
                "function",
                "method_definition",
            ):
                body = child.child_by_field_name("body")
                inner = self._ctx_for_function(child, ctx)
                if body is not None and body.type == "statement_block":
                    self.process_block(body, inner)
                elif body is not None and self.refs_wrapper(body):
                    self.expression_body(child, body, inner)
            elif child.type == "statement_block":
                self.process_block(child, ctx)
            elif child.type.endswith("statement") or child.type in (
                "lexical_declaration",
                "variable_declaration",
            ):
                self.process_statement(child, ctx)
            else:
                self.descend(child, ctx)

    def expression_body(self, fn: Node, body: Node, ctx: _Ctx) -> None:
        """An arrow function with an expression body: ``() => wrapper.find(x).simulate(...)``."""
        try:
            new = self.action(body, ctx)
        except Untranslatable as exc:
            self.comment_out(fn, str(exc), ctx)
            return
        if new is None:
            return
        self.replace(body, "{ " + new + " }")

    def handle_statement(self, stmt: Node, ctx: _Ctx) -> bool:
        if stmt.type == "expression_statement":
            expr = unwrap(stmt.named_children[0]) if stmt.named_children else None
            if expr is None:
                return False
            if expr.type == "await_expression" and expr.named_children:
                inner = unwrap(expr.named_children[0])
                if inner is not None and inner.type == "call_expression" and self.chain(inner):
                    expr = inner
            if expr.type == "call_expression":
                if self._is_enzyme_setup(expr):
                    self.remove_statement(stmt, "removed the Enzyme adapter setup")
                    return True
                if self._expect_subject(expr) is not None:
                    try:
                        new = self.assertion(expr, ctx)
                    except Dropped as exc:
                        self.remove_statement(stmt, str(exc), comment=True)
                        return True
                    if new is not None:
                        self.replace_statement(stmt, new, ctx)
                    return True
                if self._wrapper_arg_call(stmt, expr):
                    return True
                new = self.action(expr, ctx)
                if new is not None:
                    if new == "":
                        self.remove_statement(stmt, "removed an Enzyme-only call")
                    else:
                        self.replace_statement(stmt, new, ctx)
                    return True
                if self.is_render_call(expr):
                    self.replace(expr, self.render_code(expr, ctx))
                    return True
                return False
            if expr.type == "assignment_expression":
                left = expr.child_by_field_name("left")
                right = expr.child_by_field_name("right")
                call = self.render_call_of(right)
                if call is not None and left is not None:
                    self.replace(call, self.render_code(call, ctx))
                    binding = self.binding_named(text(left), left)
                    if binding is not None and left.type == "identifier":
                        self.var_assigns.append((binding, left, call))
                    return True
                return False
            return False
        if stmt.type in ("lexical_declaration", "variable_declaration"):
            return self.declaration(stmt, ctx)
        if stmt.type == "return_statement" and stmt.named_children:
            returned = unwrap(stmt.named_children[0])
            if returned is not None and returned.type == "identifier":
                binding = self.binding_named(text(returned), returned)
                if binding is not None and binding.kind in ("var", "decl"):
                    binding.used = True
                    binding.passed_as_arg = True
                    self.claimed.append((stmt.start_byte, stmt.end_byte))
                    return True
            call = self.render_call_of(stmt.named_children[0])
            if call is not None:
                self.replace(call, self.render_code(call, ctx))
                return True
        return False

    def _is_enzyme_setup(self, call: Node) -> bool:
        fn = call.child_by_field_name("function")
        name = text(fn)
        if name == "configure" or name.endswith(".configure"):
            return "adapter" in text(call).lower() or "Adapter" in text(call)
        return False

    def remove_statement(self, stmt: Node, message: str, *, comment: bool = False) -> None:
        start = line_start(self.src, stmt.start_byte)
        end = stmt.end_byte
        if self.src[end : end + 1] == b"\n":
            end += 1
        if self.src[start : stmt.start_byte].strip():
            start = stmt.start_byte
        elif (
            start >= 2
            and self.src[start - 2 : start] == b"\n\n"
            and re.match(rb"[ \t]*\n", self.src[end:])
        ):
            end += len(re.match(rb"[ \t]*\n", self.src[end:]).group(0))  # type: ignore[union-attr]
        self.removed_ids.add(stmt.id)
        if comment:
            indent = line_indent(self.src, stmt.start_byte)
            lines = text(stmt).splitlines()
            body = f"{indent}// testmend: {message}\n" + "".join(
                f"{indent}// {ln.strip()}\n" for ln in lines
            )
            self.edits.append(Edit(start, end, body, [(len(indent), "removed", message)]))
            self.claimed.append((start, end))
            return
        self.edits.append(Edit(start, end, ""))
        self.claimed.append((start, end))
        self.note_only(stmt, "removed", message)

    def replace_statement(
        self, stmt: Node, new: str, ctx: _Ctx, pending: list[tuple[NoteKind, str]] | None = None
    ) -> None:
        notes = list(pending or []) + self.pending_notes
        self.pending_notes = []
        indent = line_indent(self.src, stmt.start_byte)
        new = new.replace("\x00", "\n" + indent)
        if ctx.test is not None:
            ctx.test.touched = True
        self.replace(stmt, new, notes)

    def fallback_note(self, target: Target, ctx: _Ctx | None = None) -> None:
        if target.kind == "css" and target.css and target.index != "expr":
            key = (ctx.test.name if ctx is not None and ctx.test is not None else "", target.css)
            if key in self.fallbacks_noted:
                return
            self.fallbacks_noted.add(key)
            message = (
                f"CSS selector {target.css}: no role, label, text or test id query matched the "
                "same elements"
            )
            if target.component:
                message = (
                    f"CSS selector {target.css} stands for the component {target.component} "
                    "(the elements it rendered in the DOM capture)"
                )
            if ("fallback", message) not in self.pending_notes:
                self.pending_notes.append(("fallback", message))

    # -- declarations ------------------------------------------------------------------------

    def declaration(self, stmt: Node, ctx: _Ctx) -> bool:
        declarators = [c for c in stmt.named_children if c.type == "variable_declarator"]
        if len(declarators) != 1:
            return False
        declarator = declarators[0]
        name_node = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        type_node = declarator.child_by_field_name("type")
        name = text(name_node)
        if value is None:
            binding = self.binding_named(name, declarator)
            if binding is not None and binding.kind == "var" and binding.node == declarator:
                self.var_decls.append((binding, stmt, None))
            if type_node is not None and self._has_wrapper_type(type_node):
                self.retype(type_node)
                return True
            return binding is not None
        call = self.render_call_of(value)
        if call is not None:
            binding = self.binding_named(name, declarator)
            if binding is not None and binding.kind == "decl" and not binding.passed_as_arg:
                self.decl_edits.append((binding, stmt, call))
                self.claimed.append((stmt.start_byte, stmt.end_byte))
                return True
            if binding is not None and binding.kind == "decl":
                binding.kind = "var"
            if binding is not None:
                self.var_decls.append((binding, stmt, value))
            self.replace(call, self.render_code(call, ctx))
            if type_node is not None and self._has_wrapper_type(type_node):
                self.retype(type_node)
            return True
        chain = self.chain(value)
        if chain is None or name_node is None or name_node.type != "identifier":
            return False
        base, ops = chain
        if not ops or ops[0][0] not in _SELECT_OPS:
            new_value = self.value(value, ctx)
            kind = text(stmt.children[0])
            annotation = "" if type_node is None else text(type_node)
            self.replace_statement(stmt, f"{kind} {name}{annotation} = {new_value};", ctx)
            return True
        multi, absent = self._derived_usage(name, stmt)
        target, rest = self.resolve(base, ops, ctx, "element")
        if rest:
            new_value = self.value(value, ctx)
            kind = text(stmt.children[0])
            self.replace_statement(stmt, f"{kind} {name} = {new_value};", ctx)
            return True
        if multi and target.index is None:
            target.multi = True
            code = self.list_code(target, "queryAll" if absent else "getAll")
            kept = target
        else:
            code = self.element_code(target, "query" if absent else "get")
            kept = Target(
                target.kind, multi=False, component=target.component, checkbox=target.checkbox
            )
        derived = Binding(name, "derived", declarator, target=kept)
        self.bindings.setdefault(name, []).append(derived)
        self.fallback_note(target, ctx)
        kind = text(stmt.children[0])
        self.replace_statement(stmt, f"{kind} {name} = {code};", ctx)
        return True

    def _derived_usage(self, name: str, stmt: Node) -> tuple[bool, bool]:
        scope = stmt.parent
        multi = absent = False
        if scope is None:
            return False, False
        for n in walk(scope):
            if n.type != "identifier" or text(n) != name or n.start_byte < stmt.end_byte:
                continue
            parent = n.parent
            if parent is not None and parent.type == "member_expression":
                prop = text(parent.child_by_field_name("property"))
                if prop in (
                    "at",
                    "first",
                    "last",
                    "length",
                    "map",
                    "forEach",
                    "filter",
                    "some",
                    "every",
                    "slice",
                ):
                    multi = True
                if prop == "exists":
                    absent = True
            if parent is not None and parent.type == "arguments":
                call = parent.parent
                outer = call.parent if call is not None else None
                if (
                    outer is not None
                    and outer.type == "member_expression"
                    and text(outer.child_by_field_name("property")) == "toHaveLength"
                ):
                    multi = True
        return multi, absent

    def retype(self, type_node: Node) -> None:
        for n in walk(type_node):
            if (
                n.type == "generic_type" and text(n.child_by_field_name("name")) in _WRAPPER_TYPES
            ) or (
                n.type == "type_identifier" and text(n) in _WRAPPER_TYPES and not self.is_claimed(n)
            ):
                self.replace(n, self.need_type("RenderResult"))

    def render_code(self, call: Node, ctx: _Ctx) -> str:
        fn = call.child_by_field_name("function")
        name = text(fn)
        args = args_of(call)
        if name in self.wrapper_functions:
            return text(call)
        if name in self.helper_renders:
            render_name, module, option_mode = self.helper_renders[name]
            self.need(render_name, module)
            return self._rewrite_call(
                call, render_name, len(args) if option_mode == "pass-through" else 1
            )
        helper = self.options.render_helper
        if helper is not None:
            render_name = helper.render_name
            module = _relative_specifier(helper.module, helper.path, self.path)
        else:
            render_name, module = "render", self.options.rtl_module
        self.need(render_name, module)
        kind = self.enzyme_renders.get(name) or text(
            fn.child_by_field_name("property")
            if fn is not None and fn.type == "member_expression"
            else fn
        )
        if len(args) > 1:
            self.pending_notes.append(
                (
                    "review",
                    f"dropped the {kind}() options {text(args[1])[:80]}; pass a "
                    "`wrapper` render option if the component needs providers",
                )
            )
            self.note_only(call, "review", f"dropped the {kind}() options")
        if kind == "render":
            self.note_only(call, "review", "enzyme render() (static HTML) became a full render")
        return self._rewrite_call(call, render_name, 1)

    def _rewrite_call(self, call: Node, name: str, keep: int) -> str:
        """The call's own text with another callee, no type arguments and ``keep`` arguments
        (layout and comments kept)."""
        base = call.start_byte
        edits: list[tuple[int, int, str]] = []
        fn = call.child_by_field_name("function")
        assert fn is not None
        edits.append((fn.start_byte, fn.end_byte, name))
        type_args = call.child_by_field_name("type_arguments")
        if type_args is not None:
            edits.append((type_args.start_byte, type_args.end_byte, ""))
        args = args_of(call)
        if len(args) > keep:
            start = args[keep - 1].end_byte if keep else args[0].start_byte
            edits.append((start, args[-1].end_byte, ""))
        out = self.src[base : call.end_byte]
        for start, end, new in sorted(edits, reverse=True):
            out = out[: start - base] + new.encode("utf-8") + out[end - base :]
        return out.decode("utf-8")

    # -- assertions --------------------------------------------------------------------------

    def _expect_subject(self, call: Node) -> tuple[Node, str, bool, list[Node]] | None:
        """``expect(S)[.not].matcher(args)`` → (S, matcher, negated, args)."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return None
        matcher = text(fn.child_by_field_name("property"))
        obj = fn.child_by_field_name("object")
        negated = False
        if (
            obj is not None
            and obj.type == "member_expression"
            and text(obj.child_by_field_name("property")) == "not"
        ):
            negated = True
            obj = obj.child_by_field_name("object")
        if (
            obj is None
            or obj.type != "call_expression"
            or text(obj.child_by_field_name("function")) != "expect"
        ):
            return None
        subject = args_of(obj)
        if not subject:
            return None
        return subject[0], matcher, negated, args_of(call)

    def assertion(self, call: Node, ctx: _Ctx) -> str | None:
        parsed = self._expect_subject(call)
        assert parsed is not None
        subject, matcher, negated, margs = parsed
        chain = self.chain(subject)
        if chain is None:
            if not self.refs_wrapper(call):
                return None
            # The wrapper appears elsewhere: translate values generically.
            subject_code = self.value(subject, ctx)
            args_code = ", ".join(self.value(a, ctx) for a in margs)
            return f"expect({subject_code}){'.not' if negated else ''}.{matcher}({args_code});"
        base, ops = chain
        for op, _a, _n in ops:
            if op in _UNTRANSLATABLE:
                raise Untranslatable(_UNTRANSLATABLE[op])
        terminal = next((op for op, _a, _n in ops if op not in _SELECT_OPS), None)
        context = (
            "text"
            if terminal in ("text", ".textContent") or matcher in ("toHaveText", "toIncludeText")
            else "element"
        )
        if (terminal is None and matcher in ("toHaveLength",)) or terminal == ".length":
            context = "list"
        target, rest = self.resolve(base, ops, ctx, context)
        self.fallback_note(target, ctx)
        return self.assert_on(target, rest, matcher, negated, margs, ctx)

    def _bool_of(self, matcher: str, negated: bool, margs: list[Node]) -> bool | None:
        if matcher in ("toBe", "toEqual", "toStrictEqual") and margs:
            raw = text(margs[0])
            if raw in ("true", "false"):
                return (raw == "true") != negated
            return None
        if matcher == "toBeTruthy":
            return not negated
        if matcher == "toBeFalsy":
            return negated
        return None

    def assert_on(
        self,
        target: Target,
        rest: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: _Ctx,
    ) -> str:
        neg = ".not" if negated else ""
        margs_code = ", ".join(self.value(a, ctx) for a in margs)
        if not rest:
            if matcher in ("toMatchSnapshot", "toMatchInlineSnapshot"):
                if target.kind == "root":
                    subject = self.member_of(target, "asFragment") + "()"
                    self.pending_notes.append(("review", SNAPSHOT_NOTE))
                else:
                    subject = self.element_code(target, "get")
                return f"expect({subject}).{matcher}({margs_code});"
            if matcher == "toHaveLength":
                zero = margs and text(margs[0]) == "0"
                variant: Literal["getAll", "queryAll"] = (
                    "queryAll"
                    if zero or negated or not re.fullmatch(r"\d+", text(margs[0]))
                    else "getAll"
                )
                if target.kind == "root":
                    raise Untranslatable("counts the rendered root")
                if target.index not in (None, "list"):
                    # One element: length 1 means it exists.
                    exists = text(margs[0]) == "1" if margs else False
                    if not negated and margs and text(margs[0]) in ("0", "1"):
                        return self._exists(target, exists)
                return f"expect({self.list_code(target, variant)}){neg}.toHaveLength({margs_code});"
            enzyme_matchers = self._jest_enzyme(target, matcher, negated, margs, margs_code)
            if enzyme_matchers is not None:
                return enzyme_matchers
            if matcher in ("toBeTruthy", "toBeDefined") and not negated:
                return self._exists(target, True)
            raise Untranslatable(f"compares the Enzyme wrapper itself ({matcher})")
        op, args, _node = rest[0]
        after = rest[1:]
        if op in ("exists", "isEmpty", "isEmptyRender") and not after:
            value = self._bool_of(matcher, negated, margs)
            if value is None:
                raise Untranslatable(f"{op}() compared with {matcher}")
            if op == "isEmpty":
                value = not value
                op = "exists"
            if op == "isEmptyRender":
                if target.kind != "root":
                    raise Untranslatable("isEmptyRender() on a child")
                container = self.member_of(target, "container")
                self.need_jest_dom()
                return f"expect({container}){'' if value else '.not'}.toBeEmptyDOMElement();"
            return self._exists(target, value)
        if op == ".length" and not after:
            if matcher in ("toBe", "toEqual", "toStrictEqual") and margs:
                zero = text(margs[0]) == "0"
                variant = (
                    "queryAll"
                    if zero or negated or not re.fullmatch(r"\d+", text(margs[0]))
                    else "getAll"
                )
                return f"expect({self.list_code(target, variant)}){neg}.toHaveLength({margs_code});"
            return (
                f"expect({self.list_code(target, 'queryAll')}.length){neg}.{matcher}({margs_code});"
            )
        if op == "text" and not after:
            element = self.element_code(target, "get")
            if target.kind == "root":
                element = self.member_of(target, "container")
            self.need_jest_dom()
            literal = string_value(margs[0]) if margs else None
            if (
                matcher in ("toBe", "toEqual", "toStrictEqual")
                and literal is not None
                and target.kind == "query"
                and target.method == "Text"
                and not target.multi
                and target.args == js_string(" ".join(literal.split()))
            ):
                return f"expect({element}){neg}.toBeInTheDocument();"
            if matcher in ("toBe", "toEqual", "toStrictEqual") and literal is not None:
                pattern = "^" + regex_escape(literal) + "$" if literal else "^$"
                return f"expect({element}){neg}.toHaveTextContent(/{pattern}/);"
            if matcher in ("toContain", "toMatch") and margs:
                return f"expect({element}){neg}.toHaveTextContent({margs_code});"
            return f"expect({element}.textContent){neg}.{matcher}({margs_code});"
        if op == "hasClass" and not after and args:
            value = self._bool_of(matcher, negated, margs)
            if value is None:
                raise Untranslatable(f"hasClass() compared with {matcher}")
            self._dom_only(target, "hasClass()")
            self.need_jest_dom()
            element = self.element_code(target, "get")
            return f"expect({element}){'' if value else '.not'}.toHaveClass({text(args[0])});"
        if op in ("prop", "props"):
            return self._prop_assertion(target, op, args, after, matcher, negated, margs, ctx)
        if op == "html" and not after:
            if (target.kind == "root" and matcher in ("toBeNull", "toBeFalsy")) or (
                matcher in ("toBe", "toEqual") and margs and text(margs[0]) in ("null", "''", '""')
            ):
                container = self.member_of(target, "container")
                self.need_jest_dom()
                return f"expect({container}){neg}.toBeEmptyDOMElement();"
            if matcher == "toMatchSnapshot" and target.kind == "root":
                return f"expect({self.member_of(target, 'asFragment')}()).toMatchSnapshot();"
            element = (
                self.member_of(target, "container") + ".innerHTML"
                if target.kind == "root"
                else self.element_code(target, "get") + ".outerHTML"
            )
            return f"expect({element}){neg}.{matcher}({margs_code});"
        if op == "debug" and matcher == "toMatchSnapshot" and target.kind == "root":
            return f"expect({self.member_of(target, 'asFragment')}()).toMatchSnapshot();"
        if op == "getDOMNode":
            element = self.element_code(target, "get")
            tail = "".join(self._raw_op(o, a) for o, a, _n in after)
            return f"expect({element}{tail}){neg}.{matcher}({margs_code});"
        if op == "is" and args and string_value(args[0]) is not None and not after:
            element = self.element_code(target, "get")
            return f"expect({element}.matches({text(args[0])})){neg}.{matcher}({margs_code});"
        if op == "map" and args:
            mapped = self.map_code(target, args[0])
            tail = "".join(self._raw_op(o, a) for o, a, _n in after)
            return f"expect({mapped}{tail}){neg}.{matcher}({margs_code});"
        if op in _UNTRANSLATABLE:
            raise Untranslatable(_UNTRANSLATABLE[op])
        raise Untranslatable(f"asserts on {op.lstrip('.')}() of the Enzyme wrapper")

    def _raw_op(self, op: str, args: list[Node]) -> str:
        if op.startswith("."):
            return op
        if op == "[]":
            return f"[{text(args[0])}]" if args else ""
        return f".{op}({', '.join(text(a) for a in args)})"

    def need_jest_dom(self) -> None:
        self.needs_jest_dom = True

    def _dom_only(self, target: Target, what: str) -> None:
        if target.component:
            raise Untranslatable(
                f"{what} on the component {target.component} (props of components are not "
                "visible in the DOM); assert on what it renders"
            )

    def _exists(self, target: Target, value: bool) -> str:
        self.need_jest_dom()
        if target.kind == "root":
            container = self.member_of(target, "container")
            return f"expect({container}){'.not' if value else ''}.toBeEmptyDOMElement();"
        if target.multi and target.index is None:
            if value:
                return f"expect({self.list_code(target, 'queryAll')}).not.toHaveLength(0);"
            return f"expect({self.list_code(target, 'queryAll')}).toHaveLength(0);"
        if value:
            return f"expect({self.element_code(target, 'get')}).toBeInTheDocument();"
        return f"expect({self.element_code(target, 'query')}).not.toBeInTheDocument();"

    def _jest_enzyme(
        self, target: Target, matcher: str, negated: bool, margs: list[Node], margs_code: str
    ) -> str | None:
        neg = ".not" if negated else ""
        if matcher == "toExist":
            return self._exists(target, not negated)
        if matcher in ("toHaveText", "toIncludeText") and margs:
            self.need_jest_dom()
            element = self.element_code(target, "get")
            literal = string_value(margs[0])
            if matcher == "toHaveText" and literal is not None:
                return f"expect({element}){neg}.toHaveTextContent(/^{regex_escape(literal)}$/);"
            return f"expect({element}){neg}.toHaveTextContent({margs_code});"
        if matcher == "toHaveClassName" and margs:
            self.need_jest_dom()
            cls = string_value(margs[0])
            arg = js_string(cls.lstrip(".").replace(".", " ")) if cls else margs_code
            return f"expect({self.element_code(target, 'get')}){neg}.toHaveClass({arg});"
        if matcher in ("toBeDisabled", "toBeChecked", "toHaveValue", "toBeEmptyRender"):
            self.need_jest_dom()
            if matcher == "toBeEmptyRender":
                container = self.member_of(target, "container")
                return f"expect({container}){neg}.toBeEmptyDOMElement();"
            return f"expect({self.element_code(target, 'get')}){neg}.{matcher}({margs_code});"
        if matcher == "toHaveProp" and margs:
            key = string_value(margs[0])
            if key is None:
                return None
            return self._attribute_assertion(
                target,
                key,
                "toEqual" if len(margs) > 1 else "toBeDefined",
                negated,
                margs[1:],
                margs_code.split(", ", 1)[1] if len(margs) > 1 else "",
            )
        return None

    def _prop_assertion(
        self,
        target: Target,
        op: str,
        args: list[Node],
        after: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: _Ctx,
    ) -> str:
        if target.kind == "root":
            raise Dropped(
                "removed an assertion on the props the test itself passed to the rendered "
                "element (Enzyme bookkeeping, nothing the component does)"
            )
        self._dom_only(target, f"{op}()")
        margs_code = ", ".join(self.value(a, ctx) for a in margs)
        if op == "prop" and args and not after:
            key = string_value(args[0])
            if key is None:
                raise Untranslatable("prop() with a computed name")
            return self._attribute_assertion(target, key, matcher, negated, margs, margs_code)
        if op == "props" and len(after) == 1 and after[0][0].startswith("."):
            return self._attribute_assertion(
                target, after[0][0][1:], matcher, negated, margs, margs_code
            )
        if op == "props" and len(after) == 1 and after[0][0] == "[]" and after[0][1]:
            key = string_value(after[0][1][0])
            if key is not None:
                return self._attribute_assertion(target, key, matcher, negated, margs, margs_code)
        if op == "props" and not after and matcher in ("toEqual", "toMatchObject") and margs:
            expected = unwrap(margs[0])
            if (
                expected is not None
                and expected.type == "call_expression"
                and text(expected.child_by_field_name("function")) == "expect.objectContaining"
            ):
                inner = args_of(expected)
                expected = unwrap(inner[0]) if inner else None
            elif matcher == "toEqual":
                raise Untranslatable("compares all props of an element")
            if expected is None or expected.type != "object" or negated:
                raise Untranslatable("compares props with a non-literal object")
            lines = []
            for pair in expected.named_children:
                if pair.type != "pair":
                    raise Untranslatable("compares props with a spread or method")
                key = string_value(pair.child_by_field_name("key")) or text(
                    pair.child_by_field_name("key")
                )
                value = pair.child_by_field_name("value")
                assert value is not None
                lines.append(
                    self._attribute_assertion(target, key, "toBe", False, [value], text(value))
                )
            return "\x00".join(lines)
        raise Untranslatable(f"reads {op}() in a way testmend cannot map to the DOM")

    def _attribute_assertion(
        self,
        target: Target,
        key: str,
        matcher: str,
        negated: bool,
        margs: list[Node],
        margs_code: str,
    ) -> str:
        if key.startswith("on") and key[2:3].isupper():
            raise Untranslatable(f"reads the event handler prop {key}; fire the event instead")
        if key == "children":
            raise Untranslatable("reads the children prop; assert on the rendered text")
        if key == "style":
            raise Untranslatable("reads the style prop; use toHaveStyle")
        self.need_jest_dom()
        element = self.element_code(target, "get")
        value = self._bool_of(matcher, negated, margs)
        literal = text(margs[0]) if margs else None
        neg = ".not" if negated else ""
        if key == "disabled" and value is not None:
            return f"expect({element}).{'toBeDisabled' if value else 'toBeEnabled'}();"
        if key == "checked" and value is not None:
            return f"expect({element}){'' if value else '.not'}.toBeChecked();"
        if key == "value" and matcher in ("toBe", "toEqual") and margs:
            return f"expect({element}){neg}.toHaveValue({margs_code});"
        if key == "className" and matcher in ("toBe", "toEqual") and margs:
            return f"expect({element}){neg}.toHaveAttribute('class', {margs_code});"
        attr = _PROP_ATTRIBUTES.get(key, key)
        if attr != key or "-" in key or key.lower() == key or key in ("id", "href"):
            attr = attr if "-" in attr else attr.lower()
        else:
            raise Untranslatable(f"reads the prop {key}, which is not an HTML attribute")
        if matcher in ("toBeUndefined",) or (
            matcher in ("toBe", "toEqual") and literal in ("undefined", "null")
        ):
            return (
                f"expect({element}){'' if negated else '.not'}.toHaveAttribute({js_string(attr)});"
            )
        if matcher == "toBeDefined":
            return f"expect({element}){neg}.toHaveAttribute({js_string(attr)});"
        if value is not None:
            if attr in _BOOLEAN_ATTRIBUTES:
                return (
                    f"expect({element}){'' if value else '.not'}.toHaveAttribute("
                    f"{js_string(attr)});"
                )
            return (
                f"expect({element}).toHaveAttribute({js_string(attr)}, "
                f"{js_string('true' if value else 'false')});"
            )
        if matcher in ("toBe", "toEqual", "toStrictEqual") and margs:
            node = unwrap(margs[0])
            if node is not None and node.type == "number":
                return (
                    f"expect({element}){neg}.toHaveAttribute({js_string(attr)}, "
                    f"{js_string(text(node))});"
                )
            if node is not None and string_value(node) is not None:
                return f"expect({element}){neg}.toHaveAttribute({js_string(attr)}, {margs_code});"
            return (
                f"expect({element}){neg}.toHaveAttribute({js_string(attr)}, String({margs_code}));"
            )
        if matcher in ("toContain", "toMatch") and margs:
            return (
                f"expect({element}.getAttribute({js_string(attr)})){neg}.{matcher}({margs_code});"
            )
        raise Untranslatable(f"reads the prop {key} with {matcher}")

    def map_code(self, target: Target, fn: Node) -> str:
        items = self.list_code(target, "getAll")
        fn = unwrap(fn) or fn
        if fn.type != "arrow_function":
            raise Untranslatable("map() over elements with a function reference")
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        body = fn.child_by_field_name("body")
        if params is None or body is None:
            raise Untranslatable("map() callback without a parameter")
        param_names = [text(p) for p in walk(params) if p.type == "identifier"]
        if not param_names:
            raise Untranslatable("map() callback without a parameter")
        param = param_names[0]
        code = text(body)
        code = re.sub(rf"\b{re.escape(param)}\.text\(\)", f"{param}.textContent", code)
        code = re.sub(rf"\b{re.escape(param)}\.hasClass\(", f"{param}.classList.contains(", code)
        code = re.sub(
            rf"\b{re.escape(param)}\.prop\((['\"])([\w-]+)\1\)",
            lambda m: f"{param}.getAttribute('{m.group(2)}')",
            code,
        )
        if re.search(rf"\b{re.escape(param)}\.(?!textContent|classList|getAttribute)\w+\(", code):
            raise Untranslatable("map() callback uses Enzyme methods testmend cannot translate")
        head = text(fn)[: body.start_byte - fn.start_byte]
        return f"Array.from({items}, {head}{code})"

    # -- values and actions ------------------------------------------------------------------

    def value(self, node: Node, ctx: _Ctx) -> str:
        """Translate an expression used as a value (arguments, right-hand sides)."""
        if not self.refs_wrapper(node):
            return text(node)
        chain = self.chain(node)
        if chain is None:
            call = self.render_call_of(node)
            if call is not None:
                return self.render_code(call, ctx)
            raise Untranslatable("uses the Enzyme wrapper inside a larger expression")
        base, ops = chain
        target, rest = self.resolve(base, ops, ctx, "element")
        self.fallback_note(target, ctx)
        if not rest:
            if target.kind == "root":
                raise Untranslatable("passes the Enzyme wrapper around")
            if target.multi and target.index is None:
                return self.list_code(target, "getAll")
            return self.element_code(target, "get")
        op, args, _n = rest[0]
        tail = "".join(self._raw_op(o, a) for o, a, _ in rest[1:])
        if op == "text":
            element = (
                self.member_of(target, "container")
                if target.kind == "root"
                else self.element_code(target, "get")
            )
            return f"{element}.textContent{tail}"
        if op == ".length":
            return f"{self.list_code(target, 'queryAll')}.length{tail}"
        if op == "exists":
            return f"({self.element_code(target, 'query')} !== null){tail}"
        if op == "getDOMNode":
            return f"{self.element_code(target, 'get')}{tail}"
        if op == "map" and args:
            return f"{self.map_code(target, args[0])}{tail}"
        if op == "hasClass" and args:
            return f"{self.element_code(target, 'get')}.classList.contains({text(args[0])}){tail}"
        if op in _UNTRANSLATABLE:
            raise Untranslatable(_UNTRANSLATABLE[op])
        raise Untranslatable(f"reads {op.lstrip('.')} of the Enzyme wrapper")

    def action(self, expr: Node, ctx: _Ctx) -> str | None:
        """A statement-level call on a wrapper; '' to drop it; None when not a wrapper call."""
        if expr.type == "call_expression":
            fn = expr.child_by_field_name("function")
            if fn is not None and text(fn) == "console.log":
                args = args_of(expr)
                if len(args) == 1:
                    chain = self.chain(args[0])
                    if chain and chain[1] and chain[1][-1][0] == "debug":
                        self.need("screen")
                        return "screen.debug();"
        chain = self.chain(expr)
        if chain is None:
            return None
        base, ops = chain
        if not ops:
            return None
        for op, _a, _n in ops:
            if op in _UNTRANSLATABLE:
                raise Untranslatable(_UNTRANSLATABLE[op])
        last, largs, _ = ops[-1]
        if last == "update" and all(o in _SELECT_OPS or o == "update" for o, _a, _n in ops):
            return ""
        if last == "unmount" and len(ops) == 1:
            binding = self.binding_named(text(base), base) if base.type == "identifier" else None
            if ctx.hook in ("afterEach", "afterAll"):
                return ""
            return f"{self.member(binding, 'unmount')}();"
        if last == "setProps" and len(ops) == 1:
            return self.rerender(base, largs, ctx)
        if last == "debug":
            self.need("screen")
            return "screen.debug();"
        if last == "simulate":
            target, rest = self.resolve(base, ops[:-1], ctx, "element")
            if rest:
                raise Untranslatable("simulate() after an operation testmend cannot translate")
            self.fallback_note(target, ctx)
            return self.fire(target, largs, ctx)
        if last in ("prop", "props", "invoke"):
            raise Untranslatable(_UNTRANSLATABLE["invoke"])
        target, rest = self.resolve(base, ops, ctx, "element")
        if rest and rest[0][0] == "getDOMNode":
            element = self.element_code(target, "get")
            tail = "".join(self._raw_op(o, a) for o, a, _n in rest[1:])
            return f"{element}{tail};"
        if (rest and rest[0][0] in ("prop", "props")) or any(
            o in ("prop", "props") for o, _a, _n in rest
        ):
            raise Untranslatable(_UNTRANSLATABLE["invoke"])
        raise Untranslatable(
            f"calls {(rest[0][0] if rest else last).lstrip('.')}() on the Enzyme wrapper"
        )

    def fire(self, target: Target, args: list[Node], ctx: _Ctx) -> str:
        if not args:
            raise Untranslatable("simulate() without an event name")
        raw_event = string_value(args[0])
        if raw_event is None:
            raise Untranslatable("simulate() with a computed event name")
        self._dom_only_events(target)
        event = _EVENTS.get(raw_event.lower(), raw_event)
        payload = self._payload(args[1]) if len(args) > 1 else None
        if event == "change" and target.checkbox:
            event = "click"
            payload = None
        element = self.element_code(target, "get", non_null=True)
        if self.options.event_style == "userEvent" and self.options.user_event_installed:
            user = self._user_event(event, element, payload, args, ctx)
            if user is not None:
                return user
        self.need("fireEvent")
        return f"fireEvent.{event}({element}{', ' + payload if payload else ''});"

    def _dom_only_events(self, target: Target) -> None:
        if target.kind == "root":
            raise Untranslatable("simulates an event on the root component")

    def _user_event(
        self, event: str, element: str, payload: str | None, args: list[Node], ctx: _Ctx
    ) -> str | None:
        value = None
        if event == "change" and len(args) > 1:
            match = re.fullmatch(
                r"\{\s*target:\s*\{\s*value:?\s*([^{}]*?)\s*\}\s*\}", payload or ""
            )
            if match is None:
                return None
            value = match.group(1) or "value"
        if event not in ("click", "change", "dblClick"):
            return None
        if ctx.owner is None or not self._make_async(ctx.owner):
            return None
        self.needs_user_event = True
        self.user_owner_nodes[ctx.owner.id] = ctx.owner
        if event == "click":
            return f"await user.click({element});"
        if event == "dblClick":
            return f"await user.dblClick({element});"
        return f"await user.clear({element});\x00await user.type({element}, {value});"

    def _make_async(self, fn: Node) -> bool:
        if fn.type not in ("arrow_function", "function_expression", "function"):
            return False
        if text(fn).startswith("async"):
            return True
        if fn.id not in self.async_fixed:
            self.async_fixed.add(fn.id)
            self.edits.append(Edit(fn.start_byte, fn.start_byte, "async "))
        return True

    def _payload(self, node: Node) -> str | None:
        obj = unwrap(node)
        if obj is None or obj.type != "object":
            return text(node)
        kept = []
        for pair in obj.named_children:
            if pair.type == "pair":
                key = text(pair.child_by_field_name("key"))
                value = text(pair.child_by_field_name("value"))
                if key in ("preventDefault", "stopPropagation", "persist") and (
                    "jest.fn" in value or "=>" in value or value.startswith("function")
                ):
                    continue
            elif pair.type == "method_definition" and text(pair.child_by_field_name("name")) in (
                "preventDefault",
                "stopPropagation",
                "persist",
            ):
                continue
            kept.append(text(pair))
        if not kept:
            return None
        return "{ " + ", ".join(kept) + " }"

    def rerender(self, base: Node, args: list[Node], ctx: _Ctx) -> str:
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        if binding is None or binding.element is None:
            raise Untranslatable("setProps() on a render whose element testmend cannot see")
        if len(args) != 1 or unwrap(args[0]) is None or unwrap(args[0]).type != "object":  # type: ignore[union-attr]
            raise Untranslatable("setProps() with a non-literal object")
        obj = unwrap(args[0])
        assert obj is not None
        for pair in obj.named_children:
            if pair.type == "pair":
                key = string_value(pair.child_by_field_name("key")) or text(
                    pair.child_by_field_name("key")
                )
                value = pair.child_by_field_name("value")
                binding.overrides[key] = None if text(value) == "undefined" else text(value)
            elif pair.type == "shorthand_property_identifier":
                binding.overrides[text(pair)] = text(pair)
            else:
                raise Untranslatable("setProps() with a spread")
        element = self.jsx_with(binding.element, binding.overrides)
        return f"{self.member(binding, 'rerender')}({element});"

    def jsx_with(self, element: Node, overrides: dict[str, str | None]) -> str:
        opening = (
            element
            if element.type == "jsx_self_closing_element"
            else (element.child_by_field_name("open_tag"))
        )
        assert opening is not None
        base = element.start_byte
        edits: list[tuple[int, int, str]] = []
        seen = set()
        attributes = [c for c in opening.named_children if c.type == "jsx_attribute"]
        for attr in attributes:
            name_node = attr.named_children[0] if attr.named_children else None
            name = text(name_node)
            if name in overrides:
                seen.add(name)
                value = overrides[name]
                if value is None:
                    start = attr.start_byte
                    while start > opening.start_byte and self.src[start - 1 : start] in (
                        b" ",
                        b"\n",
                        b"\t",
                    ):
                        start -= 1
                    edits.append((start, attr.end_byte, ""))
                else:
                    edits.append((attr.start_byte, attr.end_byte, self._jsx_attr(name, value)))
        if "children" in overrides:
            raise Untranslatable("setProps() changes children")
        added = [
            self._jsx_attr(k, v) for k, v in overrides.items() if k not in seen and v is not None
        ]
        if added:
            end = opening.end_byte - (2 if element.type == "jsx_self_closing_element" else 1)
            while self.src[end - 1 : end] in (b" ", b"\n"):
                end -= 1
            edits.append((end, end, " " + " ".join(added)))
        out = self.src[base : element.end_byte]
        for start, end, new in sorted(edits, reverse=True):
            out = out[: start - base] + new.encode() + out[end - base :]
        return out.decode()

    @staticmethod
    def _jsx_attr(name: str, value: str) -> str:
        if value == "true":
            return name
        if re.fullmatch(r"'[^'\\\"\n]*'", value):
            return f'{name}="{value[1:-1]}"'
        if re.fullmatch(r'"[^"\\\n]*"', value):
            return f"{name}={value}"
        return f"{name}={{{value}}}"

    def _wrapper_arg_call(self, stmt: Node, call: Node) -> bool:
        """``helper(wrapper, ...)`` calling a local function whose wrapper parameter goes."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier":
            return False
        for index, arg in enumerate(args_of(call)):
            ident = unwrap(arg)
            if ident is None or ident.type != "identifier":
                continue
            binding = self.binding_named(text(ident), ident)
            param = self._param_of(text(fn), index)
            if binding is not None and param is not None:
                self.param_call_args.append((text(fn), index, call, ident))
                self.claimed.append((stmt.start_byte, stmt.end_byte))
                # Other arguments may still need translation: none expected (selectors).
                return True
        return False

    # -- finishing ---------------------------------------------------------------------------

    def finish_bindings(self) -> None:
        for binding, stmt, call in self.decl_edits:
            ctx = _Ctx()
            code = self.render_code(call, ctx)
            notes = list(self.pending_notes)
            self.pending_notes = []
            awaited = (
                "await "
                if text(stmt).find("await ") >= 0
                and (
                    self.render_call_of(stmt.named_children[0].child_by_field_name("value"))
                    is not None
                )
                and "await" in text(stmt.named_children[0].child_by_field_name("value"))[:6]
                else ""
            )
            members = sorted(binding.members)
            if members:
                new = f"const {{ {', '.join(members)} }} = {awaited}{code};"
            else:
                new = f"{awaited}{code};"
            self.replace_range(stmt.start_byte, stmt.end_byte, new, notes)

    def finish_vars(self) -> None:
        for binding, stmt, value in self.var_decls:
            if binding.used or binding.passed_as_arg:
                continue
            if value is None:
                self.remove_statement(stmt, "removed the Enzyme wrapper variable")
            else:
                self.edits.append(Edit(stmt.start_byte, value.start_byte, ""))
        for binding, left, _call in self.var_assigns:
            if binding.used or binding.passed_as_arg:
                continue
            assignment = left.parent
            right = assignment.child_by_field_name("right") if assignment is not None else None
            if right is not None:
                self.edits.append(Edit(left.start_byte, right.start_byte, ""))

    def finish_hooks(self) -> None:
        for node in walk(self.tree.root_node):
            if node.type != "expression_statement" or not node.named_children:
                continue
            call = node.named_children[0]
            if call.type != "call_expression" or self.callee_name(call) not in _HOOKS:
                continue
            callback = self._callback(call)
            body = callback.child_by_field_name("body") if callback is not None else None
            if body is None or body.type != "statement_block":
                continue
            statements = [c for c in body.named_children if c.type != "comment"]
            if statements and all(c.id in self.removed_ids for c in statements):
                self.remove_statement(
                    node,
                    f"removed a {self.callee_name(call)} hook that only did Enzyme bookkeeping",
                )

    def retype_all(self) -> None:
        for node in walk(self.tree.root_node):
            if node.type == "type_identifier" and text(node) in _WRAPPER_TYPES:
                target = (
                    node.parent
                    if node.parent is not None and node.parent.type == ("generic_type")
                    else node
                )
                if not self.is_claimed(target) and not any(
                    e.start <= target.start_byte < e.end
                    or (e.start == target.start_byte and e.end == target.end_byte)
                    for e in self.edits
                ):
                    self.replace(target, self.need_type("RenderResult"))

    def finish_params(self) -> None:
        removable: set[tuple[str, int]] = set()
        for fn_name, index, _call, _ident in self.param_call_args:
            param = self._param_of(fn_name, index)
            if param is None:
                continue
            binding = self.binding_named(text(param), param)
            if binding is not None and binding.kind == "param" and not binding.members:
                removable.add((fn_name, index))
        done: set[tuple[str, int]] = set()
        for fn_name, index, _call, ident in self.param_call_args:
            if (fn_name, index) not in removable:
                continue
            self._remove_list_item(ident)
            if (fn_name, index) not in done:
                done.add((fn_name, index))
                param = self._param_of(fn_name, index)
                assert param is not None
                item = (
                    param.parent
                    if param.parent is not None
                    and param.parent.type in ("required_parameter", "optional_parameter")
                    else param
                )
                self._remove_list_item(item)

    def _remove_list_item(self, node: Node) -> None:
        start, end = node.start_byte, node.end_byte
        after = self.src[end:]
        match = re.match(rb"\s*,\s*", after)
        if match:
            end += match.end()
        else:
            before = self.src[:start]
            back = re.search(rb",\s*$", before)
            if back:
                start = back.start()
        self.edits.append(Edit(start, end, ""))

    def finish_throws(self) -> None:
        for fn in self.throw_owners.values():
            body = fn.child_by_field_name("body")
            if body is None or body.type != "statement_block":
                continue
            close = body.end_byte - 1
            indent = line_indent(self.src, body.start_byte)
            inner = indent + "  "
            statements = [c for c in body.named_children if c.type != "comment"]
            if statements:
                inner = line_indent(self.src, statements[0].start_byte)
            start = line_start(self.src, close)
            if self.src[start:close].strip():
                self.edits.append(Edit(close, close, f"\n{inner}{_THROW}\n{indent}"))
            else:
                self.edits.append(Edit(start, start, f"{inner}{_THROW}\n"))
        for fn in self.user_owner_nodes.values():
            body = fn.child_by_field_name("body")
            if body is None or body.type != "statement_block":
                continue
            statements = [c for c in body.named_children if c.type != "comment"]
            indent = line_indent(self.src, statements[0].start_byte) if statements else "  "
            at = statements[0].start_byte if statements else body.start_byte + 1
            self.edits.append(
                Edit(
                    line_start(self.src, at),
                    line_start(self.src, at),
                    f"{indent}const user = userEvent.setup();\n",
                )
            )

    def finish_imports(self) -> None:
        if self.needs_jest_dom and not self.options.jest_dom_global:
            self.imports.setdefault("@testing-library/jest-dom", set())
        if self.needs_user_event:
            self.imports.setdefault("@testing-library/user-event", set()).add("default:userEvent")
        lines: list[str] = []
        for module in sorted(
            set(self.imports) | set(self.type_imports),
            key=lambda m: (m != "@testing-library/jest-dom", m),
        ):
            names = sorted(
                n for n in self.imports.get(module, set()) if not n.startswith("default:")
            )
            types = sorted(self.type_imports.get(module, set()))
            default = next(
                (
                    n.split(":", 1)[1]
                    for n in self.imports.get(module, set())
                    if n.startswith("default:")
                ),
                None,
            )
            if self.uses_require and not self.ts:
                if default:
                    lines.append(f"const {default} = require({js_string(module)}).default;")
                if names:
                    lines.append(f"const {{ {', '.join(names)} }} = require({js_string(module)});")
                if not names and not default:
                    lines.append(f"require({js_string(module)});")
                continue
            parts = names + [("type " + t) if self.ts else t for t in types]
            if not parts and not default:
                lines.append(f"import {js_string(module)};")
                continue
            clause = default or ""
            if parts:
                clause += (", " if clause else "") + "{ " + ", ".join(parts) + " }"
            lines.append(f"import {clause} from {js_string(module)};")
        new = "\n".join(lines)
        if self.enzyme_import_nodes:
            first = True
            for stmt in self.enzyme_import_nodes:
                if first and new:
                    self.edits.append(Edit(stmt.start_byte, stmt.end_byte, new))
                else:
                    self.remove_statement(stmt, "removed an Enzyme import")
                first = False
        elif new:
            self.edits.append(Edit(0, 0, new + "\n"))
        self.remove_unused_imports()

    def remove_unused_imports(self) -> None:
        """Named imports that only the Enzyme code used (components passed to find(),
        ``act`` around wrapper updates, wrapper types) become unused: remove them."""
        content, _, _ = apply_edits(self.src, list(self.edits))
        tree = parse(content.encode("utf-8"), self.path)
        used: dict[str, int] = {}
        for n in walk(tree.root_node):
            if n.type in (
                "identifier",
                "type_identifier",
                "jsx_identifier",
                "shorthand_property_identifier",
            ):
                used[text(n)] = used.get(text(n), 0) + 1
        before: dict[str, int] = {}
        for n in walk(self.tree.root_node):
            if n.type in ("identifier", "type_identifier", "shorthand_property_identifier"):
                before[text(n)] = before.get(text(n), 0) + 1
        for stmt in self.tree.root_node.named_children:
            if stmt.type != "import_statement" or stmt in self.enzyme_import_nodes:
                continue
            clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
            if clause is None:
                continue
            specs: list[tuple[Node, str]] = []
            for part in clause.named_children:
                if part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type == "import_specifier":
                            local = text(
                                spec.child_by_field_name("alias")
                                or spec.child_by_field_name("name")
                            )
                            specs.append((spec, local))
                elif part.type == "identifier":
                    specs.append((part, text(part)))
            unused = [
                (s, name) for s, name in specs if used.get(name, 0) <= 1 and before.get(name, 0) > 1
            ]
            if not unused:
                continue
            if len(unused) == len(specs):
                self.remove_statement(stmt, "removed an import only the Enzyme code used")
                continue
            gone = {s.id for s, _n in unused}
            default = next(
                (
                    text(p)
                    for p in clause.named_children
                    if p.type == "identifier" and p.id not in gone
                ),
                None,
            )
            named = [
                text(s) for s, _n in specs if s.type == "import_specifier" and s.id not in gone
            ]
            others = [
                text(p)
                for p in clause.named_children
                if p.type not in ("identifier", "named_imports")
            ]
            parts = [*([default] if default else []), *others]
            if named:
                parts.append("{ " + ", ".join(named) + " }")
            self.edits.append(Edit(clause.start_byte, clause.end_byte, ", ".join(parts)))


def test_names(source: str, path: str) -> list[str]:
    """The full names (describe titles + test title) of the tests in a file, in source order."""
    converter = _Converter(source, path, CodemodOptions(), None)
    converter.collect_tests()
    return [t.name for t in converter.tests]


def convert_enzyme_test(
    source: str,
    *,
    path: str,
    options: CodemodOptions,
    dom: DomCapture | None = None,
) -> CodemodResult:
    """Convert one Enzyme test file to React Testing Library (pure: no I/O)."""
    converter = _Converter(source, path, options, dom)
    converter.collect_tests()
    names_before = [t.name for t in converter.tests]

    def unchanged(error: str, *, enzyme_free: bool) -> CodemodResult:
        return CodemodResult(
            content=source,
            tests_before=len(names_before),
            tests_after=len(names_before),
            test_names_before=names_before,
            test_names_after=names_before,
            enzyme_free=enzyme_free,
            changed=False,
            error=error,
        )

    if converter.tree.root_node.has_error:
        return unchanged("the file has syntax errors; fix them first", enzyme_free=False)
    converter.scan_imports()
    if not converter.enzyme_import_nodes:
        return unchanged("not an Enzyme test: it does not import enzyme", enzyme_free=True)
    converter.run()
    content, placed, mapper = apply_edits(converter.src, converter.edits)
    out = content.encode("utf-8")
    unplaced = [
        (out[: mapper(offset)].count(b"\n") + 1, kind, message)
        for offset, kind, message in converter.notes
    ]
    after = _Converter(content, path, CodemodOptions(), None)
    after.collect_tests()
    ranges = [(t.line, t.node.end_point[0] + 1, t.name) for t in after.tests]
    notes: list[Note] = []
    for line, kind, message in [*placed, *unplaced]:
        test = None
        for start, end, name in ranges:
            if start <= line <= end:
                test = name
        notes.append(Note(line=line, kind=kind, message=message, test=test))
    names_after = [t.name for t in after.tests]
    infos = [
        TestInfo(
            name=t.name,
            line=t.line,
            status="partial" if t.untranslated else ("converted" if t.touched else "unchanged"),
            untranslated=t.untranslated,
        )
        for t in converter.tests
    ]
    return CodemodResult(
        content=content,
        notes=sorted(notes, key=lambda n: n.line),
        tests_before=len(names_before),
        tests_after=len(names_after),
        test_names_before=names_before,
        test_names_after=names_after,
        tests=infos,
        enzyme_free=is_enzyme_free(content, path, options, tree=after.tree),
        changed=content != source,
        dom_queries_used=converter.dom_queries_used,
    )


def is_enzyme_free(
    source: str, path: str, options: CodemodOptions, *, tree: Tree | None = None
) -> bool:
    """No import or require of Enzyme packages or of the project's Enzyme helper modules
    (``tree``: the source already parsed)."""
    tree = tree if tree is not None else parse(source, path)
    helper_modules = set(options.enzyme_helper_modules)
    for node in walk(tree.root_node):
        if node.type == "import_statement":
            module = string_value(node.child_by_field_name("source")) or ""
        elif node.type == "call_expression" and text(node.child_by_field_name("function")) in (
            "require",
            "jest.mock",
            "jest.requireActual",
        ):
            args = args_of(node)
            module = (string_value(args[0]) if args else None) or ""
        else:
            continue
        if _ENZYME_MODULE.match(module) or module in helper_modules:
            return False
    return True

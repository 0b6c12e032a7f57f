"""Event helpers of the tests' own helper module (``export function focus(wrapper, props) {
getInput(wrapper).simulate('focus', getBaseEvent(props)); }`` in ``__tests__/helpers``),
expanded at their calls.

A test that calls ``focus(wrapper)`` fires an event at what the helper selects. The module
stays Enzyme (the tests not migrated yet use it), so the call cannot stay. :func:`action_helpers_in`
reads each such helper of the module once, as one statement on its first parameter: its local
``const`` inlined, the module's selection helpers inlined (``getInput(wrapper)`` →
``wrapper.find('.rbt-input-main')``), a spread of the module's "base event" (an object of the
members every real event has: ``preventDefault``, ``persist``…, and the caller's properties)
reduced to the caller's properties, a ``currentTarget`` that is the selection itself dropped (a
real event's is the element it is fired at). :func:`with_expanded_actions` writes that statement
in place of each call, with the call's arguments, on the call's own lines: the capture recorded
the helper's ``find`` there (a call's first frame in the test file). The converter then
translates it as if the test had written it; a helper of another shape stays a call, which the
converter reports as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..syntax import Node, args_of, parse, splice, string_value, text, walk
from .helper_modules import module_imports, module_key
from .tables import EVENT_METHODS

# What a real event has of its own: a helper's mock event only fills these in for Enzyme.
_EVENT_OWN = frozenset(
    {*EVENT_METHODS, "persist", "defaultPrevented", "isDefaultPrevented", "isPropagationStopped"}
)
_SIMPLE = frozenset(
    {
        "identifier",
        "member_expression",
        "call_expression",
        "string",
        "number",
        "template_string",
        "object",
        "array",
        "true",
        "false",
        "null",
        "undefined",
        "parenthesized_expression",
        "subscript_expression",
    }
)

# Arguments that may be written twice (``keyCode: value, which: value``) and mean the same.
_PURE = frozenset(
    {"identifier", "member_expression", "string", "number", "true", "false", "null", "undefined"}
)

Params = list[tuple[str, str | None]]


def _params(fn: Node) -> Params | None:
    """A function's parameters as (name, default code); None when one is not a plain name."""
    params = fn.child_by_field_name("parameters")
    if params is None:
        single = fn.child_by_field_name("parameter")  # ``x => …``
        return [(text(single), None)] if single is not None else None
    out: Params = []
    for p in params.named_children:
        if p.type == "comment":
            continue
        if p.type == "identifier":
            out.append((text(p), None))
            continue
        name = p.child_by_field_name("pattern") or p.child_by_field_name("left")
        default = p.child_by_field_name("value") or p.child_by_field_name("right")
        if name is None or name.type != "identifier":
            return None
        out.append((text(name), text(default) if default is not None else None))
    return out


def _functions(root: Node) -> tuple[dict[str, Node], dict[str, Node]]:
    """The module's top-level functions (declared, or arrow/function values of a ``const``):
    (exported, the others), by name."""
    exported: dict[str, Node] = {}
    private: dict[str, Node] = {}
    for stmt in root.named_children:
        into = private
        if stmt.type == "export_statement":
            decl = stmt.child_by_field_name("declaration")
            if decl is None:
                continue
            stmt, into = decl, exported
        if stmt.type == "function_declaration":
            name = stmt.child_by_field_name("name")
            if name is not None:
                into[text(name)] = stmt
        elif stmt.type in ("lexical_declaration", "variable_declaration"):
            for d in stmt.named_children:
                value = d.child_by_field_name("value") if d.type == "variable_declarator" else None
                name = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                if (
                    value is not None
                    and name is not None
                    and value.type in ("arrow_function", "function_expression", "function")
                ):
                    into[text(name)] = value
    return exported, private


def _body(fn: Node) -> tuple[list[tuple[str, Node]], Node] | None:
    """A function body of ``const`` declarations (one name each) then one expression (an
    expression statement, or what an arrow or a lone ``return`` gives): ([(name, value)],
    the expression); None for any other body."""
    body = fn.child_by_field_name("body")
    if body is None:
        return None
    if body.type != "statement_block":
        return [], body
    consts: list[tuple[str, Node]] = []
    statements = [s for s in body.named_children if s.type != "comment"]
    for stmt in statements[:-1]:
        declarators = [d for d in stmt.named_children if d.type == "variable_declarator"]
        if stmt.type != "lexical_declaration" or len(declarators) != 1:
            return None
        name = declarators[0].child_by_field_name("name")
        value = declarators[0].child_by_field_name("value")
        if name is None or name.type != "identifier" or value is None:
            return None
        consts.append((text(name), value))
    if not statements or statements[-1].type not in ("expression_statement", "return_statement"):
        return None
    last = statements[-1].named_children
    return (consts, last[0]) if last else None


def _render(src: bytes, node: Node, edit: Callable[[Node], str | None]) -> str:
    """``node``'s code with each node ``edit`` gives code for replaced by it (not descended)."""
    edits: list[tuple[int, int, str]] = []

    def visit(n: Node) -> None:
        code = edit(n)
        if code is not None:
            edits.append((n.start_byte, n.end_byte, code))
            return
        for child in n.children:
            visit(child)

    visit(node)
    return splice(src, node.start_byte, node.end_byte, edits)


def _object(members: list[str]) -> str:
    kept = [m for m in members if m]
    return "{ " + ", ".join(kept) + " }" if kept else "{}"


def _spread_of_own(fn: Node) -> str | None:
    """For a base-event function (one parameter, returning an object of the members a real
    event has and a spread of that parameter): the parameter's name; None otherwise."""
    params = _params(fn)
    body = _body(fn)
    if params is None or len(params) != 1 or body is None or body[0]:
        return None
    returned = body[1]
    while returned.type == "parenthesized_expression" and returned.named_children:
        returned = returned.named_children[0]
    if returned.type != "object":
        return None
    spread = False
    for member in returned.named_children:
        if member.type == "spread_element":
            argument = member.named_children[0] if member.named_children else None
            if argument is None or text(argument) != params[0][0]:
                return None
            spread = True
        elif member.type in ("pair", "method_definition"):
            key = member.child_by_field_name("key") or member.child_by_field_name("name")
            if key is None or (string_value(key) or text(key)) not in _EVENT_OWN:
                return None
        elif member.type != "comment":
            return None
    return params[0][0] if spread else None


def _selection_code(source: str) -> tuple[str, str] | None:
    """A selection helper's (parameter, returned expression) from its normalized source."""
    found = re.fullmatch(
        r"function [\w$]+\(\s*([\w$]+)\s*\)\s*\{\s*return\s+(.*?);?\s*\}", source, re.S
    )
    return (found.group(1), found.group(2).strip()) if found else None


def _chain_root(node: Node, ops: list[str] | None = None) -> Node | None:
    """The identifier a member/call chain starts from (``ops``: the members it reads, added)."""
    while node.type in ("call_expression", "member_expression", "parenthesized_expression"):
        if node.type == "call_expression":
            inner = node.child_by_field_name("function")
        elif node.type == "member_expression":
            inner = node.child_by_field_name("object")
            prop = node.child_by_field_name("property")
            if ops is not None and prop is not None:
                ops.append(text(prop))
        else:
            inner = node.named_children[0] if node.named_children else None
        if inner is None:
            return None
        node = inner
    return node if node.type == "identifier" else None


def _fires(expression: Node, wrapper: str) -> bool:
    """``wrapper.find(…)….simulate(…)`` or ``….prop('onX')(…)`` (``invoke`` too)."""
    if expression.type != "call_expression":
        return False
    fn = expression.child_by_field_name("function")
    if fn is None:
        return False
    if fn.type == "member_expression":
        prop = fn.child_by_field_name("property")
        ok = prop is not None and text(prop) == "simulate"
    elif fn.type == "call_expression":
        callee = fn.child_by_field_name("function")
        prop = callee.child_by_field_name("property") if callee is not None else None
        given = args_of(fn)
        name = string_value(given[0]) if given else None
        ok = (
            prop is not None
            and text(prop) in ("prop", "invoke")
            and name is not None
            and re.fullmatch(r"on[A-Z]\w*", name) is not None
        )
    else:
        ok = False
    ops: list[str] = []
    root = _chain_root(fn, ops)
    # At what it selected: a helper firing at its parameter itself may be handed anything.
    return ok and root is not None and text(root) == wrapper and "find" in ops


class _Helper:
    """One exported function of the module read as a template (:meth:`template`)."""

    def __init__(
        self,
        src: bytes,
        selections: dict[str, tuple[str, str]],
        base_events: dict[str, str],
        wrapper: str,
    ):
        self.src = src
        self.selections = selections
        self.base_events = base_events
        self.wrapper = wrapper
        self.inlined: dict[str, str] = {}
        self.selected: set[str] = set()

    def template(
        self, name: str, params: Params, consts: list[tuple[str, Node]], expr: Node
    ) -> str:
        for const, value in consts:
            code = _render(self.src, value, self.edit)
            self.inlined[const] = code if value.type in _SIMPLE else f"({code})"
            root = _chain_root(value)
            if root is not None and text(root) in (self.wrapper, *self.selected, *self.selections):
                self.selected.add(const)
        statement = re.sub(r"\s*\n\s*", " ", _render(self.src, expr, self.edit))
        signature = ", ".join(p if d is None else f"{p} = {d}" for p, d in params)
        return f"function {name}({signature}) {{ {statement}; }}"

    def _base_event(self, call: Node) -> list[Node] | None:
        """The arguments of a call of the module's base event, else None."""
        callee = call.child_by_field_name("function")
        if call.type != "call_expression" or callee is None:
            return None
        return args_of(call) if text(callee) in self.base_events else None

    def edit(self, n: Node) -> str | None:
        if n.type == "identifier" and text(n) in self.inlined:
            return self.inlined[text(n)]
        if n.type == "call_expression":
            fn = n.child_by_field_name("function")
            given = args_of(n)
            if (
                fn is not None
                and text(fn) in self.selections
                and len(given) == 1
                and given[0].type == "identifier"
            ):
                param, returned = self.selections[text(fn)]
                return re.sub(rf"^{re.escape(param)}\b", text(given[0]), returned)
            base = self._base_event(n)
            if base is not None:
                return _object([f"...{_render(self.src, base[0], self.edit)}"] if base else [])
        if n.type == "object":
            return _object([self._member(m) for m in n.named_children if m.type != "comment"])
        return None

    def _member(self, m: Node) -> str:
        if m.type == "spread_element" and m.named_children:
            base = self._base_event(m.named_children[0])
            if base is not None:
                return f"...{_render(self.src, base[0], self.edit)}" if base else ""
        if m.type == "pair":
            value = m.child_by_field_name("value")
            key = m.child_by_field_name("key")
            if (
                key is not None
                and text(key) == "currentTarget"
                and value is not None
                and value.type == "identifier"
                and text(value) in self.selected
            ):
                return ""  # a real event's currentTarget is the element it is fired at
        return _render(self.src, m, self.edit)


def action_helpers_in(source: str, path: str, selection: dict[str, str]) -> dict[str, str]:
    """The module's exported event helpers, name → ``function name(params) { statement; }``:
    one statement firing an event at a selection of the first parameter, with nothing left in
    it that the module alone defines (see the module's docstring). ``selection``: the module's
    selection helpers (``selection_helpers_in``)."""
    src = source.encode("utf-8")
    tree = parse(src, path)
    if tree.root_node.has_error:
        return {}
    exported, private = _functions(tree.root_node)
    selections = {name: code for name, s in selection.items() if (code := _selection_code(s))}
    base_events = {name: p for name, fn in private.items() if (p := _spread_of_own(fn))}
    found: dict[str, str] = {}
    for name, fn in exported.items():
        params = _params(fn)
        body = _body(fn)
        if not params or body is None or name in selections:
            continue
        helper = _Helper(src, selections, base_events, params[0][0])
        template = helper.template(name, params, *body)
        check = parse(template.encode("utf-8"), path)
        fn_node = check.root_node.named_children[0] if check.root_node.named_children else None
        checked = _body(fn_node) if fn_node is not None and not check.root_node.has_error else None
        if checked is None or not _fires(checked[1], params[0][0]):
            continue
        names = {p for p, _d in params} | {"undefined"}
        free = {
            text(n)
            for n in walk(checked[1])
            if n.type in ("identifier", "shorthand_property_identifier") and text(n) not in names
        }
        if not free:
            found[name] = template
    return found


def _argument(code: str, node: Node) -> str:
    return code if node.type in _SIMPLE else f"({code})"


def _expansion(template: str, path: str, args: list[Node]) -> str | None:
    """The template's statement with the call's arguments for the parameters (a missing one:
    its default, or ``undefined``; spread, it goes)."""
    src = template.encode("utf-8")
    tree = parse(src, path)
    fn = tree.root_node.named_children[0] if tree.root_node.named_children else None
    params = _params(fn) if fn is not None else None
    body = _body(fn) if fn is not None else None
    if params is None or body is None or len(args) > len(params):
        return None
    uses: dict[str, int] = {}
    for n in walk(body[1]):
        if n.type in ("identifier", "shorthand_property_identifier"):
            uses[text(n)] = uses.get(text(n), 0) + 1
    twice = [a for (p, _d), a in zip(params, args, strict=False) if uses.get(p, 0) > 1]
    if any(a.type not in _PURE for a in twice):
        return None  # written twice, a call in it would run twice
    given: dict[str, str | None] = {}
    spread: dict[str, list[str]] = {}  # an object literal argument, spread: its members
    for i, (name, default) in enumerate(params):
        if i < len(args):
            given[name] = _argument(text(args[i]), args[i])
            if args[i].type == "object":
                spread[name] = [text(m) for m in args[i].named_children if m.type != "comment"]
        else:
            given[name] = f"({default})" if default is not None else None

    def edit(n: Node) -> str | None:
        if n.type == "identifier" and text(n) in given:
            return given[text(n)] or "undefined"
        if n.type == "shorthand_property_identifier" and text(n) in given:
            return f"{text(n)}: {given[text(n)] or 'undefined'}"
        if n.type == "object":
            members = []
            for m in n.named_children:
                inner = m.named_children[0] if m.type == "spread_element" else None
                name = text(inner) if inner is not None and inner.type == "identifier" else ""
                if name in spread:
                    members += spread[name]
                elif name not in given or given[name] is not None:
                    members.append(_render(src, m, edit))
                # else ``...props`` of a parameter the call leaves out: nothing
            return _object(members)
        return None

    return _render(src, body[1], edit)


def with_expanded_actions(
    source: str, path: str, helpers: dict[str, dict[str, str]]
) -> tuple[str, list[str]]:
    """``source`` with each call statement of an imported event helper replaced by the
    helper's statement (``action_helpers_in``) on the call's own lines, and the local names
    expanded. ``helpers``: project-relative module path (no extension) → {name: template}."""
    if not helpers:
        return source, []
    src = source.encode("utf-8")
    tree = parse(src, path)
    templates: dict[str, str] = {}
    for _node, spec, imported in module_imports(tree.root_node):
        key = module_key(spec, path) or ""
        module = helpers.get(key) or helpers.get(re.sub(r"\.[cm]?[jt]sx?$", "", key))
        for name, local, _n in imported:
            if module and name in module:
                templates[local] = module[name]
    if not templates:
        return source, []
    edits: list[tuple[int, int, str]] = []
    names: set[str] = set()
    for node in walk(tree.root_node):
        fn = node.child_by_field_name("function") if node.type == "call_expression" else None
        if fn is None or fn.type != "identifier" or text(fn) not in templates:
            continue
        if node.parent is None or node.parent.type != "expression_statement":
            continue
        args = args_of(node)
        code = _expansion(templates[text(fn)], path, args) if args else None
        if code is None:
            continue
        # The call's lines kept: the capture's records and every later line stay where they are.
        lines = text(node).count("\n")
        code = code.replace("\n", " ")
        if lines:
            code = code[:-1] + "\n" * lines + code[-1]
        edits.append((node.start_byte, node.end_byte, code))
        names.add(text(fn))
    if not edits:
        return source, []
    return splice(src, 0, len(src), edits), sorted(names)

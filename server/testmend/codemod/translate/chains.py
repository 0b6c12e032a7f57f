"""Reading Enzyme chains: ``base.find(a).at(1).text()`` → the base wrapper and its operations,
calls of selection helpers (``getMatches(wrapper)``) read as the selection they return, and
whether code refers to a wrapper at all."""

from __future__ import annotations

from collections.abc import Callable

from ..syntax import FUNCTION_TYPES, Node, args_of, string_value, text, unwrap, walk
from .render_calls import RenderCalls
from .tables import READ_OPS, SELECT_OPS, TEST_FUNCS


class Chains(RenderCalls):
    """What a wrapper expression is made of."""

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
                helper = self._selection_helper_call(current)
                if helper is not None:
                    return helper[0], [*helper[1], *reversed(ops)]
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
        # ``update()`` inside a chain (``wrapper.update().find('div')``) gives the same wrapper
        # re-read: Testing Library's queries read the live DOM, so it reads as if absent. As a
        # statement's last call it stays (interactions.py drops that statement).
        ops = [o for i, o in enumerate(ops) if o[0] != "update" or o[1] or i == len(ops) - 1]
        return current, _element_props(ops)

    def collect_selection_helpers(self) -> None:
        """Find the file's functions that only return a selection of their one wrapper
        parameter (``function getMatches(wrapper) { return wrapper.find('mark'); }``), called
        nowhere but with one argument. A call reads as the same selection of its argument,
        so everything a test does with the result (count it, index it, click it) translates
        as it would written inline; the function itself goes."""
        for _ in range(2):  # helpers may select through each other
            for node in walk(self.tree.root_node):
                found = self._selection_helper(node)
                if found is not None and found[0] not in self.selection_helpers:
                    self.selection_helpers[found[0]] = (found[1], found[2])

    def _selection_helper(self, fn: Node) -> tuple[str, Node, Node] | None:
        if fn.type not in ("function_declaration", "arrow_function", "function_expression"):
            return None
        name = self._function_name(fn)
        if name is None:
            return None
        statement: Node | None = fn
        if fn.type != "function_declaration":
            declarator = fn.parent
            statement = declarator.parent if declarator is not None else None
            if statement is None or statement.type not in (
                "lexical_declaration",
                "variable_declaration",
            ):
                return None
            if len(statement.named_children) != 1:
                return None
        assert statement is not None
        if statement.parent is None or statement.parent.type not in ("program", "statement_block"):
            return None
        params = fn.child_by_field_name("parameters")
        items = [p for p in params.named_children if p.type != "comment"] if params else []
        if len(items) != 1:
            return None
        param = (
            items[0] if items[0].type == "identifier" else items[0].child_by_field_name("pattern")
        )
        if param is None or param.type != "identifier":
            return None
        body = fn.child_by_field_name("body")
        returned: Node | None = None
        if body is not None and body.type == "statement_block":
            statements = [c for c in body.named_children if c.type != "comment"]
            if len(statements) == 1 and statements[0].type == "return_statement":
                returned = (
                    unwrap(statements[0].named_children[0])
                    if statements[0].named_children
                    else None
                )
        elif body is not None:
            returned = unwrap(body)
        if returned is None:
            return None
        chain = self.chain(returned)
        if chain is None or chain[0].type != "identifier" or text(chain[0]) != text(param):
            return None
        ops = [op for op, _args, _node in chain[1]]
        selecting = next((i for i, op in enumerate(ops) if op not in SELECT_OPS), len(ops))
        if selecting == 0:
            return None
        if selecting < len(ops) and (
            (fn.start_byte < self.virtual_from and not _inside_a_test(statement))
            or any(op not in READ_OPS and not op.startswith(".") for op in ops[selecting:])
        ):
            # Reading after the selection (``return wrapper.find('.hint').prop('value')``):
            # for a helper imported from the tests' helper module, which stays Enzyme for the
            # tests not migrated yet, and for one a test declares for itself (``const
            # getMaxHeight = (w) => getMenu(w).prop('style').maxHeight``), read where it is
            # called. Another helper of the file's own is translated in place instead (its
            # wrapper parameter goes).
            return None
        if any(
            n.type == "identifier" and text(n) == text(param)
            for _op, args, _n in chain[1]
            for a in args
            for n in walk(a)
        ):
            return None
        # Used only as the callee of a one-argument call, never passed around.
        for n in walk(self.tree.root_node):
            if (
                n.type != "identifier"
                or text(n) != name
                or fn.start_byte <= n.start_byte < (fn.end_byte)
            ):
                continue
            if statement.start_byte <= n.start_byte < statement.end_byte:
                continue
            if n.parent is not None and n.parent.type == "import_specifier":
                continue  # imported from the tests' helper module (see helper_modules)
            call = n.parent
            if (
                call is None
                or call.type != "call_expression"
                or call.child_by_field_name("function") != n
                or len(args_of(call)) != 1
            ):
                return None
        return name, statement, returned

    def _selection_helper_call(
        self, call: Node
    ) -> tuple[Node, list[tuple[str, list[Node], Node]]] | None:
        """``getMatches(wrapper)`` → the chain of ``wrapper.find('mark')``: the argument's
        base, its ops, then the helper's. The helper's ``find`` nodes stay where they are, so
        the capture's records of that site (per test) still apply."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier" or text(fn) not in self.selection_helpers:
            return None
        arguments = args_of(call)
        if len(arguments) != 1:
            return None
        inner = self.chain(arguments[0])
        helper = self.chain(self.selection_helpers[text(fn)][1])
        if inner is None or helper is None:
            return None
        return inner[0], [*inner[1], *helper[1]]

    def is_selection_helper_call(self, call: Node | None) -> bool:
        fn = call.child_by_field_name("function") if call is not None else None
        return fn is not None and fn.type == "identifier" and text(fn) in self.selection_helpers

    def refs_wrapper(self, node: Node) -> bool:
        for n in walk(node):
            if n.type == "identifier":
                name = text(n)
                if self.is_dead(n):
                    return True
                binding = self.binding_named(name, n)
                if binding is not None and not self._is_declaration_name(n):
                    return True
            if n.type == "call_expression" and self.is_render_call(n):
                return True
        return False

    def refs_wrapper_outside(self, node: Node, passed: Callable[[Node], list[Node] | None]) -> bool:
        """``node`` uses a wrapper (a binding, a render) outside what ``passed`` lets by: for
        each node on the way down, the parts of it still to search (None: all of them)."""
        pending = [node]
        while pending:
            current = pending.pop()
            parts = passed(current)
            if parts is not None:
                pending.extend(parts)
                continue
            if current.type == "identifier" and self.refs_wrapper(current):
                return True
            if current.type == "call_expression" and self.is_render_call(current):
                return True
            pending.extend(current.named_children)
        return False

    def wrappers_only_in_functions(self, node: Node) -> bool:
        """Every wrapper ``node`` uses is in a function nested in it (``return { update:
        (props) => { const root = render(…); … } }``)."""
        functions = (*FUNCTION_TYPES, "method_definition")
        return not self.refs_wrapper_outside(
            node, lambda n: [] if n is not node and n.type in functions else None
        )

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


def _inside_a_test(node: Node) -> bool:
    """Whether ``node`` is in the callback of a test (``it``/``test``, ``it.each(…)``)."""
    parent = node.parent
    while parent is not None:
        if parent.type == "call_expression":
            callee = parent.child_by_field_name("function")
            while callee is not None and callee.type in ("call_expression", "member_expression"):
                callee = callee.child_by_field_name(
                    "function" if callee.type == "call_expression" else "object"
                )
            if callee is not None and text(callee) in TEST_FUNCS:
                return True
        parent = parent.parent
    return False


def prop_read_key(ops: list[tuple[str, list[Node]]]) -> str | None:
    """The key that ``ops`` (operations and their arguments) read as the whole of them:
    ``prop('k')``, ``props().k`` or ``props()['k']``; None for other operations, or more."""
    if len(ops) == 1 and ops[0][0] == "prop" and len(ops[0][1]) == 1:
        return string_value(ops[0][1][0])
    if len(ops) != 2 or ops[0][0] != "props":
        return None
    op, args = ops[1]
    if op.startswith(".") and op != ".":
        return op[1:]
    if op == "[]" and args:
        return string_value(args[0])
    return None


def _element_props(ops: list[tuple[str, list[Node], Node]]) -> list[tuple[str, list[Node], Node]]:
    """``get(i).props`` (the React element at ``i`` of a selection, and its props: ``find(
    'path').get(0).props.stroke``, ``links.get(1).props.to``) read as ``at(i).props()``, the
    same props of the same node."""
    out: list[tuple[str, list[Node], Node]] = []
    for op in ops:
        previous = out[-1] if out else None
        if (
            op[0] == ".props"
            and previous is not None
            and previous[0] == "get"
            and len(previous[1]) == 1
        ):
            out[-1] = ("at", previous[1], previous[2])
            out.append(("props", [], op[2]))
        else:
            out.append(op)
    return out

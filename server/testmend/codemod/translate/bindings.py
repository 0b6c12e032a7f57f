"""The bindings of rendered wrappers by name and scope, and the parameters of the file's own
functions that receive a wrapper: typed as one (``root: ShallowWrapper``, also a member of an
object parameter's type), or passed one at a call site (positionally or as a member of an
object argument)."""

from __future__ import annotations

from collections.abc import Callable

from ..syntax import Node, ancestor, args_of, pair_key, text, unwrap, walk
from .imports import ImportScanner
from .state import Binding


class WrapperBindings(ImportScanner):
    """Where each wrapper name is bound, and which function parameters hold wrappers."""

    def _bind_wrapper_params(self, root: Node) -> bool:
        """One pass binding the parameters that receive a wrapper; whether it added any."""
        added = False
        for node in walk(root):
            if node.type != "call_expression":
                continue
            fn = node.child_by_field_name("function")
            if fn is None or fn.type != "identifier":
                continue
            for index, raw in enumerate(args_of(node)):
                arg = unwrap(raw)
                if arg is not None and arg.type == "object":
                    # `simulateUpdate({ root, store })` into `({ root, store }) => …`
                    added = self._bind_wrapper_members(text(fn), index, arg, node) or added
                    continue
                if arg is None or arg.type != "identifier":
                    continue
                bound = self.binding_named(text(arg), node)
                if bound is None:
                    continue
                param = self._param_of(text(fn), index)
                if param is None:
                    continue
                added = self._bind_param(bound, param, param.parent) or added
        return added

    def _bind_param(self, bound: Binding, param: Node, holder: Node | None) -> bool:
        """``param`` receives the wrapper ``bound`` holds: bind it (``holder``, the parameter
        it is in, is its scope) unless it is already; whether it was not."""
        bound.passed_as_arg = True
        if any(
            b.node is not None and b.node.start_byte <= param.start_byte < b.node.end_byte
            for b in self.bindings.get(text(param), [])
        ):
            return False
        self.add_binding(Binding(text(param), "param", holder))
        return True

    def _bind_wrapper_members(self, function: str, index: int, arg: Node, call: Node) -> bool:
        """Bind the names that ``function``'s object parameter at ``index`` destructures from
        members of ``arg`` holding a wrapper (``{ root }``, ``{ root: wrapper }``); whether it
        added any."""
        params = self._params_of(function)
        if params is None or index >= len(params):
            return False
        item = params[index]
        pattern = item.child_by_field_name("pattern") if item.type != "object_pattern" else item
        if pattern is None or pattern.type != "object_pattern":
            return False
        destructured = {
            text(p): p
            for p in pattern.named_children
            if p.type == "shorthand_property_identifier_pattern"
        }
        added = False
        for member in arg.named_children:
            value: Node | None = None
            if member.type == "shorthand_property_identifier":
                key, value = text(member), member
            elif member.type == "pair":
                key, value = pair_key(member), unwrap(member.child_by_field_name("value"))
            else:
                continue
            param = destructured.get(key or "")
            if (
                param is None
                or value is None
                or value.type not in ("identifier", "shorthand_property_identifier")
            ):
                continue
            bound = self.binding_named(text(value), call)
            if bound is None:
                continue
            added = self._bind_param(bound, param, item) or added
        return added

    def function_named(self, name: str) -> Node | None:
        """The file's first function named ``name`` (declared, or a variable holding one)."""
        for node in walk(self.tree.root_node):
            if (
                node.type in ("function_declaration", "arrow_function", "function_expression")
                and self._function_name(node) == name
            ):
                return node
        return None

    def _params_of(self, function: str) -> list[Node] | None:
        """The parameters of the file's function named ``function`` (None: no such function)."""
        node = self.function_named(function)
        params = node.child_by_field_name("parameters") if node is not None else None
        if params is None:
            return None
        return [p for p in params.named_children if p.type != "comment"]

    def _param_of(self, function: str, index: int) -> Node | None:
        items = self._params_of(function)
        if items is None or index >= len(items):
            return None
        item = items[index]
        pattern = item.child_by_field_name("pattern") if item.type != "identifier" else item
        return pattern if pattern is not None and pattern.type == "identifier" else None

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
        return ancestor(
            node,
            (
                "statement_block",
                "program",
                "arrow_function",
                "function_declaration",
                "function_expression",
            ),
        )


def typed_members(
    pattern: Node, annotation: Node | None, is_wrapper: Callable[[Node | None], bool]
) -> list[str]:
    """The names an object parameter destructures (``{ root, store }``) whose member its type
    annotation gives a wrapper type (``{ root: ShallowWrapper; store: Store }``)."""
    if annotation is None:
        return []
    typed = {
        text(sig.child_by_field_name("name")): sig.child_by_field_name("type")
        for sig in walk(annotation)
        if sig.type == "property_signature"
    }
    return [
        text(p)
        for p in pattern.named_children
        if p.type == "shorthand_property_identifier_pattern" and is_wrapper(typed.get(text(p)))
    ]

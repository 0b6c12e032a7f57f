"""A file's own helper that takes the selector one of its finds selects by (``function fillIn(
wrapper, selector, value) { wrapper.find(selector).simulate('change', { target: { value } }); }``
called as ``fillIn(wrapper, '#signup-email', 'ada@example.com')``): the helper takes the element
instead, and each call passes the query the capture verified for its selector
(``fillIn(screen.getByLabelText('Email'), 'ada@example.com')``).

The capture records the helper's find once per call, with the selector it was given, so the
runs of one selector tell which element it stands for, whichever test made the call. Only where
the parameter is used by nothing but finds of a wrapper, every call passes it as a literal, and
every literal's runs selected one element that one query selects in all of them; otherwise the
helper is translated as before (its finds by the CSS selector the parameter holds, with a
finding).
"""

from __future__ import annotations

from ..models import FindRecord
from ..syntax import FUNCTION_TYPES, Edit, Node, args_of, string_value, text, unwrap, walk
from .state import SelectorParam, Target
from .tables import SELECT_OPS
from .target_code import TargetCode

# Names the element parameter may take, the first one the helper does not use already.
_ELEMENT_NAMES = ("element", "field", "node", "target")


class SelectorParams(TargetCode):
    """Helpers whose selector parameter becomes an element parameter."""

    def collect_selector_params(self) -> None:
        """Find the helpers this applies to (after the wrappers' bindings are known)."""
        if not self.records:
            return
        for fn in walk(self.tree.root_node):
            if fn.type in FUNCTION_TYPES and fn.start_byte < self.virtual_from:
                self._selector_helper(fn)

    def selector_param_target(self, find_call: Node) -> Target | None:
        """For a find of a helper's selector parameter: the element parameter that replaces
        it, with what the capture saw it select; None for any other find."""
        found = self.selector_finds.get(find_call.id)
        if found is None:
            return None
        name, runs = found
        elements = tuple(e for r in runs for e in r.elements)
        checkbox = all(
            e.tag == "input" and e.attributes.get("type") in ("checkbox", "radio") for e in elements
        )
        return Target("var", css=name, captured=elements, checkbox=checkbox)

    def finish_selector_params(self) -> None:
        """The parameter renamed and typed as an element, each call's literal its query."""
        for helper in self.selector_params:
            param = helper.param
            declared = helper.element
            if self.ts and param.type in ("required_parameter", "optional_parameter"):
                declared += ": HTMLElement"
            self.edits.append(_edit(param, declared))
            for literal, selector in helper.calls:
                code = self.element_code(helper.queries[selector], "get")
                self.edits.append(_edit(literal, code))

    # -- finding them --------------------------------------------------------------------

    def _selector_helper(self, fn: Node) -> None:
        name = self._function_name(fn)
        params = fn.child_by_field_name("parameters")
        if name is None or params is None or self._declared_more_than_once(name):
            return  # (two helpers of one name, in two describes: whose call is which)
        items = [p for p in params.named_children if p.type != "comment"]
        for index, item in enumerate(items):
            ident = item if item.type == "identifier" else item.child_by_field_name("pattern")
            if ident is None or ident.type != "identifier" or item.child_by_field_name("value"):
                continue
            if self.binding_named(text(ident), ident) is not None:
                continue  # the wrapper parameter
            finds = self._finds_of(fn, text(ident))
            if not finds:
                continue
            calls = self._literal_calls(fn, name, index)
            if not calls:
                continue
            helper = SelectorParam(item, _free_name(fn), calls)
            runs = {f.id: self._find_runs(f) for f in finds}
            for _literal, selector in calls:
                picked = self._one_query(
                    [r for f in finds for r in runs[f.id] if r.selector == selector]
                )
                if picked is None:
                    return
                helper.queries[selector] = picked
            self.selector_params.append(helper)
            for f in finds:
                self.selector_finds[f.id] = (helper.element, runs[f.id])
            return

    def _finds_of(self, fn: Node, param: str) -> list[Node] | None:
        """The finds of a wrapper by the parameter ``param`` in ``fn``: ``w.find(param)``;
        None where the parameter is used otherwise too."""
        finds: list[Node] = []
        body = fn.child_by_field_name("body")
        for n in walk(body) if body is not None else []:
            if n.type != "identifier" or text(n) != param:
                continue
            arguments = n.parent
            call = arguments.parent if arguments is not None else None
            if call is None or arguments is None or arguments.type != "arguments":
                return None
            callee = call.child_by_field_name("function")
            obj = callee.child_by_field_name("object") if callee is not None else None
            prop = callee.child_by_field_name("property") if callee is not None else None
            if (
                callee is None
                or callee.type != "member_expression"
                or obj is None
                or obj.type != "identifier"
                or text(prop) != "find"
                or args_of(call) != [n]
                or self.binding_named(text(obj), obj) is None
                or _selects_further(call)
            ):
                return None
            finds.append(call)
        return finds or None

    def _literal_calls(self, fn: Node, name: str, index: int) -> list[tuple[Node, str]] | None:
        """Every use of the helper ``name``: a call with a literal selector at ``index`` (the
        literal and its value); None where it is used otherwise, or not at all."""
        calls: list[tuple[Node, str]] = []
        for n in walk(self.tree.root_node):
            if n.type != "identifier" or text(n) != name or n.start_byte >= self.virtual_from:
                continue
            if fn.start_byte <= n.start_byte < fn.end_byte or self._names_the_helper(n, fn):
                continue
            call = n.parent
            if (
                call is None
                or call.type != "call_expression"
                or call.child_by_field_name("function") != n
            ):
                return None
            arguments = args_of(call)
            literal = unwrap(arguments[index]) if index < len(arguments) else None
            value = string_value(literal)
            if literal is None or value is None:
                return None
            calls.append((literal, value))
        return calls or None

    def _declared_more_than_once(self, name: str) -> bool:
        return (
            sum(
                1
                for n in walk(self.tree.root_node)
                if n.type in FUNCTION_TYPES
                and n.start_byte < self.virtual_from
                and self._function_name(n) == name
            )
            > 1
        )

    @staticmethod
    def _names_the_helper(ident: Node, fn: Node) -> bool:
        """Whether ``ident`` is the name in the helper's own declaration."""
        parent = ident.parent
        if parent is fn or (parent is not None and parent.id == fn.id):
            return True
        return (
            parent is not None
            and parent.type == "variable_declarator"
            and parent.child_by_field_name("name") == ident
        )

    def _find_runs(self, find_call: Node) -> list[FindRecord]:
        callee = find_call.child_by_field_name("function")
        prop = callee.child_by_field_name("property") if callee is not None else None
        if prop is None:
            return []
        return list(self.records.get((prop.start_point[0] + 1, prop.start_point[1] + 1), []))

    def _one_query(self, runs: list[FindRecord]) -> Target | None:
        """The query every run selected its one element by; None where a run selected none
        or several, or they share no such query."""
        if not runs or any(r.count != 1 for r in runs):
            return None
        picked = self._pick(self._consensus(runs), "action")
        if picked is None or picked[2]:
            return None
        return self._query_target(picked, multi=False, index=None)


def _selects_further(find_call: Node) -> bool:
    """Whether the find's result is narrowed further (``.first()``, ``.find('input')``): the
    element parameter stands only for what the find itself selected."""
    member = find_call.parent
    prop = member.child_by_field_name("property") if member is not None else None
    return member is not None and member.type == "member_expression" and text(prop) in SELECT_OPS


def _free_name(fn: Node) -> str:
    used = {text(n) for n in walk(fn) if n.type in ("identifier", "property_identifier")}
    return next((n for n in _ELEMENT_NAMES if n not in used), "element_")


def _edit(node: Node, new: str) -> Edit:
    return Edit(node.start_byte, node.end_byte, new)

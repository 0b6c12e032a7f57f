"""Renders that Testing Library would leave in the document where Enzyme's next wrapper hid
them: a new render into the same variable, and a render made at each turn of a loop in a test
(kubeapps' ``params.forEach((param) => { const wrapper = shallow(…); … })``): screen queries
would see the earlier ones too."""

from __future__ import annotations

import re

from ..syntax import (
    FUNCTION_TYPES,
    Edit,
    Node,
    holds_outside_functions,
    line_indent,
    line_start,
    text,
    unwrap,
    walk,
)
from .helper_roots import HelperRoots
from .state import Binding
from .tables import HOOKS, TEST_FUNCS

_LOOPS = ("for_statement", "for_in_statement", "while_statement", "do_statement")
_ITERATING = ("forEach", "map")
_LEAVES = ("return_statement", "continue_statement", "break_statement", "throw_statement")


class EarlierRenders(HelperRoots):
    def earlier_render_shown(self, name: str, stmt: Node) -> bool:
        """An earlier render into ``name`` (``_rendered_before``), which a new render into it at
        ``stmt`` would leave in the document (Enzyme's new wrapper hid it), and which the test
        did not unmount just before ``stmt`` (``name.unmount();``)."""
        before = stmt.prev_named_sibling
        if before is not None and re.fullmatch(rf"{re.escape(name)}\.unmount\(\);?", text(before)):
            return False
        return self._rendered_before(name, stmt)

    def _rendered_before(self, name: str, stmt: Node) -> bool:
        """Another render is assigned to ``name`` before ``stmt`` in every test that runs
        ``stmt`` (a test body or a ``beforeEach``): earlier in the same block, or in a
        ``beforeEach`` of a describe around it that runs first."""
        here = self._hook_or_test(stmt)
        if here is None:
            return False
        for other in stmt.parent.named_children if stmt.parent is not None else []:
            # `let wrapper = shallow(…)` earlier in the same block
            if other.end_byte > stmt.start_byte or other.type not in (
                "lexical_declaration",
                "variable_declaration",
            ):
                continue
            for declarator in other.named_children:
                if (
                    declarator.type == "variable_declarator"
                    and text(declarator.child_by_field_name("name")) == name
                    and self.render_call_of(declarator.child_by_field_name("value")) is not None
                ):
                    return True
        for other in walk(self.tree.root_node):
            if other.type != "expression_statement" or other == stmt or not other.named_children:
                continue
            expr = unwrap(other.named_children[0])
            if expr is None or expr.type != "assignment_expression":
                continue
            left = expr.child_by_field_name("left")
            if left is None or text(left) != name:
                continue
            if self.render_call_of(expr.child_by_field_name("right")) is None:
                continue
            if other.parent == stmt.parent:
                if other.end_byte <= stmt.start_byte:
                    return True
                continue
            there = self._hook_or_test(other)
            if there is None or there[1] != "beforeEach" or there[0].parent is None:
                continue
            scope = there[0].parent.parent  # the describe's body (or the file) holding the hook
            if scope is None or not (scope.start_byte <= stmt.start_byte < scope.end_byte):
                continue
            # A later beforeEach of the same describe runs after this one.
            if here[1] == "beforeEach" and other.start_byte > stmt.start_byte:
                continue
            return True
        return False

    def _hook_or_test(self, stmt: Node) -> tuple[Node, str] | None:
        """The test or hook call whose callback directly holds ``stmt``, and its name."""
        block = stmt.parent
        fn = block.parent if block is not None else None
        args = fn.parent if fn is not None else None
        call = args.parent if args is not None else None
        if call is None or call.type != "call_expression":
            return None
        name = self.callee_name(call)
        if name not in TEST_FUNCS and name not in HOOKS:
            return None
        return call, "test" if name in TEST_FUNCS else name

    def unmount_each_turn(self, binding: Binding, stmt: Node) -> None:
        """``stmt`` renders into ``binding`` directly in the body of a loop inside a test (a
        ``for``, or the callback of ``forEach``/``map``): the render is unmounted as the last
        statement of that body, so that the next turn's queries see its own render alone, as
        they saw its own wrapper. Not when the body can leave a turn early."""
        block = stmt.parent
        if block is None or block.type != "statement_block" or not self._turn_of_loop(block):
            return
        if self._hook_or_test(stmt) is not None or self._leaves_early(block):
            return
        inside_test = False
        node = block.parent
        while node is not None and not inside_test:
            inside_test = self._hook_or_test(node) is not None
            node = node.parent
        last = block.named_children[-1] if block.named_children else None
        if not inside_test or last is None:
            return
        unmount = self.member(binding, "unmount")
        at = line_start(self.src, block.end_byte - 1)
        if self.src[at : block.end_byte - 1].strip():
            return  # `}` after code on its line: no line of its own to put the call on
        indent = line_indent(self.src, last.start_byte)
        self.edits.append(Edit(at, at, f"{indent}{unmount}();\n"))

    def _turn_of_loop(self, block: Node) -> bool:
        """``block`` is what a loop runs at each turn."""
        holder = block.parent
        if holder is None:
            return False
        if holder.type in _LOOPS:
            return True
        call = holder.parent.parent if holder.parent is not None else None
        if holder.type not in FUNCTION_TYPES or call is None or call.type != "call_expression":
            return False
        fn = call.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        return prop is not None and text(prop) in _ITERATING

    @staticmethod
    def _leaves_early(block: Node) -> bool:
        """A ``return``/``continue``/``break``/``throw`` of ``block``'s own (not of a function
        inside it)."""
        return holds_outside_functions(block.named_children, _LEAVES)

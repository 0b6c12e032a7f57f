"""Functions made ``async`` for the awaited calls a translation writes (``await user.click(…)``):
which functions can be, and the ``await`` at every call of a helper made async.

A test or hook callback can always be async. A function of the file's own (``fillIn``,
``submit``) can when every use of its name is a call made from a function that can be async
itself: its calls get ``await`` and their functions ``async``, up to the tests. A describe
callback, a function passed as a value (``items.forEach(select)``) or called at the top of the
file cannot: the translation then writes what needs no ``await`` (``fireEvent``).
"""

from __future__ import annotations

from ..syntax import Edit, Node, enclosing_function, walk
from .rerender import Rerenders
from .tables import DESCRIBE_FUNCS, HOOKS, TEST_FUNCS


class Awaiting(Rerenders):
    """Which functions can become async, and making them so."""

    def _framework_callee(self, fn: Node) -> str | None:
        """``it``, ``beforeEach``, ``describe``, … when ``fn`` is the callback passed to it."""
        args = fn.parent
        call = args.parent if args is not None else None
        if args is None or args.type != "arguments" or call is None:
            return None
        if call.type != "call_expression":
            return None
        name = self.callee_name(call)
        return name if name in TEST_FUNCS | HOOKS | DESCRIBE_FUNCS else None

    def _calls_of(self, name: str) -> list[Node] | None:
        """Every call of the file's function ``name``, or None when the name is used otherwise
        (passed as a value, exported)."""
        calls: list[Node] = []
        for node in walk(self.tree.root_node):
            if node.type != "identifier" or node.start_byte >= self.virtual_from:
                continue
            if self.text_of(node) != name:
                continue
            parent = node.parent
            if parent is None:
                return None
            field = "function" if parent.type == "call_expression" else "name"
            if parent.child_by_field_name(field) != node:
                return None
            if parent.type == "call_expression":
                calls.append(parent)
            elif parent.type not in ("variable_declarator", "function_declaration"):
                return None  # a declaration is not a use; anything else is
        return calls

    def can_be_async(self, fn: Node, seen: frozenset[int] = frozenset()) -> bool:
        if fn.id in self._async_verdicts:
            return self._async_verdicts[fn.id]
        if fn.id in seen:
            return False  # recursion: not followed
        verdict = self._decide_async(fn, seen | {fn.id})
        self._async_verdicts[fn.id] = verdict
        return verdict

    def _decide_async(self, fn: Node, seen: frozenset[int]) -> bool:
        if self.text_of(fn).startswith("async"):
            return True
        framework = self._framework_callee(fn)
        if framework is not None:
            return framework not in DESCRIBE_FUNCS
        name = self._function_name(fn)
        if name is None:
            return False
        calls = self._calls_of(name)
        if not calls:
            return False
        for call in calls:
            owner = enclosing_function(call)
            if owner is None or not self.can_be_async(owner, seen):
                return False
        return True

    def make_async(self, fn: Node) -> bool:
        """``fn`` async, and every call of it awaited (their functions async in turn); False
        when it cannot be (nothing is changed then)."""
        if not self.can_be_async(fn):
            return False
        if fn.id in self.async_fixed:
            return True
        self.async_fixed.add(fn.id)
        if not self.text_of(fn).startswith("async"):
            self.edits.append(Edit(fn.start_byte, fn.start_byte, "async "))
        if self._framework_callee(fn) is not None:
            return True
        name = self._function_name(fn)
        for call in self._calls_of(name or "") or []:
            parent = call.parent
            if parent is not None and parent.type != "await_expression":
                self.edits.append(Edit(call.start_byte, call.start_byte, "await "))
            owner = enclosing_function(call)
            if owner is not None:
                self.make_async(owner)
        return True

    def act_of(self, fn: Node) -> Node | None:
        """The ``act(…)`` call whose callback ``fn`` is."""
        args = fn.parent
        call = args.parent if args is not None else None
        if args is None or args.type != "arguments" or call is None:
            return None
        callee = call.child_by_field_name("function")
        if call.type != "call_expression" or callee is None:
            return None
        return call if self.text_of(callee).split(".")[-1] == "act" else None

    def await_act(self, act: Node) -> None:
        """``act(() => …)`` → ``await act(async () => …)`` (once)."""
        if act.id in self.async_fixed:
            return
        self.async_fixed.add(act.id)
        parent = act.parent
        if parent is None or parent.type != "await_expression":
            self.edits.append(Edit(act.start_byte, act.start_byte, "await "))
        args = act.child_by_field_name("arguments")
        callback = args.named_children[0] if args is not None and args.named_children else None
        if callback is not None and not self.text_of(callback).startswith("async"):
            self.edits.append(Edit(callback.start_byte, callback.start_byte, "async "))

    def text_of(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8")

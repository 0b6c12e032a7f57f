"""An assertion on what an inline render selected (``expect(mount(<X />).find(s)).toExist()``):
the render is made as a statement of its own first, so that the assertion reads the screen by
the capture's queries. Testing Library's render returns no wrapper to search in, and a search
in the call's own ``container`` is the node access its lint forbids."""

from __future__ import annotations

from ..syntax import Node, text, walk
from .assertions import Assertions
from .state import Ctx, Dropped, Untranslatable


class RenderFirst(Assertions):
    """Assertions whose subject is an inline render's selection."""

    def render_first_assertion(self, expr: Node, ctx: Ctx) -> str | None:
        """``expect(mount(<X />).find(s))…`` as a statement of a test that renders nothing
        else → the render, then the assertion on the screen. None where that does not apply,
        or where the assertion needs the render's result (its container) or a CSS selector no
        query stands for: the inline render stays."""
        call = self._render_first(expr, ctx)
        if call is None:
            return None
        self.render_first = call
        try:
            code = self.assertion(expr, ctx)
        except (Untranslatable, Dropped):
            return None  # as an inline render, then
        finally:
            self.render_first = None
        if code is None:
            return None
        rendered = self.render_code(call, ctx)
        if rendered in code or "document.querySelector" in code:
            return None  # its container, or CSS no query stands for: read where it is made
        return f"{rendered};\x00{code}"

    def _render_first(self, expr: Node, ctx: Ctx) -> Node | None:
        """The render call at the base of the subject of the ``expect`` ``expr``, where the
        statement is a test's own (not a hook's or a helper's), the test renders nothing else
        and no hook of the file renders (a screen query would find what another render
        added); None otherwise."""
        if ctx.test is None or ctx.hook is not None or ctx.helper or ctx.owner is None:
            return None
        parsed = self._expect_subject(expr)
        chain = self.chain(parsed[0]) if parsed is not None else None
        if chain is None or not chain[1] or not self.is_render_call(chain[0]):
            return None
        renders = [n for n in walk(ctx.owner) if self.is_render_call(n)]
        if len(renders) != 1 or self._hooks_render():
            return None
        return chain[0]

    def _hooks_render(self) -> bool:
        """Some ``beforeEach``/``beforeAll`` of the file renders."""
        for node in walk(self.tree.root_node):
            fn = node.child_by_field_name("function") if node.type == "call_expression" else None
            if fn is not None and text(fn) in _HOOKS and any(map(self.is_render_call, walk(node))):
                return True
        return False


_HOOKS = frozenset({"beforeEach", "beforeAll"})

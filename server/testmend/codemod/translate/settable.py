"""``setProps`` on a render made inside the file's own render helper (typeahead's
``mountTypeahead(props)``, addons-code-manager's ``render({ store, ...props })``): the test
never sees the element, so the helper itself returns what can re-render it. Its render becomes

    let element = <Typeahead … {...props} />;
    const view = render(element);
    return {
      ...view,
      setProps: (next) => {
        element = React.cloneElement(element, next);
        view.rerender(element);
      },
    };

(inside the same providers as the render, where it has some), and the test's
``wrapper.setProps({ … })`` calls that ``setProps``. ``cloneElement`` merges the new props over
the element's as Enzyme's ``setProps`` does, and each call builds on the last."""

from __future__ import annotations

import re

from ..syntax import Node, args_of, enclosing_function, line_indent, reindent, text, unwrap, walk
from .recording import Recordings
from .state import Binding, Ctx


class SettableRenders(Recordings):
    """The file's render helpers whose result a test calls ``setProps`` on."""

    def settable_helper(self, binding: Binding) -> Node | None:
        """The render call of the one helper every render into ``binding`` comes from, when
        that helper can return a ``setProps`` (see the module); None otherwise. A render a
        setup function returns (``const { root } = loadAndRender()``): the one it made."""
        if binding.returned_by_setup is not None and binding.returned_by_setup is not binding:
            return self.settable_helper(binding.returned_by_setup)
        calls = self._calls_into(binding)
        names = {text(c.child_by_field_name("function")) for c in calls}
        if not calls or len(names) != 1:
            return None
        return self._helper_render(names.pop())

    def setprops_helpers(self) -> set[int]:
        """The render calls (by node id) of the helpers some test calls ``setProps`` on the
        result of (found once, before any of them is translated)."""
        if self._setprops_helpers is None:
            found: set[int] = set()
            for node in walk(self.tree.root_node):
                fn = (
                    node.child_by_field_name("function") if node.type == "call_expression" else None
                )
                if fn is None or fn.type != "member_expression":
                    continue
                base = fn.child_by_field_name("object")
                if text(fn.child_by_field_name("property")) != "setProps" or base is None:
                    continue
                binding = (
                    self.binding_named(text(base), base) if base.type == "identifier" else None
                )
                render = self.settable_helper(binding) if binding is not None else None
                if render is not None and binding is not None and binding.element is None:
                    found.add(render.id)
            self._setprops_helpers = found
        return self._setprops_helpers

    def _calls_into(self, binding: Binding) -> list[Node]:
        """The calls of the file's wrapper functions whose result ``binding`` holds (its
        declaration's value and every assignment to it); empty when any is something else."""
        calls = [self.render_call_of(v) for v in self.values_into(binding)]
        if not calls or any(
            c is None or text(c.child_by_field_name("function")) not in self.wrapper_functions
            for c in calls
        ):
            return []
        return [c for c in calls if c is not None]

    def _helper_render(self, name: str) -> Node | None:
        """The one render the file's function ``name`` returns, when the function has no
        return type to contradict and returns that render as it is (``return mount(<X />)``,
        ``(props) => shallow(<X {...props} />)``) of an element written there."""
        function = self.function_named(name)
        if function is None or function.child_by_field_name("return_type") is not None:
            return None
        renders = self._returned_renders(name)
        if len(renders) != 1:
            return None
        call = renders[0]
        callee = text(call.child_by_field_name("function"))
        if callee in self.wrapper_functions or callee in self.helper_renders:
            return None
        args = args_of(call)
        element = unwrap(args[0]) if args else None
        if element is None or not element.type.startswith("jsx_"):
            return None
        owner = enclosing_function(call)
        if self._returned_site(call) is None or owner is None or owner.id != function.id:
            return None
        used = {text(n) for n in walk(function) if n.type == "identifier"}
        if used & {"element", "view"}:
            return None
        return call

    def _returned_site(self, call: Node) -> Node | None:
        """What the function around ``call`` returns it as, itself (or with ``.dive()``
        calls): the ``return`` statement, or an arrow function's expression body."""
        function = enclosing_function(call)
        for value in self._returned_values(function) if function is not None else []:
            returned = self.render_call_of(value)
            if returned is not None and returned.id == call.id and value.parent is not None:
                return value.parent if value.parent.type == "return_statement" else value
        return None

    def settable_render(self, call: Node, ctx: Ctx) -> bool:
        """Replace the helper's returned render ``call`` by the render that returns a
        ``setProps`` (see the module), where a test needs one; whether it did."""
        if call.id not in self.setprops_helpers():
            return False
        site = self._returned_site(call)
        element = unwrap(args_of(call)[0])
        if site is None or element is None:
            return False
        code = self.render_code(call, ctx)
        if code.count(text(element)) != 1:
            return False  # the element changed on the way (a ref): not one to hold
        around = self.around_render(call) or (
            ("<svg>", "</svg>") if self.renders_svg(call) else None
        )
        held = f"{around[0]}{{element}}{around[1]}" if around else "element"
        render = code.replace(text(element), "{element}" if around else "element", 1)
        render = re.sub(r"\(\s+([^\n]*?)\s+\)$", r"(\1)", render)  # `render(element)`, one line
        clone = self.react_member("cloneElement")
        next_param = "next: Record<string, unknown>" if self.ts else "next"
        indent = line_indent(self.src, site.start_byte)
        block = site.type == "return_statement"
        inner = indent if block else indent + "  "
        was = line_indent(self.src, element.start_byte)
        written = text(element)
        if "\n" in written:
            # Laid out as Prettier lays out a multi-line element: in parentheses, one step in.
            jsx = reindent((was + written).split("\n"), "  ").split("\n")
            written = "(\n" + "\n".join(jsx) + "\n)"
        lines = [
            *f"let element = {written};".split("\n"),
            f"const view = {render};",
            "return {",
            "  ...view,",
            f"  setProps: ({next_param}) => {{",
            f"    element = {clone}(element, next);",
            f"    view.rerender({held});",
            "  },",
            "};",
        ]
        body = ("\n" + inner).join(lines)
        self.replace(site, body if block else "{\n" + inner + body + "\n" + indent + "}")
        return True

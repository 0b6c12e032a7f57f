"""Scanning the file before converting: its render calls, the bindings of rendered wrappers
(setup functions returning them included)."""

from __future__ import annotations

from typing import Literal

from ..models import RenderRecord
from ..syntax import (
    Node,
    args_of,
    js_value,
    object_items,
    pattern_items,
    text,
    unwrap,
    walk,
)
from .bindings import WrapperBindings, typed_members
from .state import Binding, RenderKind
from .tables import NAMES, WRAPPER_TYPES, is_svg_only_tag


class Scanner(WrapperBindings):
    """Finds what the conversion works on (renders, the wrappers bound to them, refs to class
    instances); converts nothing itself except ``render`` calls."""

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

    def is_shallow(self, call: Node) -> bool:
        """``shallow(…)``, ``Enzyme.shallow(…)`` (not a project helper: its kind is unknown)."""
        fn = call.child_by_field_name("function")
        if fn is None:
            return False
        if fn.type == "identifier":
            if text(fn) in self.wrapper_functions:
                return self._renders_shallow(text(fn))
            return self.enzyme_renders.get(text(fn)) == "shallow"
        return text(fn.child_by_field_name("property")) == "shallow"

    def _renders_shallow(self, function: str) -> bool:
        """A function of the file's returning a render (``const BarWrapper = (p = {}) =>
        shallow(<Bar {...p} />)``) renders shallowly: every render it returns is a shallow."""
        renders = self._returned_renders(function)
        return bool(renders) and all(self.is_shallow(c) for c in renders)

    def _returned_renders(self, function: str) -> list[Node]:
        """The render calls a local function returning a render returns (directly, or through
        a local variable: ``const wrapper = mount(…); return wrapper``)."""
        node = self.function_named(function)
        if node is None:
            return []
        calls = [
            self.render_call_of(r) or self._local_render(node, r)
            for r in self._returned_values(node)
        ]
        return [
            c
            for c in calls
            if c is not None and text(c.child_by_field_name("function")) != function
        ]

    @staticmethod
    def _returned_values(function: Node) -> list[Node]:
        """What ``function`` returns: an arrow's expression body, or its return statements'."""
        body = function.child_by_field_name("body")
        if body is None:
            return []
        if body.type != "statement_block":
            return [body]
        return [
            r.named_children[0]
            for r in walk(body)
            if r.type == "return_statement" and r.named_children
        ]

    def _local_render(self, function: Node, value: Node | None) -> Node | None:
        """The render call that ``value``, a variable of ``function``'s, is declared with or
        assigned (``let wrapper; wrapper = mount(…)``)."""
        value = unwrap(value)
        body = function.child_by_field_name("body")
        if value is None or value.type not in NAMES or body is None:
            return None
        name = text(value)
        for node in walk(body):
            if node.type == "variable_declarator":
                target, source = node.child_by_field_name("name"), node.child_by_field_name("value")
            elif node.type == "assignment_expression":
                target, source = node.child_by_field_name("left"), node.child_by_field_name("right")
            else:
                continue
            if target is not None and target.type == "identifier" and text(target) == name:
                call = self.render_call_of(source)
                if call is not None:
                    return call
        return None

    def _returned_object(self, function: Node) -> dict[str, str]:
        """The keys of the object ``function`` returns that hold one of its renders
        (``return { wrapper: wrapper as ReactWrapper, history }`` → {"wrapper": "wrapper"})."""
        held: dict[str, str] = {}
        for value in self._returned_values(function):
            returned = unwrap(value)
            if returned is None or returned.type != "object":
                continue
            for key, item in object_items(returned):
                if self._local_render(function, item) is not None:
                    held[key] = text(unwrap(item))
        return held

    def _render_records(self, call: Node, seen: frozenset[str] = frozenset()) -> list[RenderRecord]:
        """What the capture saw at the render ``call`` (or at the renders the local function
        ``call`` calls returns)."""
        if self.dom is None or not self.dom.renders:
            return []
        fn = call.child_by_field_name("function")
        if fn is not None and fn.type == "identifier" and text(fn) in self.wrapper_functions:
            name = text(fn)
            if name in seen:
                return []
            return [
                r
                for c in self._returned_renders(name)
                for r in self._render_records(c, seen | {name})
            ]
        line = call.start_point[0] + 1
        exact = [r for r in self.dom.renders if r.line == line]
        if exact:
            return exact
        # Source maps can place a call spanning lines at the start of its statement
        # (``expect(() =>`` above ``shallow(``).
        statement = call
        while statement.parent is not None and not statement.type.endswith("statement"):
            statement = statement.parent
        first = statement.start_point[0] + 1
        return [r for r in self.dom.renders if first <= r.line < line]

    def renders_svg(self, call: Node) -> bool:
        """The component rendered at ``call`` puts an SVG-only element (``<g>``, ``<line>``)
        at its root, and nothing else there: it needs an ``<svg>`` around it."""
        tags = [r.tag for r in self._render_records(call) if r.tag]
        return bool(tags) and all(is_svg_only_tag(t) for t in tags)

    def render_kind(self, call: Node) -> RenderKind:
        seen = [(r.test, r.empty) for r in self._render_records(call) if r.test]
        return RenderKind(
            shallow=self.is_shallow(call),
            svg=self.renders_svg(call),
            component_root=self.renders_component_root(call),
            root=self.root_component(call),
            element=self.passed_element(call),
            root_queries=self._root_queries(call),
            emptied=frozenset(test for test, empty in seen if empty),
            filled=frozenset(test for test, empty in seen if not empty),
        )

    def _root_queries(self, call: Node) -> tuple[tuple[str, str], ...]:
        """The queries every run of the render ``call`` saw select its root element alone
        (none when the capture did not see it render)."""
        runs = [
            [
                (q.method, ", ".join(js_value(a) for a in q.args))
                for q in r.root_queries
                if not q.all
            ]
            for r in self._render_records(call)
        ]
        if not runs:
            return ()
        return tuple(q for q in runs[0] if all(q in run for run in runs[1:]))

    def passed_element(self, call: Node) -> Literal["component", "host"] | None:
        """Whether the render at ``call`` was given a component's element or a host element
        (inside context providers, which Enzyme's tree leaves out); None when it is not JSX."""
        element = self._element_of(call)
        while element is not None and self._tag_of(element).endswith(".Provider"):
            # Several children, text or an expression: not one element.
            element = self.only_child_element(element)
        if element is None:
            return None
        tag = self._tag_of(element)
        return "component" if tag[:1].isupper() or "." in tag else "host" if tag else None

    def root_component(self, call: Node) -> str | None:
        """The component at the root of the shallow render at ``call``, when the capture saw
        one and only one."""
        names = {r.component for r in self._render_records(call) if r.host is False}
        return names.pop() if len(names) == 1 else None

    def renders_component_root(self, call: Node) -> bool:
        """The shallow render at ``call`` has another component's element at its root
        (``<Group className="visx-glyph">``): its props are not the DOM element's."""
        hosts = [r.host for r in self._render_records(call) if r.host is not None]
        return bool(hosts) and not any(hosts)

    def render_call_of(self, node: Node | None) -> Node | None:
        """The render call ``node`` is (through ``await`` and ``.dive()``: a full render
        already renders the child a shallow one dives into)."""
        node = unwrap(node)
        if node is not None and node.type == "await_expression":
            node = unwrap(node.named_children[0]) if node.named_children else None
        while node is not None and self._dive_of(node) is not None:
            node = self._dive_of(node)
        return node if self.is_render_call(node) else None

    @staticmethod
    def _dive_of(node: Node) -> Node | None:
        """``X.dive()`` → X."""
        if node.type != "call_expression" or args_of(node):
            return None
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return None
        if text(fn.child_by_field_name("property")) != "dive":
            return None
        return unwrap(fn.child_by_field_name("object"))

    def render_span(self, call: Node) -> Node:
        """The render call with the ``.dive()`` calls around it: what its translation
        replaces."""
        node = call
        while True:
            parent = node.parent
            while parent is not None and parent.type == "parenthesized_expression":
                parent = parent.parent
            outer = parent.parent if parent is not None else None
            if (
                parent is not None
                and parent.type == "member_expression"
                and outer is not None
                and self._dive_of(outer) is not None
            ):
                node = outer
                continue
            return node

    def _has_wrapper_type(self, node: Node | None) -> bool:
        if node is None:
            return False
        return any(n.type == "type_identifier" and text(n) in WRAPPER_TYPES for n in walk(node))

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
                returns_render = returns_render or any(
                    self._local_render(node, v) is not None for v in self._returned_values(node)
                )
                if self._has_wrapper_type(returns) or returns_render:
                    self.wrapper_functions.add(name)
                elif held := self._returned_object(node):
                    self.setup_objects[name] = held
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
                        binding.render = self.render_kind(call)
                        self.add_binding(binding)
                    elif value is None and self._has_wrapper_type(node.child_by_field_name("type")):
                        self.add_binding(Binding(name, "var", node))
                    elif value is None:
                        binding = Binding(name, "var", node)
                        if self._assigned_render(name) is not None:
                            self.add_binding(binding)
                elif node.type in ("required_parameter", "optional_parameter"):
                    pattern = node.child_by_field_name("pattern")
                    annotation = node.child_by_field_name("type")
                    if pattern is not None and pattern.type == "object_pattern":
                        # `({ root, store }: { root: ShallowWrapper; store: Store })`
                        for name in typed_members(pattern, annotation, self._has_wrapper_type):
                            self.add_binding(Binding(name, "param", node))
                    elif pattern is not None and self._has_wrapper_type(annotation):
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
                    elif found.kind == "decl":
                        # `let wrapper = shallow(…)` rendered again later: a variable, not a
                        # destructured `const { … } = render(…)` the assignment could not reach.
                        found.kind = "var"
                    if found.element is None:
                        found.element = self._element_of(call)
                    found.render = found.render | self.render_kind(call)
        self._keep_shared_scope_renders_whole()
        self._bind_returned_renders()
        # Untyped parameters of local helpers that receive a wrapper, also through another
        # helper's parameter (``getMaxHeight(menu)`` whose body calls ``getMenu(wrapper)``):
        # passes until none is added.
        for _ in range(3):
            if not self._bind_wrapper_params(root):
                break

    def _bind_returned_renders(self) -> None:
        """A render a setup function returns stays a whole variable (the caller uses it), and
        each caller's ``const { wrapper, history } = await setup()`` binds ``wrapper`` to it."""
        functions: dict[str, Node] = {}
        for node in walk(self.tree.root_node):
            if node.type not in ("function_declaration", "arrow_function", "function_expression"):
                continue
            name = self._function_name(node)
            if name is None or not (name in self.wrapper_functions or name in self.setup_objects):
                continue
            functions[name] = node
            for value in self._returned_values(node):
                returned = unwrap(value)
                items = (
                    [item for _key, item in object_items(returned)]
                    if returned is not None and returned.type == "object"
                    else [value]
                )
                for item in items:
                    held = unwrap(item)
                    if held is None or held.type not in NAMES:
                        continue
                    binding = self.binding_named(text(held), held)
                    if binding is not None and self._local_render(node, held) is not None:
                        binding.passed_as_arg = True
        self._bind_setup_call_sites(functions)

    def _bind_setup_call_sites(self, functions: dict[str, Node]) -> None:
        """``const { wrapper, history } = await setup()``: ``wrapper`` is bound to the render
        the setup function returns under that key."""
        for declarator in walk(self.tree.root_node):
            if declarator.type != "variable_declarator":
                continue
            pattern = declarator.child_by_field_name("name")
            value = unwrap(declarator.child_by_field_name("value"))
            if value is not None and value.type == "await_expression" and value.named_children:
                value = unwrap(value.named_children[0])
            if pattern is None or pattern.type != "object_pattern" or value is None:
                continue
            fn = value.child_by_field_name("function") if value.type == "call_expression" else None
            held = self.setup_objects.get(text(fn)) if fn is not None else None
            if fn is None or held is None:
                continue
            for key, local in pattern_items(pattern):
                function = functions.get(text(fn))
                inner_name = held.get(key)
                if inner_name is None or function is None:
                    continue
                returned = next(
                    (
                        unwrap(item)
                        for v in self._returned_values(function)
                        if (o := unwrap(v)) is not None and o.type == "object"
                        for k, item in object_items(o)
                        if k == key
                    ),
                    None,
                )
                inner = self.binding_named(inner_name, returned)
                binding = Binding(local, "var", declarator, returned_by_setup=inner)
                if inner is not None:
                    binding.element, binding.render = inner.element, inner.render
                self.add_binding(binding)

    def _keep_shared_scope_renders_whole(self) -> None:
        """Two renders declared where one can see the other (``const small = shallow(…)``
        beside ``const large = shallow(…)``) would both destructure ``container``: they stay
        variables (``small.container``)."""
        declared = [
            (binding, scope)
            for bindings in self.bindings.values()
            for binding in bindings
            if binding.kind == "decl" and (scope := self._scope_of(binding)) is not None
        ]
        for binding, scope in declared:
            if any(
                other is not binding
                and (
                    scope.start_byte <= theirs.start_byte < scope.end_byte
                    or theirs.start_byte <= scope.start_byte < theirs.end_byte
                )
                for other, theirs in declared
            ):
                binding.kind = "var"
                binding.beside_others = True

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

    @staticmethod
    def jsx_children(element: Node) -> list[Node]:
        """What stands between ``element``'s tags (blank text aside): none for a self-closing
        element."""
        if element.type != "jsx_element":
            return []
        return [
            c
            for c in element.named_children
            if c.type not in ("jsx_opening_element", "jsx_closing_element")
            and not (c.type == "jsx_text" and not text(c).strip())
        ]

    @classmethod
    def only_child_element(cls, element: Node) -> Node | None:
        """The one JSX element between ``element``'s tags, when nothing else is there (blank
        text aside); None otherwise."""
        inner = cls.jsx_children(element)
        if len(inner) == 1 and inner[0].type in ("jsx_element", "jsx_self_closing_element"):
            return inner[0]
        return None

    @staticmethod
    def _tag_of(element: Node) -> str:
        opening = (
            element
            if element.type == "jsx_self_closing_element"
            else element.child_by_field_name("open_tag")
        )
        return text(opening.child_by_field_name("name")) if opening is not None else ""

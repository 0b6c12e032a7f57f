"""Refs to class instances: a test that reads ``state()``, calls ``setState()`` or
``instance()`` on a rendered class component gets a ref on the rendered element, declared beside
the wrapper's binding."""

from __future__ import annotations

import re

from ..syntax import Edit, Node, args_of, line_indent, line_start, text, unwrap, walk
from .instance_events import held_handler
from .scan import Scanner
from .shown_state import shown_read
from .state import Binding

# Elements Enzyme's tree leaves out (the adapter renders their child in their place): a
# wrapper's root under them is their one child (``mount(<StrictMode><Collapse /></StrictMode>)``
# and ``instance()`` is the Collapse).
_TRANSPARENT = re.compile(r"(?:React\.)?(?:StrictMode|Fragment)|[\w$.]+\.Provider")


class ClassRefs(Scanner):
    def ref_attribute(self, element: Node) -> tuple[int, int, str]:
        """The edit that adds ``ref={…}`` at the end of ``element``'s opening tag."""
        opening = (
            element
            if element.type == "jsx_self_closing_element"
            else element.child_by_field_name("open_tag")
        )
        assert opening is not None
        end = opening.end_byte - (2 if element.type == "jsx_self_closing_element" else 1)
        while self.src[end - 1 : end] in (b" ", b"\n"):
            end -= 1
        return (end, end, f" ref={{{self.element_refs[element.id]}}}")

    def instance_element(self, element: Node) -> Node:
        """The element whose instance Enzyme's root stands for: ``element``, or the one child
        of a ``StrictMode``, fragment or context ``Provider`` around it (a ref on those would
        stay empty)."""
        while _TRANSPARENT.fullmatch(self._tag_of(element)):
            inner = self.only_child_element(element)
            if inner is None:
                break
            element = inner
        return element

    def collect_class_refs(self) -> None:
        """Wrappers whose test reads ``state()``, calls ``setState()`` or ``instance()`` on
        the root: Enzyme allows these only on class components, so the rendered element can
        take a ref to the instance. Each such binding gets one, declared beside it. A read of
        the state that is asserted as the page shows it (``shown_state``), or a method called
        as an element's event (``instance_events``), needs none."""
        taken = {text(n) for n in walk(self.tree.root_node) if n.type == "identifier"}
        for node in walk(self.tree.root_node):
            if node.type != "member_expression":
                continue
            obj = node.child_by_field_name("object")
            prop = text(node.child_by_field_name("property"))
            parent = node.parent
            if (
                obj is None
                or obj.type != "identifier"
                or prop not in ("state", "setState", "instance")
                or parent is None
                or parent.type != "call_expression"
            ):
                continue
            if prop == "state" and shown_read(self.records, node) is not None:
                continue  # asserted as the page shows it (shown_state)
            if prop == "instance" and held_handler(self.records, node) is not None:
                continue  # an element's event (instance_events)
            binding = self.binding_named(text(obj), obj)
            if binding is None or binding.ref is not None or binding.node is None:
                continue
            elements = self._rendered_elements(binding)
            tags = {self._tag_of(e) for e in elements}
            if not elements or not all(t[:1].isupper() for t in tags):
                continue
            behind = self._instance_behind(binding)
            if behind is not None:
                binding.instance_behind = behind
                continue
            # One name per binding: two bindings of the same name live in different scopes
            # (or one shadows the other), and so do their refs.
            ref = f"{binding.name}Ref"
            while ref in taken:
                ref += "_"
            binding.ref = ref
            for element in elements:
                self.element_refs[element.id] = ref
            statement = binding.node.parent
            assert statement is not None
            tag = next(iter(tags)) if len(tags) == 1 and self.ts else None
            create = self.react_member("createRef")
            typed = f"<{tag}>" if tag and "." not in tag else ("<any>" if self.ts else "")
            indent = line_indent(self.src, statement.start_byte)
            at = line_start(self.src, statement.start_byte)
            self.edits.append(Edit(at, at, f"{indent}const {ref} = {create}{typed}();\n"))

    def _instance_behind(self, binding: Binding) -> str | None:
        """``shallowUntilTarget(<Navbar />, NavbarBase)``: a project helper rendered down to
        another component than the element (the class ``connect()`` or ``withRouter()``
        wraps), whose instance Enzyme's root is; a ref on the element does not reach it. What
        to say of it ("NavbarBase, inside Navbar"), or None."""
        for call, element in self.rendered_into(binding):
            behind = self.rendered_down_to(call, element)
            if behind is not None:
                return f"{behind}, inside {self._tag_of(self.instance_element(element))}"
        return None

    def rendered_down_to(self, call: Node, element: Node) -> str | None:
        """The component a project helper's render ``call`` of ``element`` went down to when
        it is another than the element (``shallowUntilTarget(<Navbar />, NavbarBase)``:
        ``NavbarBase``); None otherwise."""
        args = args_of(call)
        if len(args) < 2:
            return None  # (Enzyme's own renders take an options object there)
        target = unwrap(args[1])
        tag = self._tag_of(self.instance_element(element))
        if (
            target is not None
            and target.type == "identifier"
            and text(target)[:1].isupper()
            and text(target) != tag
        ):
            return text(target)
        return None

    def react_member(self, name: str) -> str:
        """``React.<name>`` when the file already imports React as a default or a namespace,
        else ``name`` imported from react."""
        match = re.search(
            rb"import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s*(?:,\s*\{[^}]*\})?\s*from\s*['\"]react['\"]",
            self.src,
        )
        return f"{match.group(1).decode()}.{name}" if match else self.need(name, "react")

    def _rendered_elements(self, binding: Binding) -> list[Node]:
        """The elements whose instances ``binding`` may stand for (see ``instance_element``)."""
        return [self.instance_element(element) for _at, element in self.rendered_into(binding)]

    def rendered_into(self, binding: Binding) -> list[tuple[Node, Node]]:
        """(the render call, its JSX element) for each render into ``binding`` (its
        declaration and assignments), in source order; empty when one of them renders no JSX
        element of its own."""
        calls = [c for v in self.values_into(binding) if (c := self.render_call_of(v)) is not None]
        found = [(call, self._element_of(call)) for call in calls]
        return [(c, e) for c, e in found if e is not None] if all(e for _c, e in found) else []

    def values_into(self, binding: Binding) -> list[Node | None]:
        """What ``binding`` is given: its declaration's value and the right side of every
        assignment to it, in source order."""
        values: list[Node | None] = []
        if binding.node is not None and binding.node.type == "variable_declarator":
            value = binding.node.child_by_field_name("value")
            if value is not None:
                values.append(value)
        for node in walk(self.tree.root_node):
            if node.type == "assignment_expression":
                left = node.child_by_field_name("left")
                if (
                    left is not None
                    and left.type == "identifier"
                    and self.binding_named(text(left), node) is binding
                ):
                    values.append(node.child_by_field_name("right"))
        return values

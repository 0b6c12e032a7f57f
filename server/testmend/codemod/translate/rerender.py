"""``setProps`` → ``rerender``: the rendered element with the new props merged, its children,
and the hook-local data it reads moved where the re-render can see it."""

from __future__ import annotations

import re

from ..syntax import (
    Edit,
    Node,
    ancestor,
    args_of,
    enclosing_function,
    js_string,
    line_indent,
    line_start,
    pair_key,
    reindent,
    splice,
    text,
    unwrap,
    walk,
)
from .earlier_renders import EarlierRenders
from .state import Binding, Ctx, Untranslatable

_UPDATE = "rerendered"  # the prop a re-render passes so that connect() lets it through


class Rerenders(EarlierRenders):
    """Re-rendering a wrapper's element with new props."""

    def _reads_wrappers(self, props: Node) -> bool:
        """``props`` use a wrapper other than to call its ``setProps`` (``{ …root.instance()
        .props }``; a callback's ``onChange: (s) => typeahead.setProps({ selected: s })`` calls
        what the helper returns)."""

        def set_props_args(node: Node) -> list[Node] | None:
            fn = node.child_by_field_name("function") if node.type == "call_expression" else None
            calls = (
                fn is not None
                and fn.type == "member_expression"
                and text(fn.child_by_field_name("property")) == "setProps"
                and (fn.child_by_field_name("object") or fn).type == "identifier"
            )
            return args_of(node) if calls else None

        return self.refs_wrapper_outside(props, set_props_args)

    def rerender(self, base: Node, args: list[Node], ctx: Ctx) -> str:
        """``setProps(...)`` translated (``_rerender``). On a render a project helper took
        down to the component inside ``connect()`` (``shallowUntilTarget(<Navbar />,
        NavbarBase)``), Enzyme re-rendered that component, which updated whatever the props
        (``componentDidUpdate``: "loads data on update", after ``setProps({})``). Here
        ``connect()`` sits between, and lets an update through only when one of its props
        changes: the re-render passes one more, ``rerendered``, a new object each time, which
        no component reads."""
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        if binding is not None and len(args) == 1:
            self.set_on_helper_root(binding, unwrap(args[0]))
        behind = self._behind(binding) if binding is not None and len(args) == 1 else None
        if binding is None or behind is None:
            return self._rerender(base, args, ctx)
        binding.overrides.pop(_UPDATE, None)
        binding.overrides[_UPDATE] = "{}"
        code = self._rerender(base, args, ctx, update=True)
        self.pending_notes.append(
            (
                "review",
                f"setProps() updated Enzyme's root, {behind}, even with the props it had; "
                "connect() (or memo()) around it lets an update through only when a prop "
                f"changes, so the re-render passes `{_UPDATE}`, a new object that no component "
                "reads",
            )
        )
        return code

    def _behind(self, binding: Binding) -> str | None:
        """The component inside the rendered element that every render into ``binding`` went
        down to (``rendered_down_to``), directly or through the file's render helper."""
        helper = self.settable_helper(binding) if binding.element is None else None
        calls = [(helper, unwrap(args_of(helper)[0]))] if helper is not None else []
        calls += self.rendered_into(binding)
        return next(
            (b for c, e in calls if e is not None and (b := self.rendered_down_to(c, e))), None
        )

    def _rerender(self, base: Node, args: list[Node], ctx: Ctx, update: bool = False) -> str:
        """``setProps({...})`` → ``rerender(<the element with the props merged />)``. Enzyme
        merges the new props over the current ones; JSX attributes later in the tag win, so a
        spread (``{...props, loading: false}``) or a variable (``setProps(next)``) goes after
        the element's own attributes, in the order the test set them."""
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        held = self._element_held(binding, base) if binding is not None else None
        obj = unwrap(args[0]) if len(args) == 1 else None
        if (
            binding is not None
            and binding.element is None
            and held is None
            and obj is not None
            and self.settable_helper(binding) is not None
        ):
            # Rendered by the file's own helper, which returns a `setProps` (settable.py).
            # `...mapStateToProps(store.getState(), …)` goes: connect() computes those from
            # the store itself on the re-render, with the new props (no wrapper to read).
            kept = [c for c in obj.named_children if not (update and _store_state(c))]
            dropped = obj.type == "object" and len(kept) < len(obj.named_children)
            if any(self._reads_wrappers(c) for c in kept) if dropped else self._reads_wrappers(obj):
                raise Untranslatable(
                    "setProps() with props read from the Enzyme wrapper (the helper's setProps "
                    "takes them as written)"
                )
            if dropped:
                self.pending_notes.append(("review", STORE_STATE_NOTE))
                own = "".join(f"{text(c)}, " for c in kept)
                return f"{self.member(binding, 'setProps')}({{ {own}{_UPDATE}: {{}} }});"
            props = _with_update(obj) if update else text(obj)
            return f"{self.member(binding, 'setProps')}({props});"
        if binding is None or (binding.element is None and held is None):
            raise Untranslatable("setProps() on a render whose element testmend cannot see")
        if obj is None or obj.type not in ("object", "identifier", "member_expression"):
            raise Untranslatable("setProps() with something other than an object or a variable")
        if held is not None:
            # ``mount(component)``: the element a variable holds, its props merged as
            # Enzyme merges them (``cloneElement`` keeps the others, the key and the ref).
            self._merge_props(binding, obj)
            clone = self.react_member("cloneElement")
            props = ", ".join(
                f"...{v}" if k.startswith("...") else f"{_key(k)}: {v or 'undefined'}"
                for k, v in binding.overrides.items()
            )
            cloned = f"{clone}({held}, {{ {props} }})"
            call = self._render_of(binding.node)
            around = self.around_render(call) if call is not None else None
            if around is not None:
                cloned = f"{around[0]}{{{cloned}}}{around[1]}"
            return f"{self.member(binding, 'rerender')}({cloned});"
        element = self._element_at(binding, base, ctx)
        if element is None:
            raise Untranslatable(
                f"setProps() where {binding.name} may hold any of the elements the tests render "
                "into it, not one testmend can tell"
            )
        # The providers (or the `<svg>`) the render put around the element: re-rendered
        # without them, the tree would be another one (remounted, and without its store).
        call = self._render_of(element)
        around = self.around_render(call) if call is not None else None
        reads = self._names_out_of_reach(element, base)
        if around is not None and call is not None:
            reads += [n for n in self._names_out_of_reach(call, base) if n not in reads]
        if around is None and binding.render.svg:
            around = ("<svg>", "</svg>")
        hidden = [name for name in reads if not self._hoist_data(name, element)]
        if hidden:
            raise Untranslatable(
                "setProps() re-renders an element that uses names declared where it was "
                f"rendered ({', '.join(hidden)}), out of reach here"
            )
        self._merge_props(binding, obj)
        was = line_indent(self.src, element.start_byte)
        element_code = self.jsx_with(element, binding.overrides)
        site = line_indent(self.src, base.start_byte)
        if "\n" not in element_code:
            if around is not None:
                element_code = f"{around[0]}{element_code}{around[1]}"
            return f"{self.member(binding, 'rerender')}({element_code});"
        # An element over several lines goes on lines of its own, indented one step from the
        # call, its closing tag under its opening one (as Prettier writes it, and as
        # react/jsx-closing-tag-location asks); a copy keeps its original's indentation else.
        lines = reindent((was + element_code).split("\n"), site + "  ").split("\n")
        if around is not None:
            lines = [
                f"{site}  {around[0]}",
                *("  " + line for line in lines),
                f"{site}  {around[1]}",
            ]
        body = "\n".join(lines)
        return f"{self.member(binding, 'rerender')}(\n{body}\n{site});"

    def _render_of(self, node: Node | None) -> Node | None:
        """The Enzyme render call of ``node`` (its element, or the declaration holding the
        render); None for another function's render (the file's own wrappers, helpers)."""
        while node is not None and node.type != "call_expression":
            if node.type == "variable_declarator":
                node = self.render_call_of(node.child_by_field_name("value"))
                break
            node = node.parent
        if node is None or not self.is_render_call(node):
            return None
        name = text(node.child_by_field_name("function"))
        if name in self.wrapper_functions or name in self.helper_renders:
            return None
        return node

    @staticmethod
    def _merge_props(binding: Binding, obj: Node) -> None:
        """The props of ``setProps(obj)`` over those the binding's element has had set so far
        (``binding.overrides``, in the order set)."""

        def put(key: str, value: str | None) -> None:
            binding.overrides.pop(key, None)  # a later setProps puts it after earlier spreads
            binding.overrides[key] = value

        if obj.type != "object":
            put(f"...{len(binding.overrides)}", text(obj))
        for pair in obj.named_children if obj.type == "object" else []:
            if pair.type == "pair":
                key = pair_key(pair)
                value = pair.child_by_field_name("value")
                put(key, None if text(value) == "undefined" else text(value))
            elif pair.type == "shorthand_property_identifier":
                put(text(pair), text(pair))
            elif pair.type == "spread_element" and pair.named_children:
                put(f"...{len(binding.overrides)}", text(pair.named_children[0]))
            else:
                raise Untranslatable("setProps() with a computed key or a method")

    def _element_held(self, binding: Binding, site: Node) -> str | None:
        """``const wrapper = mount(component)``: the name of the variable holding the element
        the declaration renders, when ``site`` is inside the function the render is in (where
        that name means the same); None otherwise."""
        declarator = binding.node
        if binding.element is not None or declarator is None:
            return None
        if declarator.type != "variable_declarator":
            return None
        call = self.render_call_of(declarator.child_by_field_name("value"))
        args = args_of(call) if call is not None else []
        first = unwrap(args[0]) if args else None
        if call is None or first is None or first.type != "identifier":
            return None
        owner = enclosing_function(call)
        if owner is not None and not owner.start_byte <= site.start_byte < owner.end_byte:
            return None  # another function's variable
        return text(first)

    def _element_at(self, binding: Binding, site: Node, ctx: Ctx) -> Node | None:
        """The element ``binding`` holds at ``site``: the one every render into it renders;
        else, in a test, the last one its own code rendered into it before ``site``; None
        where that is not known (a function the tests share, a test that rendered none)."""
        renders = self.rendered_into(binding)
        if not renders:
            return binding.element
        if len({text(element) for _at, element in renders}) == 1:
            return renders[0][1]
        owner = ctx.owner if ctx.test is not None else None
        if owner is None:
            return None
        before = [
            element
            for at, element in renders
            if owner.start_byte <= at.start_byte and at.end_byte <= site.start_byte
        ]
        if before:
            return before[-1]
        # Else the render of a beforeEach around the test (the innermost one's).
        hooked = [element for at, element in renders if self._hook_around(at, site)]
        return hooked[-1] if len(hooked) == 1 else None

    def _hook_around(self, node: Node, site: Node) -> bool:
        """Whether ``node`` is in a ``beforeEach``/``beforeAll`` callback of a block that holds
        ``site`` too."""
        current = node.parent
        while current is not None:
            if current.type == "call_expression" and self.callee_name(current) in (
                "beforeEach",
                "beforeAll",
            ):
                block = ancestor(current, ("statement_block", "program"))
                return block is not None and block.start_byte <= site.start_byte < block.end_byte
            current = current.parent
        return False

    @staticmethod
    def _names_out_of_reach(element: Node, site: Node) -> list[str]:
        """Names the element reads that are declared in a function around the element but not
        around ``site`` (``const options = […]`` inside the ``beforeEach`` that rendered it):
        a copy of the element at ``site`` could not see them."""
        used = {
            text(n)
            for n in walk(element)
            if n.type in ("identifier", "shorthand_property_identifier")
            and not (
                n.parent is not None
                and n.parent.type == "member_expression"
                and n.parent.child_by_field_name("property") == n
            )
        }
        hidden: list[str] = []
        scope = element.parent
        while scope is not None:
            if scope.type in ("statement_block",) and not (
                scope.start_byte <= site.start_byte < scope.end_byte
            ):
                for stmt in scope.named_children:
                    if stmt.type not in ("lexical_declaration", "variable_declaration"):
                        continue
                    for declarator in stmt.named_children:
                        name = declarator.child_by_field_name("name")
                        if name is not None and text(name) in used and text(name) not in hidden:
                            hidden.append(text(name))
            scope = scope.parent
        return hidden

    _DATA = frozenset(
        {
            "array",
            "object",
            "pair",
            "string",
            "string_fragment",
            "escape_sequence",
            "number",
            "true",
            "false",
            "null",
            "undefined",
            "property_identifier",
            "comment",
            "unary_expression",
            "template_string",
        }
    )

    def _hoist_data(self, name: str, element: Node) -> bool:
        """``const options = [{ label: 'a' }, …]`` declared in the hook that rendered the
        element, read by it: the declaration moves out of the hook, just before it, so a
        re-render in a test sees the same data. Only plain data (literals, arrays, objects)
        that nothing assigns or mutates moves: recreating it per test or once is then the
        same."""
        scope = element.parent
        declaration = None
        while scope is not None and declaration is None:
            if scope.type == "statement_block":
                for stmt in scope.named_children:
                    if stmt.type == "lexical_declaration" and len(stmt.named_children) == 1:
                        declarator = stmt.named_children[0]
                        if text(declarator.child_by_field_name("name")) == name:
                            declaration = stmt
            scope = scope.parent
        if declaration is None or not text(declaration).startswith("const"):
            return False
        if declaration.id in self.hoisted:
            return True
        value = declaration.named_children[0].child_by_field_name("value")
        if value is None or any(n.is_named and n.type not in self._DATA for n in walk(value)):
            return False
        # The hook call holding the declaration, at the level of a describe or the file.
        hook = declaration.parent
        while hook is not None and not (
            hook.type == "expression_statement"
            and hook.parent is not None
            and hook.parent.type in ("statement_block", "program")
            and hook.named_children
            and hook.named_children[0].type == "call_expression"
            and self.callee_name(hook.named_children[0]) in ("beforeEach", "beforeAll")
        ):
            hook = hook.parent
        if hook is None or hook.parent is None:
            return False
        for n in walk(self.tree.root_node):
            if n.type != "identifier" or text(n) != name:
                continue
            parent = n.parent
            if (
                parent is not None
                and parent.type == "variable_declarator"
                and n == (parent.child_by_field_name("name"))
                and parent.parent != declaration
            ):
                return False  # another declaration of the name: the move could shadow it
            if parent is not None and parent.type in (
                "assignment_expression",
                "augmented_assignment_expression",
                "update_expression",
            ):
                return False
            if parent is not None and parent.type == "member_expression":
                above = parent.parent
                if (
                    above is not None
                    and above.type
                    in (
                        "assignment_expression",
                        "augmented_assignment_expression",
                        "update_expression",
                        "call_expression",
                    )
                    and not (
                        above.type == "call_expression"
                        and text(parent.child_by_field_name("property"))
                        in ("map", "filter", "find", "slice", "forEach", "some", "every", "length")
                    )
                ):
                    return False
        self.hoisted.add(declaration.id)
        indent = line_indent(self.src, hook.start_byte)
        inner = len(line_indent(self.src, declaration.start_byte))
        moved = "\n".join(
            indent + line[inner:] if i and line.strip() else line
            for i, line in enumerate(text(declaration).splitlines())
        )
        start = line_start(self.src, declaration.start_byte)
        end = declaration.end_byte
        while self.src[end : end + 1] == b"\n":
            end += 1
            if self.src[end : end + 1] != b"\n" or self.src[end - 2 : end - 1] == b"{":
                break
        self.edits.append(Edit(start, end, ""))
        self.edits.append(
            Edit(
                line_start(self.src, hook.start_byte),
                line_start(self.src, hook.start_byte),
                f"{indent}{moved}\n\n",
            )
        )
        return True

    def jsx_with(self, element: Node, overrides: dict[str, str | None]) -> str:
        """``element`` with ``overrides`` applied: attributes replaced in place, or (once a
        spread is among them) all of them after the element's own, in order."""
        opening = (
            element
            if element.type == "jsx_self_closing_element"
            else (element.child_by_field_name("open_tag"))
        )
        assert opening is not None
        base = element.start_byte
        edits: list[tuple[int, int, str]] = []
        if "children" in overrides:
            # New children go between the tags (JSX children are the `children` prop).
            overrides = dict(overrides)
            children = overrides.pop("children")
            inner = "" if children is None else f"{{{children}}}"
            if element.type == "jsx_element":
                close = element.child_by_field_name("close_tag")
                assert close is not None
                edits.append((opening.end_byte, close.start_byte, inner))
            elif inner:
                name = text(opening.child_by_field_name("name"))
                start = opening.end_byte - 2
                while self.src[start - 1 : start] in (b" ", b"\n", b"\t"):
                    start -= 1
                edits.append((start, opening.end_byte, f">{inner}</{name}>"))
        spreads = any(k.startswith("...") for k in overrides)
        seen = set()
        attributes = [c for c in opening.named_children if c.type == "jsx_attribute"]
        for attr in attributes:
            name_node = attr.named_children[0] if attr.named_children else None
            name = text(name_node)
            if name in overrides:
                seen.add(name)
                value = overrides[name]
                if value is None or spreads:
                    start = attr.start_byte
                    while start > opening.start_byte and self.src[start - 1 : start] in (
                        b" ",
                        b"\n",
                        b"\t",
                    ):
                        start -= 1
                    edits.append((start, attr.end_byte, ""))
                else:
                    edits.append((attr.start_byte, attr.end_byte, self._jsx_attr(name, value)))
        added = [
            f"{{...{v}}}"
            if k.startswith("...")
            else self._jsx_attr(k, "undefined" if v is None else v)
            for k, v in overrides.items()
            if spreads or (k not in seen and v is not None)
        ]
        if element.id in self.element_refs and "ref" not in overrides:
            added.append(f"ref={{{self.element_refs[element.id]}}}")
        instance = self.instance_element(element)
        if instance is not element and instance.id in self.element_refs:
            edits.append(self.ref_attribute(instance))
        if added:
            end = opening.end_byte - (2 if element.type == "jsx_self_closing_element" else 1)
            while self.src[end - 1 : end] in (b" ", b"\n"):
                end -= 1
            edits.append((end, end, " " + " ".join(added)))
        return splice(self.src, base, element.end_byte, edits)

    @staticmethod
    def _jsx_attr(name: str, value: str) -> str:
        if value == "true":
            return name
        if re.fullmatch(r"'[^'\\\"\n]*'", value):
            return f'{name}="{value[1:-1]}"'
        if re.fullmatch(r'"[^"\\\n]*"', value):
            return f"{name}={value}"
        return f"{name}={{{value}}}"


def _key(name: str) -> str:
    """A prop's name as an object literal's key."""
    return name if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else js_string(name)


STORE_STATE_NOTE = (
    "setProps() spread mapStateToProps(…) over the props of the component inside connect(); "
    "the re-render renders connect() around it, which computes them from the store with the "
    "new props, so the spread goes"
)


def _store_state(prop: Node) -> bool:
    """``...mapStateToProps(…)`` among an object's properties."""
    if prop.type != "spread_element" or not prop.named_children:
        return False
    call = unwrap(prop.named_children[0])
    fn = call.child_by_field_name("function") if call is not None else None
    return call is not None and call.type == "call_expression" and text(fn) == "mapStateToProps"


def _with_update(obj: Node) -> str:
    """The props of ``setProps(obj)`` with ``rerendered: {}`` added (see ``rerender``): after
    the last of an object's own, on a line of its own where they are on several; after a
    variable's spread."""
    if obj.type != "object":
        return f"{{ ...{text(obj)}, {_UPDATE}: {{}} }}"
    if not obj.named_children:
        return f"{{ {_UPDATE}: {{}} }}"
    code = text(obj)
    inner = code[1:-1].rstrip()
    if "\n" not in inner:
        return f"{{ {inner.strip().rstrip(',')}, {_UPDATE}: {{}} }}"
    last = obj.named_children[-1]
    indent = " " * last.start_point[1]
    close = code[code.rfind("\n") :]  # the closing brace's own line
    return f"{{{inner.rstrip(',')},\n{indent}{_UPDATE}: {{}},{close}"

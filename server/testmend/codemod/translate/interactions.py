"""Values and user actions: expressions over wrappers, the statements that act on one
(``simulate`` and handler calls go to ``events``, ``setProps`` to ``rerender``), class
internals through a ref, calls of helpers that take a wrapper."""

from __future__ import annotations

import re

from ..syntax import (
    Node,
    args_of,
    js_string,
    prop_access,
    string_value,
    text,
    unwrap,
    walk,
)
from .chains import prop_read_key
from .events import Events
from .state import SHOWN_TEXT, Binding, Ctx, Target, Untranslatable
from .tables import FORM_CONTROLS, SELECT_OPS, UNTRANSLATABLE

_INTERNALS = ("state", "setState", "instance")

CALLBACK_NOTE = (
    "calls {callee} directly, through the recording: no element it rendered calls that prop "
    "on an event with what the test passes (the capture saw none holding it as its handler, "
    "or the test passes a value no event carries). A user's action on what it renders, "
    "asserted by its effect, would test the wiring too"
)


class Interactions(Events):
    """Values read from wrappers, and the user actions and re-renders."""

    def _raw_op(self, op: str, args: list[Node]) -> str:
        if op.startswith("."):
            return op
        if op == "[]":
            return f"[{text(args[0])}]" if args else ""
        return f".{op}({', '.join(text(a) for a in args)})"

    # -- values and actions ------------------------------------------------------------------

    def each_element(self, expr: Node, ctx: Ctx) -> bool:
        """``wrapper.find('li').forEach((li, i) => { … })`` (or over a variable holding such a
        list): the DOM's list of the elements selected, the callback's first parameter bound
        to each element as a selection variable is, so that its statements translate where
        they are when the walk goes on into it. False (nothing done) for anything else."""
        fn = expr.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        args = args_of(expr)
        callback = unwrap(args[0]) if len(args) == 1 else None
        if fn is None or prop is None or text(prop) != "forEach" or callback is None:
            return False
        if callback.type not in ("arrow_function", "function_expression"):
            return False
        params = callback.child_by_field_name("parameters") or callback.child_by_field_name(
            "parameter"
        )
        first = params if params is not None and params.type == "identifier" else None
        if params is not None and first is None and params.named_children:
            first = params.named_children[0]  # `(li, i)`; in TypeScript a required_parameter
            first = first.child_by_field_name("pattern") or first
        chain = self.chain(fn.child_by_field_name("object") or fn)
        if first is None or first.type != "identifier" or chain is None:
            return False  # a destructured element (`({ props }) => …`) is no element
        base, ops = chain
        target, rest = self.resolve(base, ops, ctx, "list")
        if rest or not (target.multi or target.kind in ("css", "query")):
            return False
        target.multi = True
        items = self.list_code(target, "getAll")
        obj = fn.child_by_field_name("object") or fn
        if items != text(obj):
            self.replace(obj, items)
        else:
            self.claimed.append((obj.start_byte, obj.end_byte))
        held = target.binding.target if target.kind == "var" and target.binding else target
        # An element of the list, read through its name; no selector of its own, so a find
        # under it is refused rather than searched in the whole document.
        element = Target(
            "query",
            multi=False,
            captured=held.captured if held is not None else (),
            scope=held.scope if held is not None else "document",
        )
        self.add_binding(Binding(text(first), "derived", first, target=element))
        if params is not None:
            self.claimed.append((params.start_byte, params.end_byte))  # `(li, i)`: declared
        return True

    def value(self, node: Node, ctx: Ctx) -> str:
        """Translate an expression used as a value (arguments, right-hand sides)."""
        if not self.refs_wrapper(node):
            return text(node)
        chain = self.chain(node)
        if chain is None:
            call = self.render_call_of(node)
            if call is not None:
                return self.render_code(call, ctx)
            return self._compound_value(node, ctx)
        base, ops = chain
        internal = self.class_internal(base, ops, ctx)
        if internal is not None:
            return internal
        recorded = self.recorded_read(base, ops, ctx)
        if recorded is not None and recorded[2] != "invoke":
            props, after, _op = recorded
            return props + "".join(self._raw_op(o, a) for o, a, _n in after)
        target, rest = self.resolve(base, ops, ctx, "element")
        self.fallback_note(target, ctx)
        if not rest:
            if target.kind == "root":
                raise Untranslatable("passes the Enzyme wrapper around")
            if target.multi and target.index is None:
                return self.list_code(target, "getAll")
            return self.element_code(target, "get")
        style = self.style_read([(o, a) for o, a, _n in rest])
        if style is not None:
            self._dom_style(target)
            tail = "".join(self._raw_op(o, a) for o, a, _ in rest[style[1] :])
            return f"{self.element_code(target, 'get', non_null=True)}.style{style[0]}{tail}"
        op, args, _n = rest[0]
        tail = "".join(self._raw_op(o, a) for o, a, _ in rest[1:])
        if op == "text":
            element = (
                self.member_of(target, "container")
                if target.kind == "root"
                else self.element_code(target, "get")
            )
            return f"{element}.textContent{tail}"
        if op == "html" and not args:
            # As the assertions read it: the render's HTML, or the element's own.
            if target.kind == "root":
                return f"{self.member_of(target, 'container')}.innerHTML{tail}"
            return f"{self.element_code(target, 'get')}.outerHTML{tail}"
        if op == ".length":
            return f"{self.list_code(target, 'queryAll')}.length{tail}"
        if op == "exists":
            return f"({self.element_code(target, 'query')} !== null){tail}"
        if op == "getDOMNode":
            return f"{self.element_code(target, 'get')}{tail}"
        if self.dom_instance(target, op, args):
            return f"{self.dom_node_code(target, bool(tail))}{tail}"
        if op == "map" and args:
            return f"{self.map_code(target, args[0])}{tail}"
        if op == "hasClass" and args:
            return f"{self.element_code(target, 'get')}.classList.contains({text(args[0])}){tail}"
        read = rest[:1] if op == "prop" else rest[:2]  # prop('k'), props().k
        key = prop_read_key([(o, a) for o, a, _n in read]) if op in ("prop", "props") else None
        if key is not None:
            tail = "".join(self._raw_op(o, a) for o, a, _ in rest[len(read) :])
            return self._prop_value(target, ops[: len(ops) - len(rest)], key, ctx) + tail
        if op in UNTRANSLATABLE:
            raise Untranslatable(UNTRANSLATABLE[op])
        raise Untranslatable(f"reads {op.lstrip('.')} of the Enzyme wrapper")

    def _prop_value(
        self,
        target: Target,
        selection: list[tuple[str, list[Node], Node]],
        key: str,
        ctx: Ctx,
    ) -> str:
        """``find(…).prop('k')`` (``props().k``) used as a value: a child component's prop from
        its recorded props (a find by CSS that selected its node), a form control's ``value``
        as the DOM property React sets, the ``className`` as the element's; Untranslatable
        otherwise."""
        shown = target.shown_attribute(key)
        if shown == SHOWN_TEXT:
            return f"{self.read_of(target)}.textContent"  # what the user reads of the prop
        if shown is not None:
            # What the user sees of the prop: the attribute the capture saw it become.
            return f"{self.read_of(target)}.getAttribute({js_string(shown)})"
        recorded = self.recorded_selection_props(selection, ctx)
        if recorded is not None:
            return f"{recorded}{self._prop_read('prop', key, [])}"
        if target.component or (self._shallow_root(target) and target.kind == "root"):
            raise Untranslatable(f"reads the prop {key} of a component")
        if key == "value":
            tags = {e.tag for e in target.captured}
            if tags - set(FORM_CONTROLS):
                raise Untranslatable("reads the value prop of an element that is no form control")
            element = self.read_of(target)
            if self.ts:
                kind = FORM_CONTROLS[tags.pop()] if len(tags) == 1 else "HTMLInputElement"
                if element.endswith("?"):  # a querySelector's, read through `?.`
                    element = f"({element[:-1]} as {kind} | null)?"
                else:
                    element = f"({element} as {kind})"
            return f"{element}.value"
        if key == "className":
            return f"{self.read_of(target)}.className"
        raise Untranslatable(f"reads the prop {key} as a value")

    def style_read(self, ops: list[tuple[str, list[Node]]]) -> tuple[str, int] | None:
        """``prop('style').maxHeight``, ``prop('style')[k]``, ``props().style.maxHeight`` at
        the start of ``ops`` → (the read after ``.style``, how many ops that is), or None.
        Read on the element's own ``style``: React wrote each key there (a whole style object
        has no such equivalent)."""
        if (
            len(ops) >= 2
            and ops[0][0] == "prop"
            and len(ops[0][1]) == 1
            and string_value(ops[0][1][0]) == "style"
            and self._key_op(ops[1])
        ):
            return self._raw_op(ops[1][0], ops[1][1]), 2
        if (
            len(ops) >= 3
            and ops[0][0] == "props"
            and ops[1][0] == ".style"
            and self._key_op(ops[2])
        ):
            return self._raw_op(ops[2][0], ops[2][1]), 3
        return None

    @staticmethod
    def _key_op(op: tuple[str, list[Node]]) -> bool:
        return (op[0].startswith(".") and op[0] != ".length") or (op[0] == "[]" and bool(op[1]))

    def _dom_style(self, target: Target) -> None:
        if target.component or (
            target.kind == "root" and target.render.shallow and target.render.component_root
        ):
            raise Untranslatable("reads the style prop of a component; use toHaveStyle")

    def _compound_value(self, node: Node, ctx: Ctx) -> str:
        """An expression built from reads of wrappers (``a.hasClass(x) && b.length === 1``,
        ``!w.exists()``, ``Number(w.text())``): each read translated in place, the operators
        and calls around them unchanged."""
        node = unwrap(node) or node
        parts: list[Node] = []
        body = node.child_by_field_name("body") if node.type == "arrow_function" else None
        call = self.render_call_of(body) if body is not None else None
        if call is not None:
            # ``() => shallow(<X />)`` (``expect(…).not.toThrow()``): the same render, in RTL.
            span = self.render_span(call)
            code = self.render_code(call, ctx)
            return (
                self.src[node.start_byte : span.start_byte].decode()
                + code
                + self.src[span.end_byte : node.end_byte].decode()
            )
        if node.type in ("binary_expression", "unary_expression", "ternary_expression"):
            parts = list(node.named_children)
        elif node.type == "call_expression" and not self.is_render_call(node):
            fn = node.child_by_field_name("function")
            if fn is not None and not self.refs_wrapper(fn):
                parts = args_of(node)
            elif fn is not None and fn.type == "member_expression":
                # `String(w.prop('value')).trim()`: a method of a value built from a read
                obj = fn.child_by_field_name("object")
                if obj is not None and self.chain(obj) is None:
                    parts = [obj, *args_of(node)]
        if not parts:
            raise Untranslatable("uses the Enzyme wrapper inside a larger expression")
        out = self.src[node.start_byte : node.end_byte]
        for part in sorted(parts, key=lambda p: p.start_byte, reverse=True):
            if part.type == "comment" or not self.refs_wrapper(part):
                continue
            new = self.value(part, ctx).encode()
            start, end = part.start_byte - node.start_byte, part.end_byte - node.start_byte
            out = out[:start] + new + out[end:]
        return out.decode()

    def action(self, expr: Node, ctx: Ctx) -> str | None:
        """A statement-level call on a wrapper; '' to drop it; None when not a wrapper call."""
        if expr.type == "call_expression":
            fn = expr.child_by_field_name("function")
            if fn is not None and text(fn) == "console.log":
                args = args_of(expr)
                if len(args) == 1:
                    chain = self.chain(args[0])
                    if chain and chain[1] and chain[1][-1][0] == "debug":
                        self.need("screen")
                        return "screen.debug();"
        alias = self.alias_called(expr) if expr.type == "call_expression" else None
        event = self.child_handler_call(expr, ctx)
        if event is None and alias is None:
            event = self.recorded_call(expr, ctx)
        if event is None:
            event = self.element_handler_call(expr, ctx)
        if event is not None:
            if alias is not None:
                alias.handler_calls_left -= 1
            return event
        if alias is not None:
            raise Untranslatable(
                f"calls {alias.name}, a handler read from the wrapper, where no element's "
                "event stands for the call"
            )
        chain = self.chain(expr)
        if chain is None:
            return None
        base, ops = chain
        if not ops:
            return None
        event = self.instance_event(ops, ctx)  # a method an element holds as its handler
        if event is not None:
            return event
        internal = self.class_internal(base, ops, ctx, optional=True)
        if internal is not None:
            # setState and method calls update the component: act flushes it, as Enzyme did.
            return f"{self.need('act')}(() => {{\x00  {internal};\x00}});"
        for i, (op, _a, _n) in enumerate(ops):
            if op in UNTRANSLATABLE and not (op == "instance" and i):  # a found node's: below
                raise Untranslatable(UNTRANSLATABLE[op])
        last, largs, _ = ops[-1]
        if last == "update" and all(o in SELECT_OPS or o == "update" for o, _a, _n in ops):
            return ""
        if last in ("unmount", "detach") and len(ops) == 1:
            # detach(): a render attached to a node of the test's (`attachTo`) unmounted from it.
            binding = self.binding_named(text(base), base) if base.type == "identifier" else None
            if ctx.hook in ("afterEach", "afterAll"):
                return ""
            return f"{self.member(binding, 'unmount')}();"
        if last == "setProps" and len(ops) == 1:
            return self.rerender(base, largs, ctx)
        if last == "debug":
            self.need("screen")
            return "screen.debug();"
        if last == "simulate":
            target, rest = self.resolve(base, ops[:-1], ctx, "element")
            if rest:
                raise Untranslatable("simulate() after an operation testmend cannot translate")
            if largs and string_value(largs[0]) == "submit":
                data = largs[1] if len(largs) > 1 else None
                find = self._find_of(base, ops[:-1])
                submitted = self._submitted_by_click(target, find, data, largs[0], ctx)
                if submitted is not None:
                    return submitted
            self.fallback_note(target, ctx)
            return self.fire(target, largs, ctx)
        if last in ("prop", "props", "invoke"):
            raise Untranslatable(UNTRANSLATABLE["invoke"])
        target, rest = self.resolve(base, ops, ctx, "element")
        if rest and rest[0][0] == "getDOMNode":
            element = self.element_code(target, "get")
            tail = "".join(self._raw_op(o, a) for o, a, _n in rest[1:])
            return f"{element}{tail};"
        if rest and self.dom_instance(target, rest[0][0], rest[0][1]):
            tail = "".join(self._raw_op(o, a) for o, a, _n in rest[1:])
            return f"{self.dom_node_code(target, bool(tail))}{tail};"
        if rest and rest[0][0] == "instance":
            raise Untranslatable(UNTRANSLATABLE["instance"])
        if (rest and rest[0][0] in ("prop", "props")) or any(
            o in ("prop", "props") for o, _a, _n in rest
        ):
            raise Untranslatable(UNTRANSLATABLE["invoke"])
        raise Untranslatable(
            f"calls {(rest[0][0] if rest else last).lstrip('.')}() on the Enzyme wrapper"
        )

    def recorded_call(self, expr: Node, ctx: Ctx) -> str | None:
        """A statement calling a recorded component's callback prop
        (``wrapper.find(C).prop('onX')(v)``, ``.props().onX(v)``, ``.invoke('onX')(v)``) → the
        same call inside ``act``, or None."""
        expr = unwrap(expr) or expr
        if expr.type != "call_expression":
            return None
        fn = unwrap(expr.child_by_field_name("function"))
        chain = self.chain(fn) if fn is not None and fn.type == "call_expression" else None
        if chain is not None:
            # `…prop('onX')(v)` / `…invoke('onX')(v)`
            read = self.recorded_read(chain[0], chain[1])
            if read is None or read[1] or read[2] == "props":
                return None
            callee = read[0]
            cast = _asserted_type(expr.child_by_field_name("function"))
            call_args = ", ".join(self.value(a, ctx) for a in args_of(expr))
        else:
            chain = self.chain(expr)
            if chain is None:
                return None
            read = self.recorded_read(chain[0], chain[1])
            if read is None or read[2] != "props" or len(read[1]) != 1:
                return None
            # chain() reads `.props().onX(v)` as a call op named `onX` (`.onX` is a read)
            member, margs, _node = read[1][0]
            if member.startswith("."):
                return None
            callee = f"{read[0]}.{member}"
            cast = None
            call_args = ", ".join(self.value(a, ctx) for a in margs)
        prop = re.fullmatch(r"recordedProps\((\w+)\).*?\.(\w+)", callee)
        named = f"{prop[1]}'s {prop[2]}" if prop else callee
        message = CALLBACK_NOTE.format(callee=named)
        if ("review", message) not in self.pending_notes:
            self.pending_notes.append(("review", message))
        if cast is not None:
            # `(x.prop('onClose') as any)()`: the test's own cast on the callback, without which
            # its declared type (optional, taking an event) refuses the call.
            callee = f"({callee} as {cast})"
        return f"{self.need('act')}(() => {{\x00  {callee}({call_args});\x00}});"

    def class_internal(
        self,
        base: Node,
        ops: list[tuple[str, list[Node], Node]],
        ctx: Ctx,
        *,
        optional: bool = False,
    ) -> str | None:
        """``state()``, ``setState()``, ``instance()`` on a root wrapper with a ref: the same
        through the ref to the class instance, with a review note (a user-level assertion
        survives refactors; this one reads internals).

        In TypeScript the ref's ``current`` may be null: where the code stands for an
        ``expect``'s subject or a call as a statement (``optional``), it is read through
        ``?.`` (a null instance fails the assertion, or the test's later ones), as lint
        forbids the non-null assertion in many projects (``no-non-null-assertion``); as a
        value handed on (``jest.spyOn(ref.current!, 'close')``, ``const items = …``) it keeps
        the ``!`` its type needs."""
        if base.type != "identifier" or not ops:
            return None
        binding = self.binding_named(text(base), base)
        op, args, _node = ops[0]
        if binding is not None and binding.instance_behind and op in _INTERNALS:
            raise Untranslatable(
                f"reads the instance of {binding.instance_behind} ({op}()): a ref on the "
                "rendered element does not reach it; assert on what the user sees instead"
            )
        if binding is None or binding.ref is None or op not in _INTERNALS:
            return None
        current = f"{binding.ref}.current"
        tail = "".join(self._raw_op(o, a) for o, a, _n in ops[1:])
        if self.ts:
            # `?.` before what is read from the instance; `!` where the instance is handed on.
            current += ("?" if tail or op != "instance" else "") if optional else "!"
        if op == "instance" and not args:
            code = current
        elif op == "state" and not args:
            code = f"{current}.state"
        elif op == "state" and len(args) == 1:
            key = string_value(args[0])
            read = prop_access(key) if key is not None else f"[{text(args[0])}]"
            code = f"{current}.state{read}"
        elif op == "setState":
            code = f"{current}.setState({', '.join(text(a) for a in args)})"
        else:
            return None
        noted = (ctx.test.name if ctx.test is not None else str(ctx.owner), f"ref:{binding.ref}")
        if noted not in self.fallbacks_noted:  # once per test
            self.fallbacks_noted.add(noted)
            self.pending_notes.append(
                (
                    "review",
                    "uses the class component's internals (state, setState, instance) through a "
                    "ref; an assertion on what the user sees would survive a refactor",
                )
            )
        if code.endswith("?"):  # instance() read further: `ref.current?.close()`, `?.[k]`
            return code + ("" if tail.startswith(".") else ".") + tail
        return code + tail

    @staticmethod
    def dom_instance(target: Target, op: str, args: list[Node]) -> bool:
        """``instance()`` of an element a find selected (``find('input').instance().value``),
        as the capture saw it (a component's node, which a class selector may select too, gives
        its class instance): in a full render, Enzyme gives the DOM node, as ``getDOMNode()``
        does (a shallow render throws for any but the root)."""
        return (
            op == "instance"
            and not args
            and target.kind != "root"
            and not target.component
            and bool(target.captured)
        )

    def dom_node_code(self, target: Target, read: bool) -> str:
        """The DOM node ``target`` stands for; where the code reads it further (``.value``,
        ``.selectionStart``) in TypeScript, known to be there, and a query's typed as the form
        control it is (a CSS lookup by the tag is typed so already)."""
        element = self.element_code(target, "get", non_null=read)
        tags = {e.tag for e in target.captured}
        if self.ts and read and target.kind == "query" and len(tags) == 1:
            tag = tags.pop()
            if tag in FORM_CONTROLS:
                return f"({element} as {FORM_CONTROLS[tag]})"
        return element

    def _wrapper_only_passed_to_helpers(self, stmt: Node) -> bool:
        """A statement whose only use of wrappers is passing them to local helpers that take a
        wrapper parameter (``expect(isActive(wrapper)).toBe(true)``): it stays as written; the
        helpers' bodies are translated, and the argument goes with the parameter when the
        body no longer needs it."""
        uses: list[tuple[str, int, Node, Node]] = []
        for n in walk(stmt):
            if n.type == "call_expression" and self.is_render_call(n):
                return False
            if n.type != "identifier" or self._is_declaration_name(n):
                continue
            name = text(n)
            if self.is_dead(n):
                return False
            if self.binding_named(name, n) is None:
                continue
            arguments = n.parent
            call = arguments.parent if arguments is not None else None
            if arguments is None or arguments.type != "arguments" or call is None:
                return False
            fn = call.child_by_field_name("function")
            if fn is None or fn.type != "identifier" or self.is_selection_helper_call(call):
                return False
            index = args_of(call).index(n) if n in args_of(call) else -1
            if index < 0 or self._param_of(text(fn), index) is None:
                return False
            uses.append((text(fn), index, call, n))
        if not uses:
            return False
        self.param_call_args.extend(uses)
        self.claimed.append((stmt.start_byte, stmt.end_byte))
        return True

    def _wrapper_arg_call(self, stmt: Node, call: Node) -> bool:
        """``helper(wrapper, ...)`` calling a local function whose wrapper parameter goes."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier" or self.is_selection_helper_call(call):
            return False
        for index, arg in enumerate(args_of(call)):
            ident = unwrap(arg)
            if ident is None or ident.type != "identifier":
                continue
            binding = self.binding_named(text(ident), ident)
            param = self._param_of(text(fn), index)
            if binding is not None and param is not None:
                self.param_call_args.append((text(fn), index, call, ident))
                self.claimed.append((stmt.start_byte, stmt.end_byte))
                # Other arguments may still need translation: none expected (selectors).
                return True
        return False


def _asserted_type(node: Node | None) -> str | None:
    """The type of the outermost ``as T`` around an expression, through parentheses
    (``(x.prop('onClose') as any)`` → ``any``); None without one."""
    while node is not None and node.type == "parenthesized_expression":
        named = [c for c in node.named_children if c.type != "comment"]
        node = named[0] if named else None
    if node is None or node.type != "as_expression" or len(node.named_children) < 2:
        return None
    return text(node.named_children[-1])

"""The statement walker: tests, hooks and helpers, declarations of wrappers, statements kept,
replaced, removed or commented out."""

from __future__ import annotations

import re

from ..models import NoteKind
from ..syntax import (
    FUNCTION_TYPES,
    Edit,
    Node,
    line_indent,
    line_start,
    object_items,
    splice,
    text,
    unwrap,
    walk,
)
from .render_first import RenderFirst
from .state import Binding, Ctx, Dropped, Target, Untranslatable, one_line
from .tables import (
    DESCRIBE_FUNCS,
    HOOKS,
    NAMES,
    SELECT_OPS,
    UNTRANSLATABLE,
    WRAPPER_TYPES,
)

# An event Testing Library dispatches: a handler's error is reported (jsdom's "Uncaught"), not
# thrown to the caller as Enzyme's simulate() threw it.
_EVENTS = re.compile(r"\bfireEvent\b|\buser(?:Event)?\.\w+\(")
_EVENT_THROWS = (
    "fires an event in a function expected to throw (or not): a Testing Library event reports "
    "a handler's error instead of throwing it"
)


_FUNCTIONS = (*FUNCTION_TYPES, "method_definition")
_HOLDERS = ("return_statement", "lexical_declaration", "variable_declaration")
"""Statements that can hold functions as values (``return { act: () => { … } }``)."""
# Values built around reads of wrappers (``jest.spyOn(wrapper.instance(), 'x')``, ``a && b``).
_COMPOUND = ("call_expression", "binary_expression", "unary_expression", "ternary_expression")


class Statements(RenderFirst):
    """Walks the file statement by statement and dispatches to the other parts."""

    def process_block(self, block: Node, ctx: Ctx) -> None:
        for stmt in block.named_children:
            self.process_statement(stmt, ctx)

    def _ctx_for_function(self, fn: Node, ctx: Ctx) -> Ctx:
        test = self.test_by_body.get(fn.id)
        if test is not None:
            for bindings in self.bindings.values():
                for binding in bindings:
                    binding.overrides = {}
            return Ctx(test=test, owner=fn, hook=None)
        parent_call = fn.parent.parent if fn.parent is not None else None
        name = None
        if parent_call is not None and parent_call.type == "call_expression":
            name = self.callee_name(parent_call)
            if name in HOOKS:
                return Ctx(test=ctx.test, owner=fn, hook=name)
        if ctx.owner is None or (ctx.test is None and ctx.hook is None and not ctx.helper):
            # A describe callback, or a function of the file's own at its top or in a describe.
            return Ctx(test=ctx.test, owner=fn, hook=ctx.hook, helper=name not in DESCRIBE_FUNCS)
        return ctx

    def process_statement(self, stmt: Node, ctx: Ctx) -> None:
        if stmt.type == "comment" or self.is_claimed(stmt) or stmt.start_byte >= self.virtual_from:
            return
        if stmt in self.enzyme_import_nodes or stmt.type == "import_statement":
            return
        if any(stmt == helper for helper, _returned in self.selection_helpers.values()):
            self.remove_statement(
                stmt, "removed a helper returning an Enzyme selection; its calls query the DOM"
            )
            return
        try:
            if self.dead_names and self._refs_dead(stmt) and not self._has_nested_block(stmt):
                self.comment_out(stmt, "depends on code that was left untranslated above", ctx)
                return
            if self.handle_statement(stmt, ctx):
                return
        except Untranslatable as exc:
            if stmt.type not in _HOLDERS or not self.wrappers_only_in_functions(stmt):
                self.comment_out(stmt, str(exc), ctx)
                return
            # `return { …, renderAndUpdate: (props) => { const root = render(…); … } }`: the
            # statement holds functions that use wrappers, and uses none itself. Their bodies
            # are translated where they are, as a function's own statements are.
        # Not claimed: descend into nested functions and blocks.
        if stmt.type in ("function_declaration", "generator_function_declaration"):
            body = stmt.child_by_field_name("body")
            if body is not None:
                self.process_block(body, self._ctx_for_function(stmt, ctx))
            return
        self.descend(stmt, ctx)
        if (
            not self._has_nested_block(stmt)
            and self._unclaimed_wrapper_ref(stmt)
            and not self.is_claimed(stmt)
        ):
            self.comment_out(
                stmt, "uses the Enzyme wrapper in a way testmend cannot translate", ctx
            )

    def _function_expected(self, expect: Node, ctx: Ctx) -> bool:
        """``expect(() => { shallow(<X />); }).not.toThrow()``, or a function that renders and
        acts (``expect(() => { const root = mount(<X />); root.find('b').simulate('click');
        }).toThrow(/boom/)``): its statements translated where they are, the matcher as it
        was. When any is left untranslated the whole expectation is (a throw of testmend's own
        inside it would satisfy a bare ``toThrow()``). False when the subject is not such a
        function (a render as an arrow's value, ``() => shallow(<X />)``, is an expression)."""
        found = self._expect_subject(expect)
        fn = unwrap(found[0]) if found is not None else None
        if found is None or fn is None or fn.type not in ("arrow_function", "function_expression"):
            return False
        body = fn.child_by_field_name("body")
        if body is None or any(self.refs_wrapper(a) for a in found[3]):
            return False
        if body.type != "statement_block":
            if self.render_call_of(body) is not None or not self.refs_wrapper(body):
                return False
            new = self.action(body, ctx)
            if new is None or "\x00" in new or "await " in new:
                raise Untranslatable("uses the Enzyme wrapper inside a larger expression")
            if _EVENTS.search(new):
                raise Untranslatable(_EVENT_THROWS)
            self.replace(body, "{ " + new.rstrip(";") + "; }")
            return True
        self.process_block(body, self._ctx_for_function(fn, ctx))
        inside = [e for e in self.edits if e.start < body.end_byte and e.end > body.start_byte]
        left = [m for e in inside for _at, kind, m in e.notes if kind == "untranslated"]
        if left:
            raise Untranslatable(f"{left[0]}, in a function expected to throw (or not)")
        if any(_EVENTS.search(e.text) for e in inside):
            raise Untranslatable(_EVENT_THROWS)
        return True

    def _unclaimed_wrapper_ref(self, stmt: Node) -> bool:
        for n in walk(stmt):
            if self.is_claimed(n):
                continue
            if (
                n.type == "identifier"
                and not self._is_declaration_name(n)
                and (self.is_dead(n) or self.binding_named(text(n), n) is not None)
            ):
                return True
            if n.type == "call_expression" and self.is_render_call(n):
                return True
        return False

    def _refs_dead(self, stmt: Node) -> bool:
        return any(
            n.type in ("identifier", "shorthand_property_identifier") and self.is_dead(n)
            for n in walk(stmt)
        )

    @staticmethod
    def _has_nested_block(stmt: Node) -> bool:
        return any(n.type == "statement_block" and n != stmt for n in walk(stmt))

    def descend(self, node: Node, ctx: Ctx) -> None:
        for child in node.named_children:
            if child.type in _FUNCTIONS:
                body = child.child_by_field_name("body")
                inner = self._ctx_for_function(child, ctx)
                if body is not None and body.type == "statement_block":
                    self.process_block(body, inner)
                elif body is not None and self.refs_wrapper(body):
                    self.expression_body(child, body, inner)
            elif child.type == "statement_block":
                self.process_block(child, ctx)
            elif child.type.endswith("statement") or child.type in (
                "lexical_declaration",
                "variable_declaration",
            ):
                self.process_statement(child, ctx)
            else:
                self.descend(child, ctx)

    def expression_body(self, fn: Node, body: Node, ctx: Ctx) -> None:
        """An arrow function with an expression body: ``() => wrapper.find(x).simulate(...)``,
        ``(button) => expect(button).toBeDisabled()``, or a function returning a render
        (``(props = {}) => shallow(<Bar {...props} />)``)."""
        call = self.render_call_of(body)
        if call is not None:
            if not self.settable_render(call, ctx):
                self.replace_render(call, ctx)
            return
        try:
            if self._expect_subject(body) is not None:
                # `(button) => expect(button).toBeDisabled()`, each element's assertion
                new = self.assertion(body, ctx)
            else:
                new = self.action(body, ctx)
        except (Untranslatable, Dropped) as exc:
            self.comment_out(fn, str(exc), ctx)
            return
        if new is None:
            return
        self.replace(body, "{ " + new + " }")

    def handle_statement(self, stmt: Node, ctx: Ctx) -> bool:
        if stmt.type == "expression_statement":
            expr = unwrap(stmt.named_children[0]) if stmt.named_children else None
            if expr is None:
                return False
            if expr.type == "await_expression" and expr.named_children:
                inner = unwrap(expr.named_children[0])
                if (
                    inner is not None
                    and inner.type == "call_expression"
                    and (
                        self.chain(inner)
                        or self.handler_call(inner)
                        or self._child_event(inner, ctx) is not None
                    )
                ):
                    expr = inner
            if expr.type == "call_expression":
                if self._is_enzyme_setup(expr):
                    self.remove_statement(stmt, "removed the Enzyme adapter setup")
                    return True
                if self._wrapper_only_passed_to_helpers(stmt):
                    return True
                if self._expect_subject(expr) is not None:
                    if self._function_expected(expr, ctx):
                        return True
                    try:
                        new = self.render_first_assertion(expr, ctx) or self.assertion(expr, ctx)
                    except Dropped as exc:
                        self.remove_statement(stmt, str(exc), comment=True)
                        if ctx.test is not None:
                            self.dropped_assertions.setdefault(ctx.test.name, []).append(str(exc))
                        return True
                    if new is not None:
                        self.replace_statement(stmt, new, ctx)
                    return True
                if self._wrapper_arg_call(stmt, expr):
                    return True
                if self.each_element(expr, ctx):
                    return False  # the walk goes on into the callback, its element bound
                try:
                    new = self.action(expr, ctx)
                except Dropped as exc:
                    self.remove_statement(stmt, str(exc))
                    return True
                if new is not None:
                    if new == "":
                        self.remove_statement(stmt, "removed an Enzyme-only call")
                    else:
                        self.replace_statement(stmt, new, ctx)
                    return True
                if self.is_render_call(expr):
                    self.replace(expr, self.render_code(expr, ctx))
                    return True
                return False
            if expr.type == "assignment_expression":
                left = expr.child_by_field_name("left")
                right = expr.child_by_field_name("right")
                call = self.render_call_of(right)
                if call is not None and left is not None:
                    self.replace_render(call, ctx)
                    binding = self.binding_named(text(left), left)
                    if binding is not None and left.type == "identifier":
                        self.var_assigns.append((binding, left, call))
                        if binding.kind == "var" and self.earlier_render_shown(text(left), stmt):
                            # Enzyme's new wrapper hides the earlier render from the test;
                            # in RTL both would stay in the document, and screen queries
                            # would see the earlier one first.
                            indent = line_indent(self.src, stmt.start_byte)
                            unmount = self.member(binding, "unmount")
                            self.edits.append(
                                Edit(stmt.start_byte, stmt.start_byte, f"{unmount}();\n{indent}")
                            )
                    return True
                chain = self.chain(right) if right is not None else None
                internal = self.class_internal(*chain, ctx) if chain and left is not None else None
                if internal is not None and left is not None:
                    self.replace_statement(stmt, f"{text(left)} = {internal};", ctx)
                    return True
                for op, _a, _n in chain[1] if chain else []:
                    if op in UNTRANSLATABLE:  # say which Enzyme call it is
                        raise Untranslatable(UNTRANSLATABLE[op])
                return False
            return False
        if stmt.type in ("lexical_declaration", "variable_declaration"):
            return self.declaration(stmt, ctx)
        if stmt.type == "return_statement" and stmt.named_children:
            returned = unwrap(stmt.named_children[0])
            if returned is not None and returned.type == "identifier":
                binding = self.binding_named(text(returned), returned)
                if binding is not None and binding.kind in ("var", "decl"):
                    binding.used = True
                    binding.passed_as_arg = True
                    self.claimed.append((stmt.start_byte, stmt.end_byte))
                    return True
            call = self.render_call_of(stmt.named_children[0])
            if call is not None:
                if not self.settable_render(call, ctx):
                    self.replace_render(call, ctx)
                return True
            if returned is not None and returned.type == "object":
                kept = self._returned_wrappers(returned)
                if kept is not None:
                    self.replace_statement(
                        stmt, splice(self.src, stmt.start_byte, stmt.end_byte, kept), ctx
                    )
                    return True
            chain = self.chain(returned) if returned is not None else None
            if returned is not None and chain is None and self.refs_wrapper(returned):
                # Reads combined (``a.hasClass(x) && b.length === 1``): each in the DOM.
                self.replace_statement(stmt, f"return {self.value(returned, ctx)};", ctx)
                return True
            if returned is not None and chain and chain[1] and chain[1][-1][0] not in SELECT_OPS:
                # A helper returning what it read from a wrapper (not a selection, which its
                # callers use as a wrapper): the same read, in the DOM.
                self.replace_statement(stmt, f"return {self.value(returned, ctx)};", ctx)
                return True
        return False

    def _returned_wrappers(self, returned: Node) -> list[tuple[int, int, str]] | None:
        """A setup function's ``return { wrapper: wrapper as ReactWrapper, history }``: the
        wrappers it holds are render results now (kept whole, their Enzyme types dropped);
        None when a value reads the wrapper (``wrapper.find(…)``), which is not this case."""
        edits: list[tuple[int, int, str]] = []
        found = False
        for _key, item in object_items(returned):
            held = unwrap(item)
            binding = (
                self.binding_named(text(held), held)
                if held is not None and held.type in NAMES
                else None
            )
            if binding is None:
                if self.refs_wrapper(item):
                    return None
                continue
            binding.used = binding.passed_as_arg = found = True
            if item is not held and self._has_wrapper_type(item):
                edits.append((item.start_byte, item.end_byte, text(held)))
        return edits if found else None

    def _is_enzyme_setup(self, call: Node) -> bool:
        fn = call.child_by_field_name("function")
        name = text(fn)
        if name == "configure" or name.endswith(".configure"):
            return "adapter" in text(call).lower() or "Adapter" in text(call)
        return False

    def remove_statement(self, stmt: Node, message: str, *, comment: bool = False) -> None:
        start = line_start(self.src, stmt.start_byte)
        end = stmt.end_byte
        if self.src[end : end + 1] == b"\n":
            end += 1
        if self.src[start : stmt.start_byte].strip():
            start = stmt.start_byte
        elif (
            start >= 2
            and self.src[start - 2 : start] == b"\n\n"
            and re.match(rb"[ \t]*\n", self.src[end:])
        ):
            end += len(re.match(rb"[ \t]*\n", self.src[end:]).group(0))  # type: ignore[union-attr]
        self.removed_ids.add(stmt.id)
        message = one_line(message)
        if comment:
            indent = line_indent(self.src, stmt.start_byte)
            lines = text(stmt).splitlines()
            body = f"{indent}// testmend: {message}\n" + "".join(
                f"{indent}// {ln.strip()}\n" for ln in lines
            )
            self.edits.append(Edit(start, end, body, [(len(indent), "removed", message)]))
            self.claimed.append((start, end))
            return
        self.edits.append(Edit(start, end, ""))
        self.claimed.append((start, end))
        self.note_only(stmt, "removed", message)

    def replace_statement(
        self, stmt: Node, new: str, ctx: Ctx, pending: list[tuple[NoteKind, str]] | None = None
    ) -> None:
        notes = list(pending or []) + self.pending_notes
        self.pending_notes = []
        indent = line_indent(self.src, stmt.start_byte)
        new = new.replace("\x00", "\n" + indent)
        if ctx.test is not None:
            ctx.test.touched = True
        self.replace(stmt, new, notes)

    # -- declarations ------------------------------------------------------------------------

    def declaration(self, stmt: Node, ctx: Ctx) -> bool:
        declarators = [c for c in stmt.named_children if c.type == "variable_declarator"]
        if len(declarators) != 1:
            return False
        declarator = declarators[0]
        name_node = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        type_node = declarator.child_by_field_name("type")
        name = text(name_node)
        if value is None:
            binding = self.binding_named(name, declarator)
            if binding is not None and binding.kind == "var" and binding.node == declarator:
                self.var_decls.append((binding, stmt, None))
            if type_node is not None and self._has_wrapper_type(type_node):
                self.retype(type_node)
                return True
            return binding is not None
        call = self.render_call_of(value)
        if call is not None:
            binding = self.binding_named(name, declarator)
            if binding is not None:
                self.unmount_each_turn(binding, stmt)
            if binding is not None and binding.kind == "decl" and not binding.passed_as_arg:
                self.decl_edits.append((binding, stmt, call))
                self.claimed.append((stmt.start_byte, stmt.end_byte))
                return True
            if binding is not None and binding.kind == "decl":
                binding.kind = "var"
            if binding is not None:
                self.var_decls.append((binding, stmt, value))
            self.replace_render(call, ctx)
            if type_node is not None and self._has_wrapper_type(type_node):
                self.retype(type_node)
            return True
        chain = self.chain(value)
        if name_node is None or name_node.type != "identifier":
            return False
        calls = self.handler_alias(name, value, stmt, ctx)
        if calls:
            alias = Binding(name, "derived", declarator, handler=value, handler_calls_left=calls)
            self.bindings.setdefault(name, []).append(alias)
            self.handler_aliases.append((alias, stmt, ctx))
            self.claimed.append((stmt.start_byte, stmt.end_byte))
            return True
        inner = unwrap(value)
        # A value read from a wrapper (not a selection), or reads of wrappers inside a larger
        # value (``jest.spyOn(wrapper.instance(), 'x')``): each read translated in place.
        compound = chain is None and inner is not None and inner.type in _COMPOUND
        if compound and not self.refs_wrapper(value):
            return False
        if compound or (chain is not None and (not chain[1] or chain[1][0][0] not in SELECT_OPS)):
            new_value = self.value(value, ctx)
            kind = text(stmt.children[0])
            annotation = "" if type_node is None else text(type_node)
            self.replace_statement(stmt, f"{kind} {name}{annotation} = {new_value};", ctx)
            return True
        if chain is None:
            return False
        base, ops = chain
        base_binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        props_only = (
            self.selection_length(ops) == len(ops)
            and (base_binding is None or base_binding.kind != "derived")
            and self.props_only(name, stmt)
        )
        if props_only and self.events_answer(name, stmt, ctx):
            # `const confirm = wrapper.find(Button).last()`, then only its callbacks called,
            # each a click (or another event) on the element holding it: no selection left.
            held = Binding(name, "derived", declarator, props_of=text(ops[0][1][0]))
            self.bindings.setdefault(name, []).append(held)
            self.remove_statement(stmt, "its callbacks are events on the elements holding them")
            return True
        selection = self.recorded_selection(ops) if props_only else None
        if selection is not None:
            # `const axis = wrapper.find(Axis)`, then only `axis.prop('k')`: the props of Axis.
            derived = Binding(name, "derived", declarator, props_of=text(ops[0][1][0]))
            self.bindings.setdefault(name, []).append(derived)
            kind = text(stmt.children[0])
            self.replace_statement(stmt, f"{kind} {name} = {selection[0]};", ctx)
            return True
        multi, absent = self._derived_usage(name, stmt)
        finds = [node for op, _a, node in ops if op == "find"]
        absent = absent or (bool(finds) and self.sometimes_absent(finds[-1], ctx))
        try:
            target, rest = self.resolve(base, ops, ctx, "element")
        except Untranslatable:
            recorded = self.recorded_only(name, stmt, base_binding, ops)
            if recorded is None:
                raise
            # `const viewer = root.find(VersionFileViewer)`, no capture of what it renders, then
            # only counted and its props read: each use reads the recording (no element).
            kept_selection = Binding(name, "derived", declarator, selection=recorded)
            self.bindings.setdefault(name, []).append(kept_selection)
            self.remove_statement(
                stmt, f"the selection of {text(recorded[0][1][0])} is read from its recorded props"
            )
            return True
        if rest:
            # A value read from the selection (``const props: { [k: string]: any } = wrapper
            # .find(Tabs).props()``): its declared type stays, which the test may index by.
            new_value = self.value(value, ctx)
            kind = text(stmt.children[0])
            annotation = ""
            if type_node is not None and not self._has_wrapper_type(type_node):
                annotation = text(type_node)
            self.replace_statement(stmt, f"{kind} {name}{annotation} = {new_value};", ctx)
            return True
        if multi and target.index is None:
            target.multi = True
            code = self.list_code(target, "queryAll" if absent else "getAll")
            kept = target
        else:
            code = self.element_code(target, "query" if absent else "get")
            kept = Target(
                target.kind,
                nullable=code.endswith("?? null")
                or (code.endswith(")") and (absent or target.kind == "css")),
                multi=False,
                component=target.component,
                checkbox=target.checkbox,
                captured=target.captured,
                # The selector Enzyme's wrapper held (every match, which a find under it
                # searches), for a find chained on the variable.
                css=target.css if target.kind == "css" and not target.index else "",
                scope=target.scope,
                selector=(
                    target.selector
                    if (not target.index or target.one) and not target.within
                    else ""
                ),
                one=target.one,
            )
        derived = Binding(name, "derived", declarator, target=kept)
        if (self.selection_length(ops) == len(ops) or ops[0][0] == "find") and (
            base_binding is None or base_binding.kind != "derived"
        ):
            derived.selection = ops  # its props, where the test reads them: the recording's
        self.bindings.setdefault(name, []).append(derived)
        self.fallback_note(target, ctx)
        kind = text(stmt.children[0])
        self.replace_statement(stmt, f"{kind} {name} = {code};", ctx)
        return True

    def _derived_usage(self, name: str, stmt: Node) -> tuple[bool, bool]:
        scope = stmt.parent
        multi = absent = False
        if scope is None:
            return False, False
        for n in walk(scope):
            if n.type != "identifier" or text(n) != name or n.start_byte < stmt.end_byte:
                continue
            parent = n.parent
            if parent is not None and parent.type == "member_expression":
                prop = text(parent.child_by_field_name("property"))
                if prop in (
                    "at",
                    "get",
                    "first",
                    "last",
                    "length",
                    "map",
                    "forEach",
                    "filter",
                    "some",
                    "every",
                    "slice",
                ):
                    multi = True
                if prop == "exists":
                    absent = True
            if parent is not None and parent.type == "arguments":
                call = parent.parent
                outer = call.parent if call is not None else None
                if (
                    outer is not None
                    and outer.type == "member_expression"
                    and text(outer.child_by_field_name("property")) == "toHaveLength"
                ):
                    multi = True
        return multi, absent

    def retype(self, type_node: Node) -> None:
        for n in walk(type_node):
            if (
                n.type == "generic_type" and text(n.child_by_field_name("name")) in WRAPPER_TYPES
            ) or (
                n.type == "type_identifier" and text(n) in WRAPPER_TYPES and not self.is_claimed(n)
            ):
                self.replace(n, self.need_type("RenderResult"))

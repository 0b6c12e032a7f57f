"""``expect(…)`` over wrappers → jest-dom assertions on elements."""

from __future__ import annotations

import re
from typing import Literal

from ..syntax import (
    Node,
    args_of,
    const_string,
    enclosing_function,
    js_string,
    string_value,
    text,
)
from .label_names import LabelNames
from .prop_assertions import class_argument, property_disabled
from .state import Ctx, Dropped, Target, Untranslatable
from .tables import NO_ROOT_NOTE, SELECT_OPS, SNAPSHOT_NOTE, UNTRANSLATABLE
from .text_checks import found_by_text, text_content_check


class Assertions(LabelNames):
    """Assertions on wrappers."""

    # -- assertions --------------------------------------------------------------------------

    def _expect_subject(self, call: Node) -> tuple[Node, str, bool, list[Node]] | None:
        """``expect(S)[.not].matcher(args)`` → (S, matcher, negated, args)."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return None
        matcher = text(fn.child_by_field_name("property"))
        obj = fn.child_by_field_name("object")
        negated = False
        if (
            obj is not None
            and obj.type == "member_expression"
            and text(obj.child_by_field_name("property")) == "not"
        ):
            negated = True
            obj = obj.child_by_field_name("object")
        if (
            obj is None
            or obj.type != "call_expression"
            or text(obj.child_by_field_name("function")) != "expect"
        ):
            return None
        subject = args_of(obj)
        if not subject:
            return None
        return subject[0], matcher, negated, args_of(call)

    def assertion(self, call: Node, ctx: Ctx) -> str | None:
        parsed = self._expect_subject(call)
        assert parsed is not None
        subject, matcher, negated, margs = parsed
        chain = self.chain(subject)
        if chain is None:
            if not self.refs_wrapper(call):
                return None
            # The wrapper appears elsewhere: translate values generically.
            subject_code = self.value(subject, ctx)
            args_code = ", ".join(self.value(a, ctx) for a in margs)
            return f"expect({subject_code}){'.not' if negated else ''}.{matcher}({args_code});"
        base, ops = chain
        shown = self.shown_state(ops)  # a value of the state, as the page shows it
        if shown is not None:
            return shown
        internal = self.class_internal(base, ops, ctx, optional=True)
        if internal is not None:
            args_code = ", ".join(self.value(a, ctx) for a in margs)
            return f"expect({internal}){'.not' if negated else ''}.{matcher}({args_code});"
        recorded = self.recorded_read(base, ops, ctx)
        if recorded is not None and recorded[2] != "invoke":
            props, after, _op = recorded
            tail = "".join(self._raw_op(o, a) for o, a, _n in after)
            args_code = ", ".join(self.value(a, ctx) for a in margs)
            return f"expect({props}{tail}){'.not' if negated else ''}.{matcher}({args_code});"
        title = self._document_title(call, base, ops, matcher, negated, margs, ctx)
        if title is not None:
            return title
        checked = ops[:-1] if ops and ops[-1][0] in ("type", "name") else ops
        for i, (op, _a, _n) in enumerate(checked):  # type()/name() last: assert_on decides
            if op in UNTRANSLATABLE and not (op == "instance" and i):  # a found node's: below
                raise Untranslatable(UNTRANSLATABLE[op])
        terminal = next((op for op, _a, _n in ops if op not in SELECT_OPS), None)
        context = (
            "text"
            if terminal in ("text", ".textContent") or matcher in ("toHaveText", "toIncludeText")
            else "element"
        )
        if (terminal is None and matcher in ("toHaveLength",)) or terminal == ".length":
            context = "list"
        elif (terminal == "exists" and len(ops) > 1) or (
            terminal is None and matcher == "toExist" and not negated
        ):
            context = "presence"  # whether it is there, and nothing of it
        try:
            target, rest = self.resolve(base, ops, ctx, context)
        except Untranslatable as missing:
            try:
                counted = self._counted_instances(base, ops, matcher, negated, margs, ctx)
            except Untranslatable:
                counted = None  # not recordable either: why no query fits is the reason to say
            if counted is None:
                counted = self._recorded_prop(base, ops, matcher, negated, margs, ctx)
            if counted is None:
                raise missing from None
            return counted
        text_code = self._text_of_unqueryable(target, ops, rest, matcher, negated, margs, ctx)
        if text_code is None:
            text_code = self.label_names(target, rest, matcher, negated, margs, ctx)
        if text_code is not None:
            return text_code
        try:
            code = self.assert_on(target, rest, matcher, negated, margs, ctx)
        except Untranslatable:
            # A prop of a component the DOM does not show (no such attribute): its props.
            recorded_prop = self._recorded_prop(base, ops, matcher, negated, margs, ctx)
            if recorded_prop is None:
                raise
            return recorded_prop
        self.fallback_note(target, ctx)
        return code

    def _text_of_unqueryable(
        self,
        target: Target,
        ops: list[tuple[str, list[Node], Node]],
        rest: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: Ctx,
    ) -> str | None:
        """A text asserted of what no query selects, which only CSS would find (a component's
        container, ``expect(find(Notice)).toIncludeText(t)``, ``expect(find(Page).text())
        .toContain(t)``, ``toHaveText(t)``, ``.text()).toBe(t)``): the element of the page that
        shows the text, by a text query the capture checked (see ``text_queries``):
        ``expect(screen.getByText(t)).toBeInTheDocument()``; where it shows the text with its
        children's, ``expect(screen.getByText(/its own part/)).toHaveTextContent(t)``; a
        negated containment, that no element shows it. None for other shapes, a text not
        written out, a find in one render of several, and where the capture did not check the
        query."""
        if target.kind != "css" or target.scope != "document" or target.index or len(margs) != 1:
            return None
        shape = ([op for op, _a, _n in rest], matcher)
        if shape in ((["text"], "toContain"), ([], "toIncludeText")):
            whole = False
        elif shape in ((["text"], "toBe"), (["text"], "toEqual"), ([], "toHaveText")):
            whole = True
        else:
            return None
        wanted = string_value(margs[0])
        selected = ops[: len(ops) - len(rest)]
        if wanted is None or not selected or selected[-1][0] != "find" or not selected[-1][1]:
            return None
        query = self.text_query(selected[-1][2], ctx, wanted, whole=whole, negated=negated)
        if query is None:
            return None
        self.dom_queries_used += 1
        self.need_jest_dom()
        if negated:
            found = self._screen(f"queryByText({query.args})", target)
            return f"expect({found}).not.toBeInTheDocument();"
        found = self._screen(f"getByText({query.args})", target)
        if query.part:
            return f"expect({found}).toHaveTextContent({text(margs[0])});"
        return f"expect({found}).toBeInTheDocument();"

    def _document_title(
        self,
        call: Node,
        base: Node,
        ops: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: Ctx,
    ) -> str | None:
        """react-helmet's ``<title>``: ``expect(root.find('title')).toHaveText(t)`` or
        ``expect(root.find('title').text()).toBe(t)`` on the render of a component that
        renders react-helmet's ``Helmet``. Enzyme saw the ``<title>`` element Helmet was given;
        rendered, Helmet writes it to ``document.title`` on the next animation frame: ``await
        waitFor(() => expect(document.title).toBe(t))``, the test made async. None for other
        shapes, or where the test cannot be async."""
        if negated or len(margs) != 1 or not ops or ops[0][0] != "find":
            return None
        if len(ops[0][1]) != 1 or string_value(ops[0][1][0]) != "title":
            return None
        if len(ops) == 1:
            shape = matcher == "toHaveText"
        else:
            shape = (
                len(ops) == 2
                and ops[1][0] == "text"
                and not ops[1][1]
                and matcher in ("toBe", "toEqual", "toStrictEqual")
            )
        if not shape or self.options.component_children.get("Helmet") != [
            "react-helmet",
            "Helmet",
        ]:
            return None
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        if binding is None or binding.kind not in ("decl", "var"):
            return None  # the render's own <title>, not one inside an element it found
        test = enclosing_function(call)
        if test is None or not self.make_async(test):
            return None
        expected = self.value(margs[0], ctx)
        return f"await {self.need('waitFor')}(() => expect(document.title).toBe({expected}));"

    def _counted_instances(
        self,
        base: Node,
        ops: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: Ctx,
    ) -> str | None:
        """A count or an existence check of a component nothing queries
        (``find(FontAwesomeIcon)``, ``expect(wrapper.find(LoadingWrapper)).not.toExist()``): its
        mounted instances, recorded; None for other shapes."""
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        if binding is not None and binding.recorded_only:
            ops = [*(binding.selection or []), *ops]  # `viewer` for `root.find(Viewer)`
        after = [op for op, _a, _n in ops[1:]]
        count: str | bool | None = None
        if (
            len(margs) == 1
            and not negated
            and (
                (not after and matcher == "toHaveLength")
                or (after == [".length"] and matcher in ("toBe", "toEqual", "toStrictEqual"))
            )
        ):
            count = self.value(margs[0], ctx)
        elif after == ["exists"] and not ops[-1][1]:
            count = self._bool_of(matcher, negated, margs)
        elif not after and matcher == "toExist" and not margs:
            count = not negated  # jest-enzyme's `expect(wrapper.find(C)).(not.)toExist()`
        if count is None:
            return None
        return self.recorded_count(base, ops, count)

    @staticmethod
    def _one_root(negated: bool, margs: list[Node], matcher: str = "toHaveLength") -> None:
        """``expect(wrapper.length).toBe(1)`` on a full render: its root wrapper is always one
        node, whatever the component rendered, so the assertion checks nothing the render
        itself does not (a render that throws fails the test in both)."""
        if (
            not negated
            and matcher in ("toHaveLength", "toBe", "toEqual", "toStrictEqual")
            and len(margs) == 1
            and text(margs[0]) == "1"
        ):
            raise Dropped("removed a count of the root wrapper: a full render's root is one node")
        raise Untranslatable("counts the rendered root")

    def assert_on(
        self,
        target: Target,
        rest: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: Ctx,
    ) -> str:
        neg = ".not" if negated else ""
        margs_code = ", ".join(self.value(a, ctx) for a in margs)
        if not rest:
            if matcher in ("toMatchSnapshot", "toMatchInlineSnapshot"):
                if target.kind == "root":
                    subject = self.member_of(target, "asFragment") + "()"
                    self.pending_notes.append(("review", SNAPSHOT_NOTE))
                else:
                    subject = self.element_code(target, "get")
                return f"expect({subject}).{matcher}({margs_code});"
            if matcher == "toHaveLength":
                zero = margs and text(margs[0]) == "0"
                variant: Literal["getAll", "queryAll"] = (
                    "queryAll"
                    if zero or negated or not re.fullmatch(r"\d+", text(margs[0]))
                    else "getAll"
                )
                if target.kind == "root" and not self._shallow_root(target):
                    self._one_root(negated, margs)
                if target.index not in (None, "list"):
                    # One element: length 1 means it exists.
                    exists = text(margs[0]) == "1" if margs else False
                    if not negated and margs and text(margs[0]) in ("0", "1"):
                        return self._exists(target, exists)
                return f"expect({self.list_code(target, variant)}){neg}.toHaveLength({margs_code});"
            if matcher == "toHaveClassName" and negated and self._rendered_nothing(target, ctx):
                return self._no_root(target)
            enzyme_matchers = self._jest_enzyme(target, matcher, negated, margs, margs_code, ctx)
            if enzyme_matchers is not None:
                return enzyme_matchers
            if matcher in ("toBeTruthy", "toBeDefined") and not negated:
                return self._exists(target, True)
            raise Untranslatable(f"compares the Enzyme wrapper itself ({matcher})")
        op, args, _node = rest[0]
        after = rest[1:]
        if op in ("exists", "isEmpty", "isEmptyRender") and not after:
            value = self._bool_of(matcher, negated, margs)
            if value is None:
                raise Untranslatable(f"{op}() compared with {matcher}")
            if op == "isEmpty":
                value = not value
                op = "exists"
            if op == "isEmptyRender":
                if target.kind != "root":
                    raise Untranslatable("isEmptyRender() on a child")
                container = self.member_of(target, "container")
                self.need_jest_dom()
                return f"expect({container}){'' if value else '.not'}.toBeEmptyDOMElement();"
            return self._exists(target, value)
        if op == ".length" and not after:
            if target.kind == "root" and not self._shallow_root(target):
                self._one_root(negated, margs, matcher)
            if matcher in ("toBe", "toEqual", "toStrictEqual") and margs:
                zero = text(margs[0]) == "0"
                variant = (
                    "queryAll"
                    if zero or negated or not re.fullmatch(r"\d+", text(margs[0]))
                    else "getAll"
                )
                return f"expect({self.list_code(target, variant)}){neg}.toHaveLength({margs_code});"
            return (
                f"expect({self.list_code(target, 'queryAll')}.length){neg}.{matcher}({margs_code});"
            )
        if op == "text" and not after:
            element, raw = self._text_element(target)
            self.need_jest_dom()
            literal = string_value(margs[0]) if margs else None
            if (
                matcher in ("toBe", "toEqual", "toStrictEqual")
                and literal is not None
                and found_by_text(target, literal)  # (a Text query collapses whitespace)
            ):
                return f"expect({element}){neg}.toBeInTheDocument();"
            if matcher in ("toBe", "toEqual", "toStrictEqual") and literal is not None:
                return text_content_check(element, raw, neg, "exact", literal, margs_code)
            if matcher == "toContain" and margs:
                return text_content_check(element, raw, neg, "includes", literal, margs_code)
            if matcher == "toMatch" and margs:
                return f"expect({element}){neg}.toHaveTextContent({margs_code});"
            return f"expect({raw}.textContent){neg}.{matcher}({margs_code});"
        if op == "hasClass" and not after and args:
            value = self._bool_of(matcher, negated, margs)
            if value is None:
                raise Untranslatable(f"hasClass() compared with {matcher}")
            if not value and self._rendered_nothing(target, ctx):
                return self._no_root(target)
            self._dom_only(target, "hasClass()")
            return self._class_check(target, args[0], text(args[0]), value, ctx)
        if op in ("prop", "props"):
            return self._prop_assertion(target, op, args, after, matcher, negated, margs, ctx)
        if op == "html" and not after:
            if (target.kind == "root" and matcher in ("toBeNull", "toBeFalsy")) or (
                matcher in ("toBe", "toEqual") and margs and text(margs[0]) in ("null", "''", '""')
            ):
                container = self.member_of(target, "container")
                self.need_jest_dom()
                return f"expect({container}){neg}.toBeEmptyDOMElement();"
            if matcher == "toMatchSnapshot" and target.kind == "root":
                return f"expect({self.member_of(target, 'asFragment')}()).toMatchSnapshot();"
            element = (
                self.member_of(target, "container") + ".innerHTML"
                if target.kind == "root"
                else self.element_code(target, "get") + ".outerHTML"
            )
            return f"expect({element}){neg}.{matcher}({margs_code});"
        if op == "debug" and matcher == "toMatchSnapshot" and target.kind == "root":
            return f"expect({self.member_of(target, 'asFragment')}()).toMatchSnapshot();"
        if op == "getDOMNode" or self.dom_instance(target, op, args):
            if op == "instance" and [o for o, _a, _n in after] in ([".value"], [".checked"]):
                key = after[0][0][1:]  # the node's value: the prop's assertion (toHaveValue)
                return self._attribute_assertion(target, key, matcher, negated, margs, margs_code)
            element = self.dom_node_code(target, bool(after))
            tail = "".join(self._raw_op(o, a) for o, a, _n in after)
            return f"expect({element}{tail}){neg}.{matcher}({margs_code});"
        if op == "instance":
            raise Untranslatable(UNTRANSLATABLE["instance"])
        if op == "is" and args and string_value(args[0]) is not None and not after:
            element = self.element_code(target, "get")
            return f"expect({element}.matches({text(args[0])})){neg}.{matcher}({margs_code});"
        if op == "map" and args:
            mapped = self.map_code(target, args[0])
            tail = "".join(self._raw_op(o, a) for o, a, _n in after)
            return f"expect({mapped}{tail}){neg}.{matcher}({margs_code});"
        tag = const_string(margs[0]) if margs else None
        if (
            op in ("type", "name")
            and not after
            and matcher in ("toBe", "toEqual", "toStrictEqual")
            and tag is not None
            and re.fullmatch(r"[a-z][a-z0-9-]*", tag)
        ):
            # A host element's type or name is its tag; localName keeps the test's literal (in
            # TypeScript, read through `?.` where the element may be null, not after the
            # non-null assertion element_code would give, which lint forbids).
            element = self.element_code(target, "get", non_null=True)
            if element.endswith("!"):
                element = element[:-1] + "?"
            return f"expect({element}.localName)" + (f"{neg}.{matcher}({margs_code});")
        if (
            op == "type"
            and not after
            and not negated
            and target.kind == "root"
            and self._shallow_root(target)
            and (
                (matcher == "toBeNull" and not margs)
                or (
                    matcher in ("toBe", "toEqual", "toStrictEqual")
                    and [text(m) for m in margs] == ["null"]
                )
            )
        ):
            # A shallow root whose type is null: the component rendered nothing.
            self.need_jest_dom()
            return f"expect({self.member_of(target, 'container')}).toBeEmptyDOMElement();"
        if (
            op == "type"
            and not after
            and not negated
            and matcher in ("toBe", "toEqual", "toStrictEqual")
            and len(margs) == 1
            and target.render.root is not None
            and text(margs[0]) == target.render.root
        ):
            # The component at a shallow root (`expect(root.type()).toBe(Carousel)`): it is
            # mounted, once; its instances are recorded as for a read of its props.
            props = self.recorded_root(target)
            if props is not None:
                return f"expect({props.removesuffix('[0]')}).toHaveLength(1);"
        if op in UNTRANSLATABLE:
            raise Untranslatable(UNTRANSLATABLE[op])
        raise Untranslatable(f"asserts on {op.lstrip('.')}() of the Enzyme wrapper")

    def _exists(self, target: Target, value: bool) -> str:
        self.need_jest_dom()
        if target.kind == "root":
            container = self.member_of(target, "container")
            return f"expect({container}){'.not' if value else ''}.toBeEmptyDOMElement();"
        if target.multi and target.index is None:
            if value:
                return f"expect({self.list_code(target, 'queryAll')}).not.toHaveLength(0);"
            return f"expect({self.list_code(target, 'queryAll')}).toHaveLength(0);"
        if value:
            element = self.element_code(target, "get")
            href = _destination(target)
            if href is not None:
                return f"expect({element}).toHaveAttribute({js_string('href')}, {js_string(href)});"
            return f"expect({element}).toBeInTheDocument();"
        return f"expect({self.element_code(target, 'query')}).not.toBeInTheDocument();"

    @staticmethod
    def _rendered_nothing(target: Target, ctx: Ctx) -> bool:
        """``target`` is the root of a render that the capture saw produce nothing in this
        test: Enzyme's root is then a node with no class (a negated class check holds), while
        Testing Library's has no element at all (jest-dom refuses ``null``)."""
        return (
            target.kind == "root"
            and ctx.test is not None
            and target.render.rendered_nothing(ctx.test.name)
        )

    def _no_root(self, target: Target) -> str:
        """A class the root of a render that produced nothing lacks: the render is empty, which
        is what made the check hold (the capture saw it in this test)."""
        self.need_jest_dom()
        self.pending_notes.append(("review", NO_ROOT_NOTE))
        return f"expect({self.member_of(target, 'container')}).toBeEmptyDOMElement();"

    def _class_check(
        self, target: Target, class_node: Node, class_code: str, present: bool, ctx: Ctx
    ) -> str:
        """``expect(element)(.not).toHaveClass(c)``; for an element no query selects whose
        class follows the ARIA state of the one element in it with one (``class_state``),
        that state (``aria-expanded``), with a note."""
        self.need_jest_dom()
        name = string_value(class_node)
        state = self.class_state(target, name, ctx) if name is not None else None
        if state is None:
            element = self.element_code(target, "get")
            return f"expect({element}){'' if present else '.not'}.toHaveClass({class_code});"
        query, attribute, holder = state
        # Not a CSS fallback after all: no note says it is (here, or after the assertion).
        self.fallbacks_noted.add((ctx.test.name if ctx.test is not None else "", target.css))
        fallback = f"CSS selector {target.css}:"
        self.pending_notes[:] = [
            (kind, message)
            for kind, message in self.pending_notes
            if not (kind == "fallback" and message.startswith(fallback))
        ]
        self.pending_notes.append(
            (
                "review",
                f'the class {name} of <{holder.tag} class="{" ".join(holder.classes)}">, which '
                f"no query selects, was there exactly when the {attribute} of the element in it "
                'was "true", in every capture: that state is asserted instead',
            )
        )
        element = self.element_code(query, "get")
        expected = js_string("true" if present else "false")
        return f"expect({element}).toHaveAttribute({js_string(attribute)}, {expected});"

    def _text_element(self, target: Target) -> tuple[str, str]:
        """The element whose text ``target``'s ``text()`` reads (a root's: its container, a
        fragment's too), as an assertion's subject and for reading ``textContent``."""
        if target.kind == "root":
            container = self.member_of(target, "container")
            return container, container
        return self.element_code(target, "get"), self.read_of(target)

    def _jest_enzyme(
        self,
        target: Target,
        matcher: str,
        negated: bool,
        margs: list[Node],
        margs_code: str,
        ctx: Ctx,
    ) -> str | None:
        neg = ".not" if negated else ""
        if matcher == "toExist":
            return self._exists(target, not negated)
        if matcher in ("toHaveText", "toIncludeText") and margs:
            self.need_jest_dom()
            element, raw = self._text_element(target)
            literal = string_value(margs[0])
            kind: Literal["exact", "includes"] = "exact" if matcher == "toHaveText" else "includes"
            return text_content_check(element, raw, neg, kind, literal, margs_code)
        if matcher == "toHaveClassName" and margs:
            arg = class_argument(margs[0], margs_code)
            return self._class_check(target, margs[0], arg, not negated, ctx)
        if matcher in ("toBeDisabled", "toBeChecked", "toHaveValue", "toBeEmptyRender"):
            self.need_jest_dom()
            if matcher == "toBeEmptyRender":
                container = self.member_of(target, "container")
                return f"expect({container}){neg}.toBeEmptyDOMElement();"
            element = self.element_code(target, "get")
            if matcher == "toBeDisabled" and property_disabled(target):
                return self._disabled_assertion(target, element, not neg)
            return f"expect({element}){neg}.{matcher}({margs_code});"
        if matcher == "toHaveProp" and margs:
            key = string_value(margs[0])
            if key is None:
                return None
            return self._attribute_assertion(
                target,
                key,
                "toEqual" if len(margs) > 1 else "toBeDefined",
                negated,
                margs[1:],
                margs_code.split(", ", 1)[1] if len(margs) > 1 else "",
            )
        return None


def _destination(target: Target) -> str | None:
    """Where the one link a component's find selected goes (``find(Link)).toExist()``), as the
    capture saw it in every run: the component is what sets it (a router's ``Link`` from its
    ``to``), and a link's role and name alone would also hold for a plain anchor that another
    branch renders in its place. None for any other selection."""
    if target.component is None or target.multi or not target.captured:
        return None
    hrefs = {e.attributes.get("href") if e.tag == "a" else None for e in target.captured}
    return hrefs.pop() if len(hrefs) == 1 else None

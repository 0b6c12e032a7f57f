"""Selectors → query targets: selectors read from the source, and chains of
``find``/``at``/``filter``/``children`` (with the capture's queries, ``captured.py``). The code
that reads a target is in ``target_code.py``."""

from __future__ import annotations

import re
from dataclasses import replace

from ..syntax import (
    Node,
    js_string,
    string_value,
    text,
    unwrap,
)
from .css_selectors import join_css, matches_container, names_component
from .selector_targets import SelectorTargets
from .state import Binding, Ctx, Target, Untranslatable
from .tables import (
    LAST,
    SELECT_OPS,
)

ROOT_QUERIED = frozenset({"hasClass", "simulate", "text", "getDOMNode", "is"})
"""Operations on the root wrapper that act on its element, whose call-site record (``:root``)
gives its query. Not ``prop``/``props``: a full render's root props are the element the test
passed, not the DOM element's. The capture records none of these calls yet (it records a full
render's ``prop`` alone: ``ROOT_RECORDED`` in ``capture_setup.js``): a search of the stack by
the patch's name never found them once a transform renamed the frames, so the render's own
records give the root's queries (``RenderKind.root_queries``); recording them is a change of
its own, with a shallow root's parsed HTML checked as the render's is."""


class Targets(SelectorTargets):
    """Which elements an Enzyme selection means, and the RTL code that reads them."""

    # -- chains to targets -------------------------------------------------------------------

    def resolve(
        self, base: Node, ops: list[tuple[str, list[Node], Node]], ctx: Ctx, context: str
    ) -> tuple[Target, list[tuple[str, list[Node], Node]]]:
        """Apply the selection ops to the base; return the target and the remaining ops."""
        target: Target
        binding: Binding | None = None
        if base.type == "identifier":
            binding = self.binding_named(text(base), base)
        if binding is not None and binding.recorded_only:
            # A component selection only the recording answers (``recorded_only``).
            raise Untranslatable(
                f"uses {binding.name}, a selection of a component no DOM capture shows, "
                "other than by counting it or reading its props"
            )
        if binding is not None and binding.kind == "derived" and binding.target is not None:
            target = Target(
                "var",
                css=binding.name,
                multi=binding.target.multi,
                binding=binding,
                component=binding.target.component,
                checkbox=binding.target.checkbox,
                nullable=binding.target.nullable,
            )
        else:
            target = Target("root", binding=binding)
            if binding is not None:
                target.render = binding.render
            if base.type == "call_expression":
                target.render = self.render_kind(base)
                if self.render_first is None or self.render_first.id != base.id:
                    target.inline = base  # made where it is read (else before, see render_first)
                if any(op == "setProps" for op, _a, _n in ops):
                    raise Untranslatable("setProps() on an inline render; assign the render first")
        i = 0
        finds = 0
        last_find: Node | None = None  # the find a filterWhere() narrows
        # A component's find no query or CSS stands for, which the next find does without
        # (the capture checked that its query selects exactly its elements in the whole page):
        # why it cannot, where it finds no such query.
        unscoped: str | None = None
        while i < len(ops):
            op, args, node = ops[i]
            if op not in SELECT_OPS:
                break
            if op == "find":
                last_find = node if args else None
            elif op not in ("filterWhere", "hostNodes"):
                last_find = None  # first(), at(): the filter would not narrow the find itself
            if op == "find" or op == "findWhere":
                param = self.selector_param_target(node)
                if param is not None:  # a helper's selector parameter, now its element
                    target = param
                    i += 1
                    finds += 1
                    continue
                if op == "findWhere" or not args:
                    target = self._from_capture_only(
                        node, ctx, context, ops, i, positioned=not self._beside_others(target)
                    )
                    i += 1
                    finds += 1
                    continue
                index, skip = self._index_after(ops, i + 1)
                root_level = target.kind == "root" and finds == 0
                selector_text = string_value(args[0]) or text(args[0])
                captured = None
                source = self.source_target(args[0], context)
                inline = target.kind == "root" and target.inline is not None
                if inline:
                    # `Wrapper().find(s)`: a screen query would drop the render that the call
                    # makes, so the selector is searched in that render's container.
                    literal = string_value(args[0])
                    if source.component is None and literal is None:
                        raise Untranslatable("queries an inline render with a computed selector")
                    if source.component is None:
                        source = Target("css", css=js_string(literal or ""))
                elif not (source.kind == "query" and source.method == "TestId"):
                    captured = self.captured_target(
                        node,
                        selector_text,
                        ctx,
                        context,
                        index,
                        root_level,
                        host=i + 1 < len(ops) and ops[i + 1][0] == "hostNodes",
                        positioned=not self._beside_others(target),
                    )
                if (captured is None or captured.one) and source.kind == "css" and not inline:
                    # The test's own element: its test id, before a position among others.
                    marker = (
                        None if source.component else self.marker_target(node, selector_text, ctx)
                    )
                    captured = marker or captured
                if captured is None and unscoped is not None:
                    raise Untranslatable(unscoped)
                checkbox = source.checkbox or self._captured_checkbox(node, ctx)
                if captured is not None:
                    self._scope_to_render(target, captured)
                    if source.kind == "css" and source.component is None:
                        captured.selector = source.css
                    elif captured.one:
                        css = self._captured_css(node, ctx)
                        captured.selector = js_string(css) if css is not None else ""
                    captured.checkbox = checkbox
                    captured.captured = self.captured_elements(node, ctx)
                    captured.component = source.component
                    if index is not None and (captured.index is not None or not captured.multi):
                        i += 1 + skip
                    else:
                        i += 1
                    target = captured
                    finds += 1
                    unscoped = None
                    continue
                # `find('ArrayParam input')`: Enzyme reads `ArrayParam` as a component's
                # name, CSS as a tag no element has.
                literal = string_value(args[0])
                named = source.kind == "css" and literal is not None and names_component(literal)
                # A props object (``find({ body: true })``) that the capture saw select
                # components: their props, not the attributes of what they render.
                selector = unwrap(args[0])
                props_of_components = (
                    selector is not None
                    and selector.type == "object"
                    and self._selected_components(node, ctx)
                )
                css = (
                    self._captured_css(node, ctx)
                    if source.component is not None or props_of_components or named
                    else None
                )
                if css is not None:
                    source = Target("css", css=js_string(css), component=source.component)
                    source.captured = self.captured_elements(node, ctx)
                    self.dom_queries_used += 1
                elif named:
                    raise Untranslatable(
                        f"selects by a component's name in {literal!r}; no query or CSS the "
                        "capture verified stands for what it selects"
                    )
                elif props_of_components:
                    raise Untranslatable(
                        f"selects components by their props ({selector_text}); no DOM capture "
                        "shows one CSS selector for what they render"
                    )
                elif source.component is not None:
                    # `find(ConfirmDialog).find(CdsButton).filterWhere((b) => b.text() ===
                    # 'Delete')`: no query or CSS stands for every button, but one may for the
                    # one the filter keeps.
                    narrowed = (
                        self._filter_where(target, node, ops, i + 1, ctx, context)
                        if i + 1 < len(ops) and ops[i + 1][0] == "filterWhere" and ops[i + 1][1]
                        else None
                    )
                    if narrowed is not None:
                        target, step = narrowed
                        finds += 1
                        i += 1 + step
                        continue
                    unresolved = (
                        f"selects the component {source.component} by its constructor or name; "
                        "no DOM capture shows what it renders"
                    )
                    if i + 1 < len(ops) and ops[i + 1][0] == "find" and ops[i + 1][1]:
                        # `find(UpgradeForm).find(AlertGroup)`: the next find may do without
                        # the scope, where a query selects exactly its elements in the page.
                        unscoped = unresolved
                        finds += 1
                        i += 1
                        continue
                    raise Untranslatable(unresolved)
                if (
                    target.kind == "var"
                    and target.binding is not None
                    and target.binding.target is not None
                    and target.binding.target.kind in ("css", "query")
                    and source.kind == "css"
                ):
                    # A variable holding a selection: under the selector it stands for.
                    target = replace(target.binding.target)
                if target.kind == "query" and target.selector and source.kind == "css":
                    if (target.index and not target.one) or target.within:
                        raise Untranslatable("find() inside a list of elements")
                    # A query the capture verified for a CSS selector: under that selector.
                    target = Target("css", css=target.selector, scope=target.scope)
                if target.kind == "root" or (
                    # One element or a list (Enzyme finds under each, as a descendant
                    # combinator does), not one picked out of a list.
                    target.kind == "css" and not target.index and target.css
                ):
                    if target.kind == "css" and source.kind == "css":
                        source = Target(
                            "css",
                            css=join_css(target.css, source.css),
                            checkbox=source.checkbox,
                        )
                    elif target.kind != "root":
                        raise Untranslatable("chained find() inside an element without a query")
                    elif source.kind == "css" and (
                        target.inline is not None
                        or (target.binding is not None and matches_container(source.css))
                    ):
                        source.scope = self.member_of(target, "container")
                    self._scope_to_render(target, source)
                    source.origin = node
                    target = source
                else:
                    raise Untranslatable("find() inside a list of elements")
                target.checkbox = checkbox
                finds += 1
                i += 1
                continue
            if op in ("at", "first", "last"):
                if op == "at":
                    idx = text(args[0]) if args else "0"
                else:
                    idx = "0" if op == "first" else "last"
                target = self._indexed(target, idx)
                i += 1
                continue
            if op == "hostNodes":
                i += 1
                continue
            if op in ("dive", "shallow") and not args:
                # The full render already rendered the child a shallow render dives into (or
                # renders again, `find(Button).shallow()`, `root.first().shallow()`): the same
                # element, with what the child rendered as its props.
                i += 1
                continue
            if op == "filterWhere" and args and last_find is not None:
                narrowed = self._filter_where(target, last_find, ops, i, ctx, context)
                if narrowed is not None:
                    target, step = narrowed
                    i += step
                    continue
            if op == "filter" and args and string_value(args[0]) is not None:
                target = self._filtered(target, string_value(args[0]) or "")
                i += 1
                continue
            if op == "closest" and args and string_value(args[0]) is not None:
                target = Target(
                    "css",
                    css=f"{self.element_code(target, 'get')}.closest("
                    f"{js_string(string_value(args[0]) or '')})",
                )
                target.index = "expr"
                i += 1
                continue
            if op in ("children", "childAt") and self._searched_in_document(target):
                # What the capture saw them select, when a query selects exactly that.
                index, skip = (None, 0) if op == "childAt" else self._index_after(ops, i + 1)
                captured = self.captured_target(
                    node,
                    f":{op}",
                    ctx,
                    context,
                    index,
                    False,
                    positioned=not self._beside_others(target),
                )
                if captured is not None:
                    captured.captured = self.captured_elements(node, ctx)
                    captured.structural = True
                    consumed = index is not None and (
                        captured.index is not None or not captured.multi
                    )
                    i += 1 + (skip if consumed else 0)
                    target = captured
                    continue
                one_element = target.kind == "query" or (target.kind == "var" and not target.multi)
                siblings = self.sibling_target(node, ctx) if one_element else None
                if siblings is not None:
                    # The role of every child, inside the element: `within(row).getAllByRole(
                    # 'cell')[i]`.
                    siblings.within = self.element_code(target, "get")
                    siblings.index = text(args[0]) if op == "childAt" and args else None
                    siblings.captured = self.captured_elements(node, ctx)
                    siblings.structural = True
                    target = siblings
                    i += 1
                    continue
                css = (
                    self._captured_css(node, ctx)
                    if target.kind == "root" or target.structural
                    else None
                )
                if css is not None:
                    # No query selects them; the CSS the capture verified does (where the
                    # DOM alone cannot tell a component's children from its elements).
                    target = Target("css", css=js_string(css), structural=True)
                    self.fallback_note(target, ctx)
                    self.dom_queries_used += 1
                    i += 1
                    continue
            if op in ("children", "childAt") and (
                (target.kind == "root" and target.render.element == "output") or target.structural
            ):
                raise Untranslatable(
                    f"{op}() of what a component rendered: whether that is another "
                    "component (whose children Enzyme would give) the DOM does not say"
                )
            if op in ("children", "childAt") and self._component_root(target):
                # Enzyme's children of a component are what it rendered: one element, whose
                # DOM node the root wrapper already stands for.
                position = text(args[0]) if args else ""
                if op == "childAt" and position != "0":
                    raise Untranslatable(
                        f"childAt({position}) of a component's root: it rendered one element"
                    )
                if target.render.element == "mixed":
                    raise Untranslatable(
                        f"{op}() of a root that is a component in one render and an element "
                        "in another"
                    )
                target = replace(target, render=replace(target.render, element="output"))
                i += 1
                continue
            if op in ("children", "parent", "childAt"):
                element = self.element_code(target, "get")
                if op == "parent":
                    target = Target("css", css=f"{element}.parentElement", index="expr")
                elif op == "childAt":
                    target = Target("css", css=f"{element}.children[{text(args[0])}]", index="expr")
                else:
                    target = Target(
                        "css", css=f"Array.from({element}.children)", multi=True, index="list"
                    )
                if op != "parent":
                    # What the capture saw them select: a component's node, whose props are
                    # not the attributes of the element it rendered.
                    target.captured = self.captured_elements(node, ctx)
                    target.node_of = self.selected_component(node, ctx)
                i += 1
                continue
            raise Untranslatable(f"{op}() has no Testing Library equivalent here")
        if target.kind == "root" and finds == 0 and i < len(ops):
            queried = self._root_query(target, ops[i][2], ctx)
            if queried is not None:
                target = queried
        return target, ops[i:]

    def _root_query(self, root: Target, call: Node, ctx: Ctx) -> Target | None:
        """The query the capture verified for the root wrapper's element where the test reads
        or acts on it (``wrapper.hasClass(…)``): its role, label, text or test id, in place of
        the node access to the render's first element. Not for a shallow root that is another
        component's element (its props are not the element's), an inline render, an SVG root
        or several renders at once."""
        render = root.render
        if root.inline is not None or render.svg or (render.shallow and render.component_root):
            return None
        if root.binding is not None and root.binding.beside_others:
            return None
        fn = call.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        if prop is None or text(prop) not in ROOT_QUERIED:
            return None
        records = self._records_at(prop, ctx, root=True) or []
        if not records or any(r.count != 1 for r in records):
            return None
        picked = self._pick(self._consensus(records), "element")
        if picked is None or picked[2]:
            return None
        return self._query_target(picked, multi=False, index=None)

    def _from_capture_only(
        self,
        node: Node,
        ctx: Ctx,
        context: str,
        ops: list[tuple[str, list[Node], Node]],
        i: int,
        *,
        positioned: bool,
    ) -> Target:
        index, _skip = self._index_after(ops, i + 1)
        captured = self.captured_target(node, "", ctx, context, index, False, positioned=positioned)
        if captured is None:
            raise Untranslatable("findWhere() with a predicate and no DOM capture")
        captured.checkbox = self._captured_checkbox(node, ctx)  # as a find's (resolve)
        captured.captured = self.captured_elements(node, ctx)
        return captured

    def _filter_where(
        self,
        target: Target,
        find_call: Node,
        ops: list[tuple[str, list[Node], Node]],
        i: int,
        ctx: Ctx,
        context: str,
    ) -> tuple[Target, int] | None:
        """``ops[i]``, a ``filterWhere(predicate)`` narrowing ``find_call``'s selection out of
        ``target``: the element a text predicate keeps, by its own query, or what the capture
        saw any predicate keep (`(i) => i.prop('alt') === 'icon'`), when a query selects exactly
        that; with how many ops it stands for (an index after it may be one of them)."""
        _op, args, node = ops[i]
        filtered = self.text_filtered_target(find_call, args[0], ctx)
        step = 1
        if filtered is None and self._searched_in_document(target):
            index, skip = self._index_after(ops, i + 1)
            filtered = self.captured_target(
                node, "", ctx, context, index, False, positioned=not self._beside_others(target)
            )
            if filtered is not None:
                self._scope_to_render(target, filtered)
                filtered.checkbox = self._captured_checkbox(node, ctx)
                filtered.captured = self.captured_elements(node, ctx)
                if index is not None and (filtered.index is not None or not filtered.multi):
                    step += skip
        if filtered is None:
            return None
        filtered.within = target.within
        return filtered, step

    @staticmethod
    def _searched_in_document(target: Target) -> bool:
        """Whether what is selected from ``target`` is searched in the whole document (not in
        one render's container beside others, nor in a render made where it is read)."""
        if target.within is not None or target.scope != "document":
            return False
        if target.kind == "root" and target.inline is not None:
            return False  # `shallow(<X />).childAt(0)`: a screen query would drop the render
        binding = target.binding
        return not (target.kind == "root" and binding is not None and binding.beside_others)

    @staticmethod
    def _beside_others(root: Target) -> bool:
        """A render that shares the document with others (what is found in it is searched in
        its container)."""
        return root.kind == "root" and root.binding is not None and root.binding.beside_others

    def _scope_to_render(self, root: Target, found: Target) -> None:
        """What is found in a render that shares the document with others is searched in
        that render's container, not in the whole document."""
        if not self._beside_others(root):
            return
        container = self.member_of(root, "container")
        if found.kind == "query":
            found.within = container
        elif found.kind == "css" and found.scope == "document" and found.index != "expr":
            found.scope = container

    @staticmethod
    def _index_after(ops: list[tuple[str, list[Node], Node]], j: int) -> tuple[int | None, int]:
        if j < len(ops):
            op, args, _ = ops[j]
            if op == "first":
                return 0, 1
            if op == "last":
                return LAST, 1  # which one it is, the capture's count tells
            if op == "at" and args and re.fullmatch(r"\d+", text(args[0])):
                return int(text(args[0])), 1
        return None, 0

    def _indexed(self, target: Target, idx: str) -> Target:
        if target.kind == "root":
            if not self._shallow_root(target):
                return target  # a full render's root wrapper is one node: itself
            # A shallow root is what the component rendered: a fragment's nodes one by one
            # (text nodes too, as Enzyme counts them).
            nodes = self._root_nodes(target)
            code = f"Array.from({nodes}).slice(-1)[0]" if idx == "last" else f"{nodes}[{idx}]"
            return Target("css", css=code, index="expr")
        if target.index not in (None, "list"):
            if idx in ("0",):
                return target
            raise Untranslatable("indexes into a single element")
        return replace(target, multi=True, index=idx)

    def _filtered(self, target: Target, selector: str) -> Target:
        items = self.list_code(target, "getAll")
        return Target(
            "css",
            css=f"Array.from({items}).filter((element) => element.matches({js_string(selector)}))",
            multi=True,
            index="list",
        )

"""The ``render`` calls that replace Enzyme's ``mount``/``shallow``/``render`` and the project's
render helpers: the callee, the arguments kept, a ref to a class instance, an ``<svg>`` around
an SVG-only root."""

from __future__ import annotations

import re
from functools import cached_property

from ..models import UnrenderedChild
from ..syntax import Node, args_of, object_declared, object_items, splice, text, unwrap, walk
from .class_refs import ClassRefs
from .state import Ctx, relative_specifier

# react-router's errors for a route, a link, withRouter or a hook outside a router (v4–v6).
OUTSIDE_A_ROUTER = re.compile(r"outside (?:of )?a <Router>|in the context of a <Router>")


# react-redux's error for a connected component or a hook outside a <Provider> (v5–v8).
NO_STORE = re.compile(r'Could not find "store" in|could not find react-redux context value')


# Where a file gives a name a value: the node type → its (name, value) fields.
_ASSIGNMENTS = {
    "variable_declarator": ("name", "value"),
    "assignment_pattern": ("left", "right"),
    "object_assignment_pattern": ("left", "right"),
    "assignment_expression": ("left", "right"),
    "pair": ("key", "value"),
}


def needs_a_router(error: str) -> bool:
    return OUTSIDE_A_ROUTER.search(error) is not None


def needs_a_store(error: str) -> bool:
    return NO_STORE.search(error) is not None


class RenderCalls(ClassRefs):
    def render_code(self, call: Node, ctx: Ctx) -> str:
        fn = call.child_by_field_name("function")
        name = text(fn)
        args = args_of(call)
        if name in self.wrapper_functions:
            # A function of the file's that renders what it is given (``didMount(<Modal />)``):
            # the call stays; the element takes the ref to its instance, where one is read.
            return splice(self.src, call.start_byte, call.end_byte, self._ref_edits(call))
        if name in self.helper_renders:
            render_name, module, option_mode = self.helper_renders[name]
            self.need(render_name, module)
            return self._rewrite_call(
                call,
                render_name,
                len(args) if option_mode == "pass-through" else 1,
                svg=self.renders_svg(call),
            )
        helper = self.options.render_helper
        if helper is not None:
            render_name = helper.render_name
            module = relative_specifier(helper.module, helper.path, self.path)
        else:
            render_name, module = "render", self.options.rtl_module
        render_name = self.need_unshadowed(render_name, module)
        kind = self.enzyme_renders.get(name) or text(
            fn.child_by_field_name("property")
            if fn is not None and fn.type == "member_expression"
            else fn
        )
        around = self.around_render(call)
        if around is not None:
            return self._rewrite_call(call, render_name, 1, around=around)
        if name in self.project_renders:
            if len(args) > 1:
                self.note_only(call, "review", f"dropped the other arguments of {name}()")
        elif len(args) > 1:
            self.pending_notes.append(
                (
                    "review",
                    f"dropped the {kind}() options {text(args[1])[:80]}; pass a "
                    "`wrapper` render option if the component needs providers",
                )
            )
            self.note_only(call, "review", f"dropped the {kind}() options")
        if kind == "render":
            self.note_only(call, "review", "enzyme render() (static HTML) became a full render")
        return self._rewrite_call(call, render_name, 1, svg=self.renders_svg(call))

    def helper_render_refused(self) -> str | None:
        """Why the file's renders through the project's helpers cannot be converted, or None.
        A helper that takes the element after other arguments (``mountWrapper(store, <X />)``)
        wraps it in what its own body gives (a store's provider, a router, translations),
        which no call of it shows."""
        for call in (n for n in walk(self.tree.root_node) if n.type == "call_expression"):
            name = text(call.child_by_field_name("function"))
            args = [unwrap(a) for a in args_of(call)]
            if name not in self.project_renders or not args:
                continue
            if (args[0] is None or not args[0].type.startswith("jsx_")) and any(
                a is not None and a.type.startswith("jsx_") for a in args[1:]
            ):
                return (
                    f"it renders through the project's {name}(), which takes the element after "
                    "other arguments and wraps it in what its own body gives; the project has "
                    f"no Testing Library counterpart of {name} to render it the same way"
                )
        return None

    def around_render(self, call: Node) -> tuple[str, str] | None:
        """The JSX the render ``call`` puts around its element (once per call; the notes and
        imports it needs with it): the providers its options give, a store or a router the
        children a shallow render never rendered need."""
        if call.id in self.render_around:
            return self.render_around[call.id]
        fn = call.child_by_field_name("function")
        name = text(fn)
        args = args_of(call)
        kind = self.enzyme_renders.get(name) or text(
            fn.child_by_field_name("property")
            if fn is not None and fn.type == "member_expression"
            else fn
        )
        around = self._providers(args[1:])
        # Options no provider stands for (a router in legacy context, made by a helper of the
        # project's): where the file's components need a router, the router they gave.
        dropped = around is None and len(args) > 1 and name not in self.project_renders
        if around is None and self.is_shallow(call) and self.needs_store():
            provider = self.need_unshadowed("Provider", "react-redux")
            store = self.store_factory
            around = (f"<{provider} store={{{store}}}>", f"</{provider}>")
            self.note_only(
                call,
                "review",
                f"rendered inside a <{provider} store={{{store}}}>, a store made as this file "
                "makes its own: the children the shallow test never rendered need one",
            )
        if (self.is_shallow(call) or dropped) and self.needs_router():
            location = self._router_value(args[1:], "location")
            history = self._router_value(args[1:], "history")
            major = self.options.router_major
            if history is not None and not re.fullmatch(r"[A-Za-z_$][\w$.]*", history):
                history = None  # made there (`createFakeHistory()`): no test can read it
            if history is not None and (major is None or major >= 6):
                history = None  # (react-router 6's <Router> takes no history)
            if history is not None:
                # The history the test gave, which it asserts on (`history.push`): a <Router>
                # with it, at the location given beside it, as the legacy context had them.
                router = self.need_unshadowed("Router", "react-router-dom")
                at = f" at {location}" if location is not None else ""
                given = ", ".join(
                    [f"...{history}"]
                    + ([] if location is None else [_property("location", location)])
                    + [f"listen: (listener) => {history}.listen(listener) || (() => undefined)"]
                )
                opening = f"<{router} history={{{{ {given} }}}}>"
                what = f"a <{router}> with the history they gave ({history}){at}"
            else:
                router = self.need_unshadowed("MemoryRouter", "react-router-dom")
                entries = f" initialEntries={{[{location}]}}" if location is not None else ""
                opening = f"<{router}{entries}>"
                where = f"at the location they gave ({location})" if location else "at /"
                what = f"a <{router}> gives the router this file's components need, {where}"
            outer, inner = around or ("", "")
            around = (f"{outer}{opening}", f"</{router}>{inner}")
            if dropped:
                self.note_only(
                    call, "review", f"dropped the {kind}() options {text(args[1])[:80]}; {what}"
                )
            elif name in self.project_renders and len(args) > 1:
                self.note_only(call, "review", f"dropped the other arguments of {name}(); {what}")
            if history is not None:
                self.note_only(
                    call,
                    "review",
                    f"the <{router}> calls {history}.listen() and, at unmount, what it returns: "
                    "a fake history's `jest.fn()` returns nothing, hence the `listen` that "
                    "returns a function in its place",
                )
        self.render_around[call.id] = around
        return around

    def replace_render(self, call: Node, ctx: Ctx) -> None:
        """Replace the render ``call`` (with the ``.dive()`` calls around it) by RTL's."""
        self.replace(self.render_span(call), self.render_code(call, ctx))

    def needs_router(self) -> bool:
        """The file's shallow renders had children that failed outside a router (what they
        never rendered), and react-router-dom is installed: a ``<MemoryRouter>`` is what they
        need, at ``/`` as a shallow test's context-free render was."""
        return self.options.router_installed and any(
            needs_a_router(child.error) for child in self.unrendered_children()
        )

    def unrendered_children(self) -> list[UnrenderedChild]:
        """The children the capture saw not render in the file's shallow renders."""
        renders = self.dom.renders if self.dom is not None else []
        return [child for record in renders for child in record.unrendered]

    def needs_store(self) -> bool:
        """The file's shallow renders had children that failed outside a redux ``<Provider>``,
        react-redux is installed and the file makes a store of its own (``store_factory``)."""
        return (
            self.options.redux_installed
            and self.store_factory is not None
            and any(needs_a_store(child.error) for child in self.unrendered_children())
        )

    @cached_property
    def store_factory(self) -> str | None:
        """The call that makes the test's redux store, when the file makes every store it
        names ``store`` with one call of a function it imports or declares at its top, without
        arguments (``const store = configureStore()``, a default ``store = configureStore()``,
        ``{ store: createStore() }``); None otherwise."""
        root = self.tree.root_node
        top = {
            local for stmt, _module in self.own_imports() for _i, local in self._import_names(stmt)
        }
        for stmt in root.named_children:
            named = stmt.child_by_field_name("name")
            if stmt.type == "function_declaration" and named is not None:
                top.add(text(named))
            elif stmt.type == "lexical_declaration":
                top.update(
                    text(d.child_by_field_name("name"))
                    for d in stmt.named_children
                    if d.type == "variable_declarator"
                )
        made: set[str] = set()
        for node in walk(root):
            if node.start_byte >= self.virtual_from:
                continue
            fields = _ASSIGNMENTS.get(node.type)
            if fields is None:
                continue
            key, value = (node.child_by_field_name(f) for f in fields)
            if key is None or text(key) != "store" or value is None:
                continue
            call = unwrap(value)
            fn = call.child_by_field_name("function") if call is not None else None
            if call is None or call.type != "call_expression" or fn is None:
                return None
            if args_of(call) or fn.type != "identifier" or text(fn) not in top:
                return None
            made.add(text(call))
        return made.pop() if len(made) == 1 else None

    def _router_value(self, options: list[Node], key: str, depth: int = 0) -> str | None:
        """The code of the location (``key``) or the history that a render's options give a
        router in legacy context (react-router 4's ``context: { router: { history, route: {
        location } } }``): a ``key`` key anywhere in them, also in the arguments of the
        project's helper that builds them (``createContextWithFakeRouter({ history, location
        })``) or in a value declared before the render (``const shallowOptions = …``). None
        when they give none."""
        if depth > 4:
            return None
        for option in options:
            node = unwrap(option)
            found: str | None = None
            if node is None:
                continue
            if node.type in ("identifier", "shorthand_property_identifier"):
                declared = object_declared(text(node), node)
                if declared is not None:
                    found = self._router_value([declared], key, depth + 1)
            elif node.type == "object":
                items = object_items(node)
                value = dict(items).get(key)
                if value is not None and text(value) not in ("null", "undefined"):
                    return text(value)
                found = self._router_value([v for _k, v in items], key, depth + 1)
            elif node.type == "call_expression":
                found = self._router_value(args_of(node), key, depth + 1)
            if found is not None:
                return found
        return None

    def _providers(self, options: list[Node]) -> tuple[str, str] | None:
        """The providers a render's options give, as JSX around the element: a redux store in
        legacy context (``{ context: { store } }``, also inside a project helper's own options
        such as ``{ shallowOptions: { context: { store } } }``, also declared before the render
        under the name the options give) becomes ``<Provider store>``
        (react-redux); Enzyme's ``wrappingComponent`` (with its props) wraps it as it is."""
        for option in options:
            found = unwrap(option)
            if found is not None and found.type in ("identifier", "shorthand_property_identifier"):
                # Options declared before the render (``const shallowOptions = { …, context:
                # { …, store } }``, then ``{ shallowOptions }``): read where they are declared.
                found = object_declared(text(found), found)
            if found is None or found.type != "object":
                continue
            items = dict(object_items(found))
            wrapping = unwrap(items.get("wrappingComponent"))
            if wrapping is not None and wrapping.type in ("identifier", "member_expression"):
                props = unwrap(items.get("wrappingComponentProps"))
                spread = f" {{...{text(props)}}}" if props is not None else ""
                return f"<{text(wrapping)}{spread}>", f"</{text(wrapping)}>"
            store = self._legacy_store(found, None)
            if store is not None and self.options.redux_installed:
                provider = self.need_unshadowed("Provider", "react-redux")
                return f"<{provider} store={{{store}}}>", f"</{provider}>"
            nested = self._providers([v for _k, v in object_items(found)])
            if nested is not None:
                return nested
        return None

    def _legacy_store(self, options: Node, through: str | None, depth: int = 0) -> str | None:
        """The code of the store that the options object ``options`` puts in legacy context
        (``context: { store }``), directly or through a spread of an object declared before
        (``{ ...context }`` where ``const context = { ...router, context: { …, store: s } }``:
        ``context.context.store``, read through that name so that it is evaluated once).
        ``through``: the code that reaches ``options`` when it is not the call's literal."""
        if depth > 4:
            return None
        items = dict(object_items(options))
        context = unwrap(items.get("context"))
        store = (
            dict(object_items(context)).get("store")
            if context is not None and context.type == "object"
            else None
        )
        if store is not None:
            return f"{through}.context.store" if through is not None else text(store)
        if context is not None:
            return None  # its own context, without a store, replaces any spread before it
        for child in options.named_children:
            spread = unwrap(child.named_children[0]) if child.type == "spread_element" else None
            if spread is None or spread.type != "identifier":
                continue
            declared = object_declared(text(spread), options)
            if declared is not None and declared.type == "object":
                found = self._legacy_store(declared, text(spread), depth + 1)
                if found is not None:
                    return found
        return None

    def _ref_edits(self, call: Node) -> list[tuple[int, int, str]]:
        """The ``ref={…}`` the element ``call`` renders takes (the one its instance is read
        through, see ``instance_element``), when the test reads that instance."""
        element = self._element_of(call)
        element = self.instance_element(element) if element is not None else None
        if element is None or element.id not in self.element_refs:
            return []
        return [self.ref_attribute(element)]

    def _rewrite_call(
        self,
        call: Node,
        name: str,
        keep: int,
        *,
        svg: bool = False,
        around: tuple[str, str] | None = None,
    ) -> str:
        """The call's own text with another callee, no type arguments and ``keep`` arguments
        (layout and comments kept); with ``svg``, the element inside an ``<svg>``; with
        ``around``, inside that JSX (providers)."""
        base = call.start_byte
        edits: list[tuple[int, int, str]] = []
        fn = call.child_by_field_name("function")
        assert fn is not None
        edits.append((fn.start_byte, fn.end_byte, name))
        type_args = call.child_by_field_name("type_arguments")
        if type_args is not None:
            edits.append((type_args.start_byte, type_args.end_byte, ""))
        args = args_of(call)
        if len(args) > keep:
            start = args[keep - 1].end_byte if keep else args[0].start_byte
            edits.append((start, args[-1].end_byte, ""))
        edits += self._ref_edits(call)
        if svg and around is None:
            around = ("<svg>", "</svg>")
        if around is not None and args:
            first = unwrap(args[0])
            jsx = first is not None and first.type.startswith("jsx_")
            opening, closing = around if jsx else (around[0] + "{", "}" + around[1])
            edits.append((args[0].start_byte, args[0].start_byte, opening))
            edits.append((args[0].end_byte, args[0].end_byte, closing))
        return splice(self.src, base, call.end_byte, edits)


def _property(key: str, value: str) -> str:
    """``key: value`` in an object literal, shorthand where the value is a variable named
    ``key``."""
    return key if value == key else f"{key}: {value}"

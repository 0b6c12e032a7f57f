"""User events: ``simulate`` and an element's event handler called directly → ``fireEvent`` /
``userEvent`` at the element, with the test's mock event carried over (``target``, mocked
``preventDefault``), a form's submit as a click on its submit button."""

from __future__ import annotations

import re

from ..models import HandlerHolder
from ..syntax import (
    Node,
    args_of,
    called_as_statement,
    enclosing_function,
    js_string,
    object_declared,
    object_items,
    string_value,
    text,
    unwrap,
    uses_after,
)
from .awaiting import Awaiting
from .instance_events import held_handler
from .state import Binding, Ctx, Target, Untranslatable
from .tables import EVENT_METHODS, EVENTS, SELECT_OPS

# What may stand around a callback read before it is called: ``(x.prop('onClick') as any)()``.
_WRAPPERS = frozenset(
    {"parenthesized_expression", "as_expression", "non_null_expression", "satisfies_expression"}
)

# Members a test's mock event replaces with functions: never data for the real event's init.
_MOCKED = frozenset({*EVENT_METHODS, "persist"})


class Events(Awaiting):
    """Firing the events a test simulated or whose handlers it called."""

    def handler_call(
        self, expr: Node
    ) -> tuple[Node, list[tuple[str, list[Node], Node]], str, list[Node]] | None:
        """``(find('input').prop('onChange') as any)(event)``, ``….invoke('onChange')(event)``:
        (the wrapper, the selection ops, the handler prop's name, the call's arguments), or
        None when ``expr`` is not a call of an event handler prop read from a wrapper."""
        expr = unwrap(expr) or expr
        if expr.type != "call_expression":
            return None
        fn = self._handler_read(expr)
        chain = self.chain(fn) if fn is not None and fn.type == "call_expression" else None
        if chain is None or not chain[1]:
            return None
        op, args, _node = chain[1][-1]
        name = string_value(args[0]) if op in ("prop", "invoke") and len(args) == 1 else None
        if name is None or not re.fullmatch(r"on[A-Z][A-Za-z]*", name):
            return None
        return chain[0], chain[1][:-1], name, args_of(expr)

    def element_handler_call(self, expr: Node, ctx: Ctx) -> str | None:
        """A statement calling the event handler prop of a DOM element the test found by a
        selector (``(input.prop('onChange') as any)(event)``) → that event fired at the
        element, as ``simulate('change', event)`` is: React calls the same handler, with a real
        event carrying the test's data. None for a component's prop (a recorded component's
        is ``recorded_call``'s; another's has no event to fire), an event React does not name,
        or more than one argument. Enzyme's ``prop()`` reads one node, as ``simulate`` fires at
        one: a passing original found exactly one."""
        found = self.handler_call(expr)
        if found is None:
            return None
        base, ops, name, call_args = found
        event = EVENTS.get(name[2:].lower())
        if event is None or len(call_args) > 1 or any(o not in SELECT_OPS for o, _a, _n in ops):
            return None
        if call_args and _value_literal(call_args[0]):
            return None  # `onChange('grace')`: no event carries a bare value
        if any(o == "find" and (len(a) != 1 or string_value(a[0]) is None) for o, a, _n in ops):
            return None
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        if not ops and (binding is None or binding.kind != "derived"):
            return None  # the render's root: its props are the component's
        target, rest = self.resolve(base, ops, ctx, "element")
        if rest or target.kind == "root" or target.component is not None:
            return None
        data = call_args[0] if call_args else None
        if event == "submit":
            submitted = self._submitted_by_click(target, self._find_of(base, ops), data, expr, ctx)
            if submitted is not None:
                return submitted
        self.fallback_note(target, ctx)
        return self._fire(target, event, expr, data, ctx)

    def child_handler_call(self, expr: Node, ctx: Ctx) -> str | None:
        """A statement calling a child component's callback prop (``(wrapper.find(Button)
        .prop('onClick') as any)()``) that an element the child rendered holds as its own
        handler, as the capture saw where the test read it: that element's event, as a user
        makes it, which makes the child call its prop. None when the capture saw no such
        element in every run, or when the call passes what no event carries (a value, not an
        event: ``onChange('bar')``); the recording calls it then."""
        found = self._child_event(expr, ctx)
        if found is None:
            return None
        target, event, data = found
        return self._fire(target, event, expr, data, ctx)

    def _child_event(
        self, expr: Node, ctx: Ctx, *, handler: Node | None = None
    ) -> tuple[Target, str, Node | None] | None:
        """For ``child_handler_call``: (the element holding the callback, its event, the
        test's event data), or None. ``handler``: the read of the handler the call stands
        for, where its name is not bound yet (``handler_alias``)."""
        # `(x.prop('onClick') as any)(…)`, `x.invoke('onClick')(…)`: read where the capture saw
        # an Enzyme wrapper's prop read (only those have `:handler` records).
        expr = unwrap(expr) or expr
        if expr.type != "call_expression":
            return None
        fn = handler if handler is not None else self._handler_read(expr)
        if fn is None or fn.type != "call_expression":
            return None
        read = fn.child_by_field_name("function")
        prop = read.child_by_field_name("property") if read is not None else None
        if prop is None or text(prop) not in ("prop", "invoke") or len(args_of(fn)) != 1:
            return None
        name = string_value(args_of(fn)[0])
        call_args = args_of(expr)
        if name is None or len(call_args) > 1:
            return None
        if call_args and not self._event_like(call_args[0]):
            return None
        records = self._records_at(prop, ctx, handler=True) or []
        handlers = [r.handlers.get(name) for r in records]
        held = [h for h in handlers if h is not None]
        if not held or len(held) != len(handlers) or len({h.event for h in held}) != 1:
            return None
        event = EVENTS.get(held[0].event[2:].lower())
        data = call_args[0] if call_args else None
        holders = [_meant(h.holders, data) for h in held]
        chosen = [h for h in holders if h is not None]
        if event is None or len(chosen) != len(holders):
            return None
        if any("disabled" in h.element.attributes for h in chosen):
            return None  # no user's event reaches it: the test did what no user can
        target = self._holder_target(chosen)
        return (target, event, data) if target is not None else None

    def _holder_target(self, holders: list[HandlerHolder]) -> Target | None:
        """The element holding a handler, as each run saw it (``holders``): by the query every
        run agrees on, else by its position among those its name selects; None without."""
        target = self._agreed([h.queries for h in holders], multi=False) or self._agreed(
            [h.indexed for h in holders], multi=False
        )
        if target is None:
            return None
        element = holders[0].element
        target.captured = (element,)
        target.checkbox = element.tag == "input" and element.attributes.get("type") in (
            "checkbox",
            "radio",
        )
        return target

    def instance_event(self, ops: list[tuple[str, list[Node], Node]], ctx: Ctx) -> str | None:
        """``wrapper.instance().handleClick()`` as a statement, where the capture saw one
        element hold that method as its own handler (``instance_events``): that element's
        event, as a user makes it; None otherwise (the call goes through the ref)."""
        if len(ops) != 2 or ops[0][0] != "instance":
            return None
        member = ops[0][2].child_by_field_name("function")
        held = held_handler(self.records, member) if member is not None else None
        event = EVENTS.get(held[0][2:].lower()) if held is not None else None
        target = self._holder_target(held[1]) if held is not None else None
        if held is None or event is None or target is None:
            return None
        return self._fire(target, event, ops[1][2], None, ctx)

    def _handler_read(self, call: Node) -> Node | None:
        """What the call ``call`` calls: the read of a handler prop (``(x.prop('onClick') as
        any)`` in ``(x.prop('onClick') as any)()``), also through a ``const`` declared with it
        (``const onSubmit = x.prop('onSubmit'); onSubmit()``: see ``handler_alias``)."""
        fn = unwrap(call.child_by_field_name("function"))
        alias = self.alias_called(call)
        return unwrap(alias.handler) if alias is not None else fn

    def alias_called(self, call: Node) -> Binding | None:
        """The binding of a handler read that the call ``call`` calls by its name, or None."""
        fn = unwrap(call.child_by_field_name("function"))
        if fn is None or fn.type != "identifier":
            return None
        binding = self.binding_named(text(fn), fn)
        return binding if binding is not None and binding.handler is not None else None

    def handler_alias(self, name: str, value: Node, stmt: Node, ctx: Ctx) -> int:
        """``const onSubmit = wrapper.find('form').prop('onSubmit') as () => void`` (or
        ``invoke``), where every later use of ``onSubmit`` calls it as a statement: each call
        is translated as the handler's call written out (an event on the element holding it),
        and the declaration goes (``finish_handler_aliases``). The handler is an element's
        (found by a selector), or a child component's that an element holds as its own at
        every call (``_child_event``); a component's other callbacks keep their recording.
        How many calls there are; 0 for any other value or use."""
        read = unwrap(value)
        fn = read.child_by_field_name("function") if read is not None else None
        prop = fn.child_by_field_name("property") if fn is not None else None
        if read is None or read.type != "call_expression" or prop is None:
            return 0
        key = string_value(args_of(read)[0]) if len(args_of(read)) == 1 else None
        if text(prop) not in ("prop", "invoke") or key is None:
            return 0
        chain = self.chain(read)
        if not re.fullmatch(r"on[A-Z][A-Za-z]*", key) or chain is None:
            return 0
        ops = chain[1][:-1]
        elements = (
            key[2:].lower() in EVENTS
            and bool(ops)
            and all(o in SELECT_OPS for o, _a, _n in ops)
            and all(string_value(a[0]) is not None for o, a, _n in ops if o == "find" and a)
        )
        uses = uses_after(name, stmt)
        for n in uses:
            call = called_as_statement(n)
            if call is None:
                return 0
            if not elements and self._child_event(call, ctx, handler=read) is None:
                return 0
        return len(uses)

    def events_answer(self, name: str, stmt: Node, ctx: Ctx) -> bool:
        """Every use of ``name`` after ``stmt`` (``const confirm = wrapper.find(Button)
        .last()``) calls one of its callback props as a statement, and each call is an
        element's event (``child_handler_call``): the selection is not needed."""
        uses = uses_after(name, stmt)
        for n in uses:
            member = n.parent  # `confirm.prop`
            callee = member.parent if member is not None else None  # `confirm.prop('onClick')`
            if member is None or member.type != "member_expression" or callee is None:
                return False
            while callee.parent is not None and callee.parent.type in _WRAPPERS:
                callee = callee.parent
            call = called_as_statement(callee)
            if call is None or self._child_event(call, ctx) is None:
                return False
        return bool(uses)

    @staticmethod
    def _event_like(arg: Node) -> bool:
        """``arg`` may stand for an event: an object (``{ target: { value: 'x' } }``,
        ``{ preventDefault: jest.fn() }``) or a variable declared as one."""
        value = unwrap(arg)
        if value is not None and value.type == "identifier":
            value = object_declared(text(value), arg)
        return value is not None and value.type == "object"

    def _find_of(self, base: Node, ops: list[tuple[str, list[Node], Node]]) -> Node | None:
        """The ``find`` call that selected what ``ops`` on ``base`` end at: the last op, or the
        value of the binding ``base`` (``const form = wrapper.find('form')``); None else."""
        if ops:
            return ops[-1][2] if ops[-1][0] == "find" else None
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        if binding is None or binding.kind != "derived" or binding.node is None:
            return None
        value = unwrap(binding.node.child_by_field_name("value"))
        fn = value.child_by_field_name("function") if value is not None else None
        if value is None or value.type != "call_expression" or fn is None:
            return None
        prop = fn.child_by_field_name("property") if fn.type == "member_expression" else None
        return value if prop is not None and text(prop) == "find" else None

    def _submitted_by_click(
        self, form: Target, find: Node | None, data: Node | None, at: Node, ctx: Ctx
    ) -> str | None:
        """A submit of a form no query selects (``find('form').simulate('submit')``, its
        ``onSubmit`` called): a click on its one submit button, as a user submits it (the
        capture saw that button in every run of ``find``), or None. Not when the test's event
        carries data or a mock it looks at later: a click's event has neither.

        Where no click can stand for it, the ``submit`` event itself is fired at that button:
        it bubbles to the form, whose ``onSubmit`` React calls as for the form's own event. So
        where the button was disabled in a run (the test submits what no user could: a form
        refusing an empty todo, its "Add" disabled), and in a test converted again with
        ``fireEvent`` (``CodemodOptions.fire_event_tests``: the click failed under jsdom, where
        a listener on the page throws). Only the event's ``target`` differs (the button); a
        handler that reads the form from it fails the test visibly."""
        if form.kind == "query" or find is None:
            return None
        if data is not None and (self._payload(data) is not None or self._event_mocks(data, ctx)):
            return None
        submitter = self.submitter_target(find, ctx)
        if submitter is None:
            return None
        button, disabled = submitter
        button.within = form.within
        element = self.element_code(button, "get", non_null=True)
        if disabled or (ctx.test is not None and ctx.test.name in self.options.fire_event_tests):
            self.need("fireEvent")
            return f"fireEvent.submit({element});"
        if self.options.event_style == "userEvent" and self.options.user_event_installed:
            user = self._user_event("click", element, None, at, None, ctx)
            if user is not None:
                return user
        self.need("fireEvent")
        return f"fireEvent.click({element});"

    def fire(self, target: Target, args: list[Node], ctx: Ctx) -> str:
        if not args:
            raise Untranslatable("simulate() without an event name")
        raw_event = string_value(args[0])
        if raw_event is None:
            raise Untranslatable("simulate() with a computed event name")
        event = EVENTS.get(raw_event.lower(), raw_event)
        return self._fire(target, event, args[0], args[1] if len(args) > 1 else None, ctx)

    def _fire(self, target: Target, event: str, at: Node, data: Node | None, ctx: Ctx) -> str:
        """``event`` fired at ``target`` with the test's ``data`` (Enzyme's mock event), for the
        statement at ``at``."""
        payload = self._payload(data) if data is not None else None
        if event == "change" and target.checkbox:
            # React's onChange of a checkbox or radio listens for the click that toggles it.
            event = "click"
            payload = None
        if event in ("click", "dblClick", "mouseDown", "mouseUp") and payload == "{ button: 0 }":
            payload = None  # the main button, which every click uses (react-router's Link checks)
        element = self.element_code(target, "get", non_null=True)
        mocks = self._event_mocks(data, ctx) if data is not None else []
        if mocks:
            # Enzyme hands the handler the test's object (shallow) or merges it into the
            # event (mount): a mocked preventDefault/stopPropagation is what gets called. RTL
            # dispatches a real event; React calls these on it, so they go onto that event.
            self.need("fireEvent")
            self.need("createEvent")
            init = f", {payload}" if payload else ""
            return (
                f"fireEvent({element}, Object.assign(createEvent.{event}({element}{init}), "
                f"{{ {', '.join(mocks)} }}));"
            )
        if self.options.event_style == "userEvent" and self.options.user_event_installed:
            user = self._user_event(event, element, payload, at, data, ctx)
            if user is not None:
                return user
        self.need("fireEvent")
        return f"fireEvent.{event}({element}{', ' + payload if payload else ''});"

    def _user_event(
        self,
        event: str,
        element: str,
        payload: str | None,
        at: Node,
        data: Node | None,
        ctx: Ctx,
    ) -> str | None:
        """The user-event call for a simulated event, or None when user-event cannot say it
        (a hand-made payload, an event no user action makes, a function that cannot wait)."""
        if ctx.test is not None and ctx.test.name in self.options.fire_event_tests:
            return None
        calls = self._user_calls(event, element, payload, at, data)
        if calls is None:
            return None
        fn = enclosing_function(at)
        act = self.act_of(fn) if fn is not None else None
        if act is not None:
            # Inside act(() => …): the act is awaited and its callback async; the tidy pass
            # then takes the awaited user-event call out of the act, which it already is in.
            fn = enclosing_function(act)
            if fn is None or not self.make_async(fn):
                return None
            self.await_act(act)
        elif fn is None or not self.make_async(fn):
            return None
        self.needs_user_event = True
        self.user_owner_nodes[fn.id] = fn
        return "\x00".join(f"await {self.user_name}.{call};" for call in calls)

    def _user_calls(
        self, event: str, element: str, payload: str | None, at: Node, data: Node | None
    ) -> list[str] | None:
        if event in ("click", "dblClick") and payload is None:
            return [f"{event}({element})"]
        if event in ("mouseEnter", "mouseOver") and payload is None:
            return [f"hover({element})"]
        if event in ("mouseLeave", "mouseOut") and payload is None:
            return [f"unhover({element})"]
        if event != "change" or data is None:
            return None
        value = self._changed_to(data)
        if value is None:
            return None
        kind = self._entry_kind(at)
        if kind == "select":
            return [f"selectOptions({element}, {js_string(value)})"]
        if kind != "text":
            return None
        typed = value.replace("{", "{{").replace("[", "[[")
        if not typed:
            return [f"clear({element})"]
        return [f"clear({element})", f"type({element}, {js_string(typed)})"]

    def _changed_to(self, payload: Node) -> str | None:
        """The string literal of ``{ target: { value: '…' } }`` (nothing else in it)."""
        obj = unwrap(payload)
        if obj is None or obj.type != "object" or len(obj.named_children) != 1:
            return None
        pair = obj.named_children[0]
        key = pair.child_by_field_name("key")
        inner = unwrap(pair.child_by_field_name("value"))
        if pair.type != "pair" or key is None or text(key) != "target" or inner is None:
            return None
        if inner.type != "object" or len(inner.named_children) != 1:
            return None
        member = inner.named_children[0]
        name = member.child_by_field_name("key")
        if member.type != "pair" or name is None or text(name) != "value":
            return None
        return string_value(member.child_by_field_name("value"))

    def _entry_kind(self, at: Node) -> str | None:
        """``text`` or ``select`` when the capture shows what the simulated element is (an input
        one types in, a textarea, a select), else None."""
        if self.dom is None:
            return None
        line = at.start_point[0] + 1
        tags = {
            (e.tag, e.attributes.get("type", "text"))
            for r in self.dom.records
            if r.line == line and r.count == 1 and r.selector not in (":root", ":handler")
            for e in r.elements
        }
        if len(tags) != 1:
            return None
        tag, kind = next(iter(tags))
        if tag == "select":
            return "select"
        text_inputs = {"text", "email", "password", "search", "tel", "url", "number"}
        if tag == "textarea" or (tag == "input" and kind in text_inputs):
            return "text"
        return None

    def _event_mocks(self, node: Node, ctx: Ctx) -> list[str]:
        """``key: code`` for the event methods the test replaces with a function it can look
        at later: members of the payload object (by their variable) or of the object a payload
        variable was declared with (read through the variable, so the test's mock is the one
        called)."""
        obj = unwrap(node)
        through = None
        if obj is not None and obj.type == "identifier":
            through = text(obj)
            obj = object_declared(through, node)
            spied = _spy_object_methods(obj)
            if spied is not None:
                return [f"{m}: {through}.{m}" for m in spied if m in EVENT_METHODS]
        if obj is None or obj.type != "object":
            return []
        mocks = []
        for pair in obj.named_children:
            if pair.type == "pair":
                key = text(pair.child_by_field_name("key"))
                value = unwrap(pair.child_by_field_name("value"))
                if key not in EVENT_METHODS or value is None:
                    continue
                if through is not None:
                    mocks.append(f"{key}: {through}.{key}")
                elif value.type in ("identifier", "member_expression"):
                    mocks.append(f"{key}: {text(value)}")
            elif pair.type == "shorthand_property_identifier" and text(pair) in EVENT_METHODS:
                mocks.append(f"{text(pair)}: {through}.{text(pair)}" if through else text(pair))
            elif (
                through is not None
                and pair.type == "method_definition"
                and text(pair.child_by_field_name("name")) in EVENT_METHODS
            ):
                name = text(pair.child_by_field_name("name"))
                mocks.append(f"{name}: {through}.{name}")
        return mocks

    def _payload(self, node: Node) -> str | None:
        """The event init ``fireEvent`` takes for Enzyme's mock event ``node``. Enzyme hands
        the handler the mock (shallow, or a prop called directly) or merges it into the event
        (mount), so ``currentTarget: {…}`` is what the handler read; a real event's
        ``currentTarget`` is the element fired at, which is its ``target``, so those properties
        go onto the element as ``target: {…}``."""
        obj = unwrap(node)
        if obj is not None and obj.type == "identifier":
            declared = object_declared(text(obj), node)
            if _spy_object_methods(declared) is not None:
                return None  # nothing but mocks, which ``_event_mocks`` puts on the event
            keys = self._keys(declared) if declared is not None else set()
            if "currentTarget" in keys and "target" not in keys:
                return f"{{ target: {text(obj)}.currentTarget }}"
        if obj is None or obj.type != "object":
            return text(node)
        renamed = "target" not in self._keys(obj)
        kept = []
        for pair in obj.named_children:
            if pair.type == "pair":
                key = text(pair.child_by_field_name("key"))
                value = text(pair.child_by_field_name("value"))
                if key == "currentTarget" and renamed:
                    kept.append(f"target: {value}")
                    continue
                plain = re.fullmatch(r"[\w$.]+", value) is not None  # a mock: _event_mocks
                if key in _MOCKED and (
                    "jest.fn" in value or "=>" in value or value.startswith("function") or plain
                ):
                    continue
            elif pair.type == "method_definition" and text(pair.child_by_field_name("name")) in (
                _MOCKED
            ):
                continue
            elif pair.type == "shorthand_property_identifier" and text(pair) in _MOCKED:
                continue  # ``{ preventDefault }``: a mock, which ``_event_mocks`` puts on the event
            kept.append(text(pair))
        if not kept:
            return None
        return "{ " + ", ".join(kept) + " }"

    @staticmethod
    def _keys(obj: Node) -> set[str]:
        """The property names an object literal spells out."""
        if obj.type != "object":
            return set()
        return {
            text(pair.child_by_field_name("key")) if pair.type == "pair" else text(pair)
            for pair in obj.named_children
            if pair.type in ("pair", "shorthand_property_identifier")
        }


def _spy_object_methods(value: Node | None) -> list[str] | None:
    """The methods of jasmine's spy object (``createSpyObj('e', ['preventDefault'])``, also as
    ``jasmine.createSpyObj``, or a global of that name jest suites define): each a mock; None
    when ``value`` is not such a call."""
    call = unwrap(value)
    fn = call.child_by_field_name("function") if call is not None else None
    if call is None or call.type != "call_expression" or fn is None:
        return None
    if text(fn) not in ("createSpyObj", "jasmine.createSpyObj"):
        return None
    args = args_of(call)
    methods = unwrap(args[1]) if len(args) == 2 else None
    if methods is None or methods.type != "array":
        return None
    names = [string_value(m) for m in methods.named_children]
    return [n for n in names if n is not None] if all(names) else None


def _value_literal(arg: Node) -> bool:
    """``arg`` is a value no event is (a string, a number, a boolean, ``null``, an array)."""
    value = unwrap(arg)
    return value is not None and value.type in (
        "string",
        "template_string",
        "number",
        "true",
        "false",
        "null",
        "array",
    )


def _meant(holders: list[HandlerHolder], data: Node | None) -> HandlerHolder | None:
    """The element of ``holders`` the test's call meant: the only one; else, of the items of a
    list sharing the callback, the one whose ``value`` the event's data names (``{ target: {
    value: 'bar' } }``, as a change on that checkbox would carry); None when it names none or
    several."""
    if len(holders) == 1:
        return holders[0]
    value = _target_value(data) if data is not None else None
    if value is None:
        return None
    named = [h for h in holders if h.element.attributes.get("value") == value]
    return named[0] if len(named) == 1 else None


def _target_value(data: Node) -> str | None:
    """``'bar'`` of event data ``{ target: { value: 'bar' } }`` (or a variable declared so)."""
    obj = unwrap(data)
    if obj is not None and obj.type == "identifier":
        obj = object_declared(text(obj), data)
    target = dict(object_items(obj)).get("target") if obj is not None else None
    target = unwrap(target) if target is not None else None
    if target is None or target.type != "object":
        return None
    value = dict(object_items(target)).get("value")
    return string_value(value) if value is not None else None

"""A class component's method that a test calls through the instance of its render
(``wrapper.instance().handleClick()``, ``instance().increment()``), where the capture saw the
element its render holds that very function on as its own event handler (``onClick=
{this.handleClick}``: an arrow field, or a method bound in the constructor) at every run of the
call: the call is that element's event as a user makes it (``await user.click(screen.getByRole(
'button', { name: 'Increase tickets' }))``), which tests the wiring too, and needs no ref to the
instance. A call with arguments (a value no event carries), one whose method several elements
hold (which of them the call stands for, nothing says), or one on a disabled element (no user
can make it) stays a call through the ref."""

from __future__ import annotations

from ..models import HandlerHolder
from ..syntax import Node, args_of, text
from .site_records import Records, records_at


def instance_call(member: Node) -> tuple[Node, str] | None:
    """``X.instance().m()`` as a whole statement, with ``member`` the ``X.instance`` member
    expression: the call of the method, and its name; None for any other shape."""
    call = member.parent
    fn = call.child_by_field_name("function") if call is not None else None
    if call is None or fn is None or fn.id != member.id or args_of(call):
        return None
    method = call.parent
    obj = method.child_by_field_name("object") if method is not None else None
    if method is None or method.type != "member_expression" or obj is None or obj.id != call.id:
        return None
    outer = method.parent
    callee = outer.child_by_field_name("function") if outer is not None else None
    if outer is None or outer.type != "call_expression" or callee is None:
        return None
    if callee.id != method.id or args_of(outer):
        return None
    if outer.parent is None or outer.parent.type != "expression_statement":
        return None
    return outer, text(method.child_by_field_name("property"))


def held_handler(records: Records, member: Node) -> tuple[str, list[HandlerHolder]] | None:
    """For ``X.instance().m()`` (see ``instance_call``): the handler prop holding ``m`` and,
    for each run of the call, the one element holding it, where every run saw one hold it by
    the same prop, enabled; None otherwise."""
    found = instance_call(member)
    prop = member.child_by_field_name("property")
    if found is None or prop is None or not records:
        return None
    _call, method = found
    runs = records_at(records, prop, ":instance")
    held = [r.handlers.get(method) for r in runs]
    if not runs or any(h is None or len(h.holders) != 1 for h in held):
        return None
    events = {h.event for h in held if h is not None}
    holders = [h.holders[0] for h in held if h is not None]
    if len(events) != 1 or any("disabled" in h.element.attributes for h in holders):
        return None
    return events.pop(), holders

"""A class component's state that its render shows: an assertion on a value of the state
(``expect(wrapper.state('count')).toBe(5)``) asserts, where the capture saw the page show that
value, the element that shows it (``expect(screen.getByRole('status')).toHaveTextContent(
/^5$/)``: the example's ``Counter``, its ``<output>``), which is what the user sees, instead of
the instance's internals.

The capture records each read of the state (the selector ``:state``) with, for each key read,
the one element of the rendered DOM showing its value: its whole text (a number, a text), or
an ARIA state (a boolean: ``aria-expanded="true"``), or an ``aria-value*`` attribute; for an
index (``activeIndex``, a tab's ``active``) that nothing shows so, the position among the
elements of a role of the one element in an ARIA state (the second tab is the selected one for
1: ``expect(screen.getAllByRole('tab')[1]).toHaveAttribute('aria-selected', 'true')``). A key is
asserted on the page only where every read of it in the file found it shown, by the same
element (a query they all share), holding the same attribute, and the reads saw more than one
value: the element follows the state, which one value alone cannot tell from a coincidence
(a count of 1 and a page number 1). Each assertion then needs its own read to have shown the
very value it expects."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import CapturedQuery
from ..syntax import Node, args_of, expectation_on, string_value, text, unwrap
from .site_records import Records, records_at

# Matchers comparing the read with one literal, and those saying it is true or false.
_EQUALS = ("toBe", "toEqual", "toStrictEqual")
_TRUTH = {"toBeTruthy": "true", "toBeFalsy": "false"}


@dataclass(frozen=True)
class ShownRead:
    """An assertion on one key of the state, as the page shows it: the value (as text), the
    attribute holding it (None: the element's whole text), and the query for the element."""

    key: str
    value: str
    attribute: str | None
    query: CapturedQuery
    holds: str | None = None
    """For an index (``query``: the role's elements, ``value`` the position): the value the
    attribute holds on the element at that position (``toHaveAttribute('aria-selected',
    'true')`` on the second tab for 1)."""


def state_read(member: Node) -> tuple[str, Node] | None:
    """``X.state('k')`` or ``X.state().k``, with ``member`` the ``X.state`` member expression:
    the key read and the expression that reads it; None for the whole state or a key only
    the run knows."""
    call = member.parent
    fn = call.child_by_field_name("function") if call is not None else None
    if call is None or call.type != "call_expression" or fn is None or fn.id != member.id:
        return None
    args = args_of(call)
    if len(args) == 1:
        key = string_value(args[0])
        return (key, call) if key is not None else None
    read = call.parent
    if args or read is None or read.type != "member_expression":
        return None
    obj = read.child_by_field_name("object")
    if obj is None or obj.id != call.id:
        return None
    return text(read.child_by_field_name("property")), read


def _expected(subject: Node) -> str | None:
    """What ``expect(subject).matcher(v)`` says the value is, as the page would show it
    (``5`` → ``"5"``, ``'on'``, ``true``, ``toBeFalsy()`` → ``"false"``), for an assertion that
    is not negated and compares with one literal; None otherwise."""
    while subject.parent is not None and subject.parent.type == "parenthesized_expression":
        subject = subject.parent
    found = expectation_on(subject)
    member, negated = found if found is not None else (None, True)
    matcher_call = member.parent if member is not None else None
    if negated or member is None or matcher_call is None or matcher_call.type != "call_expression":
        return None
    matcher = text(member.child_by_field_name("property"))
    margs = args_of(matcher_call)
    if matcher in _TRUTH:
        return _TRUTH[matcher] if not margs else None
    if matcher not in _EQUALS or len(margs) != 1:
        return None
    literal = unwrap(margs[0])
    if literal is None:
        return None
    if literal.type in ("true", "false", "number"):
        return text(literal)
    if literal.type == "unary_expression" and text(literal)[:1] == "-":
        operand = literal.named_children[-1] if literal.named_children else None
        return "-" + text(operand) if operand is not None and operand.type == "number" else None
    return string_value(literal)


def _follows(records: Records, key: str) -> tuple[str | None, CapturedQuery, str | None] | None:
    """The attribute and the query of the one element that showed ``key`` at every read of it
    in the file, when those reads saw it take more than one value (for an index, the role's
    elements and the value the attribute holds on the one at that position, the same at every
    read); None otherwise."""
    shown = [
        r.state_shown[key]
        for rs in records.values()
        for r in rs
        if r.selector == ":state" and key in r.state_shown
    ]
    if not shown or any(s.value is None for s in shown):
        return None
    if len({s.attribute for s in shown}) != 1 or len({s.value for s in shown}) < 2:
        return None
    position = shown[0].position
    if position is not None or any(s.position is not None for s in shown):
        same = all(s.position == position and s.holds == shown[0].holds for s in shown)
        return (shown[0].attribute, position, shown[0].holds) if same and position else None
    for query in shown[0].queries:
        if query.index is None and all(query in s.queries for s in shown[1:]):
            return shown[0].attribute, query, None
    return None


def shown_read(records: Records, member: Node) -> ShownRead | None:
    """For an assertion on a value of the state (``member``: the ``X.state`` it reads through),
    where the page shows that key (see the module's docstring) and this read saw it show the
    value the assertion expects: what to assert instead. None otherwise."""
    read = state_read(member)
    prop = member.child_by_field_name("property")
    if read is None or prop is None or not records:
        return None
    key, subject = read
    expected = _expected(subject)
    here = records_at(records, prop, ":state")
    if expected is None or not here:
        return None
    if any(key not in r.state_shown or r.state_shown[key].value != expected for r in here):
        return None
    follows = _follows(records, key)
    if follows is None:
        return None
    attribute, query, holds = follows
    return ShownRead(key, expected, attribute, query, holds)

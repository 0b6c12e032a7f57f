"""The DOM capture's verified queries: for a ``find`` in a test, the query (role and name,
label, text, …) the capture checked to select the same elements, agreed on by every render it
saw, and the CSS it recorded when no query does."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..models import CapturedElement, CapturedQuery, FindRecord
from ..syntax import Node, args_of, arrow_of_one, js_string, js_value, string_value, text, unwrap
from .chains import Chains, prop_read_key
from .marker_ids import marker_for
from .state import SHOWN_TEXT, Ctx, Target, shown_attribute
from .tables import LAST, STATE_OPTIONS, TEXT_CONTEXT_ORDER
from .text_queries import TextQuery, text_query


class CapturedQueries(Chains):
    """The capture's records for a selection, and the target they give."""

    # -- capture lookup ----------------------------------------------------------------------

    def _records_at(
        self, prop: Node, ctx: Ctx, *, root: bool = False, handler: bool = False
    ) -> list[FindRecord] | None:
        """The capture's records at the call ``prop`` names: its finds, or (``root``) the root
        wrapper's element where the test used it (selector ``:root``), or (``handler``) the
        elements holding a child's callback props where the test read them (``:handler``)."""
        if not self.records:
            return None
        kind = ":root" if root else ":handler" if handler else None
        key = (prop.start_point[0] + 1, prop.start_point[1] + 1)
        records = self._of_kind(self.records.get(key), kind)
        if records is None:
            # Stack columns can point at the call's start on some engines.
            line = key[0]
            same_line = [r for k, rs in self.records.items() if k[0] == line for r in rs]
            same_line = self._of_kind(same_line, kind) or []
            literal = _literal_selector(prop)
            if literal is not None:  # not another find's records on the same line
                same_line = [r for r in same_line if r.selector == literal]
            selectors = {r.selector for r in same_line}
            records = (
                same_line
                if len(selectors) == 1 and len({(r.line, r.column) for r in same_line}) == 1
                else None
            )
        if records is None:
            return None
        if ctx.test is not None:
            mine = [r for r in records if r.test == ctx.test.name]
            if mine:
                return mine
        return records

    @staticmethod
    def _of_kind(records: list[FindRecord] | None, kind: str | None) -> list[FindRecord] | None:
        """``records`` of the special selector ``kind`` (``:root``, ``:handler``), or of the
        finds (None)."""
        if records is None:
            return None
        special = (":root", ":handler", ":state", ":instance")
        kept = [
            r for r in records if r.selector == kind or (kind is None and r.selector not in special)
        ]
        return kept or None

    def _consensus(
        self, records: Iterable[FindRecord], *, element: int | None = None
    ) -> list[tuple[str, list[object], bool]]:
        common: list[tuple[str, list[object], bool]] | None = None
        for record in records:
            if record.count == 0:
                continue
            if element is None:
                queries = record.queries
            elif element < len(record.element_queries):
                queries = record.element_queries[element]
            else:
                return []
            keys = [(q.method, list(q.args), q.all) for q in queries]
            if common is None:
                common = keys
            else:
                plain = [(m, a) for m, a, _all in keys]
                several = {(m, str(a)) for m, a, is_all in keys if is_all}
                common = [
                    (m, a, is_all or (m, str(a)) in several)
                    for m, a, is_all in common
                    if (m, a) in plain
                ]
        return common or []

    def _pick(
        self, options: list[tuple[str, list[object], bool]], context: str
    ) -> tuple[str, list[object], bool] | None:
        if not options:
            return None
        if context != "text":
            return options[0]

        def rank(option: tuple[str, list[object], bool]) -> int:
            method, args, _ = option
            key = method
            options = args[1] if len(args) > 1 else None
            if method == "Role" and not (isinstance(options, dict) and "name" in options):
                key = "Role-"  # no name (a level or `hidden` may narrow it): not the text's
            return TEXT_CONTEXT_ORDER.index(key) if key in TEXT_CONTEXT_ORDER else 99

        return sorted(options, key=rank)[0]

    def text_query(
        self, find_call: Node, ctx: Ctx, wanted: str, *, whole: bool, negated: bool
    ) -> TextQuery | None:
        """For an element no query selects whose text the test asserts (``expect(find(Notice))
        .toIncludeText(t)``, ``find(Page).text()).toContain(t)``; ``whole``: ``toHaveText(t)``):
        the text query the capture's texts of the page agree on in every run of the find (see
        ``text_queries``); None where they do not, or the capture kept none."""
        runs = [r.texts for r in self._matched_at(find_call, ctx)]
        kept = [texts for texts in runs if texts is not None]
        if not runs or len(kept) != len(runs):
            return None
        return text_query(kept, wanted, whole=whole, negated=negated)

    def captured_target(
        self,
        find_call: Node,
        selector_text: str,
        ctx: Ctx,
        context: str,
        index: int | None,
        root_level: bool,
        *,
        host: bool = False,
        positioned: bool = True,
    ) -> Target | None:
        """The query for what the find ``find_call`` selected (``host``: what its
        ``hostNodes()`` kept), from the capture; None when none selects the same elements.
        ``positioned``: a query with the capture's position may stand for one element (not where
        the find is searched in a render beside others: the position is the document's)."""
        fn = find_call.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        if prop is None:
            return None
        records = self._records_at(prop, ctx)
        if records is not None and host:
            records = [r.host_nodes() for r in records]
        positives = [r for r in records or [] if r.count > 0]
        if records and positives:
            if index == LAST:
                counts = {r.count for r in positives}
                if len(counts) != 1:
                    return None  # a different last element in each run: no one query for it
                index = counts.pop() - 1
            read = _states_read(find_call)
            if index is not None:
                options = self._following(
                    self._consensus(positives), selector_text, counted=False, read=read
                )
                picked = self._pick(options, context)
                if picked is not None and picked[2]:
                    return self._query_target(picked, multi=True, index=str(index))
                if picked is not None and not picked[2] and all(r.count == 1 for r in positives):
                    return self._query_target(picked, multi=False, index=None)
                element = self._pick(self._consensus(positives, element=index), context)
                if element is not None:
                    return self._query_target(element, multi=False, index=None)
                return None
            options = self._following(
                self._consensus(positives), selector_text, counted=context == "list", read=read
            )
            picked = self._pick(options, context)
            if picked is not None:
                return self._query_target(picked, multi=picked[2], index=None)
            one = all(r.count == 1 for r in positives)
            if one and positioned:
                # One element no query selects alone: its position among the few one selects.
                found = self._agreed([r.indexed for r in positives], multi=False)
                if found is not None:
                    found.one = True
                    return found
            if one and context == "presence":
                # Only that it is there: the element inside it that a query selects.
                inner = self._agreed([r.inner for r in positives], multi=False)
                if inner is not None:
                    return inner
            if context == "list" or (context == "presence" and not one):
                # Counting items no query selects, or only that they are there: the element in
                # the same place inside each.
                return self._agreed([r.inner_queries for r in positives], multi=True)
            return None
        if records:
            # Never matched here (absence checks): a query for its elements where it did
            # match, which the capture saw find nothing here too.
            absent = self._agreed([r.absent_queries for r in records], multi=False)
            if absent is not None:
                return absent
        if not root_level or self.dom is None:
            return None
        # Never matched here, and no query was verified there: use the selector's query
        # elsewhere in the file, when it is the same everywhere it matched.
        mine = [r for r in self.dom.records if r.selector == selector_text]
        same = [r for r in (r.host_nodes() if host else r for r in mine) if r.count > 0]
        if not same:
            return None
        picked = self._pick(self._consensus(same), context)
        if picked is None:
            return None
        # The query must not depend on the element's changing text.
        names_vary = len({r.elements[0].text if r.elements else "" for r in same}) > 1
        if (
            names_vary
            and picked[0] in ("Text", "DisplayValue", "Role")
            and (picked[0] != "Role" or len(picked[1]) > 1)
        ):
            return None
        return self._query_target(picked, multi=picked[2], index=None)

    def _following(
        self,
        options: list[tuple[str, list[object], bool]],
        selector_text: str,
        *,
        counted: bool,
        read: frozenset[str],
    ) -> list[tuple[str, list[object], bool]]:
        """Of ``options`` for what a selector selected, those that stand for the selector and
        not only for the elements it happened to select here, where that can differ: they must
        have selected exactly the selector's elements wherever the file read that selector.
        A role in a state (``getByRole('radio', { checked: true })``) stands for a class only
        where the class went with that state everywhere (``.star--on`` on two stars, then four,
        then the one checked: not "checked"); for a count (``counted``), a query by one name or
        text (``getAllByRole('radio', { name: '1 stars' })``) counts only that name's
        elements. A role in the state the statement then reads (``read``: the checked radio,
        asserted checked) would assert that state of itself: never."""
        options = [o for o in options if not (_state_options(o[1]) & read)]
        if self.dom is None:
            return options
        everywhere = [r for r in self.dom.records if r.selector == selector_text and r.count > 0]

        def fixed(method: str, args: list[object]) -> bool:
            extra = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
            if method == "Role":
                return bool(_state_options(args)) or (
                    counted and isinstance(extra.get("name"), str)
                )
            return counted and method != "TestId"

        def follows(option: tuple[str, list[object], bool]) -> bool:
            method, args, _ = option
            if not fixed(method, args):
                return True
            return all(
                any(q.method == method and list(q.args) == args for q in r.queries)
                for r in everywhere
            )

        return [option for option in options if follows(option)]

    def _query_target(
        self, picked: tuple[str, list[object], bool], *, multi: bool, index: str | None
    ) -> Target:
        method, args, _ = picked
        self.dom_queries_used += 1
        return Target(
            "query",
            method=method,
            args=", ".join(js_value(a) for a in args),
            multi=multi,
            index=index,
        )

    def _captured_css(self, find_call: Node, ctx: Ctx) -> str | None:
        found = {r.css for r in self._matched_at(find_call, ctx)}
        if len(found) == 1:
            return next(iter(found))
        return None

    def _selected_components(self, find_call: Node, ctx: Ctx) -> bool:
        """Whether the capture saw the ``find`` call ``find_call`` select a component's node
        (not only elements)."""
        return self.selected_component(find_call, ctx) is not None

    def selected_component(self, find_call: Node, ctx: Ctx) -> str | None:
        """The display name of a component whose node the capture saw ``find_call`` (a find,
        or ``children()``/``childAt()``) select, or None when it selected only elements."""
        records = self._matched_at(find_call, ctx)
        return next((name for r in records for name in r.components if name is not None), None)

    def text_filtered_target(self, find_call: Node, predicate: Node, ctx: Ctx) -> Target | None:
        """``find(X).filterWhere((n) => n.text() === 'Delete')`` (or ``.includes('…')``): the one
        element of the find whose text the predicate accepts, in every capture of it, by that
        element's own query; None when the predicate is of another kind or the capture does not
        single one element out."""
        test = text_predicate(predicate)
        if test is None:
            return None
        chosen: list[list[CapturedQuery]] = []
        elements: list[CapturedElement] = []
        for record in self._matched_at(find_call, ctx):
            if record.count > len(record.element_queries):
                return None  # more elements than the capture describes one by one
            picked = [i for i, e in enumerate(record.elements) if test(e.text)]
            if len(picked) != 1:
                return None
            chosen.append(record.element_queries[picked[0]])
            elements.append(record.elements[picked[0]])
        target = self._agreed(chosen, multi=False)
        if target is not None:
            target.captured = tuple(elements)
        return target

    def submitter_target(self, find_call: Node, ctx: Ctx) -> tuple[Target, bool] | None:
        """The one submit button of the form ``find_call`` selected, as every capture of it
        saw it (what a user clicks to submit the form), and whether it was disabled in any of
        them (no user could click it then); None where they saw no one such button."""
        records = self._matched_at(find_call, ctx)
        button = self._agreed([r.submit_queries for r in records], multi=False)
        return (button, any(r.submit_disabled for r in records)) if button is not None else None

    def _runs_of(self, find_call: Node, ctx: Ctx) -> list[FindRecord]:
        """The capture's records of the ``find`` call ``find_call``, one per run of it."""
        fn = find_call.child_by_field_name("function")
        prop = fn.child_by_field_name("property") if fn is not None else None
        return (self._records_at(prop, ctx) or []) if prop is not None else []

    def _matched_at(self, find_call: Node, ctx: Ctx) -> list[FindRecord]:
        """The capture's records of the ``find`` call ``find_call`` that matched something."""
        return [r for r in self._runs_of(find_call, ctx) if r.count]

    def sometimes_absent(self, find_call: Node, ctx: Ctx) -> bool:
        """Whether the ``find`` call ``find_call`` selected nothing in some run and something in
        another (a find of each case of a table of cases, ``find(`input#${param.key}_text`)``,
        which only the number cases render): what stands for it is read with ``query``."""
        return {bool(r.count) for r in self._runs_of(find_call, ctx)} == {True, False}

    def shown_in_dom(
        self, ops: list[tuple[str, list[Node], Node]], i: int, ctx: Ctx, *, recordable: bool
    ) -> bool:
        """``find(C)[…].prop('k')`` (``props().k``) where every element the capture saw the
        find select shows the prop's value as one attribute, the same one in all (a Link's
        ``to``, its anchor's ``href``), or as its whole text: the DOM answers the read, and C's
        props need no recording. ``i``: how many of ``ops`` select the component
        (``find(C)[.at(n)]``); the read is the rest of them. ``recordable``: whether C's props
        could be recorded instead."""
        key = prop_read_key([(o, a) for o, a, _n in ops[i:]]) if i else None
        if key is None:
            return False
        records = self._matched_at(ops[0][2], ctx)
        elements = [e for r in records for e in r.elements]
        shown = shown_attribute(elements, key)
        if shown == SHOWN_TEXT:
            # Its text, where a query selects what the find did, or nothing records C: CSS is
            # node access, which the project's lint rejects and the recording does not need.
            return all(r.queries for r in records) or not recordable
        return shown is not None

    def _agreed(self, runs: list[list[CapturedQuery]], *, multi: bool) -> Target | None:
        """The first query every run of a site offers (``runs``: each run's queries, in order
        of preference), or None when a run offers none or they share none. A query with a
        position (``getAllByText('Delete')[1]``) is agreed on only with the same position."""
        if not runs or not all(runs):
            return None
        keys = [[(q.method, list(q.args), q.index) for q in queries] for queries in runs]
        agreed = [k for k in keys[0] if all(k in other for other in keys[1:])]
        if not agreed:
            return None
        method, args, index = agreed[0]
        if index is not None:
            return self._query_target((method, args, True), multi=True, index=str(index))
        return self._query_target((method, args, multi), multi=multi, index=None)

    def marker_target(self, find_call: Node, selector: str, ctx: Ctx) -> Target | None:
        """For a find of the test's own marker element, which no query selects (``find('#foo')``
        of ``filter={<div id="foo" />}``): a test id query, and the test id added to that JSX
        (see marker_ids). Only where every element the capture saw it select is such an element
        (its tag, the id or the one class, no test id of its own); None otherwise."""
        records = self._matched_at(find_call, ctx)
        test_id = self.options.test_id_attribute
        marker = marker_for(selector, self.tree.root_node, test_id) if records else None
        if marker is None:
            return None
        for record in records:
            if len(record.elements) != record.count:
                return None
            for element in record.elements:
                named = (
                    element.attributes.get("id") == marker.value
                    if marker.attribute == "id"
                    else element.classes == [marker.value]
                )
                if not named or element.tag not in marker.tags or test_id in element.attributes:
                    return None
        self.markers.add(marker)
        self.dom_queries_used += 1
        multi = any(r.count != 1 for r in records)
        return Target("query", method="TestId", args=js_string(marker.value), multi=multi)

    def class_state(
        self, target: Target, class_name: str, ctx: Ctx
    ) -> tuple[Target, str, CapturedElement] | None:
        """For a class check on an element no query selects (``find('.dropdown')``, ``open``):
        the query for the one element in it with an ARIA state, that state, and the element,
        where every capture of the find saw the class there exactly when that state was
        ``"true"`` (see ``FindRecord.states``); None otherwise."""
        if target.kind != "css" or target.origin is None:
            return None
        records = self._matched_at(target.origin, ctx)
        picked: list[tuple[FindRecord, int]] = []
        for record in records:
            k = _position(target.index, record.count)
            if k is None or k >= min(len(record.states), len(record.elements)):
                return None
            picked.append((record, k))
        holders = [r.states[k] for r, k in picked]
        if not picked or any(h is None for h in holders):
            return None
        known = [h for h in holders if h is not None]
        if len({h.attribute for h in known}) != 1:
            return None
        for (record, k), holder in zip(picked, known, strict=True):
            if (class_name in record.elements[k].classes) != (holder.value == "true"):
                return None
        query = self._agreed([h.queries for h in known], multi=False)
        if query is None:
            return None
        record, k = picked[0]
        return query, known[0].attribute, record.elements[k]

    def sibling_target(self, structural_call: Node, ctx: Ctx) -> Target | None:
        """For ``children()`` or ``childAt(i)`` of one element: the role that selects exactly
        its children inside it (a row's cells), which every run of the call agrees on, as a
        list; None where there is none."""
        runs = [r.sibling_queries for r in self._matched_at(structural_call, ctx)]
        return self._agreed(runs, multi=True)

    def captured_elements(self, find_call: Node, ctx: Ctx) -> tuple[CapturedElement, ...]:
        """The elements every capture of ``find_call`` selected."""
        return tuple(e for r in self._matched_at(find_call, ctx) for e in r.elements)

    def _captured_checkbox(self, find_call: Node, ctx: Ctx) -> bool:
        """Whether every run of ``find_call`` selected a checkbox or a radio button (a change
        on it is the click that toggles it). Not where some runs selected another input (a
        table of cases, one a checkbox, the others text): the change stays a change."""
        runs = self._matched_at(find_call, ctx)
        return bool(runs) and all(
            any(
                e.tag == "input" and e.attributes.get("type") in ("checkbox", "radio")
                for e in r.elements
            )
            for r in runs
        )


def _state_options(args: list[object]) -> frozenset[str]:
    """The ARIA states a role query's options filter by (``{ selected: true }``)."""
    extra = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
    return STATE_OPTIONS & frozenset(extra)


def _states_read(find_call: Node) -> frozenset[str]:
    """The ARIA states the statement holding ``find_call`` names after it (``prop('checked')``,
    ``toBeChecked()``, ``prop('aria-selected')``)."""
    statement = find_call
    while statement.parent is not None and statement.type not in (
        "expression_statement",
        "lexical_declaration",
        "return_statement",
    ):
        statement = statement.parent
    source = statement.text or b""
    after = source[find_call.end_byte - statement.start_byte :].decode("utf-8", "replace").lower()
    return frozenset(option for option in STATE_OPTIONS if option in after)


def _position(index: str | None, count: int) -> int | None:
    """Which of ``count`` elements a target's ``index`` picks (None: the one there is)."""
    if index is None:
        return 0 if count == 1 else None
    if index == "last":
        return count - 1
    return int(index) if index.isdigit() and int(index) < count else None


def _literal_selector(prop: Node) -> str | None:
    """The string the find whose property is ``prop`` selects by, when it is a literal."""
    member = prop.parent
    call = member.parent if member is not None else None
    if call is None or call.type != "call_expression":
        return None
    args = args_of(call)
    return string_value(args[0]) if args else None


def text_predicate(node: Node) -> Callable[[str], bool] | None:
    """``(n) => n.text() === 'x'`` / ``n.text().includes('x')`` (a parameter typed or not) as a
    test of an element's text; None for any other predicate."""
    arrow = arrow_of_one(node)
    if arrow is None:
        return None
    param, body = arrow

    def reads_text(call: Node | None) -> bool:  # `param.text()`
        call = unwrap(call)
        if call is None or call.type != "call_expression":
            return False
        member = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        return (
            member is not None
            and member.type == "member_expression"
            and text(member) == f"{param}.text"
            and args is not None
            and not args.named_children
        )

    if body.type == "binary_expression":
        operator = body.child_by_field_name("operator")
        left, right = body.child_by_field_name("left"), body.child_by_field_name("right")
        if operator is None or text(operator) not in ("===", "=="):
            return None
        if not reads_text(left):
            left, right = right, left
        wanted = string_value(right)
        if not reads_text(left) or wanted is None:
            return None
        return lambda value: value == wanted
    if body.type == "call_expression":
        member = body.child_by_field_name("function")
        args = body.child_by_field_name("arguments")
        if member is None or member.type != "member_expression" or args is None:
            return None
        prop = member.child_by_field_name("property")
        if prop is None or text(prop) != "includes" or len(args.named_children) != 1:
            return None
        part = string_value(args.named_children[0])
        if not reads_text(member.child_by_field_name("object")) or part is None:
            return None
        return lambda value: part in value
    return None

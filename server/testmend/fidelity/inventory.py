"""The test inventory of a test file, read from its syntax tree, and what a migration may not
change in it.

For every test: its full name (``describe`` titles and the test title, as jest reports it; an
``each`` table's title is kept as written), where it is, how it is marked (``skip``, ``only``,
``todo``, inherited from its ``describe`` blocks too), whether its body is empty, how many
assertions it makes (``expect(…)``, ``assert…(…)``, and those of the file's own helper
functions it calls) and which of them are tautologies (``expect(true).toBe(true)``).

:func:`compare` checks a candidate against the original: every original test is still there
unless a ``delete`` plan gives a reason; no test newly skipped, focused, emptied or left without
an assertion; no test with fewer assertions unless its plan gives a reason; no new tautology.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from ..js_syntax import Node, call_args, parse, string_value, text_of, walk
from .models import Finding, Inventory, InventoryRow, InventoryTest

_TEST_FUNCS = {"it", "test", "fit", "xit", "xtest"}
_DESCRIBE_FUNCS = {"describe", "fdescribe", "xdescribe", "suite", "context"}
_HOOKS = {"beforeEach", "beforeAll", "afterEach", "afterAll"}
_MARKS = {
    "skip": "skip",
    "only": "only",
    "todo": "todo",
    "failing": "failing",
    "concurrent": "concurrent",
    "each": "each",
}
_PREFIX_MARKS = {"x": "skip", "f": "only"}
_FUNCTIONS = ("arrow_function", "function_expression", "function", "function_declaration")
_ASSERT = re.compile(r"^(?:assert\w*|(?:\w+\.)*assert(?:\.\w+)?|expectTypeOf)$")
_LITERALS = {"true", "false", "null", "undefined", "number", "string", "template_string"}
# Marks that make a test not run (or not count) where the original ran.
_DISABLING = ("skip", "todo", "only", "failing")


def _callee_chain(call: Node) -> tuple[str, list[str]]:
    """``it.each(table)('x', fn)`` → ("it", ["each"]); ``xdescribe`` → ("xdescribe", [])."""
    fn = call.child_by_field_name("function")
    props: list[str] = []
    while fn is not None and fn.type in ("member_expression", "call_expression"):
        if fn.type == "member_expression":
            props.append(text_of(fn.child_by_field_name("property")))
            fn = fn.child_by_field_name("object")
        else:
            fn = fn.child_by_field_name("function")
    return text_of(fn), list(reversed(props))


def _marks(base: str, props: list[str]) -> set[str]:
    marks = {_MARKS[p] for p in props if p in _MARKS}
    if base[:1] in _PREFIX_MARKS and base[1:] in ("it", "test", "describe"):
        marks.add(_PREFIX_MARKS[base[:1]])
    return marks


def _callback(call: Node) -> Node | None:
    for arg in call_args(call):
        if arg.type in _FUNCTIONS:
            return arg
    return None


def _title(node: Node | None) -> str | None:
    value = string_value(node)
    if value is not None:
        return value
    if node is not None and node.type in ("template_string", "identifier", "member_expression"):
        return text_of(node)
    return None


def _is_expect_call(node: Node) -> bool:
    fn = node.child_by_field_name("function")
    return fn is not None and fn.type == "identifier" and text_of(fn) == "expect"


def _is_assert_call(node: Node) -> bool:
    fn = node.child_by_field_name("function")
    return fn is not None and bool(_ASSERT.match(text_of(fn)))


def _tautology(expect_call: Node) -> str | None:
    """``expect(<literal>)…`` or ``expect(x).toBe(x)``: an assertion that cannot fail."""
    args = call_args(expect_call)
    if len(args) != 1:
        return None
    subject = args[0]
    parent = expect_call.parent
    # expect(a).toBe(b): the matcher call is two levels up (member, then call).
    matcher_call = (
        parent.parent if parent is not None and parent.type == "member_expression" else None
    )
    expected = (
        call_args(matcher_call)
        if matcher_call is not None and matcher_call.type == "call_expression"
        else []
    )
    if subject.type in _LITERALS and (
        subject.type != "template_string"
        or not any(c.type == "template_substitution" for c in subject.named_children)
    ):
        return text_of(matcher_call or expect_call)
    if expected and text_of(expected[0]) == text_of(subject) and matcher_call is not None:
        return text_of(matcher_call)
    return None


def _local_functions(root: Node) -> dict[str, Node]:
    """Functions the file declares by name (``function f`` or ``const f = () => …``)."""
    found: dict[str, Node] = {}
    for node in walk(root):
        if node.type == "function_declaration":
            name = text_of(node.child_by_field_name("name"))
            body = node.child_by_field_name("body")
            if name and body is not None:
                found.setdefault(name, body)
        elif node.type == "variable_declarator":
            value = node.child_by_field_name("value")
            name_node = node.child_by_field_name("name")
            if value is not None and value.type in _FUNCTIONS and name_node is not None:
                body = value.child_by_field_name("body")
                if name_node.type == "identifier" and body is not None:
                    found.setdefault(text_of(name_node), body)
    return found


class _Reader:
    def __init__(self, source: str, path: str):
        self.tree = parse(source, path)
        self.root = self.tree.root_node
        self.helpers = _local_functions(self.root)
        self._helper_counts: dict[str, tuple[int, list[str]]] = {}
        self.tests: list[InventoryTest] = []

    def assertions(
        self, body: Node, visiting: frozenset[str] = frozenset()
    ) -> tuple[int, list[str]]:
        """Assertions in ``body``, with those of the file's helper functions it calls."""
        count = 0
        tautologies: list[str] = []
        for node in walk(body):
            if node.type != "call_expression":
                continue
            if _is_expect_call(node):
                count += 1
                if (taut := _tautology(node)) is not None:
                    tautologies.append(taut[:160])
            elif _is_assert_call(node):
                count += 1
            else:
                fn = node.child_by_field_name("function")
                name = text_of(fn) if fn is not None and fn.type == "identifier" else ""
                if name in self.helpers and name not in visiting:
                    n, t = self._helper(name, visiting | {name})
                    count += n
                    tautologies += t
        return count, tautologies

    def _helper(self, name: str, visiting: frozenset[str]) -> tuple[int, list[str]]:
        if name not in self._helper_counts:
            self._helper_counts[name] = self.assertions(self.helpers[name], visiting)
        return self._helper_counts[name]

    def visit(self, node: Node, prefix: list[str], inherited: set[str]) -> None:
        for child in node.named_children:
            call = child
            if call.type == "expression_statement" and call.named_children:
                call = call.named_children[0]
            if call.type == "await_expression" and call.named_children:
                call = call.named_children[0]
            if call.type != "call_expression":
                self.visit(child, prefix, inherited)
                continue
            base, props = _callee_chain(call)
            name = base[1:] if base[:1] in _PREFIX_MARKS and base[1:] in ("it", "test") else base
            args = call_args(call)
            title = _title(args[0]) if args else None
            callback = _callback(call)
            marks = inherited | _marks(base, props)
            if base in _DESCRIBE_FUNCS and title is not None:
                if callback is not None:
                    self.visit(callback, [*prefix, title], marks)
                continue
            if (base in _TEST_FUNCS or name in _TEST_FUNCS) and title is not None:
                self._add(call, [*prefix, title], marks, callback)
                continue
            if base in _HOOKS:
                continue
            self.visit(child, prefix, inherited)

    def _add(self, call: Node, names: list[str], marks: set[str], callback: Node | None) -> None:
        body = callback.child_by_field_name("body") if callback is not None else None
        if callback is None:
            marks = marks | {"todo"}
        statements = (
            [c for c in body.named_children if c.type != "comment"]
            if body is not None and body.type == "statement_block"
            else ([body] if body is not None else [])
        )
        count, tautologies = self.assertions(body) if body is not None else (0, [])
        self.tests.append(
            InventoryTest(
                name=" ".join(names),
                line=call.start_point[0] + 1,
                marks=sorted(marks),
                empty=not statements,
                assertions=count,
                tautologies=tautologies,
            )
        )


def read_inventory(source: str, path: str) -> Inventory:
    """The tests of a file (pure: parses ``source`` as the language ``path`` names)."""
    reader = _Reader(source, path)
    reader.visit(reader.root, [], set())
    return Inventory(tests=reader.tests, parse_error=reader.root.has_error)


def _disabled(test: InventoryTest) -> set[str]:
    return {m for m in test.marks if m in _DISABLING}


def compare(
    original: Inventory,
    candidate: Inventory,
    *,
    deletions: Mapping[str, str] | None = None,
    fewer_assertions: Mapping[str, str] | None = None,
) -> tuple[list[InventoryRow], list[Finding]]:
    """Match the candidate's tests to the original's (by full name, in order for duplicates)
    and list what the candidate lost. ``deletions`` and ``fewer_assertions`` map test names to
    the reason a plan recorded for deleting the test or for its fewer assertions."""
    deletions = deletions or {}
    fewer_assertions = fewer_assertions or {}
    pool: dict[str, list[InventoryTest]] = {}
    for test in candidate.tests:
        pool.setdefault(test.name, []).append(test)
    rows: list[InventoryRow] = []
    findings: list[Finding] = []
    for before in original.tests:
        matches = pool.get(before.name)
        after = matches.pop(0) if matches else None
        rows.append(InventoryRow(original=before, result=after))
        if after is None:
            if before.name in deletions:
                rows[-1] = rows[-1].model_copy(
                    update={"note": f"deleted: {deletions[before.name]}"}
                )
                continue
            findings.append(
                Finding(
                    kind="test-missing",
                    test=before.name,
                    line=before.line,
                    message=f"the test '{before.name}' (original line {before.line}) is not in "
                    "the result, and no plan says why it may be deleted",
                )
            )
            continue
        findings += _changes(before, after, fewer_assertions.get(before.name))
    created = [t for tests in pool.values() for t in tests]
    for test in created:
        rows.append(InventoryRow(original=None, result=test))
        if test.tautologies:
            findings.append(_tautology_finding(test))
        elif _disabled(test):
            findings.append(_marked_finding(test, _disabled(test)))
    if candidate.parse_error and not original.parse_error:
        findings.append(
            Finding(
                kind="parse-error", message="the result has syntax errors", test=None, line=None
            )
        )
    return rows, findings


def _marked_finding(test: InventoryTest, marks: Iterable[str]) -> Finding:
    marked = ", ".join(sorted(marks))
    return Finding(
        kind="test-disabled",
        test=test.name,
        line=test.line,
        message=f"the test '{test.name}' (line {test.line}) is marked {marked}: it would not "
        "run (or would hide the others) where the original ran",
    )


def _tautology_finding(test: InventoryTest) -> Finding:
    return Finding(
        kind="tautology",
        test=test.name,
        line=test.line,
        message=f"the test '{test.name}' (line {test.line}) asserts something that cannot "
        f"fail: {test.tautologies[0]}",
    )


def _changes(before: InventoryTest, after: InventoryTest, reason: str | None) -> list[Finding]:
    findings: list[Finding] = []
    name, line = after.name, after.line
    added = _disabled(after) - _disabled(before)
    if added:
        findings.append(_marked_finding(after, added))
    if after.empty and not before.empty:
        findings.append(
            Finding(
                kind="test-emptied",
                test=name,
                line=line,
                message=f"the test '{name}' (line {line}) has an empty body; the original had "
                f"{before.assertions} assertion(s)",
            )
        )
    elif after.assertions == 0 and before.assertions > 0:
        findings.append(
            Finding(
                kind="no-assertion",
                test=name,
                line=line,
                message=f"the test '{name}' (line {line}) asserts nothing; the original made "
                f"{before.assertions} assertion(s)",
            )
        )
    elif after.assertions < before.assertions and not reason:
        findings.append(
            Finding(
                kind="fewer-assertions",
                test=name,
                line=line,
                message=f"the test '{name}' (line {line}) makes {after.assertions} assertion(s) "
                f"where the original made {before.assertions}, and no plan says why",
            )
        )
    new_tautologies = Counter(after.tautologies) - Counter(before.tautologies)
    if new_tautologies:
        findings.append(
            _tautology_finding(after.model_copy(update={"tautologies": list(new_tautologies)}))
        )
    return findings


def test_counts(rows: Iterable[InventoryRow], mode: str) -> dict[str, int]:
    """The summary's counts, from the matched inventories (never from the plans)."""
    counts = {"migrated": 0, "kept": 0, "deleted": 0, "created": 0}
    for row in rows:
        if row.original is None:
            counts["created"] += 1
        elif row.result is None:
            counts["deleted"] += 1
        else:
            counts["migrated" if mode == "migrate" else "kept"] += 1
    return counts


test_counts.__test__ = False  # type: ignore[attr-defined]  # not a pytest test

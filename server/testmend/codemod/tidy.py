"""What the conversion wrote, made as a person writes Testing Library code, so the project's
lint (``eslint-plugin-testing-library`` among it) has nothing to say about the structure:

- ``act`` around Testing Library's own calls (``rerender`` destructured from a render
  included) goes (they are wrapped already), with any comments it held; what else an
  ``act`` held stays in one; an ``act`` around another one is one; one around nothing but
  comments (its statements left untranslated) goes, the comments stay; an awaited ``act`` that
  waited for pending updates keeps waiting (``await act(() => Promise.resolve())``) unless a
  user-event call awaits them already;
- a render in ``beforeEach`` becomes a ``renderX()`` each test calls (``no-render-in-lifecycle``):
  the hook's statements run at the same point, before the test's own;
- a render result is destructured or named ``view`` (``render-result-naming-convention``), and
  dropped when nothing reads it;
- names nothing uses any more go: imports, values destructured from a call, values only the
  Enzyme code read (``unused.py``); a declaration only code left untranslated reads is
  commented out with that code.

Each pass parses the file again and rewrites only what it recognises; anything else stays as
it is. Pure: text in, text out.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from ..js_syntax import Node, parse, text_of, walk
from .syntax import FUNCTION_TYPES, Edit, line_indent, moved, reindent
from .unused import (
    applied,
    comment_out_untranslated_only,
    drop_orphaned_declarations,
    drop_unused_destructured,
    drop_unused_imports,
    drop_unused_lookups,
    identifiers,
    inside,
    remove_line,
    scope_of,
)

_TESTING_LIBRARY_ROOTS = frozenset({"fireEvent", "user", "userEvent", "screen", "within"})
_RENDER_RESULT_METHODS = frozenset({"rerender", "unmount"})
_TESTS = frozenset({"it", "test", "fit", "xit", "xtest"})
_HOOKS = frozenset({"beforeEach", "afterEach", "beforeAll", "afterAll"})
_DESCRIBES = frozenset({"describe", "fdescribe", "xdescribe"})
_GOOD_NAMES = ("view", "utils")
_FLUSH = "await act(() => Promise.resolve());"


def tidy(content: str, path: str, original: str | None = None) -> str:
    """Every pass in order (each on the result of the one before); the content unchanged when
    it does not parse. ``original``: the Enzyme source, to tell the values only its Enzyme code
    read from the project's own unused names."""
    before = parse(original, path).root_node if original is not None else None

    def orphaned(content: str, root: Node) -> str:
        return content if before is None else drop_orphaned_declarations(content, root, before)

    def untranslated_only(content: str, _root: Node) -> str:
        if before is None:
            return content
        return comment_out_untranslated_only(content, path, before)

    steps = (
        _unwrap_act,
        _declare_where_assigned,
        _renders_out_of_hooks,
        _name_render_results,
        drop_unused_destructured,
        drop_unused_lookups,
        orphaned,
        untranslated_only,
        drop_unused_imports,
    )
    for step in steps:
        tree = parse(content, path)
        if tree.root_node.has_error:
            return content
        updated = step(content, tree.root_node)
        if updated != content and not parse(updated, path).root_node.has_error:
            content = updated
    return content


def _callee_root(call: Node) -> Node | None:
    node = call.child_by_field_name("function")
    while node is not None and node.type in ("member_expression", "call_expression"):
        field = "object" if node.type == "member_expression" else "function"
        node = node.child_by_field_name(field)
    return node


def _callee_name(call: Node) -> str:
    root = _callee_root(call)
    return text_of(root) if root is not None and root.type == "identifier" else ""


def _is_render_call(node: Node | None) -> bool:
    """``render(…)``, ``renderWithProviders(…)``: the project's render helpers count (and the
    ``renderX()`` this module writes)."""
    if node is None or node.type != "call_expression":
        return False
    callee = node.child_by_field_name("function")
    return (
        callee is not None and callee.type == "identifier" and text_of(callee).startswith("render")
    )


def _is_testing_library_call(node: Node | None) -> bool:
    if node is not None and node.type == "await_expression":
        node = node.named_children[0] if node.named_children else None
    if node is None or node.type != "call_expression":
        return False
    if _is_render_call(node) or _callee_name(node) in _TESTING_LIBRARY_ROOTS:
        return True
    callee = node.child_by_field_name("function")
    if callee is not None and callee.type == "identifier":
        # `const { rerender } = render(…)`, then `rerender(<X enabled />)`
        return text_of(callee) in _RENDER_RESULT_METHODS
    prop = callee.child_by_field_name("property") if callee is not None else None
    return (
        callee is not None
        and callee.type == "member_expression"
        and prop is not None
        and text_of(prop) in _RENDER_RESULT_METHODS
    )


def _is_testing_library_statement(stmt: Node) -> bool:
    if stmt.type != "expression_statement" or not stmt.named_children:
        return False
    expr: Node | None = stmt.named_children[0]
    if expr is not None and expr.type == "assignment_expression":
        expr = expr.child_by_field_name("right")
    return _is_testing_library_call(expr)


# -- act around Testing Library's own calls ----------------------------------------------------


def _act_statement(stmt: Node) -> tuple[Node, Node, bool] | None:
    """``act(cb)`` or ``await act(cb)`` as a statement: (the call, its callback, awaited)."""
    if stmt.type != "expression_statement" or not stmt.named_children:
        return None
    expr: Node | None = stmt.named_children[0]
    awaited = expr is not None and expr.type == "await_expression"
    if expr is not None and awaited:
        expr = expr.named_children[0] if expr.named_children else None
    if expr is None or expr.type != "call_expression":
        return None
    callee = expr.child_by_field_name("function")
    if callee is None or text_of(callee) not in ("act", "TestUtils.act", "ReactTestUtils.act"):
        return None
    args = expr.child_by_field_name("arguments")
    callbacks = [a for a in (args.named_children if args else []) if a.type != "comment"]
    if len(callbacks) != 1 or callbacks[0].type not in ("arrow_function", "function_expression"):
        return None
    return expr, callbacks[0], awaited


def _unwrap_act(content: str, root: Node) -> str:
    data = content.encode("utf-8")
    edits: list[Edit] = []
    for stmt in walk(root):
        found = _act_statement(stmt)
        if found is None:
            continue
        _call, callback, awaited = found
        body = callback.child_by_field_name("body")
        if body is None:
            continue
        if body.type != "statement_block":  # act(() => fireEvent.click(x))
            if _is_testing_library_call(body):
                edits.append(Edit(stmt.start_byte, stmt.end_byte, f"{text_of(body)};"))
            continue
        statements = [c for c in body.named_children if c.type != "comment"]
        if not statements and body.named_children:
            # Only comments left (the statements it held were left untranslated, commented
            # out): an act around nothing goes, the comments stay where it was.
            notes = body.named_children
            kept = moved(data, notes[0].start_byte, notes[-1].end_byte, stmt.start_byte)
            edits.append(Edit(stmt.start_byte, stmt.end_byte, kept))
            continue
        if len(statements) == 1 and _act_statement(statements[0]) is not None:
            # act(() => { act(() => …); }): the inner one is enough.
            inner = statements[0]
            kept = moved(data, inner.start_byte, inner.end_byte, stmt.start_byte)
            edits.append(Edit(stmt.start_byte, stmt.end_byte, kept))
            continue
        if not statements or not any(_is_testing_library_statement(s) for s in statements):
            continue
        indent = line_indent(data, stmt.start_byte)
        is_async = text_of(callback).startswith("async")
        if any(c.type == "comment" for c in body.named_children):
            if not all(_is_testing_library_statement(s) for s in statements):
                continue  # a comment between two kinds of statement would lose its place
            # Only Testing Library's calls, with comments (a finding above a query): all of
            # it moves out, each comment above the line it was above.
            held = body.named_children
            kept = moved(data, held[0].start_byte, held[-1].end_byte, stmt.start_byte)
            waits = "await " in text_of(statements[-1])
            flush = f"\n{indent}{_FLUSH}" if awaited and is_async and not waits else ""
            edits.append(Edit(stmt.start_byte, stmt.end_byte, kept + flush))
            continue
        groups: list[tuple[bool, list[Node]]] = []
        for s in statements:
            library = _is_testing_library_statement(s)
            if groups and groups[-1][0] == library:
                groups[-1][1].append(s)
            else:
                groups.append((library, [s]))
        parts: list[str] = []
        for library, members in groups:
            lines = data[members[0].start_byte : members[-1].end_byte].decode("utf-8")
            first = line_indent(data, members[0].start_byte)
            piece = (first + lines).split("\n")
            if library:
                parts.append(reindent(piece, indent).lstrip())
            else:
                head = "await act(async () => {" if awaited and is_async else "act(() => {"
                indented = reindent(piece, indent + "  ")
                parts.append(f"{head}\n{indented}\n{indent}}});")
        last_library, last = groups[-1]
        waits = any("await " in text_of(s) for s in last)
        if awaited and is_async and last_library and not waits:
            parts.append(_FLUSH)
        edits.append(Edit(stmt.start_byte, stmt.end_byte, f"\n{indent}".join(parts)))
    return applied(content, edits)


# -- let x; x = …; → const x = …; -------------------------------------------------------------


def _declare_where_assigned(content: str, root: Node) -> str:
    """``let x: T;`` followed at once by its only assignment ``x = value;`` (what unwrapping an
    ``act`` leaves) → ``const x = value;``. Where the value is a render, the non-null
    assertions the test needed on ``x`` (``let wrapper: ReactWrapper | undefined``, then
    ``wrapper!.update()``, ``return wrapper!``) go: a render's result is never null, and
    typescript-eslint flags an assertion on what cannot be (``no-non-null-assertion``,
    ``no-unnecessary-type-assertion``)."""
    edits: list[Edit] = []
    for block in walk(root):
        if block.type in ("statement_block", "program"):
            statements = [c for c in block.named_children if c.type != "comment"]
            for declaration, following in pairwise(statements):
                edit = _merged(block, declaration, following)
                if edit is None:
                    continue
                edits.append(edit)
                assigned = following.named_children[0]
                variable = text_of(assigned.child_by_field_name("left"))
                if _is_render_call(_unawaited(assigned.child_by_field_name("right"))):
                    edits.extend(
                        Edit(n.start_byte, n.end_byte, variable)
                        for n in walk(block)
                        if n.type == "non_null_expression"
                        and n.start_byte >= following.end_byte
                        and text_of(n) == f"{variable}!"
                    )
    return applied(content, edits)


_ASSIGNMENTS = ("assignment_expression", "augmented_assignment_expression", "update_expression")


def _merged(block: Node, declaration: Node, following: Node) -> Edit | None:
    if declaration.type != "lexical_declaration" or not text_of(declaration).startswith("let "):
        return None
    declarators = [c for c in declaration.named_children if c.type == "variable_declarator"]
    if len(declarators) != 1 or declarators[0].child_by_field_name("value") is not None:
        return None
    name = declarators[0].child_by_field_name("name")
    expr = following.named_children[0] if following.named_children else None
    if name is None or following.type != "expression_statement" or expr is None:
        return None
    if expr.type != "assignment_expression":
        return None
    variable = text_of(name)
    left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
    if left is None or right is None or text_of(left) != variable:
        return None
    assignments = [
        n
        for n in walk(block)
        if n.type in _ASSIGNMENTS and any(text_of(c) == variable for c in n.named_children[:1])
    ]
    if len(assignments) != 1:
        return None
    return Edit(declaration.start_byte, following.end_byte, f"const {variable} = {text_of(right)};")


# -- renders in beforeEach → setup() ------------------------------------------------------------


def _calls_named(node: Node, names: frozenset[str]) -> Iterator[tuple[Node, Node]]:
    """``name(…, callback)`` statements directly in ``node`` (a block): (call, callback)."""
    for stmt in node.named_children:
        if stmt.type != "expression_statement" or not stmt.named_children:
            continue
        call = stmt.named_children[0]
        if call.type != "call_expression" or _callee_name(call) not in names:
            continue
        args = call.child_by_field_name("arguments")
        callbacks = [a for a in (args.named_children if args else []) if a.type in FUNCTION_TYPES]
        if callbacks:
            yield call, callbacks[-1]


def _renders_out_of_hooks(content: str, root: Node) -> str:
    data = content.encode("utf-8")
    edits: list[Edit] = []
    for describe, callback in _describe_blocks(root):
        edit = _setup_for(data, describe, callback)
        if edit is not None:
            edits.extend(edit)
    return applied(content, edits)


def _describe_blocks(root: Node) -> Iterator[tuple[Node, Node]]:
    for node in walk(root):
        if node.type == "call_expression" and _callee_name(node) in _DESCRIBES:
            args = node.child_by_field_name("arguments")
            given = args.named_children if args else []
            callbacks = [a for a in given if a.type in FUNCTION_TYPES]
            body = callbacks[-1].child_by_field_name("body") if callbacks else None
            if body is not None and body.type == "statement_block":
                yield node, body


def _setup_for(data: bytes, describe: Node, block: Node) -> list[Edit] | None:
    """``beforeEach(() => { …; wrapper = render(…); … })`` of a describe → ``function setup()``
    with the hook's statements, returning the render, and ``const wrapper = setup();`` (or
    ``setup();``) first in each test of the describe. Only when that changes nothing a test sees:
    no other before-hook runs in between, and the render's variable is read in tests only."""
    hooks = list(_calls_named(block, frozenset({"beforeEach"})))
    if len(hooks) != 1:
        return None
    hook_call, hook = hooks[0]
    body = hook.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return None
    statements = [c for c in body.named_children if c.type != "comment"]
    if len(statements) != len(body.named_children):
        return None
    assigned = [s for s in statements if _render_assignment(s) is not None]
    bare = [
        s
        for s in statements
        if s.type == "expression_statement" and _is_render_call(_unawaited(s.named_children[0]))
    ]
    if len(assigned) + len(bare) != 1:
        return None
    render_stmt = (assigned or bare)[0]
    variable = _render_assignment(render_stmt)
    others = [
        n
        for n in walk(block)
        if n.type == "call_expression"
        and n != hook_call
        and _callee_name(n) in ("beforeEach", "beforeAll")
    ]
    if others:
        return None  # a hook that runs between this one and the test
    tests = [n for n in walk(block) if n.type == "call_expression" and _callee_name(n) in _TESTS]
    if not tests:
        return None
    declaration: Node | None = None
    if variable is not None:
        declaration = _let_declaration(block, variable)
        if declaration is None:
            return None
        users = [
            n
            for n in identifiers(block, variable)
            if not inside(n, declaration) and not inside(n, hook)
        ]
        if any(_test_callback_of(n, tests) is None for n in users):
            return None  # read outside a test (another hook, a helper): leave it
    is_async = text_of(hook).startswith("async")
    indent = line_indent(data, hook_call.start_byte)
    name = _setup_name(render_stmt, describe)
    lines: list[str] = []
    for s in statements:
        piece = data[s.start_byte : s.end_byte].decode("utf-8")
        if s == render_stmt and variable is not None:
            right = s.named_children[0].child_by_field_name("right")
            assert right is not None
            last = s == statements[-1]
            piece = f"return {text_of(right)};" if last else f"const {variable} = {text_of(right)};"
        lines.append(reindent((line_indent(data, s.start_byte) + piece).split("\n"), indent + "  "))
    if variable is not None and render_stmt != statements[-1]:
        lines.append(f"{indent}  return {variable};")
    keyword = "async function" if is_async else "function"
    setup = f"{keyword} {name}() {{\n" + "\n".join(lines) + f"\n{indent}}}"
    statement = hook_call.parent if hook_call.parent is not None else hook_call
    edits = [Edit(statement.start_byte, statement.end_byte, setup)]
    if declaration is not None:
        edits.append(remove_line(data, declaration))
    for test in tests:
        callback = _test_callback(test)
        test_body = callback.child_by_field_name("body") if callback is not None else None
        if callback is None or test_body is None or test_body.type != "statement_block":
            return None
        uses = variable is not None and bool(identifiers(test_body, variable))
        call = f"await {name}()" if is_async else f"{name}()"
        # A test that renders into the variable again (``wrapper = render(…)``) needs a let.
        keyword = "let" if variable is not None and _assigned_in(test_body, variable) else "const"
        line = f"{keyword} {variable} = {call};" if uses else f"{call};"
        first = next(iter(test_body.named_children), None)
        inner = (
            line_indent(data, first.start_byte)
            if first is not None
            else line_indent(data, test.start_byte) + "  "
        )
        at = test_body.start_byte + 1
        edits.append(Edit(at, at, f"\n{inner}{line}"))
        if is_async and not text_of(callback).startswith("async"):
            edits.append(Edit(callback.start_byte, callback.start_byte, "async "))
    return edits


def _assigned_in(body: Node, name: str) -> bool:
    """Whether ``body`` assigns ``name`` (``name = …``, ``name += …``)."""
    for node in walk(body):
        if node.type in ("assignment_expression", "augmented_assignment_expression"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier" and text_of(left) == name:
                return True
    return False


def _setup_name(render_stmt: Node, describe: Node) -> str:
    """``renderTodoList``: after the element the hook rendered (a render helper by the plugin's
    reading too), unless the file has that name already."""
    element = next(
        (
            n
            for n in walk(render_stmt)
            if n.type in ("jsx_opening_element", "jsx_self_closing_element")
        ),
        None,
    )
    tag = element.child_by_field_name("name") if element is not None else None
    component = text_of(tag) if tag is not None and text_of(tag)[:1].isupper() else "Subject"
    name = "render" + component.replace(".", "")
    root = describe
    while root.parent is not None:
        root = root.parent
    taken = {text_of(n) for n in walk(root) if n.type == "identifier"}
    return name if name not in taken else f"{name}ForTest"


def _render_assignment(stmt: Node) -> str | None:
    """``x = render(…);`` (awaited or not) as a statement: ``x``."""
    if stmt.type != "expression_statement" or not stmt.named_children:
        return None
    expr = stmt.named_children[0]
    if expr.type != "assignment_expression":
        return None
    left = expr.child_by_field_name("left")
    if left is None or left.type != "identifier":
        return None
    return text_of(left) if _is_render_call(_unawaited(expr.child_by_field_name("right"))) else None


def _let_declaration(block: Node, name: str) -> Node | None:
    for stmt in block.named_children:
        if stmt.type == "lexical_declaration" and text_of(stmt).startswith("let "):
            declarators = [c for c in stmt.named_children if c.type == "variable_declarator"]
            if len(declarators) == 1:
                ident = declarators[0].child_by_field_name("name")
                value = declarators[0].child_by_field_name("value")
                if ident is not None and text_of(ident) == name and value is None:
                    return stmt
    return None


def _test_callback(test: Node) -> Node | None:
    args = test.child_by_field_name("arguments")
    callbacks = [a for a in (args.named_children if args else []) if a.type in FUNCTION_TYPES]
    return callbacks[-1] if callbacks else None


def _test_callback_of(node: Node, tests: list[Node]) -> Node | None:
    for test in tests:
        callback = _test_callback(test)
        if callback is not None and inside(node, callback):
            return callback
    return None


# -- render results named as Testing Library's lint expects --------------------------------------


def _name_render_results(content: str, root: Node) -> str:
    edits: list[Edit] = []
    given: dict[int, set[str]] = {}
    for declarator in walk(root):
        if declarator.type != "variable_declarator":
            continue
        name = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if name is None or name.type != "identifier" or not _is_render_call(_unawaited(value)):
            continue
        current = text_of(name)
        if current in _GOOD_NAMES:
            continue
        scope = scope_of(declarator)
        references = [n for n in identifiers(scope, current) if n != name]
        statement = declarator.parent
        if not references and statement is not None and len(statement.named_children) == 1:
            assert value is not None
            edits.append(Edit(statement.start_byte, value.start_byte, ""))
            continue
        taken = {text_of(n) for n in walk(scope) if n.type == "identifier"}
        taken |= given.setdefault(scope.id, set())
        new = next((g for g in _GOOD_NAMES if g not in taken), None)
        if new is None:
            continue
        given[scope.id].add(new)
        edits.append(Edit(name.start_byte, name.end_byte, new))
        for ref in references:
            if ref.type == "shorthand_property_identifier":
                edits.append(Edit(ref.start_byte, ref.end_byte, f"{current}: {new}"))
            else:
                edits.append(Edit(ref.start_byte, ref.end_byte, new))
    return applied(content, edits)


def _unawaited(node: Node | None) -> Node | None:
    if node is not None and node.type == "await_expression" and node.named_children:
        return node.named_children[0]
    return node

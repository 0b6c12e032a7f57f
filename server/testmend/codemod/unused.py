"""Names the conversion left unused, removed: named imports nothing refers to any more,
values destructured from a call that nothing reads (``const { wrapper, history } = await
setup()`` once ``wrapper`` has no reads left; the call itself stays), lookups of an
element nothing reads that assert nothing, and values only Enzyme read (``const options =
createContextWithFakeRouter()`` once the ``shallow`` it configured is a ``render``; a render
such a value made stays: ``const marker = Wrapper({ size }).find(Marker)`` whose uses all
became queries and recorded props leaves ``Wrapper({ size });``). Declarations only code left
untranslated reads are commented out beside it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..js_syntax import Node, parse, text_of, walk
from .scopes import declaring_scope, pattern_identifiers, pattern_names
from .syntax import Edit, apply_edits, holds_outside_functions, line_indent


def identifiers(node: Node, name: str) -> list[Node]:
    """The identifiers (and shorthand properties) named ``name`` in ``node``."""
    return [
        n
        for n in walk(node)
        if n.type in ("identifier", "shorthand_property_identifier") and text_of(n) == name
    ]


def remove_line(data: bytes, node: Node) -> Edit:
    """The lines of ``node``, and a blank line after them that would open a block."""
    start = data.rfind(b"\n", 0, node.start_byte) + 1
    end = data.find(b"\n", node.end_byte)
    end = len(data) if end == -1 else end + 1
    opens_block = data[:start].rstrip().endswith(b"{")
    if opens_block and data[end : data.find(b"\n", end) + 1].strip() == b"":
        end = data.find(b"\n", end) + 1
    return Edit(start, end, "")


def applied(content: str, edits: list[Edit]) -> str:
    """``content`` with ``edits`` applied."""
    if not edits:
        return content
    return apply_edits(content.encode("utf-8"), edits)[0]


def scope_of(node: Node) -> Node:
    """The block (or the program) ``node`` is declared in."""
    current = node.parent
    while current is not None and current.type not in ("statement_block", "program"):
        current = current.parent
    return current if current is not None else node


def drop_unused_destructured(content: str, root: Node) -> str:
    """``const { wrapper, history } = await setup()`` where nothing reads ``wrapper``:
    ``const { history } = await setup()``; ``await setup()`` when nothing is read at all."""
    edits: list[Edit] = []
    for declarator in walk(root):
        if declarator.type != "variable_declarator":
            continue
        pattern = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        called = value
        if called is not None and called.type == "await_expression" and called.named_children:
            called = called.named_children[0]
        if pattern is None or pattern.type != "object_pattern" or called is None:
            continue
        if called.type != "call_expression":
            continue
        items = [c for c in pattern.named_children if c.type != "comment"]
        if any(
            c.type not in ("shorthand_property_identifier_pattern", "pair_pattern") for c in items
        ):
            continue  # a rest element: dropping a name changes what the rest holds
        scope = scope_of(declarator)
        keep = []
        for item in items:
            local = item if item.type != "pair_pattern" else item.child_by_field_name("value")
            if local is None or local.type not in (
                "identifier",
                "shorthand_property_identifier_pattern",
            ):
                keep.append(item)
                continue
            name = text_of(local)
            if any(n.start_byte != local.start_byte for n in identifiers(scope, name)):
                keep.append(item)
        if len(keep) == len(items):
            continue
        statement = declarator.parent
        assert value is not None
        if keep:
            edits.append(
                Edit(
                    pattern.start_byte,
                    pattern.end_byte,
                    "{ " + ", ".join(text_of(k) for k in keep) + " }",
                )
            )
        elif statement is not None and len(statement.named_children) == 1:
            edits.append(Edit(statement.start_byte, value.start_byte, ""))
    return applied(content, edits)


def single_declarations(root: Node) -> Iterator[tuple[Node, Node, Node]]:
    """``const x = value;`` (or ``let``) statements in ``root`` declaring one identifier:
    (the statement, its name, its value)."""
    for statement in walk(root):
        if statement.type != "lexical_declaration" or len(statement.named_children) != 1:
            continue
        declarator = statement.named_children[0]
        name = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if name is not None and name.type == "identifier" and value is not None:
            yield statement, name, value


_LOOKUPS = re.compile(
    r"(document|\w+\.container|container)\.querySelector(All)?|screen\.query(All)?By\w+"
)


def drop_unused_lookups(content: str, root: Node) -> str:
    """``const form = document.querySelector('form')`` (or a ``queryBy…``) that nothing reads,
    left when every use of a found element became a query of its own: the declaration goes,
    with the note above it about that lookup. Only lookups that assert nothing go (a
    ``getBy…`` fails when nothing matches, so it stays)."""
    data = content.encode("utf-8")
    edits: list[Edit] = []
    for statement, name, value in single_declarations(root):
        callee = value.child_by_field_name("function") if value.type == "call_expression" else None
        if callee is None or not _LOOKUPS.fullmatch(text_of(callee)):
            continue
        if any(
            n.start_byte != name.start_byte for n in identifiers(scope_of(statement), text_of(name))
        ):
            continue
        edits.append(remove_line(data, statement))
        note = _note_above(statement, "// testmend:")
        if note is not None:
            edits.append(remove_line(data, note))
    return applied(content, edits)


def _note_above(statement: Node, prefix: str) -> Node | None:
    """The comment starting with ``prefix`` on the line right above ``statement``."""
    note = statement.prev_named_sibling
    if (
        note is not None
        and note.type == "comment"
        and text_of(note).startswith(prefix)
        and note.end_point[0] == statement.start_point[0] - 1
    ):
        return note
    return None


NAME_NODES = ("identifier", "type_identifier", "jsx_identifier", "shorthand_property_identifier")


def name_counts(root: Node, kinds: tuple[str, ...] = NAME_NODES) -> dict[str, int]:
    """How many times each name appears in the tree (imports and declarations included)."""
    counts: dict[str, int] = {}
    for n in walk(root):
        if n.type in kinds:
            counts[text_of(n)] = counts.get(text_of(n), 0) + 1
    return counts


def drop_unused_imports(content: str, root: Node) -> str:
    data = content.encode("utf-8")
    used = name_counts(root)
    edits: list[Edit] = []
    for stmt in root.named_children:
        if stmt.type != "import_statement":
            continue
        clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
        named = (
            next((c for c in clause.named_children if c.type == "named_imports"), None)
            if clause
            else None
        )
        if _unused_testing_library_default(stmt, clause, used):
            edits.append(remove_line(data, stmt))
            continue
        if clause is None or named is None or len(clause.named_children) != 1:
            continue
        specs = [s for s in named.named_children if s.type == "import_specifier"]
        keep = []
        for spec in specs:
            local = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
            if local is not None and used.get(text_of(local), 0) > 1:
                keep.append(text_of(spec))
        if len(keep) == len(specs):
            continue
        if keep:
            edits.append(Edit(named.start_byte, named.end_byte, "{ " + ", ".join(keep) + " }"))
        else:
            edits.append(remove_line(data, stmt))
    return applied(content, edits)


def _unused_testing_library_default(stmt: Node, clause: Node | None, used: dict[str, int]) -> bool:
    """``import userEvent from '@testing-library/user-event'`` that the conversion added and
    nothing reads any more (its one caller was commented out with code left untranslated). A
    default import of another module stays: loading it may be the point."""
    source = stmt.child_by_field_name("source")
    if clause is None or source is None or len(clause.named_children) != 1:
        return False
    default = clause.named_children[0]
    return (
        default.type == "identifier"
        and text_of(source).strip("'\"").startswith("@testing-library/")
        and used.get(text_of(default), 0) <= 1
    )


# Initializers whose evaluation is the point even unread: a spy or a mock installed.
_EFFECTS = re.compile(r"\bjest\s*\.|\bspyOn\b|\.mock\w*\s*\(")


def _read_names(root: Node) -> set[str]:
    """The names ``root`` declares with ``const``/``let`` and reads somewhere in their scope."""
    read = set()
    for declarator in walk(root):
        name = (
            declarator.child_by_field_name("name")
            if declarator.type == "variable_declarator"
            else None
        )
        if name is None or name.type != "identifier":
            continue
        if any(
            n.start_byte != name.start_byte
            for n in identifiers(scope_of(declarator), text_of(name))
        ):
            read.add(text_of(name))
    return read


def drop_orphaned_declarations(content: str, root: Node, original: Node) -> str:
    """``const options = createContextWithFakeRouter({ location })`` that only the Enzyme code
    read (the original reads it; nothing in the result does): the declaration goes, and so, in
    turn, do the values only it read (``location``). One that installs a spy or a mock stays,
    so does one that code left untranslated (commented out) still reads, and so does a name
    the original did not read either (the project's own)."""
    before = _read_names(original)
    data = content.encode("utf-8")
    edits: list[Edit] = []
    gone: list[Node] = []
    kept: set[int] = set()
    changed = True
    while changed:
        changed = False
        for statement, name, value in single_declarations(root):
            if statement.parent is None or statement.parent.type not in (
                "statement_block",
                "program",
            ):
                continue
            if any(inside(statement, g) for g in gone):
                continue
            if text_of(name) not in before or _EFFECTS.search(text_of(value)):
                continue
            reads = [
                n
                for n in identifiers(scope_of(statement), text_of(name))
                if n.start_byte != name.start_byte and not any(inside(n, g) for g in gone)
            ]
            if reads or _in_comments(scope_of(statement), text_of(name)):
                continue  # read, or by code left untranslated (commented out) for a person
            render = _render_in(value, root)
            if render is None:
                gone.append(statement)
                edits.append(remove_line(data, statement))
                changed = True
            elif statement.id not in kept:
                # `const marker = Wrapper({ size }).container.querySelector('defs')`: the lookup
                # goes, the render the test's later assertions read stays (and what it reads).
                kept.add(statement.id)
                edits.append(Edit(statement.start_byte, statement.end_byte, f"{text_of(render)};"))
                note = _note_above(statement, "// testmend: CSS selector")
                if note is not None:
                    edits.append(remove_line(data, note))  # it said what the lookup selects
    return applied(content, edits)


_RENDERING = re.compile(r"render", re.I)


def _render_in(value: Node, root: Node) -> Node | None:
    """The call in ``value`` that renders (a callee named like a render, or a function of the
    file's whose body calls one: ``const Wrapper = (p) => render(…)``), when there is one."""
    if value.type in ("arrow_function", "function_expression", "function"):
        return None  # declaring a function renders nothing
    for call in walk(value):
        if call.type != "call_expression":
            continue
        callee = call.child_by_field_name("function")
        if callee is None:
            continue
        if _RENDERING.search(text_of(callee).split(".")[-1]):
            return call
        if callee.type == "identifier" and _function_renders(text_of(callee), root):
            return call
    return None


def _function_renders(name: str, root: Node) -> bool:
    for node in walk(root):
        if node.type == "function_declaration":
            found = text_of(node.child_by_field_name("name")) == name
        elif node.type == "variable_declarator":
            found = text_of(node.child_by_field_name("name")) == name and (
                (node.child_by_field_name("value") or node).type
                in ("arrow_function", "function_expression", "function")
            )
        else:
            continue
        if found:
            body = node.child_by_field_name("body") or node.child_by_field_name("value")
            return body is not None and any(
                n.type == "call_expression"
                and (callee := n.child_by_field_name("function")) is not None
                and _RENDERING.search(text_of(callee).split(".")[-1])
                for n in walk(body)
            )
    return False


def _in_comments(node: Node, name: str) -> bool:
    """``name`` is read by code left commented out in ``node``. The conversion's own notes
    (``// testmend: …``) are prose, not code: a note that names a class ``alert`` does not
    keep ``const alert = …`` alive."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(
        n.type == "comment"
        and not text_of(n).startswith("// testmend:")
        and word.search(text_of(n))
        for n in walk(node)
    )


def inside(node: Node, outer: Node) -> bool:
    """``node`` lies within ``outer`` (or is it)."""
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


# What evaluating an initializer can do besides making a value (a function's body is not run).
_EFFECT_NODES = frozenset(
    {
        "call_expression",
        "new_expression",
        "assignment_expression",
        "augmented_assignment_expression",
        "update_expression",
        "await_expression",
        "yield_expression",
    }
)
UNTRANSLATED_ONLY = "// testmend: read only by code left untranslated"


def _pure(value: Node | None) -> bool:
    """Evaluating ``value`` only makes a value: no call, ``new``, assignment or ``await``
    outside the functions it defines."""
    return value is None or not holds_outside_functions([value], _EFFECT_NODES)


def _commented_code_lines(content: str) -> dict[int, str]:
    """The lines (0-based) of code left untranslated: the comment lines right under a
    ``// testmend:`` note, up to the first line that is not a comment (the conversion's
    ``comment_out`` writes a statement so). Prose comments of the project are not among them."""
    lines: dict[int, str] = {}
    under_note = False
    for number, line in enumerate(content.split("\n")):
        stripped = line.strip()
        if stripped.startswith("// testmend:"):
            under_note = True
        elif under_note and stripped.startswith("//"):
            lines[number] = stripped[2:]
        else:
            under_note = False
    return lines


def _declared(statement: Node) -> tuple[list[Node], Node | None] | None:
    """The names a statement declares and what is evaluated to make them: ``let x;``, ``const
    x = …``, ``const { a, b } = props``, ``function f() {…}`` (nothing evaluated); None for
    anything else, and for several declarators."""
    if statement.type == "function_declaration":
        name = statement.child_by_field_name("name")
        return ([name], None) if name is not None else None
    if statement.type not in ("lexical_declaration", "variable_declaration"):
        return None
    declarators = [c for c in statement.named_children if c.type == "variable_declarator"]
    if len(declarators) != 1:
        return None
    names = list(pattern_identifiers(declarators[0].child_by_field_name("name")))
    return (names, declarators[0]) if names else None


def comment_out_untranslated_only(content: str, path: str, original: Node) -> str:
    """A declaration that only code left untranslated (commented out) reads: ``let activeItem;``
    whose assignments and reads were all Enzyme, ``const { messageMap } = props`` handed only to
    an Enzyme helper, a helper function whose every call was left untranslated. It is
    commented out too, under a note, beside the code that reads it, instead of staying as a
    binding the project's lint calls unused (``no-unused-vars``): whoever finishes the file
    restores them together. Only a declaration whose value is made without effects (nothing
    called, a function not run), that the original read (a name the project left unused is its
    own) and that is not exported; one that becomes unused in turn (what such a helper read)
    follows in the next round."""
    counts = name_counts(
        original,
        ("identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"),
    )
    for _round in range(8):
        tree = parse(content, path)
        if tree.root_node.has_error:
            break
        updated = _comment_out_round(content, tree.root_node, counts)
        if updated == content:
            break
        content = updated
    return content


def _comment_out_round(content: str, root: Node, counts: dict[str, int]) -> str:
    code_lines = _commented_code_lines(content)
    if not code_lines:
        return content
    data = content.encode("utf-8")
    edits: list[Edit] = []
    chosen: list[Node] = []
    for statement in walk(root):
        if statement.parent is None or statement.parent.type not in ("statement_block", "program"):
            continue
        if any(inside(statement, outer) for outer in chosen):
            continue  # inside a helper commented out whole
        declared = _declared(statement)
        if declared is None or not _pure(declared[1]):
            continue  # making it does more than make a value
        words = [text_of(name) for name in declared[0]]
        if any(counts.get(word, 0) < 2 for word in words):
            continue  # the original never read it: the project's own unused name
        scope = scope_of(statement)
        if any(not inside(n, statement) for word in words for n in identifiers(scope, word)):
            continue  # live code reads it (a function's calls of itself are not reads)
        pattern = re.compile("|".join(rf"\b{re.escape(word)}\b" for word in words))
        first, last = scope.start_point[0], scope.end_point[0]
        if not any(first <= n <= last and pattern.search(t) for n, t in code_lines.items()):
            continue
        if _strands(statement, chosen):
            continue
        chosen.append(statement)
        edits.append(_commented(data, statement))
    return applied(content, edits)


def _strands(statement: Node, gone: list[Node]) -> bool:
    """Commenting ``statement`` out (with ``gone``, this round's others) would leave a name it
    reads with no reader where that name cannot follow it: a parameter of a function around it
    (addons-code-manager's ``renderGutter({ renderDefault, side, … })`` helper, whose one
    reader of them was a ``const params = {…}`` only untranslated code read), or a value made
    by a call. A value made without effects follows in the next round; an import goes by
    itself."""
    for ident in walk(statement):
        if ident.type not in ("identifier", "shorthand_property_identifier"):
            continue
        name = text_of(ident)
        scope = declaring_scope(name, ident)
        if inside(scope, statement):
            continue  # declared inside it
        params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
        site = params if params is not None and name in pattern_names(params) else None
        if site is None and scope.type in ("statement_block", "program"):
            found = _declaration_of(scope, name)
            if found is None or _pure(found[1]):
                continue  # an import, a global, or a value that can follow
            site = found[0]
        if site is None:
            continue
        if not any(
            not inside(n, site)
            and not inside(n, statement)
            and not any(inside(n, g) for g in gone)
            and declaring_scope(name, n).id == scope.id
            for n in identifiers(scope, name)
        ):
            return True
    return False


def _declaration_of(scope: Node, name: str) -> tuple[Node, Node | None] | None:
    """The statement of ``scope`` that declares ``name``, and what it evaluates."""
    for statement in scope.named_children:
        declared = _declared(statement)
        if declared is not None and name in {text_of(n) for n in declared[0]}:
            return statement, declared[1]
    return None


def _commented(data: bytes, statement: Node) -> Edit:
    """``statement`` as comments under the note, each line kept at its indentation."""
    start = data.rfind(b"\n", 0, statement.start_byte) + 1
    indent = line_indent(data, statement.start_byte)
    lines = data[start : statement.end_byte].decode("utf-8").split("\n")
    commented = "\n".join(
        (indent + "// " + (ln[len(indent) :] if ln.startswith(indent) else ln.lstrip())).rstrip()
        for ln in lines
    )
    return Edit(start, statement.end_byte, f"{indent}{UNTRANSLATED_ONLY}\n{commented}")

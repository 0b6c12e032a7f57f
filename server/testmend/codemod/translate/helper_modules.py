"""Selection helpers that live in a module of the project's tests (``export function
getMenu(wrapper) { return wrapper.find('.rbt-menu').hostNodes(); }`` in ``__tests__/helpers``).

The converter reads a call of a selection helper as the selection itself (see
``Targets.collect_selection_helpers``). For helpers of the file's own, it sees their body in
the file; for imported ones, :func:`with_imported_helpers` appends their source, under the
names the file imports them by, after the file's own code. The converter never edits that
tail, and :func:`drop_expanded_imports` removes the imported names no live code uses any
more. The helper module itself is left as it is: other Enzyme tests may still use it.
"""

from __future__ import annotations

import posixpath
import re

from ..syntax import Node, parse, splice, string_value, text, walk

# A parameter's TypeScript type and a function's return type (``wrapper: ReactWrapper``).
_TYPE = r"(?:\s*:\s*[\w$.<>\[\], ]+?)?"
_FUNCTION = re.compile(
    rf"export\s+function\s+([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*){_TYPE}\s*\){_TYPE}\s*"
    r"\{([^{}]*)\}"
)
_ARROW = re.compile(
    r"export\s+const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\(\s*([A-Za-z_$][\w$]*)"
    rf"{_TYPE}\s*\)|([A-Za-z_$][\w$]*)){_TYPE}\s*=>\s*"
    r"([^;\n{}]+);"
)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def selection_helpers_in(source: str) -> dict[str, str]:
    """Exported one-parameter functions whose whole body returns a ``find`` on that parameter:
    name → the function's source (the converter checks the chain's shape itself)."""
    found: dict[str, str] = {}
    for match in _FUNCTION.finditer(source):
        name, param, body = match.groups()
        body = _COMMENT.sub("", body).strip()
        if re.fullmatch(rf"return\s+{re.escape(param)}\s*\.\s*find\([^;]*\)[^;]*;?", body, re.S):
            found[name] = f"function {name}({param}) {{ {body} }}"
    for match in _ARROW.finditer(source):
        name, typed, bare, body = match.groups()
        param = typed or bare
        body = body.strip()
        if re.match(rf"{re.escape(param)}\s*\.\s*find\(", body):
            found[name] = f"function {name}({param}) {{ return {body}; }}"
    return found


def module_imports(tree_root: Node) -> list[tuple[Node, str, list[tuple[str, str, Node]]]]:
    """Each import statement: (node, specifier, [(imported, local, specifier node)])."""
    out = []
    for node in tree_root.named_children:
        if node.type != "import_statement":
            continue
        spec = string_value(node.child_by_field_name("source")) or ""
        names = []
        for n in walk(node):
            if n.type == "import_specifier":
                imported = n.child_by_field_name("name")
                alias = n.child_by_field_name("alias")
                names.append((text(imported), text(alias or imported), n))
        out.append((node, spec, names))
    return out


def module_key(spec: str, path: str) -> str | None:
    if not spec.startswith("."):
        return None
    key = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
    return key[: -len("/index")] if key.endswith("/index") else key


def with_imported_helpers(
    source: str, path: str, helpers: dict[str, dict[str, str]]
) -> tuple[str, list[str]]:
    """``source`` with the imported selection helpers' source appended (renamed to their local
    names), and those local names. ``helpers``: project-relative module path (no extension)
    → {exported name: function source}."""
    if not helpers:
        return source, []
    tree = parse(source.encode("utf-8"), path)
    tail: list[str] = []
    names: list[str] = []
    for _node, spec, imported in module_imports(tree.root_node):
        key = module_key(spec, path)
        module = helpers.get(key or "") or helpers.get(re.sub(r"\.[cm]?[jt]sx?$", "", key or ""))
        if not module:
            continue
        for name, local, _n in imported:
            if name in module:
                function = module[name]
                tail.append(
                    re.sub(rf"^function {re.escape(name)}\(", f"function {local}(", function)
                )
                names.append(local)
    if not tail:
        return source, []
    separator = "" if source.endswith("\n") else "\n"
    return source + separator + "\n" + "\n".join(tail) + "\n", names


def drop_expanded_imports(content: str, path: str, names: list[str]) -> str:
    """Remove from the import statements the names of ``names`` that no code uses any more
    (their calls were read as selections); an import left empty goes entirely."""
    if not names:
        return content
    src = content.encode("utf-8")
    tree = parse(src, path)
    used = {
        text(n)
        for n in walk(tree.root_node)
        if n.type == "identifier"
        and text(n) in names
        and not any(a.type == "import_statement" for a in _ancestors(n))
    }
    edits: list[tuple[int, int, str]] = []
    for node, _spec, imported in module_imports(tree.root_node):
        gone = [n for _name, local, n in imported if local in names and local not in used]
        if not gone:
            continue
        if len(gone) == len(imported) and not _has_default(node):
            end = node.end_byte + (1 if src[node.end_byte : node.end_byte + 1] == b"\n" else 0)
            edits.append((node.start_byte, end, ""))
            continue
        for n in gone:
            start, end = n.start_byte, n.end_byte
            after = re.match(rb"\s*,\s*", src[end:])
            if after:
                end += after.end()
            else:
                before = re.search(rb",\s*$", src[:start])
                if before:
                    start = before.start()
            edits.append((start, end, ""))
    return splice(src, 0, len(src), edits)


def _ancestors(node: Node) -> list[Node]:
    out = []
    parent = node.parent
    while parent is not None:
        out.append(parent)
        parent = parent.parent
    return out


def _has_default(node: Node) -> bool:
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    return clause is not None and any(
        c.type in ("identifier", "namespace_import") for c in (clause.named_children)
    )

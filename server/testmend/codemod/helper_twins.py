"""The Testing Library counterpart of a project's Enzyme render helper, written beside it.

A helper such as kubeapps' ``mountWrapper(store, children, includeRouter)`` wraps the element
in what its own body gives (a store's provider, translations, a router) from values private to
its module (the locale's messages). No call of it shows those, so a test that renders through
it can only be converted by a helper that gives the same: its *twin*, the same definition
under the name ``render…`` (``renderWrapper``), rendering with Testing Library's ``render``
where the original mounts with Enzyme. The twin is appended to the helper's own module (where
its private values are), once, with a marker; the module's Enzyme helper stays for the tests
not migrated yet.

Only a helper whose every use of Enzyme's ``mount`` is the value it returns gets a twin: one
that calls methods of the wrapper (``wrapper.update()``) or returns it inside something else
would not give its callers what they expect from a render result.
"""

from __future__ import annotations

import re

from .syntax import Node, args_of, parse, rendered_opening, string_value, text, unwrap, walk

TWIN_MARKER = "Written by testmend"
_RTL = "@testing-library/react"


def twin_name(name: str) -> str:
    """``mountWrapper`` → ``renderWrapper``."""
    return "render" + re.sub(r"^(mount|shallow|render)", "", name)


def helper_twin(module_text: str, path: str, name: str) -> str | None:
    """The helper module ``module_text`` (at ``path``) with the twin of its Enzyme render
    helper ``name`` appended (and Testing Library's ``render`` imported), or None when the
    helper cannot have one. The module as it is when it already has the twin."""
    twin = twin_name(name)
    if re.search(rf"(?:function|const|let|var)\s+{re.escape(twin)}\b", module_text):
        return module_text if TWIN_MARKER in module_text else None
    tree = parse(module_text, path)
    if tree.root_node.has_error:
        return None
    root = tree.root_node
    mount = _enzyme_mount_name(root)
    definition = _exported_definition(root, name)
    if mount is None or definition is None:
        return None
    declaration, name_node = definition
    uses = [n for n in walk(declaration) if n.type == "identifier" and text(n) == mount]
    if not uses or not all(_returned_call(n) for n in uses):
        return None
    render, import_line = _rtl_render(root, module_text)
    src = module_text.encode("utf-8")
    base = declaration.start_byte
    body = src[base : declaration.end_byte]
    edits = [(name_node, twin), *((n, render) for n in uses)]
    for node, new in sorted(edits, key=lambda e: e[0].start_byte, reverse=True):
        start, end = node.start_byte - base, node.end_byte - base
        body = body[:start] + new.encode("utf-8") + body[end:]
    out = module_text
    if import_line is not None:
        last = [c for c in root.named_children if c.type == "import_statement"][-1]
        at = len(src[: last.end_byte].decode("utf-8"))
        out = out[:at] + "\n" + import_line + out[at:]
    code = body.decode("utf-8")
    return (
        out.rstrip("\n")
        + f"\n\n// {TWIN_MARKER}: {name} rendered with Testing Library, for the tests migrated "
        "off Enzyme.\n"
        + "export "
        + code
        + ("" if code.rstrip().endswith((";", "}")) else ";")
        + "\n"
    )


def mounted_root(module_text: str, path: str, name: str) -> tuple[str, list[str]] | None:
    """(its tag, the props the helper gives it) of the element the Enzyme helper ``name``
    mounts around the test's element, when every ``mount`` of it mounts the same such element
    (``mount(<Provider store={store}>{childrenNode}</Provider>)``): that element, not the
    test's, is Enzyme's root. None when the helper mounts the element it was given, or when
    that cannot be read."""
    tree = parse(module_text, path)
    mount = _enzyme_mount_name(tree.root_node)
    definition = _exported_definition(tree.root_node, name)
    if tree.root_node.has_error or mount is None or definition is None:
        return None
    found: set[tuple[str, tuple[str, ...]]] = set()
    for use in walk(definition[0]):
        if use.type != "identifier" or text(use) != mount or use.parent is None:
            continue
        call = use.parent
        if call.type != "call_expression" or call.child_by_field_name("function") != use:
            return None
        opening = rendered_opening(call)
        tag = opening.child_by_field_name("name") if opening is not None else None
        if opening is None or tag is None:
            return None
        props = tuple(
            text(attr.named_children[0])
            for attr in opening.named_children
            if attr.type == "jsx_attribute" and attr.named_children
        )
        found.add((text(tag), props))
    if len(found) != 1:
        return None
    tag_name, props = found.pop()
    return tag_name, list(props)


def _enzyme_mount_name(root: Node) -> str | None:
    """The local name the module imports Enzyme's ``mount`` under."""
    for stmt in root.named_children:
        if stmt.type != "import_statement":
            continue
        if string_value(stmt.child_by_field_name("source")) != "enzyme":
            continue
        for spec in (n for n in walk(stmt) if n.type == "import_specifier"):
            if text(spec.child_by_field_name("name")) == "mount":
                alias = spec.child_by_field_name("alias")
                return text(alias) if alias is not None else "mount"
    return None


def _exported_definition(root: Node, name: str) -> tuple[Node, Node] | None:
    """(the declaration, its name node) of ``export const name = …`` or ``export function
    name``: the function the twin copies."""
    for stmt in root.named_children:
        if stmt.type != "export_statement":
            continue
        declaration = stmt.child_by_field_name("declaration")
        if declaration is None:
            continue
        if declaration.type == "function_declaration":
            found = declaration.child_by_field_name("name")
            if found is not None and text(found) == name:
                return declaration, found
        elif declaration.type == "lexical_declaration":
            declarators = [c for c in declaration.named_children if c.type == "variable_declarator"]
            for declarator in declarators:
                found = declarator.child_by_field_name("name")
                value = unwrap(declarator.child_by_field_name("value"))
                if (
                    found is not None
                    and text(found) == name
                    and len(declarators) == 1
                    and value is not None
                    and value.type in ("arrow_function", "function_expression", "function")
                ):
                    return declaration, found
    return None


def _returned_call(identifier: Node) -> bool:
    """``identifier`` is the callee of a call that is the value its function returns
    (``return mount(…)``, ``=> mount(…)``)."""
    call = identifier.parent
    if call is None or call.type != "call_expression":
        return False
    if call.child_by_field_name("function") != identifier or not args_of(call):
        return False
    holder = call.parent
    while holder is not None and holder.type == "parenthesized_expression":
        holder = holder.parent
    if holder is None:
        return False
    if holder.type == "return_statement":
        return True
    return holder.type == "arrow_function" and holder.child_by_field_name("body") in (
        call,
        call.parent,
    )


def _rtl_render(root: Node, module_text: str) -> tuple[str, str | None]:
    """The local name of Testing Library's ``render`` in the module, and the import line to
    add when it has none (``None``: already imported)."""
    quote = "'"
    for stmt in root.named_children:
        if stmt.type != "import_statement":
            continue
        source = stmt.child_by_field_name("source")
        quote = text(source)[:1] or quote
        if string_value(source) != _RTL:
            continue
        for spec in (n for n in walk(stmt) if n.type == "import_specifier"):
            if text(spec.child_by_field_name("name")) == "render":
                alias = spec.child_by_field_name("alias")
                return (text(alias) if alias is not None else "render"), None
    local = "rtlRender" if re.search(r"(?<![\w$.])render\b", module_text) else "render"
    named = "render" if local == "render" else "render as rtlRender"
    return local, f"import {{ {named} }} from {quote}{_RTL}{quote};"

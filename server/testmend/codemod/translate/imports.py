"""Reading the file before converting it: its Enzyme imports (and the project's helpers that
wrap Enzyme), its other imports, and its tests with their full names."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from ..models import CodemodOptions, HelperMapping
from ..syntax import Node, args_of, string_value, text, unwrap
from .state import ConverterState, TestDecl, relative_specifier
from .tables import DESCRIBE_FUNCS, ENZYME_MODULE, TEST_FUNCS


def is_enzyme_helper_module(module: str, path: str, options: CodemodOptions) -> bool:
    """``module``, imported by the test at ``path``, is one of the project's Enzyme helper
    modules: by the specifier tests use for it, or a relative one that leads to it."""
    if module in options.enzyme_helper_modules or any(
        m.enzyme_module == module for m in options.helper_mappings
    ):
        return True
    if not module.startswith("."):
        return False
    target = posixpath.normpath(posixpath.join(posixpath.dirname(path), module))
    target = re.sub(r"\.(?:[cm]?[jt]sx?)$", "", target)
    return any(target in (helper, f"{helper}/index") for helper in options.enzyme_helper_paths)


class ImportScanner(ConverterState):
    """Finds the file's imports and tests; converts nothing."""

    def _register_helper(self, local: str, mapping: HelperMapping) -> None:
        """``local`` is the project's Enzyme render helper: render with its RTL counterpart,
        imported by a path relative to this test."""
        helper = self.options.render_helper
        path = mapping.render_path or (helper.path if helper is not None else None)
        module = relative_specifier(mapping.render_module, path, self.path)
        self.helper_renders[local] = (mapping.render_name, module, mapping.options)
        if mapping.root is not None:
            self.helper_roots[local] = mapping
        if mapping.twin is not None and mapping.render_path is not None:
            # testmend's twin of the helper, in the helper's module: a file of the result.
            self.support_files[mapping.render_path] = mapping.twin

    def scan_imports(self) -> None:
        root = self.tree.root_node
        helper_names = {m.enzyme_name: m for m in self.options.helper_mappings}
        helper_renders = self.options.enzyme_helper_renders
        for stmt in root.named_children:
            if stmt.type == "import_statement":
                module = string_value(stmt.child_by_field_name("source")) or ""
                is_enzyme = bool(ENZYME_MODULE.match(module))
                is_helper = is_enzyme_helper_module(module, self.path, self.options)
                if not (is_enzyme or is_helper):
                    continue
                names = self._import_names(stmt)
                for imported, local in names:
                    if is_enzyme and module == "enzyme":
                        if imported in ("mount", "shallow", "render"):
                            self.enzyme_renders[local] = imported
                        elif imported == "default" or imported == "*":
                            self.enzyme_namespaces.add(local)
                    elif is_enzyme and module.startswith("enzyme-to-json"):
                        self.to_json.add(local)
                    elif is_helper and imported in helper_names:
                        self._register_helper(local, helper_names[imported])
                    elif is_helper and imported in helper_renders:
                        self.enzyme_renders[local] = helper_renders[imported]
                        self.project_renders.add(local)
                reaching = [i for i, _l in names if i in helper_names or i in helper_renders]
                if is_enzyme or (reaching and len(reaching) == len(names)):
                    self.enzyme_import_nodes.append(stmt)
                elif reaching:
                    # The helper module's other exports (fakes, fixtures) stay imported.
                    self.helper_imports.append((stmt, set(reaching)))
            elif stmt.type in ("lexical_declaration", "variable_declaration"):
                for declarator in stmt.named_children:
                    value = unwrap(declarator.child_by_field_name("value"))
                    if value is None:
                        continue
                    call = value
                    if call.type == "member_expression":
                        call = call.child_by_field_name("object") or call
                    if (
                        call.type != "call_expression"
                        or text(call.child_by_field_name("function")) != "require"
                    ):
                        continue
                    args = args_of(call)
                    required = string_value(args[0]) if args else None
                    if required is None or not (
                        ENZYME_MODULE.match(required)
                        or is_enzyme_helper_module(required, self.path, self.options)
                    ):
                        continue
                    module = required
                    self.uses_require = True
                    pattern = declarator.child_by_field_name("name")
                    if pattern is not None and pattern.type == "object_pattern":
                        for prop in pattern.named_children:
                            if prop.type == "shorthand_property_identifier_pattern":
                                imported = local = text(prop)
                            elif prop.type == "pair_pattern":
                                imported = text(prop.child_by_field_name("key"))
                                local = text(prop.child_by_field_name("value"))
                            else:
                                continue
                            if module == "enzyme" and imported in ("mount", "shallow", "render"):
                                self.enzyme_renders[local] = imported
                            elif imported in helper_names:
                                self._register_helper(local, helper_names[imported])
                            elif imported in helper_renders:
                                self.enzyme_renders[local] = helper_renders[imported]
                                self.project_renders.add(local)
                    elif pattern is not None and pattern.type == "identifier":
                        if module == "enzyme":
                            self.enzyme_namespaces.add(text(pattern))
                        elif module.startswith("enzyme-to-json"):
                            self.to_json.add(text(pattern))
                    self.enzyme_import_nodes.append(stmt)

    def own_imports(self) -> Iterator[tuple[Node, str]]:
        """The file's import statements other than Enzyme's, with their module (not those of
        the imported helpers' source appended after the file)."""
        for stmt in self.tree.root_node.named_children:
            if stmt.type != "import_statement" or stmt in self.enzyme_import_nodes:
                continue
            if stmt.start_byte >= self.virtual_from:
                continue
            module = string_value(stmt.child_by_field_name("source"))
            if module is not None:
                yield stmt, module

    @staticmethod
    def _import_names(stmt: Node) -> list[tuple[str, str]]:
        names: list[tuple[str, str]] = []
        clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
        if clause is None:
            return names
        for part in clause.named_children:
            if part.type == "identifier":
                names.append(("default", text(part)))
            elif part.type == "namespace_import":
                ident = next((c for c in part.named_children if c.type == "identifier"), None)
                names.append(("*", text(ident)))
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias")
                    names.append((text(name), text(alias or name)))
        return names

    # -- structure -------------------------------------------------------------------------

    def callee_name(self, call: Node) -> str:
        fn = call.child_by_field_name("function")
        while fn is not None and fn.type in ("member_expression", "call_expression"):
            fn = (
                fn.child_by_field_name("object")
                if fn.type == "member_expression"
                else fn.child_by_field_name("function")
            )
        return text(fn)

    def _callback(self, call: Node) -> Node | None:
        for arg in args_of(call):
            if arg.type in ("arrow_function", "function_expression", "function"):
                return arg
        return None

    def collect_tests(self) -> None:
        def visit(node: Node, prefix: list[str]) -> None:
            for child in node.named_children:
                if child.type == "call_expression":
                    name = self.callee_name(child)
                    args = args_of(child)
                    title = self._title(args[0]) if args else None
                    callback = self._callback(child)
                    if name in DESCRIBE_FUNCS and callback is not None:
                        visit(callback, [*prefix, title or "?"])
                        continue
                    if name in TEST_FUNCS and title is not None:
                        full = " ".join([*prefix, title])
                        body = callback.child_by_field_name("body") if callback else None
                        decl = TestDecl(full, child, body, child.start_point[0] + 1)
                        self.tests.append(decl)
                        if callback is not None:
                            self.test_by_body[callback.id] = decl
                        continue
                visit(child, prefix)

        visit(self.tree.root_node, [])

    @staticmethod
    def _title(node: Node) -> str | None:
        value = string_value(node)
        if value is not None:
            return value
        if node.type in ("template_string", "identifier", "member_expression"):
            return text(node)
        return None

"""After the walk: unused bindings and hooks, wrapper types, helper parameters, the ``throw``
of tests left with untranslated code, and the imports."""

from __future__ import annotations

import re

from ..syntax import (
    Edit,
    Node,
    apply_edits,
    args_of,
    js_string,
    line_indent,
    line_start,
    parse,
    string_value,
    text,
    unwrap,
    walk,
)
from ..unused import name_counts
from .state import Ctx
from .statements import Statements
from .tables import HOOKS, THROW, WRAPPER_TYPES


class Finishing(Statements):
    """The clean-up after the walk, which needs the whole file converted first."""

    # -- finishing ---------------------------------------------------------------------------

    def finish_bindings(self) -> None:
        for binding, stmt, call in self.decl_edits:
            ctx = Ctx()
            code = self.render_code(call, ctx)
            notes = list(self.pending_notes)
            self.pending_notes = []
            awaited = (
                "await "
                if text(stmt).find("await ") >= 0
                and (
                    self.render_call_of(stmt.named_children[0].child_by_field_name("value"))
                    is not None
                )
                and "await" in text(stmt.named_children[0].child_by_field_name("value"))[:6]
                else ""
            )
            members = sorted(binding.members)
            if members:
                new = f"const {{ {', '.join(members)} }} = {awaited}{code};"
            else:
                new = f"{awaited}{code};"
            self.replace_range(stmt.start_byte, stmt.end_byte, new, notes)

    def finish_vars(self) -> None:
        for binding, stmt, value in self.var_decls:
            if binding.used or binding.passed_as_arg:
                continue
            if value is None:
                self.remove_statement(stmt, "removed the Enzyme wrapper variable")
            else:
                self.edits.append(Edit(stmt.start_byte, value.start_byte, ""))
        for binding, left, _call in self.var_assigns:
            if binding.used or binding.passed_as_arg:
                continue
            assignment = left.parent
            right = assignment.child_by_field_name("right") if assignment is not None else None
            if right is not None:
                self.edits.append(Edit(left.start_byte, right.start_byte, ""))

    def finish_handler_aliases(self) -> None:
        """A handler prop read into a ``const`` goes where each call of it became the event
        it stands for; it stays, commented out as untranslated, where a call did not (that
        call is commented out too)."""
        for alias, stmt, ctx in self.handler_aliases:
            if alias.handler_calls_left == 0:
                self.remove_statement(stmt, "its calls are events on the element holding it")
                continue
            read = unwrap(alias.handler)
            key = string_value(args_of(read)[0]) if read is not None else None
            self.comment_out(stmt, f"reads the prop {key} as a value", ctx)

    def finish_hooks(self) -> None:
        for node in walk(self.tree.root_node):
            if node.type != "expression_statement" or not node.named_children:
                continue
            call = node.named_children[0]
            if call.type != "call_expression" or self.callee_name(call) not in HOOKS:
                continue
            callback = self._callback(call)
            body = callback.child_by_field_name("body") if callback is not None else None
            if body is None or body.type != "statement_block":
                continue
            statements = [c for c in body.named_children if c.type != "comment"]
            if statements and all(c.id in self.removed_ids for c in statements):
                self.remove_statement(
                    node,
                    f"removed a {self.callee_name(call)} hook that only did Enzyme bookkeeping",
                )

    def retype_all(self) -> None:
        for node in walk(self.tree.root_node):
            if node.type == "type_identifier" and text(node) in WRAPPER_TYPES:
                target = (
                    node.parent
                    if node.parent is not None and node.parent.type == ("generic_type")
                    else node
                )
                if not self.is_claimed(target) and not any(
                    e.start <= target.start_byte < e.end
                    or (e.start == target.start_byte and e.end == target.end_byte)
                    for e in self.edits
                ):
                    self.replace(target, self.need_type("RenderResult"))

    def finish_render_prop_mocks(self) -> None:
        """A bare ``jest.fn()`` given as a render prop (``children``, ``render…``: a variable,
        a default, a key or a JSX attribute of that name) returns ``null`` in a project on
        React 17 or older: a shallow render let a component render the ``undefined`` it
        returns, a full render throws "Nothing was returned from render"."""
        major = self.options.react_major
        if major is None or major >= 18:
            return
        first = True
        for node in walk(self.tree.root_node):
            if (
                node.type != "call_expression"
                or text(node.child_by_field_name("function")) != "jest.fn"
                or text(node.child_by_field_name("arguments")) != "()"
                or not _RENDER_PROP.fullmatch(_named_by(node) or "")
                or self.is_claimed(node)
                or any(e.start < node.end_byte and node.start_byte < e.end for e in self.edits)
            ):
                continue
            self.replace(node, "jest.fn().mockReturnValue(null)")
            if first:
                first = False
                self.note_only(
                    node,
                    "review",
                    "a render prop's jest.fn() returns null: React before 18 refuses a "
                    "component that renders undefined (a shallow render let it pass)",
                )

    def finish_params(self) -> None:
        removable: set[tuple[str, int]] = set()
        for fn_name, index, _call, _ident in self.param_call_args:
            param = self._param_of(fn_name, index)
            if param is None:
                continue
            binding = self.binding_named(text(param), param)
            if binding is not None and binding.kind == "param" and not binding.members:
                removable.add((fn_name, index))
        done: set[tuple[str, int]] = set()
        for fn_name, index, _call, ident in self.param_call_args:
            if (fn_name, index) not in removable:
                continue
            self._remove_list_item(ident)
            if (fn_name, index) not in done:
                done.add((fn_name, index))
                param = self._param_of(fn_name, index)
                assert param is not None
                item = (
                    param.parent
                    if param.parent is not None
                    and param.parent.type in ("required_parameter", "optional_parameter")
                    else param
                )
                self._remove_list_item(item)

    def _remove_list_item(self, node: Node) -> None:
        start, end = node.start_byte, node.end_byte
        after = self.src[end:]
        match = re.match(rb"\s*,\s*", after)
        if match:
            end += match.end()
        else:
            before = self.src[:start]
            back = re.search(rb",\s*$", before)
            if back:
                start = back.start()
        self.edits.append(Edit(start, end, ""))

    def finish_throws(self) -> None:
        for fn in self.throw_owners.values():
            body = fn.child_by_field_name("body")
            if body is None or body.type != "statement_block":
                continue
            close = body.end_byte - 1
            indent = line_indent(self.src, body.start_byte)
            inner = indent + "  "
            statements = [c for c in body.named_children if c.type != "comment"]
            if statements:
                inner = line_indent(self.src, statements[0].start_byte)
            start = line_start(self.src, close)
            if self.src[start:close].strip():
                self.edits.append(Edit(close, close, f"\n{inner}{THROW}\n{indent}"))
            else:
                self.edits.append(Edit(start, start, f"{inner}{THROW}\n"))
        for fn in self.user_owner_nodes.values():
            body = fn.child_by_field_name("body")
            if body is None or body.type != "statement_block":
                continue
            statements = [c for c in body.named_children if c.type != "comment"]
            indent = line_indent(self.src, statements[0].start_byte) if statements else "  "
            at = statements[0].start_byte if statements else body.start_byte + 1
            self.edits.append(
                Edit(
                    line_start(self.src, at),
                    line_start(self.src, at),
                    f"{indent}const {self.user_name} = "
                    f"userEvent.setup({self._user_event_options()});\n",
                )
            )

    def _user_event_options(self) -> str:
        """With jest's fake timers user-event's own delays must advance them, or it waits for
        ever."""
        fake = self.options.fake_timers or "useFakeTimers" in self.src.decode("utf-8")
        return "{ advanceTimers: jest.advanceTimersByTime }" if fake else ""

    def finish_imports(self) -> None:
        if self.needs_jest_dom and not self.options.jest_dom_global:
            self.imports.setdefault("@testing-library/jest-dom", set())
        if self.needs_user_event:
            self.imports.setdefault("@testing-library/user-event", set()).add("default:userEvent")
        lines: list[tuple[str, str]] = []
        existing = self._existing_imports()
        for module in sorted(
            set(self.imports) | set(self.type_imports),
            key=lambda m: (m != "@testing-library/jest-dom", m),
        ):
            names = sorted(
                n for n in self.imports.get(module, set()) if not n.startswith("default:")
            )
            if "act" in names and "act" in existing.get("react-dom/test-utils", (set(), None))[0]:
                # The test's own `act` from react-dom (what Testing Library's wraps): a second
                # import of the name would be a duplicate declaration.
                names.remove("act")
                defaults = [n for n in self.imports.get(module, set()) if n.startswith("default:")]
                if not (names or defaults or self.type_imports.get(module) or module in existing):
                    continue  # nothing else from that module
            if module in existing:
                # The file already imports from it (a test half-migrated by hand): add what
                # is missing to that import instead of importing the module twice.
                have, named = existing[module]
                names = [n for n in names if n not in have]
                if named is not None and names and module not in self.type_imports:
                    close = named.end_byte - 1
                    merge = Edit(close, close, ", " + ", ".join(names) + " ")
                    self.edits.append(merge)
                    self.merged_names[named.id] = (merge, names)
                    names = []
                if (
                    not names
                    and not self.type_imports.get(module)
                    and not any(
                        n.startswith("default:") and n.split(":", 1)[1] not in have
                        for n in self.imports.get(module, set())
                    )
                ):
                    continue
            types = sorted(self.type_imports.get(module, set()))
            default = next(
                (
                    n.split(":", 1)[1]
                    for n in self.imports.get(module, set())
                    if n.startswith("default:")
                ),
                None,
            )
            if self.uses_require and not self.ts:
                if default:
                    required = f"require({js_string(module)}).default"
                    lines.append((module, f"const {default} = {required};"))
                if names:
                    members = ", ".join(n.replace(" as ", ": ") for n in names)
                    lines.append((module, f"const {{ {members} }} = require({js_string(module)});"))
                if not names and not default:
                    lines.append((module, f"require({js_string(module)});"))
                continue
            if types and self.ts and not self.options.inline_type_imports:
                # TypeScript before 4.5 (or Babel before 7.16) cannot read `{ type X }`.
                type_names = ", ".join(types)
                lines.append((module, f"import type {{ {type_names} }} from {js_string(module)};"))
                types = []
            parts = names + [("type " + t) if self.ts else t for t in types]
            if not parts and not default:
                lines.append((module, f"import {js_string(module)};"))
                continue
            clause = default or ""
            if parts:
                clause += (", " if clause else "") + "{ " + ", ".join(parts) + " }"
            lines.append((module, f"import {clause} from {js_string(module)};"))
        anchor = (
            self.enzyme_import_nodes[0]
            if self.enzyme_import_nodes
            else self.helper_imports[0][0]
            if self.helper_imports
            else None
        )
        if anchor is not None:
            first_local = self._first_local_import()
            if first_local is not None and first_local.start_byte <= anchor.start_byte:
                # Packages before the file's own modules, as import/order wants them.
                packages = [line for module, line in lines if not module.startswith(".")]
                lines = [(m, line) for m, line in lines if m.startswith(".")]
                if packages:
                    # After the last package import above it (in that group), else above it.
                    before = [
                        stmt
                        for stmt, module in self.own_imports()
                        if stmt.start_byte < first_local.start_byte and not module.startswith(".")
                    ]
                    if before:
                        end = self.src.find(b"\n", before[-1].end_byte)
                        at = len(self.src) if end < 0 else end + 1
                    else:
                        at = line_start(self.src, first_local.start_byte)
                    self.edits.append(Edit(at, at, "\n".join(packages) + "\n"))
            elif first_local is not None and self.enzyme_import_nodes:
                # The file's own modules come after the packages: a new one of those (the
                # recording helper) goes with them, above the first, as import/order wants.
                own = [line for module, line in lines if module.startswith(".")]
                lines = [(m, line) for m, line in lines if not m.startswith(".")]
                if own:
                    at = line_start(self.src, first_local.start_byte)
                    self.edits.append(Edit(at, at, "\n".join(own) + "\n"))
            new = "\n".join(line for _m, line in lines)
            if new and not self.enzyme_import_nodes:
                # Only a helper import, which keeps its other names: the new ones above it.
                at = line_start(self.src, anchor.start_byte)
                self.edits.append(Edit(at, at, new + "\n"))
            first = True
            for stmt in self.enzyme_import_nodes:
                if first and new:
                    self.edits.append(Edit(stmt.start_byte, stmt.end_byte, new))
                else:
                    self.remove_statement(stmt, "removed an Enzyme import")
                first = False
        elif lines:
            new = "\n".join(line for _m, line in lines)
            self.edits.append(Edit(0, 0, new + "\n"))
        helper_edits: dict[int, tuple[Edit, set[str]]] = {}
        for stmt, reaching in self.helper_imports:
            named = next((n for n in walk(stmt) if n.type == "named_imports"), None)
            if named is None:
                continue
            kept = [
                text(spec)
                for spec in named.named_children
                if spec.type == "import_specifier"
                and text(spec.child_by_field_name("name")) not in reaching
            ]
            edit = Edit(named.start_byte, named.end_byte, "{ " + ", ".join(kept) + " }")
            self.edits.append(edit)
            helper_edits[named.id] = (edit, reaching)
        self.remove_unused_imports(helper_edits)

    def _first_local_import(self) -> Node | None:
        """The file's first import of one of its own modules (a relative specifier)."""
        return next((stmt for stmt, module in self.own_imports() if module.startswith(".")), None)

    def _existing_imports(self) -> dict[str, tuple[set[str], Node | None]]:
        """Modules the file imports outside Enzyme: the local names it binds from each, and
        its ``{ … }`` clause when it has one."""
        found: dict[str, tuple[set[str], Node | None]] = {}
        for stmt, module in self.own_imports():
            names: set[str] = set()
            named: Node | None = None
            for n in walk(stmt):
                if n.type == "named_imports":
                    named = n
                elif n.type == "import_specifier":
                    alias = n.child_by_field_name("alias")
                    names.add(text(alias or n.child_by_field_name("name")))
                elif (
                    n.type == "identifier"
                    and n.parent is not None
                    and (n.parent.type == "import_clause")
                ):
                    names.add(text(n))
            found[module] = names, named
        return found

    def remove_unused_imports(self, helper_edits: dict[int, tuple[Edit, set[str]]]) -> None:
        """Named imports that only the Enzyme code used (components passed to find(),
        ``act`` around wrapper updates, wrapper types) become unused: remove them.
        ``helper_edits``: the edits that took the project's Enzyme helpers (``reaching``) out
        of an import's ``{ … }`` clause, by the clause: a removal here replaces them."""
        content, _, _ = apply_edits(self.src, list(self.edits))
        tree = parse(content.encode("utf-8"), self.path)
        used = name_counts(tree.root_node)
        before = name_counts(
            self.tree.root_node, ("identifier", "type_identifier", "shorthand_property_identifier")
        )
        for stmt in self.tree.root_node.named_children:
            if stmt.type != "import_statement" or stmt in self.enzyme_import_nodes:
                continue
            clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
            if clause is None:
                continue
            specs: list[tuple[Node, str]] = []
            for part in clause.named_children:
                if part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type == "import_specifier":
                            local = text(
                                spec.child_by_field_name("alias")
                                or spec.child_by_field_name("name")
                            )
                            specs.append((spec, local))
                elif part.type == "identifier":
                    specs.append((part, text(part)))
            # React stays while the file has JSX: under the classic JSX runtime the JSX is its use.
            jsx = any(n.type.startswith("jsx_") for n in walk(tree.root_node))
            unused = [
                (s, name)
                for s, name in specs
                if used.get(name, 0) <= 1
                and before.get(name, 0) > 1
                and not (name == "React" and jsx)
            ]
            if not unused:
                continue
            clause_named = next(
                (p for p in clause.named_children if p.type == "named_imports"), None
            )
            merged = self.merged_names.get(clause_named.id) if clause_named is not None else None
            if merged is not None:
                # Names the conversion added to this import stay in it.
                self.edits.remove(merged[0])
            helpers = helper_edits.get(clause_named.id) if clause_named is not None else None
            if helpers is not None:
                # The Enzyme helpers already taken out of it go with the unused names.
                self.edits.remove(helpers[0])
                unused += [
                    (s, name)
                    for s, name in specs
                    if s.type == "import_specifier"
                    and text(s.child_by_field_name("name")) in helpers[1]
                    and (s, name) not in unused
                ]
            if len(unused) == len(specs) and merged is None:
                self.remove_statement(stmt, "removed an import only the Enzyme code used")
                continue
            gone = {s.id for s, _n in unused}
            default = next(
                (
                    text(p)
                    for p in clause.named_children
                    if p.type == "identifier" and p.id not in gone
                ),
                None,
            )
            named = [
                text(s) for s, _n in specs if s.type == "import_specifier" and s.id not in gone
            ] + (merged[1] if merged is not None else [])
            others = [
                text(p)
                for p in clause.named_children
                if p.type not in ("identifier", "named_imports")
            ]
            parts = [*([default] if default else []), *others]
            if named:
                parts.append("{ " + ", ".join(named) + " }")
            self.edits.append(Edit(clause.start_byte, clause.end_byte, ", ".join(parts)))


_RENDER_PROP = re.compile(r"children|render[A-Z]\w*")


def _named_by(value: Node) -> str | None:
    """The name ``value`` is given: the variable, default, key or JSX attribute it is the
    value of."""
    parent = value.parent
    if parent is not None and parent.type == "jsx_expression":
        parent = parent.parent
    if parent is None:
        return None
    if parent.type == "variable_declarator" and parent.child_by_field_name("value") == value:
        return text(parent.child_by_field_name("name"))
    if (
        parent.type in ("assignment_pattern", "object_assignment_pattern")
        and parent.child_by_field_name("right") == value
    ):
        return text(parent.child_by_field_name("left"))
    if parent.type == "pair" and parent.child_by_field_name("value") == value:
        return text(parent.child_by_field_name("key"))
    if parent.type == "jsx_attribute" and parent.named_children:
        return text(parent.named_children[0])
    return None

"""Recording stubs: the props a child component received, which Enzyme reads
(``wrapper.find(TodoItem).at(1).prop('todo')``) and the DOM does not show.

The module that defines the component is mocked (``jest.mock``) by one that wraps it: the
component still renders as before, and each mounted instance records the props it last
rendered with, in the order the instances mounted (Enzyme's order for a list rendered once).
``recordedProps(TodoItem)[1].todo`` reads them; a callback prop is called inside ``act``, as
Enzyme's ``invoke`` does. The wrapper and the reader are written once into the test file,
after its imports, with a review note: an assertion on what the child renders would survive a
refactor of the props.

A component is recorded only when the test imports it from a module of its own (not the
module of the component it renders, whose own references a mock would not reach) that the
test does not already mock.
"""

from __future__ import annotations

import re
from functools import cached_property

from ...project.module_syntax import mock_calls
from ..models import CodemodOptions, DomCapture
from ..syntax import (
    Edit,
    Node,
    js_string,
    matcher_on,
    prop_access,
    rendered_opening,
    string_value,
    text,
    unwrap,
    uses_after,
    walk,
)
from .recording_notes import (
    COUNTING_NOTE,
    RECORDING_NOTE,
    RECORDING_STUBBED_NOTE,
    UNRENDERED_NOTE,
    UNSTUBBED_NOTE,
    listed,
)
from .render_calls import needs_a_router, needs_a_store
from .state import Binding, Ctx, Target, Untranslatable
from .targets import Targets

_INDEX_OPS = ("first", "last", "at")


class Recordings(Targets):
    """Reads of a child component's props through a recording stub of its module."""

    def __init__(
        self, source: str, path: str, options: CodemodOptions, dom: DomCapture | None
    ) -> None:
        super().__init__(source, path, options, dom)
        self.recorded: dict[str, dict[str, str]] = {}
        """Module specifier → {exported name: local name} of the components recorded."""
        self.read_props: set[str] = set()
        """The recorded components whose props the test reads (the others it only counts)."""
        self.unrendered: dict[str, dict[str, str]] = {}
        """Module specifier → {exported name: the error it rendered with} of the components
        stubbed."""
        self._stubbed_names: dict[str, str] = {}
        """Exported name → display name of the components stubbed."""
        self._imported: dict[str, tuple[str, str]] | None = None
        self._rendered: set[str] | None = None
        self._renders: list[Node] | None = None
        self._mocked: set[str] | None = None
        self._recordings_block: tuple[str, list[tuple[int, str]]] | None = None

    # -- which components can be recorded ----------------------------------------------------

    def _component_imports(self) -> dict[str, tuple[str, str]]:
        """Local name → (module specifier, exported name) of what the file imports by name
        (``default`` for a default import)."""
        if self._imported is None:
            self._imported = {}
            for stmt, module in self.own_imports():
                if text(stmt).startswith("import type"):
                    continue
                for imported, local in self._import_names(stmt):
                    if imported != "*":
                        self._imported[local] = (module, imported)
        return self._imported

    def _rendered_modules(self) -> set[str]:
        """Modules of the components the file renders (the JSX at the root of its renders)."""
        if self._rendered is None:
            modules = (self._rendered_module(call) for call in self._render_calls())
            self._rendered = {module for module in modules if module is not None}
        return self._rendered

    def _render_calls(self) -> list[Node]:
        """The file's render calls (``mount``, ``shallow``, helpers returning renders)."""
        if self._renders is None:
            self._renders = [
                node
                for node in walk(self.tree.root_node)
                if node.type == "call_expression" and self.is_render_call(node)
            ]
        return self._renders

    def _mocked_modules(self) -> set[str]:
        """The modules the file mocks itself (``jest.mock``, ``jest.doMock``)."""
        if self._mocked is None:
            source = self.src[: self.virtual_from].decode("utf-8", "replace")
            self._mocked = {m.module for m in mock_calls(source, self.path) if m.kind == "module"}
        return self._mocked

    def _rendered_module(self, call: Node) -> str | None:
        """The module of the component at the root of the JSX the render ``call`` renders."""
        opening = rendered_opening(call)
        name = opening.child_by_field_name("name") if opening is not None else None
        imported = self._component_imports().get(text(name)) if name is not None else None
        return imported[0] if imported is not None else None

    def recordable(self, name: str) -> tuple[str, str]:
        """(module, exported name) of the component ``name`` to record, or Untranslatable.

        The module the component under test imports it from, when it does (the test may
        import it through an index that re-exports it); else the test's own import."""
        child = self.options.component_children.get(name)
        if child is not None and name in self._component_imports():
            if child[0] in self._mocked_modules():
                raise Untranslatable(f"reads the props of {name}, whose module the test mocks")
            return child[0], child[1]
        imported = self._component_imports().get(name)
        if imported is None or not name[:1].isupper():
            raise Untranslatable(
                f"reads the props of {name}, which the file does not import by name"
            )
        module, export = imported
        if module in self._rendered_modules():
            raise Untranslatable(
                f"reads the props of {name}, which comes from the module of the rendered "
                "component (a mock of that module would not reach its own references)"
            )
        if module in self._mocked_modules():
            raise Untranslatable(f"reads the props of {name}, whose module the test mocks")
        return module, export

    # -- reads -------------------------------------------------------------------------------

    @staticmethod
    def selection_length(ops: list[tuple[str, list[Node], Node]]) -> int:
        """How many of ``ops`` select a component by name (``find(C)``, then ``first()``,
        ``last()`` or ``at(i)``): 0 when they do not start so."""
        if not ops or ops[0][0] != "find" or len(ops[0][1]) != 1:
            return 0
        selector = unwrap(ops[0][1][0])
        if selector is None or selector.type != "identifier" or not text(selector)[:1].isupper():
            return 0
        if len(ops) > 1 and ops[1][0] in _INDEX_OPS:
            return 2 if ops[1][0] != "at" or len(ops[1][1]) == 1 else 0
        return 1

    def recorded_selection(self, ops: list[tuple[str, list[Node], Node]]) -> tuple[str, int] | None:
        """``find(C)[.first()|.last()|.at(i)]`` at the start of ``ops`` → (the code of the
        props C's instance was last rendered with, how many ops that is), or None. Records C
        (Untranslatable when it cannot be)."""
        length = self.selection_length(ops)
        if not length:
            return None
        index = "[0]"
        if length == 2:
            op, args, _node = ops[1]
            index = ".slice(-1)[0]" if op == "last" else f"[{text(args[0])}]" if args else "[0]"
        name = text(ops[0][1][0])
        self._keep(*self.recordable(name), name, reads=True)
        return f"recordedProps({name}){index}", length

    def _keep(self, module: str, export: str, name: str, *, reads: bool) -> None:
        """Record the component ``name`` (``export`` of ``module``); ``reads``: the test reads
        its props (else it only counts its instances)."""
        self.recorded.setdefault(module, {})[export] = name
        if reads:
            self.read_props.add(name)

    def recorded_count(
        self, base: Node, ops: list[tuple[str, list[Node], Node]], count: str | bool
    ) -> str | None:
        """The subject of ``expect(wrapper.find(C)).toHaveLength(n)`` (``count`` n) or of
        ``expect(wrapper.find(C).exists()).toBe(b)`` (``count`` b), where no capture shows what
        C renders (a component of a library, which renders nothing the test could query):
        the instances of C mounted, from the recording. None when ``ops`` are not a component
        selection of the render itself; Untranslatable when C cannot be recorded."""
        if self.selection_length(ops) != 1 or base.type != "identifier":
            return None
        binding = self.binding_named(text(base), base)
        # A render, or `const viewer = root.find(C)` whose ops the caller put first.
        render = binding is not None and binding.kind in ("decl", "var") and not binding.props_of
        if not render and not (binding is not None and binding.recorded_only):
            return None
        name = text(ops[0][1][0])
        self._keep(*self.recordable(name), name, reads=False)
        if isinstance(count, bool):
            return f"expect(recordedProps({name})){'.not' if count else ''}.toHaveLength(0);"
        return f"expect(recordedProps({name})).toHaveLength({count});"

    def recorded_read(
        self, base: Node, ops: list[tuple[str, list[Node], Node]], ctx: Ctx | None = None
    ) -> tuple[str, list[tuple[str, list[Node], Node]], str] | None:
        """``find(C)[.first()|.last()|.at(i)].prop('k')|.props()|.invoke('k')`` at the start
        of ``ops`` (or ``prop('k')``… on a binding of such a selection) → (the props code, the
        ops after, the reading op), or None when ``ops`` do not read a component's props."""
        binding = self.binding_named(text(base), base) if base.type == "identifier" else None
        if binding is not None and binding.props_of is not None:
            code, i = binding.name, 0
        elif binding is not None and binding.selection is not None:
            # `items.at(1).prop('k')` on `const items = wrapper.find(Item)`
            ops = [*binding.selection, *ops]
            if not self._reads_props(ops, ctx):
                return None
            selection = self.recorded_selection(ops)
            if selection is None or selection[1] < len(binding.selection):
                return None
            code, i = selection
        elif binding is not None and binding.kind == "derived":
            return None  # instances inside an element, not all of them
        else:
            if len(ops) < 2 or not self._reads_props(ops, ctx):
                return None
            selection = self.recorded_selection(ops)
            if selection is None:
                return None
            code, i = selection
        if i >= len(ops) or ops[i][0] not in ("prop", "props", "invoke"):
            return None
        op, args, _node = ops[i]
        if op in ("prop", "invoke") and (len(args) != 1 or string_value(args[0]) is None):
            return None
        read = self._prop_read(op, string_value(args[0]) if args else None, args)
        return f"{code}{read}", ops[i + 1 :], op

    def _reads_props(self, ops: list[tuple[str, list[Node], Node]], ctx: Ctx | None) -> bool:
        """``ops`` are a component selection and a read of its props the DOM does not show."""
        i = self.selection_length(ops)
        try:  # whether C (`find(C)`) could be recorded instead
            recordable = bool(i) and bool(self.recordable(text(ops[0][1][0])))
        except Untranslatable:
            recordable = False
        if ctx is not None and self.shown_in_dom(ops, i, ctx, recordable=recordable):
            return False
        return 0 < i < len(ops) and ops[i][0] in ("prop", "props", "invoke")

    def props_only(self, name: str, stmt: Node) -> bool:
        """Every later use of ``name`` in the scope of ``stmt`` reads its props
        (``name.prop('k')``, ``name.props()``, ``name.invoke('k')``)."""
        uses = uses_after(name, stmt)
        for n in uses:
            parent = n.parent
            if (
                parent is None
                or parent.type != "member_expression"
                or parent.child_by_field_name("object") != n
                or text(parent.child_by_field_name("property")) not in ("prop", "props", "invoke")
            ):
                return False
        return bool(uses)

    def recorded_only(
        self,
        name: str,
        stmt: Node,
        base: Binding | None,
        ops: list[tuple[str, list[Node], Node]],
    ) -> list[tuple[str, list[Node], Node]] | None:
        """``const name = wrapper.find(C)[.first()|.at(i)]`` (``stmt``) on a render, or
        ``const sample = list.at(i)`` on such a selection, whose every later use the recording
        answers: a count (``expect(name).toHaveLength(n)``, ``name.length``, ``name.exists()``,
        ``toExist()``), a read of its props (``name.prop('k')``, ``props()``, ``invoke('k')``,
        ``toHaveProp``), or one instance picked out (``name.at(i)``) and its props read. The
        selection ``name`` stands for (from the render), or None."""
        if base is not None and base.kind == "derived":
            if not base.recorded_only:
                return None
            ops = [*(base.selection or []), *ops]
        if not ops or self.selection_length(ops) != len(ops):
            return None
        return ops if self._recording_answers(name, stmt, indexed=len(ops) > 1) else None

    def _recording_answers(self, name: str, stmt: Node, *, indexed: bool) -> bool:
        """Every use of ``name`` after ``stmt`` (in its scope) is one the recording answers;
        ``indexed``: ``name`` is one instance (only its props can be read)."""
        uses = 0
        scope = stmt.parent
        for n in walk(scope) if scope is not None else []:
            if n.type != "identifier" or text(n) != name or n.start_byte < stmt.end_byte:
                continue
            if not self._recording_answers_use(n, indexed=indexed):
                return False
            uses += 1
        return uses > 0

    def _recording_answers_use(self, subject: Node, *, indexed: bool) -> bool:
        """``subject`` (a selection of a component's instances, or of one with ``indexed``) is
        counted, has its props read, or has one instance picked out whose props are read."""
        parent = subject.parent
        member = (
            text(parent.child_by_field_name("property"))
            if parent is not None
            and parent.type == "member_expression"
            and parent.child_by_field_name("object") == subject
            else None
        )
        matcher = matcher_on(subject)
        if member in ("prop", "props", "invoke") or matcher in ("toHaveProp", "toHaveClassName"):
            return True
        if indexed:
            return False
        if member in ("length", "exists") or matcher in ("toHaveLength", "toExist"):
            return True
        call = parent.parent if parent is not None and member in _INDEX_OPS else None
        if call is None or call.type != "call_expression":
            return False
        holder = call.parent
        if (
            holder is not None
            and holder.type == "variable_declarator"
            and holder.child_by_field_name("value") == call
        ):
            # `const sample = list.at(1)`: its own uses
            held = holder.child_by_field_name("name")
            return (
                held is not None
                and held.type == "identifier"
                and holder.parent is not None
                and self._recording_answers(text(held), holder.parent, indexed=True)
            )
        return self._recording_answers_use(call, indexed=True)

    @staticmethod
    def _prop_read(op: str, key: str | None, args: list[Node]) -> str:
        """What follows a component's props to read ``prop(key)`` (nothing for ``props()``)."""
        if op == "props":
            return ""
        if key is None:
            return f"[{text(args[0])}]" if args else ""
        return prop_access(key)

    def recorded_root(self, target: Target) -> str | None:
        """The recorded props of the component at the root of a shallow render
        (``shallow(<BarGroup …/>)`` renders ``<Group top={…}>``), or None when the capture does
        not name it or the component under test does not import it. The test imports the
        component when it does not already."""
        name = target.render.root
        if (
            not (target.kind == "root" and target.render.shallow and target.render.component_root)
            or not name
        ):
            return None
        return self._child_props(name)

    def recorded_selection_props(
        self, ops: list[tuple[str, list[Node], Node]], ctx: Ctx
    ) -> str | None:
        """The code of the recorded props of what ``ops`` select: a component by its
        constructor (``find(C)``, ``.at(i)``), or the one node of a child component a find by
        CSS selected in the capture; None otherwise."""
        if ops and self.selection_length(ops) == len(ops):
            try:
                selection = self.recorded_selection(ops)
            except Untranslatable:
                return None
            return selection[0] if selection is not None else None
        return self.found_component(ops, ctx)

    def found_component(self, ops: list[tuple[str, list[Node], Node]], ctx: Ctx) -> str | None:
        """The recorded props of what a find by CSS selected (``find('.toggle')``, then
        ``first()`` or ``at(0)`` at most), where every capture of it saw one node of a child
        component, the only one of that component in the render (the shallow render's
        ``<ToggleButton className="toggle">``); None otherwise."""
        if not ops or ops[0][0] != "find" or len(ops[0][1]) != 1 or self.selection_length(ops):
            return None
        first = len(ops) == 2 and (
            ops[1][0] == "first" or (ops[1][0] == "at" and [text(a) for a in ops[1][1]] == ["0"])
        )
        if len(ops) > 2 or (len(ops) == 2 and not first):
            return None
        records = self._matched_at(ops[0][2], ctx)
        found = {
            (r.components[0], 0 if r.component_total == 1 else r.component_index)
            if r.count == 1 and len(r.components) == 1
            # (several nodes: not one instance of the recording)
            else (None, None)
            for r in records
        }
        name, index = found.pop() if len(found) == 1 else (None, None)
        return self._child_props(name, index) if name and index is not None else None

    def _child_props(self, name: str, index: int = 0) -> str | None:
        """``recordedProps(name)[index]`` for a child component the component under test
        imports (imported into the test too, when it is not), or None."""
        child = self.options.component_children.get(name)
        if child is None or child[0] in self._mocked_modules():
            return None
        module, export = child
        if name not in self._component_imports():
            if name in self._identifiers:
                return None  # the name means something else in the test (not `styles.Name`)
            self.imports.setdefault(module, set()).add(
                f"default:{name}" if export == "default" else name
            )
        self._keep(module, export, name, reads=True)
        return f"recordedProps({name})[{index}]"

    # -- children a shallow test never rendered -----------------------------------------

    def _stub_unrendered(self) -> list[tuple[str, str, str]]:
        """Stub the children the capture saw not render in this file's shallow renders
        (``unrendered``); → (name, error, why) of those that cannot be stubbed, but for those
        a ``<MemoryRouter>`` or a redux ``<Provider>`` now gives what they lacked
        (``needs_router``, ``needs_store``).

        Stubbed even when the project's render helper renders them inside providers, or when
        a router around the render would let them render: the original never rendered them
        (nor ran what they do when they mount, such as fetching), and the capture cannot
        tell what the helper provides."""
        stubbable, unstubbed = self._unrendered_children
        for module, export, name, error in stubbable:
            self.unrendered.setdefault(module, {})[export] = error
            self._stubbed_names[export] = name
        routed, stored = self.needs_router(), self.needs_store()
        return [
            u
            for u in unstubbed
            if not (routed and needs_a_router(u[1])) and not (stored and needs_a_store(u[1]))
        ]

    def needs_router(self) -> bool:
        """Only a child no stub can replace needs the ``<MemoryRouter>`` (a stubbed one never
        renders), or one the test dived into (``withRouter(PageBase)`` got its router from the
        shallow render's legacy context)."""
        return super().needs_router() and any(map(needs_a_router, self._unstubbed_errors()))

    def needs_store(self) -> bool:
        """As for the router: only a child no stub replaces, or one the test dived into
        (``connect()``'s component got its store from the shallow render's legacy context)."""
        return super().needs_store() and any(map(needs_a_store, self._unstubbed_errors()))

    def _unstubbed_errors(self) -> list[str]:
        """The errors of the children that render for real: those the test dived into and
        those no stub can replace."""
        dived = [child.error for child in self.unrendered_children() if child.dived]
        return dived + [error for _name, error, _why in self._unrendered_children[1]]

    @cached_property
    def _identifiers(self) -> frozenset[str]:
        """The names the file uses as identifiers (not members such as ``styles.Name``, nor
        words in strings), read once."""
        return frozenset(
            text(n) for n in walk(self.tree.root_node) if n.type in ("identifier", "jsx_identifier")
        )

    @cached_property
    def _unrendered_children(
        self,
    ) -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str, str]]]:
        """The children the capture saw not render in this file's shallow renders: those a
        stub can replace, (module, export, name, error), and those it cannot, (name, error,
        why), worked out once per file. A child is found under its name or, for a wrapper's
        display name (``Connect(Badge)``, ``withRouter(Connect(Badge))``), the names inside,
        among what the component under test imports (as it names it, as its module exports it,
        or as what that module's default export wraps)."""
        if self.dom is None or not any(record.unrendered for record in self.dom.renders):
            return [], []
        # jest.mock replaces the module for the whole file: the file's full renders would get
        # the stub too, where the original rendered the child (inside what they set up).
        mounts = any(
            call.start_byte < self.virtual_from and not self.is_shallow(call)
            for call in self._render_calls()
        )
        stubbable: dict[tuple[str, str], tuple[str, str, str, str]] = {}
        unstubbed: dict[str, tuple[str, str, str]] = {}
        for record in self.dom.renders:
            for child in record.unrendered:
                if child.dived:
                    continue  # the test rendered it: nothing to stub
                name = child.name or "a child component"
                # `Connect(Badge)`, `withRouter(Connect(Badge))`: the names inside, innermost
                # first.
                names = list(dict.fromkeys([name, *reversed(re.findall(r"[\w$]+", name))]))
                children = self.options.component_children
                # By the local name, else by the exported one (`import { Label as VxLabel }`).
                found = next((children[n] for n in names if n in children), None) or next(
                    (child for n in names for child in children.values() if child[1] == n), None
                )
                if found is None:
                    why = "the component under test does not import it from a module of its own"
                    unstubbed.setdefault(name, (name, child.error, why))
                elif mounts:
                    why = "the file's full renders render it, and a mock would stub it there too"
                    unstubbed.setdefault(name, (name, child.error, why))
                elif found[0] in self._mocked_modules():
                    unstubbed.setdefault(name, (name, child.error, "the test mocks its module"))
                else:
                    stubbable[(found[0], found[1])] = (found[0], found[1], name, child.error)
        return list(stubbable.values()), list(unstubbed.values())

    # -- the stub ----------------------------------------------------------------------------

    def finish_recordings(self) -> None:
        """The ``jest.mock`` of each recorded or stubbed module and the helpers, after the
        imports."""
        unstubbed = self._stub_unrendered()
        notes: list[str] = []
        if self.recorded:
            every = sorted(n for exports in self.recorded.values() for n in exports.values())
            names = [n for n in every if n in self.read_props]
            stubbed = any(
                e in self.unrendered.get(m, {}) for m, ex in self.recorded.items() for e in ex
            )
            note = RECORDING_STUBBED_NOTE if stubbed else RECORDING_NOTE
            if names:
                notes.append(note.format(**listed(names)))
            counted = [n for n in every if n not in self.read_props]
            if counted:
                notes.append(COUNTING_NOTE.format(**listed(counted)))
        if self.unrendered:
            names = sorted(self._stubbed_names.values())
            errors = "; ".join(sorted({e for ex in self.unrendered.values() for e in ex.values()}))
            notes.append(UNRENDERED_NOTE.format(error=errors, **listed(names)))
        if unstubbed:
            names = sorted(n for n, _, _ in unstubbed)
            errors = "; ".join(sorted({e for _, e, _ in unstubbed}))
            whys = "; ".join(sorted({w for _, _, w in unstubbed}))
            notes.append(UNSTUBBED_NOTE.format(error=errors, why=whys, **listed(names)))
        if not notes:
            return
        lines = [f"// testmend: {note}" for note in notes]
        helper = self.support_module("recordProps")
        required = self.required_support(helper)
        for module in sorted({*self.recorded, *self.unrendered}):
            exports = sorted({*self.recorded.get(module, {}), *self.unrendered.get(module, {})})
            spec = js_string(module)
            named = ", ".join(js_string(e) for e in exports)
            stubs = ", ".join(js_string(e) for e in sorted(self.unrendered.get(module, {})))
            # The helper module is required inside the factory: jest hoists the mock above
            # every import, and a factory may not reach the file's own bindings.
            lines.append(
                f"jest.mock({spec}, () => {required}"
                f".mockRecordingProps(jest.requireActual({spec}), [{named}]"
                f"{f', [{stubs}]' if stubs else ''}));"
            )
        if self.recorded:
            self.need("recordedProps", helper)
        block = "\n".join(lines)
        offsets = []
        at = 0  # character offsets into the edit's text
        for line, note in zip(lines[: len(notes)], notes, strict=True):
            offsets.append((at, note))
            at += len(line) + 1
        self._recordings_block = (block, offsets)

    def place_recordings(self) -> None:
        """The block ``finish_recordings`` wrote, after the last import the conversion keeps:
        once ``finish_imports`` has removed those only the Enzyme code used, since an insertion
        at the end of a removed import would go with it (reactstrap's ``Uncontrolled``, whose
        last import, ``keyCodes``, only its untranslated code read)."""
        if self._recordings_block is None:
            return
        block, offsets = self._recordings_block
        last_import = None
        for stmt in self.tree.root_node.named_children:
            if stmt.start_byte >= self.virtual_from:
                break
            if stmt.type == "import_statement" and stmt.id not in self.removed_ids:
                last_import = stmt
        if last_import is not None:
            edit = Edit(last_import.end_byte, last_import.end_byte, "\n\n" + block)
            edit.notes.extend((2 + offset, "review", note) for offset, note in offsets)
        else:
            edit = Edit(0, 0, block + "\n\n")
            edit.notes.extend((offset, "review", note) for offset, note in offsets)
        self.edits.append(edit)

"""The converter's state: the parsed file, the edits and notes so far, the bindings and tests
found, and the primitives every part uses to edit and note."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ...assets import read_asset
from ...js_syntax import grammar_for
from ...project.resolver import specifier_for
from ..models import (
    CapturedElement,
    CodemodOptions,
    DomCapture,
    FindRecord,
    HelperMapping,
    NoteKind,
)
from ..scopes import declaring_scope, pattern_identifiers
from ..syntax import Edit, Node, js_string, line_indent, line_start, parse, text, walk
from .fallback_hints import never_selected, queryable_hint, selected
from .marker_ids import Marker
from .tables import THROW

Variant = Literal["get", "query"]


class Untranslatable(Exception):
    """An expression or statement the codemod cannot translate faithfully."""


class Dropped(Exception):
    """A statement with no meaning outside Enzyme: it is removed, with a note."""


@dataclass(frozen=True)
class RenderKind:
    """What the capture and the syntax say about a render (one call, or every render assigned
    to a variable)."""

    shallow: bool = False
    """Rendered with ``shallow``: the root wrapper is what the component rendered (its root
    element and that element's props), not the element the test passed."""
    svg: bool = False
    """The component renders an SVG element at its root: rendered inside an ``<svg>``."""
    component_root: bool = False
    """A shallow render whose root is another component's element (``<Group className=…>``):
    its props are not the DOM element's."""
    root: str | None = None
    """That component's name, when every render agrees on it."""
    element: Literal["component", "host", "mixed", "output"] | None = None
    """What the test passed to a full render (``mount(<Pagination />)``: a component's
    element; ``mount(<div>…</div>)``: a host element; context providers see through, as
    Enzyme does): the root wrapper's children are then what the component rendered, or the
    element's own children. ``output``: the root's child, what the component rendered (a
    component or an element: the DOM does not say). None: not known from the syntax."""
    root_queries: tuple[tuple[str, str], ...] | None = None
    """The queries (method, arguments' code), in Testing Library's order, that the capture saw
    select the root element alone in every run of every render: the root is then reached by
    the first, not as ``container.firstElementChild``. None: no render says yet (a binding's
    renders are joined with ``|``, which keeps the queries they share)."""
    emptied: frozenset[str] = frozenset()
    """The tests in which the capture saw a run of the render produce nothing."""
    filled: frozenset[str] = frozenset()
    """The tests in which the capture saw a run of the render produce something."""

    def rendered_nothing(self, test: str) -> bool:
        """Every run the capture saw of the render in ``test`` produced nothing (and it saw
        one)."""
        return test in self.emptied and test not in self.filled

    def __or__(self, other: RenderKind) -> RenderKind:
        shared = (
            self.root_queries
            if other.root_queries is None
            else other.root_queries
            if self.root_queries is None
            else tuple(q for q in self.root_queries if q in other.root_queries)
        )
        return RenderKind(
            self.shallow or other.shallow,
            self.svg or other.svg,
            self.component_root or other.component_root,
            self.root
            if other.root in (None, self.root)
            else (other.root if not self.root else None),
            self.element
            if other.element in (None, self.element)
            else (other.element if self.element is None else "mixed"),
            shared,
            self.emptied | other.emptied,
            self.filled | other.filled,
        )


@dataclass(eq=False)
class Binding:
    name: str
    kind: Literal["decl", "var", "param", "derived"]
    node: Node | None = None
    element: Node | None = None
    members: set[str] = field(default_factory=set)
    target: Target | None = None
    passed_as_arg: bool = False
    used: bool = False
    overrides: dict[str, str | None] = field(default_factory=dict)
    render: RenderKind = RenderKind()
    """How the wrapper was rendered (every render assigned to it)."""
    ref: str | None = None
    """The ref to the rendered class instance, when the test reads its state or calls it."""
    instance_behind: str | None = None
    """The instance Enzyme's root stands for is of a component the rendered element wraps
    (``shallowUntilTarget(<Navbar />, NavbarBase)``): no ref reaches it. Which, for the note."""
    returned_by_setup: Binding | None = None
    """For ``const { root } = loadAndRender()``: the setup function's own binding of the render
    it returns under that key (``const root = render(…); return { root }``)."""
    beside_others: bool = False
    """Declared where another render is (``const small = …; const large = …``): both are in
    the document at once, so what the test finds in this one is searched in its container."""
    props_of: str | None = None
    """For a derived binding of a child component (``const axis = wrapper.find(Axis)``) that
    the test only reads props of: the component's name (its props are recorded)."""
    selection: list[tuple[str, list[Node], Node]] | None = None
    """For a derived binding of a find the test also uses as elements: the selection
    (``find(Axis)``, ``.at(1)``; ``find('.toggle')`` where it selected a child component's
    node) its props are read through, from the recording."""
    handler: Node | None = None
    """For ``const onSubmit = wrapper.find('form').prop('onSubmit')``, then only ``onSubmit()``
    calls: the read of the handler prop each call stands for."""
    handler_calls_left: int = 0
    """How many of those calls are not translated (as the event) yet."""

    @property
    def recorded_only(self) -> bool:
        """A component selection no capture shows, whose name went: every use reads the
        recording (``const viewer = root.find(VersionFileViewer)``, then counted and read)."""
        return (
            self.kind == "derived"
            and self.target is None
            and self.props_of is None
            and self.selection is not None
        )


@dataclass
class Target:
    kind: Literal["query", "css", "root", "var"]
    method: str = ""
    args: str = ""
    multi: bool = False
    index: str | None = None
    css: str = ""
    binding: Binding | None = None
    component: str | None = None
    checkbox: bool = False
    captured: tuple[CapturedElement, ...] = ()
    """The elements the capture saw this target select (empty: no capture)."""
    inline: Node | None = None
    """The root of a render that is not assigned (``BarWrapper().prop('x')``)."""
    render: RenderKind = RenderKind()
    """For a root: how it was rendered (a shallow root's props are the rendered element's)."""
    scope: str = "document"
    """Where a CSS target is searched: the document (portals included, as Enzyme's full
    renders see them), or a render's container when the selector could match the container
    itself (``div``) or other renders are in the document too."""
    within: str | None = None
    """Where a query searches when other renders are in the document too (``within(
    small.container)``); None: the screen."""
    selector: str = ""
    """For a query from the capture: the CSS selector (code) it stands for, which selected
    the same elements there (a find chained on it searches under that selector)."""
    one: bool = False
    """A query with a position the capture chose (``getAllByRole('region')[0]``), not the
    test: it stands for the one element the find selected."""
    structural: bool = False
    """Selected by ``children()``/``childAt()`` as the capture saw them: what they selected
    may be components, whose own children only the capture can tell from DOM children."""
    origin: Node | None = None
    """For a CSS selector no query stands for: the ``find`` call it came from (its capture)."""
    node_of: str | None = None
    """A component whose node ``children()``/``childAt()`` selected in the capture: a prop
    read there is that component's, an attribute of what it rendered only where the capture
    shows one."""
    nullable: bool = False
    """For a variable: it holds what may be null (``queryByRole(…)``, ``querySelector(…)``),
    so that where an element is required (an event) TypeScript is told it is there (``!``)."""

    def shown_attribute(self, key: str) -> str | None:
        """The attribute a component's prop ``key`` became in what it rendered (see
        ``shown_attribute``), over the elements the capture saw this select."""
        return shown_attribute(self.captured, key)


SHOWN_TEXT = "#text"
"""What ``shown_attribute`` says of a prop the element shows as its whole text (a tooltip's
text ``children``, a badge's ``label``), not as an attribute."""


def shown_attribute(elements: Iterable[CapturedElement], key: str) -> str | None:
    """The attribute a component's prop ``key`` became in what it rendered, where the capture
    saw every one of ``elements`` show it by one attribute, the same one in all (a Link's
    ``to``, its anchor's ``href``), or ``SHOWN_TEXT`` by its whole text in all; None
    otherwise (or for no elements)."""
    shown = {e.shown_props.get(key) for e in elements}
    return shown.pop() if len(shown) == 1 else None


@dataclass
class SelectorParam:
    """One helper's selector parameter, and what becomes of it."""

    param: Node
    """The parameter as declared (``selector: string``)."""
    element: str
    """The name it takes as an element."""
    calls: list[tuple[Node, str]] = field(default_factory=list)
    """Each call's literal argument and the selector it holds."""
    queries: dict[str, Target] = field(default_factory=dict)
    """The query each selector stands for."""


@dataclass
class TestDecl:
    name: str
    node: Node
    body: Node | None
    line: int
    untranslated: list[str] = field(default_factory=list)
    touched: bool = False


@dataclass
class Ctx:
    test: TestDecl | None = None
    owner: Node | None = None
    """The test, hook, describe callback or helper function the statement belongs to."""
    hook: str | None = None
    helper: bool = False
    """``owner`` is a function of the file's own (not a test, hook or describe callback)."""


def _in_branch(stmt: Node, owner: Node | None) -> bool:
    """Whether ``stmt`` is inside an ``if`` or a ``switch`` case of the function ``owner``."""
    node = stmt.parent
    while node is not None and (owner is None or node.id != owner.id):
        if node.type in ("if_statement", "else_clause", "switch_case", "switch_default"):
            return True
        node = node.parent
    return False


def one_line(message: str) -> str:
    """A note's message as its ``// testmend:`` line comment can hold it: the source text a
    message quotes (a render's options object) may span lines, and a comment's later lines
    would be code."""
    return " ".join(message.split())


def commonjs(source: str) -> str:
    """An asset module's ES ``import * as X from 'm'`` and ``export function`` as CommonJS."""
    source = re.sub(
        r"^import \* as (\w+) from ('[^']+');$", r"const \1 = require(\2);", source, flags=re.M
    )
    exported = re.findall(r"^export function (\w+)", source, flags=re.M)
    source = re.sub(r"^export function ", "function ", source, flags=re.M)
    return source + f"\nmodule.exports = {{ {', '.join(exported)} }};\n"


def relative_specifier(module: str, module_path: str | None, test_path: str) -> str:
    if not module.startswith("./") or module_path is None:
        return module
    return specifier_for(test_path, module_path)


class ConverterState:
    """The source, its tree, and what the conversion has found and changed so far."""

    def __init__(self, source: str, path: str, options: CodemodOptions, dom: DomCapture | None):
        self.src = source.encode("utf-8")
        self.path = path
        self.options = options
        self.dom = dom
        self.ts = grammar_for(path) in ("tsx", "typescript")
        self.tree = parse(self.src, path)
        self.edits: list[Edit] = []
        self.support_files: dict[str, str] = {}
        self.dropped_assertions: dict[str, list[str]] = {}
        """Test name → why each assertion it no longer makes was dropped (Enzyme bookkeeping)."""
        self.notes: list[tuple[int, NoteKind, str]] = []
        """(byte offset in the source, kind, message) of notes with no comment in the code."""
        self.enzyme_renders: dict[str, str] = {}
        self.project_renders: set[str] = set()
        """Of those, the project's own helpers (``shallowUntilTarget``): their other arguments
        are theirs, not Enzyme's options."""
        self.enzyme_namespaces: set[str] = set()
        self.helper_renders: dict[str, tuple[str, str, str]] = {}
        self.helper_roots: dict[str, HelperMapping] = {}
        """Of those, the helpers that mount the test's element inside another element, which
        is Enzyme's root (``HelperMapping.root``)."""
        self.wrapper_functions: set[str] = set()
        self.setup_objects: dict[str, dict[str, str]] = {}
        """Local setup functions returning an object that holds a render (``return { wrapper,
        history }``): name → {the object's key: the local binding it holds}."""
        self.selection_helpers: dict[str, tuple[Node, Node]] = {}
        """Local functions that only return a selection of their wrapper parameter
        (``function getMatches(w) { return w.find('mark'); }``): name → (the function's
        statement, the returned expression). Their calls are read as that selection."""
        self.to_json: set[str] = set()
        self.bindings: dict[str, list[Binding]] = {}
        self.imports: dict[str, set[str]] = {}
        self.type_imports: dict[str, set[str]] = {}
        self.needs_user_event = False
        self.needs_jest_dom = False
        self.throw_owners: dict[int, Node] = {}
        # What commented-out statements declared or assigned: name → the ids of the scopes
        # of those declarations. A use that resolves to one depends on untranslated code.
        self.dead_names: dict[str, set[int]] = {}
        self.claimed: list[tuple[int, int]] = []
        self.tests: list[TestDecl] = []
        self.test_by_body: dict[int, TestDecl] = {}
        self.param_call_args: list[tuple[str, int, Node, Node]] = []
        self.selector_params: list[SelectorParam] = []
        """The file's helpers whose selector parameter becomes an element (selector_params)."""
        self.selector_finds: dict[int, tuple[str, list[FindRecord]]] = {}
        """Their finds (by node id): the element parameter's name and the find's runs."""
        self.dom_queries_used = 0
        self.enzyme_import_nodes: list[Node] = []
        self.merged_names: dict[int, tuple[Edit, list[str]]] = {}
        """Names added to one of the file's own imports (by its ``{ … }`` clause's id), and
        the edit that adds them."""
        self.helper_imports: list[tuple[Node, set[str]]] = []
        """Imports of a project helper module that also bring other names: the statement and
        the imported names that render with Enzyme (only those go)."""
        self.uses_require = False
        self.decl_edits: list[tuple[Binding, Node, Node]] = []
        self.records: dict[tuple[int, int], list[FindRecord]] = {}
        self.pending_notes: list[tuple[NoteKind, str]] = []
        self.user_owner_nodes: dict[int, Node] = {}
        self.async_fixed: set[int] = set()
        names = {text(n) for n in walk(self.tree.root_node) if n.type == "identifier"}
        self.identifiers = frozenset(names)
        """Every identifier the file holds (a name the output declares must be none of them)."""
        self.declared_names = {
            text(n.child_by_field_name("name"))
            for n in walk(self.tree.root_node)
            if n.type in ("variable_declarator", "function_declaration", "class_declaration")
            and n.child_by_field_name("name") is not None
        }
        """Names the file declares itself (not its imports)."""
        self.user_name = next(
            (n for n in ("user", "tester", "userSession") if n not in names), "userEventSession"
        )
        """The user-event instance's name: ``user``, unless the file has a ``user`` already."""
        self._async_verdicts: dict[int, bool] = {}
        self.fallbacks_noted: set[tuple[str, str]] = set()
        self.thrown_in: set[int] = set()
        """Blocks (their start) where a helper's untranslated statement already throws."""
        self.list_names: set[str] = set()
        """Names the output declares for lists of labelled controls (see label_names)."""
        self.markers: set[Marker] = set()
        """The test's own marker elements a query finds by a test id, which the output adds to
        them (see marker_ids)."""
        self.removed_ids: set[int] = set()
        self.var_decls: list[tuple[Binding, Node, Node | None]] = []
        self.var_assigns: list[tuple[Binding, Node, Node]] = []
        self.handler_aliases: list[tuple[Binding, Node, Ctx]] = []
        """``const onSubmit = x.prop('onSubmit')`` declarations whose calls stand for the
        handler's read (see ``handler_alias``): removed, or commented out, at the end."""
        self.virtual_from = len(self.src)
        """Where the source the converter reads but never edits begins: imported selection
        helpers appended after the file (see helper_modules)."""
        self.render_first: Node | None = None
        """An inline render made as a statement of its own before the assertion being
        translated (see render_first): what is found in it is searched on the screen."""
        self.hoisted: set[int] = set()
        """Declarations (by node id) moved out of a hook so a re-render can see them."""
        self.element_refs: dict[int, str] = {}
        """JSX elements (by node id) rendered with ``ref={name}``: class internals."""
        self._setprops_helpers: set[int] | None = None
        """The render calls of the file's helpers a test calls ``setProps`` on the result of
        (see settable.py), once found."""
        self.render_around: dict[int, tuple[str, str] | None] = {}
        """Render calls (by node id) and the JSX their element goes inside (providers), None
        for none: a re-render of that element goes inside the same JSX."""
        if dom is not None:
            for record in dom.records:
                self.records.setdefault((record.line, record.column), []).append(record)

    # -- notes and edits -------------------------------------------------------------------

    def replace(self, node: Node, new: str, notes: Sequence[tuple[NoteKind, str]] = ()) -> None:
        self.replace_range(node.start_byte, node.end_byte, new, notes)

    def replace_range(
        self, start: int, end: int, new: str, notes: Sequence[tuple[NoteKind, str]] = ()
    ) -> None:
        edit = Edit(start, end, new)
        notes = [(kind, one_line(message)) for kind, message in notes]
        if notes:
            indent = line_indent(self.src, start)
            comments = "".join(f"// testmend: {message}\n{indent}" for _k, message in notes)
            edit.text = comments + new
            offset = 0
            for kind, message in notes:
                edit.notes.append((offset, kind, message))
                offset += len(f"// testmend: {message}\n{indent}")
        self.edits.append(edit)
        self.claimed.append((start, end))

    def note_only(self, node: Node, kind: NoteKind, message: str) -> None:
        self.notes.append((node.start_byte, kind, one_line(message)))

    def comment_out(self, stmt: Node, message: str, ctx: Ctx) -> None:
        message = one_line(message)
        start = line_start(self.src, stmt.start_byte)
        indent = line_indent(self.src, stmt.start_byte)
        original = self.src[start : stmt.end_byte].decode("utf-8")
        lines = original.splitlines()
        commented = "\n".join(
            (indent + "// " + ln[len(indent) :] if ln.startswith(indent) else "// " + ln.lstrip())
            for ln in lines
        )
        body = f"{indent}// testmend: {message}\n{commented}"
        names = self._assigned(stmt)
        # A test's branch that assigns nothing (a case of a table of cases: `case "array":`)
        # fails where it is, so the cases that never take it still run and pass.
        branch = ctx.test is not None and not names and _in_branch(stmt, ctx.owner)
        block = stmt.parent.start_byte if stmt.parent is not None else -1
        if (ctx.helper or branch) and block not in self.thrown_in:
            # A helper fails where its untranslated code was, so only the tests that call it
            # fail (a throw at its end could sit after a return). Once: what follows it in
            # the same block never runs.
            body += f"\n{indent}{THROW}"
            self.thrown_in.add(block)
        # Drop edits inside the statement: it is commented out as it was (and the notes about
        # what its translation would have written, which belong to no statement now).
        self.edits = [e for e in self.edits if not (start <= e.start and e.end <= stmt.end_byte)]
        self.pending_notes = []
        edit = Edit(start, stmt.end_byte, body, [(len(indent), "untranslated", message)])
        self.edits.append(edit)
        self.claimed.append((start, stmt.end_byte))
        for name, written in names.items():
            self.dead_names.setdefault(name, set()).add(declaring_scope(name, written).id)
        if ctx.test is not None:
            ctx.test.untranslated.append(message)
        if ctx.helper or branch:
            pass
        elif ctx.test is None and names and ctx.hook in (None, "beforeEach", "beforeAll"):
            # Shared setup that assigns a value: the tests that read it fail there ("depends
            # on code that was left untranslated above"); the others still run.
            pass
        elif ctx.owner is not None:
            self.throw_owners[ctx.owner.id] = ctx.owner

    @staticmethod
    def _assigned(stmt: Node) -> dict[str, Node]:
        """The variables a statement declares or assigns (``x = …``, ``const {a, b} = …``),
        each with where it is written."""
        patterns: list[Node | None] = []
        if stmt.type in ("lexical_declaration", "variable_declaration"):
            patterns = [d.child_by_field_name("name") for d in stmt.named_children]
        elif stmt.type == "expression_statement" and stmt.named_children:
            expr = stmt.named_children[0]
            while expr.type == "parenthesized_expression" and expr.named_children:
                expr = expr.named_children[0]
            if expr.type == "assignment_expression":
                patterns = [expr.child_by_field_name("left")]
        return {
            text(ident): ident
            for pattern in patterns
            if pattern is not None and pattern.type != "member_expression"
            for ident in pattern_identifiers(pattern)
        }

    def is_dead(self, name: Node) -> bool:
        """Whether the name written at ``name`` refers to a declaration or assignment that
        was commented out (``const props = …`` in one test says nothing of another test's
        own ``const props``)."""
        scopes = self.dead_names.get(text(name))
        return scopes is not None and declaring_scope(text(name), name).id in scopes

    def is_claimed(self, node: Node) -> bool:
        return any(s <= node.start_byte and node.end_byte <= e for s, e in self.claimed)

    # -- imports ---------------------------------------------------------------------------

    def rtl_module(self) -> str:
        helper = self.options.render_helper
        if helper is not None and helper.reexports_rtl:
            return relative_specifier(helper.module, helper.path, self.path)
        return self.options.rtl_module

    def need(self, name: str, module: str | None = None) -> str:
        self.imports.setdefault(module or self.rtl_module(), set()).add(name)
        return name

    def need_unshadowed(self, name: str, module: str) -> str:
        """``name`` imported from ``module``, under another local name when the file declares
        one of its own (a helper ``const render = (props) => shallow(…)`` must not become a
        call of itself): the local name to use."""
        if name not in self.declared_names:
            return self.need(name, module)
        alias = "rtl" + name[:1].upper() + name[1:]
        self.need(f"{name} as {alias}", module)
        return alias

    def support_module(self, name: str) -> str:
        """The specifier of the shared module ``name`` (``codemod/assets``) from this test,
        added to the result's support files."""
        ext = "ts" if self.ts else "js"
        folder = self.options.support_dir
        packages = [p for p in self.options.package_support_dirs if self.path.startswith(p + "/")]
        if packages:  # the test's own workspace package (the innermost), not another's
            folder = self.options.package_support_dirs[max(packages, key=len)]
        path = posixpath.normpath(f"{folder}/{name}.{ext}")
        source = read_asset("testmend.codemod", f"assets/{name}.{ext}")
        if self.uses_require and not self.ts:
            source = commonjs(source)
        self.support_files[path] = source
        return specifier_for(self.path, path)

    def required_support(self, specifier: str) -> str:
        """``jest.requireActual(specifier)`` of a shared module, asserted as that module in
        TypeScript: its ``any`` is an unsafe call under typescript-eslint's type-checked lint
        (an assertion, as ``@types/jest`` before 27 takes no type argument)."""
        call = f"jest.requireActual({js_string(specifier)})"
        return f"({call} as typeof import({js_string(specifier)}))" if self.ts else call

    def need_type(self, name: str) -> str:
        self.type_imports.setdefault(self.rtl_module(), set()).add(name)
        return name

    def fallback_note(self, target: Target, ctx: Ctx | None = None) -> None:
        if target.kind == "css" and target.css and target.index != "expr":
            key = (ctx.test.name if ctx is not None and ctx.test is not None else "", target.css)
            if key in self.fallbacks_noted:
                return
            self.fallbacks_noted.add(key)
            # A selector computed where it runs (a helper's parameter) is named as such.
            literal = target.css[:1] in "'\"`"
            named = (
                f"CSS selector {target.css}"
                if literal
                else f"the CSS selector held in {target.css}"
            )
            message = f"{named}: no role, label, text or test id query matched the same elements"
            test = ctx.test.name if ctx is not None and ctx.test is not None else None
            records = self.dom.records if self.dom is not None else None
            hint = queryable_hint(selected(records, target.css, test))
            if hint:
                message += f"; {hint}"
            elif never_selected(records, target.css):
                message += (
                    "; it selected nothing in any run of this file's tests, so no element was"
                    " there to check a query on"
                )
            if target.component:
                message = (
                    f"CSS selector {target.css} stands for the component {target.component} "
                    "(the elements it rendered in the DOM capture)"
                )
            if ("fallback", message) not in self.pending_notes:
                self.pending_notes.append(("fallback", message))

    def need_jest_dom(self) -> None:
        self.needs_jest_dom = True

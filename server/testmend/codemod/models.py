"""Typed inputs and outputs of the deterministic Enzyme → Testing Library tier."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

EventStyle = Literal["fireEvent", "userEvent"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


# --- conventions ------------------------------------------------------------------------------


class HelperMapping(_Model):
    """An Enzyme render helper of the project and the Testing Library helper that replaces it."""

    enzyme_name: str
    """e.g. ``mountWithProviders``."""
    enzyme_module: str | None = None
    """The module specifier tests import the Enzyme helper from, e.g. ``@/enzyme-test-utils``."""
    render_name: str
    """e.g. ``renderWithProviders``."""
    render_module: str
    """The module specifier tests import the render helper from, e.g. ``@/test-utils``."""
    options: Literal["pass-through", "drop"] = "pass-through"
    """How the helper's second argument translates: the same option names, or not at all."""
    render_path: str | None = None
    """Project-relative path of the module of the render helper, when it is not the project's
    Testing Library module (a twin, in the Enzyme helper's own module)."""
    twin: str | None = None
    """When the render helper is testmend's twin of the Enzyme helper (``helper_twins``): that
    module with the twin in it, written as a file of each result that uses it."""
    root: str | None = None
    """When the Enzyme helper mounts the test's element inside another
    (``mount(<Provider store={store}>{children}</Provider>)``): that element's tag, which is
    what Enzyme's root is (``setProps`` sets its props). None when it mounts the test's own."""
    root_props: list[str] = []
    """The props the helper gives that root (``store``)."""


class RenderHelper(_Model):
    """The project's own Testing Library module (a ``test-utils`` file)."""

    module: str
    """The specifier tests use, e.g. ``@/test-utils`` or ``../../test-utils``-style relative
    paths are computed per test file from ``path``."""
    path: str | None = None
    """Project-relative path of the module file (used to compute relative specifiers)."""
    render_name: str = "render"
    """The render function to use for a plain ``mount``/``shallow``."""
    custom_render_names: list[str] = []
    """Every render function the module exports (``renderWithProviders``, ...)."""
    reexports_rtl: bool = False
    """The module re-exports ``@testing-library/react`` (screen, fireEvent, ... come from it)."""


class CodemodOptions(_Model):
    """What the codemod needs to know about the project (see :func:`detect_conventions`)."""

    render_helper: RenderHelper | None = None
    helper_mappings: list[HelperMapping] = []
    enzyme_helper_modules: list[str] = []
    """Specifiers (not relative) of the project's Enzyme helper modules (their imports are
    Enzyme imports)."""
    enzyme_helper_paths: list[str] = []
    """The project's Enzyme helper modules, project-relative without extension (``src/test-
    helpers``): a test's relative import of one is an Enzyme import too."""
    enzyme_helper_renders: dict[str, Literal["mount", "shallow"]] = {}
    """Exported functions of those modules that render with Enzyme and have no Testing Library
    counterpart in the project (``shallowUntilTarget``): converted like ``shallow``/``mount``."""
    redux_installed: bool = False
    """react-redux is installed: a store in Enzyme's legacy context becomes a ``<Provider>``."""
    router_installed: bool = False
    """react-router-dom is installed: a shallow render whose children needed a router (they
    failed outside one) renders inside a ``<MemoryRouter>``."""
    router_major: int | None = None
    """Major version of react-router-dom (before 6, a ``<Router>`` takes the ``history`` a
    test gave the router in legacy context)."""
    jest_dom_global: bool = False
    """``@testing-library/jest-dom`` is loaded by a setupFilesAfterEnv file."""
    accessible_names: bool = False
    """The installed jest-dom has ``toHaveAccessibleName`` (5.14 or newer)."""
    user_event_installed: bool = False
    user_event_major: int | None = None
    react_major: int | None = None
    """Major version of react (before 18 a component may not render ``undefined``)."""
    rtl_major: int | None = None
    """Major version of @testing-library/react (12: no renderHook; 13+: renderHook exported)."""
    event_style: EventStyle = "fireEvent"
    """``userEvent``: clicks, hovers, typing and selecting become awaited user-event calls
    (needs user-event 14)."""
    fire_event_tests: frozenset[str] = frozenset()
    """Tests (full names) whose events stay ``fireEvent`` even with the userEvent style: they
    failed with user-event's fuller sequence of events."""
    fake_timers: bool = False
    """The file uses jest's fake timers: user-event is set up to advance them."""
    test_id_attribute: str = "data-testid"
    rtl_module: str = "@testing-library/react"
    component_children: dict[str, list[str]] = {}
    """For the file being converted: what its component under test imports under a
    capitalised name, local name → [the specifier a ``jest.mock`` in the test reaches that
    module by, the exported name] (see ``project.children``). Recording stubs mock these."""
    inline_type_imports: bool = True
    """``import { render, type RenderResult }`` reads (TypeScript 4.5 and Babel 7.16 or newer);
    else the type comes in an ``import type`` statement of its own."""
    support_dir: str = "src"
    """Project-relative folder of the modules the migrated tests share (the recording helper):
    beside the project's test utilities (``detect_conventions``)."""
    package_support_dirs: dict[str, str] = {}
    """In a monorepo: a workspace package's folder (project-relative) → the folder of its own
    tests where its migrated tests' shared modules go, for the packages ``support_dir`` is not
    in (an import from a package into another, the root's included, is what
    ``import/no-relative-packages`` forbids and jest may not resolve)."""
    selection_helpers: dict[str, dict[str, str]] = {}
    """Modules of the tests' own helpers (project-relative path without extension) → their
    exported selection helpers (``getMenu(wrapper)`` returning ``wrapper.find(…)``): name →
    source. A call reads as the selection."""
    action_helpers: dict[str, dict[str, str]] = {}
    """The same modules → their exported event helpers (``focus(wrapper, props)`` firing an
    event at a selection of the wrapper): name → one-statement template. A call statement is
    expanded into that statement (``translate/action_helpers.py``)."""


# --- DOM capture ------------------------------------------------------------------------------


class CapturedQuery(_Model):
    """A Testing Library query verified (during the capture run) to return exactly the
    matched elements: ``<variant>By<method>(...args)``; ``all`` for several elements."""

    method: str
    args: list[Any]
    all: bool = False
    index: int | None = None
    """For a query that selects several elements: the position of the one meant in its
    result (verified like the rest)."""


class StateHolder(_Model):
    """The one element inside an element (itself included) with an ARIA state
    (``aria-expanded``, ``aria-selected``, ``aria-pressed``, ``aria-checked``): the state, its
    value when captured, and the queries that select that element alone."""

    attribute: str
    value: str
    queries: list[CapturedQuery] = []


class RootProp(_Model):
    """A prop of a full render's root element that the test read (``wrapper.prop('value')``),
    as the capture saw it: whether its value was the component's default (``defaultProps``),
    and the one attribute of the rendered DOM that shows it (``aria-valuenow``), with its text
    and the queries that select the element holding it; ``attribute`` None where no attribute
    or several do."""

    key: str
    defaulted: bool = False
    attribute: str | None = None
    value: str | None = None
    queries: list[CapturedQuery] = []


class ShownState(_Model):
    """A value of a class component's state that the test read (``wrapper.state('count')``),
    as the capture saw the rendered DOM show it: its text (``"5"``, ``"true"``), the attribute
    that holds it (None: the element's whole text), and the queries that select that one
    element; ``value`` None where not exactly one element shows it."""

    value: str | None = None
    attribute: str | None = None
    queries: list[CapturedQuery] = []
    position: CapturedQuery | None = None
    """For an index shown as which element of a role is in an ARIA state (the second tab
    selected for 1): the role's elements, as one query; ``queries`` is then empty, and
    ``holds`` the value ``attribute`` has on that element (``"true"``, ``"page"``)."""
    holds: str | None = None


class CapturedElement(_Model):
    tag: str
    attributes: dict[str, str] = {}
    classes: list[str] = []
    text: str = ""
    properties: dict[str, bool] = {}
    """A custom element's state that no attribute shows, as its properties (``disabled``)."""
    shown_props: dict[str, str] = {}
    """Where a component rendered this element: each prop of the component whose value exactly
    one attribute of the element equals, and that attribute (a Link's ``to`` → ``href``)."""


class HostSelection(_Model):
    """What ``find(…).hostNodes()`` selected where the find alone selected more."""

    count: int
    elements: list[CapturedElement] = []
    queries: list[CapturedQuery] = []
    indexed: list[CapturedQuery] = []
    inner: list[CapturedQuery] = []
    element_queries: list[list[CapturedQuery]] = []
    css: str | None = None


class HandlerHolder(_Model):
    """An element holding a child's callback as its own event handler."""

    element: CapturedElement
    queries: list[CapturedQuery] = []
    """Verified queries for that element alone."""
    indexed: list[CapturedQuery] = []
    """Where no query selects it alone: queries by its name or text that select it among a
    few others, each with its ``index`` in their result."""


class CapturedHandler(_Model):
    """A child component's callback prop that elements it rendered hold as their own event
    handler (the same function): React calls it on such an element's event."""

    event: str
    """The elements' handler prop holding it (``onClick``)."""
    holders: list[HandlerHolder]
    """Those elements in document order: one, or the items of a list sharing the callback
    (each option's checkbox), of which the event's data tells the one the test meant."""


class FindRecord(_Model):
    """One execution of ``find(selector)`` at a call site of the test file (or, under the
    selectors ``:root`` and ``:handler``, the render's root or a child's callback props where
    the test read them)."""

    line: int
    column: int
    selector: str
    test: str | None = None
    count: int
    shallow: bool = False
    elements: list[CapturedElement] = []
    queries: list[CapturedQuery] = []
    """Verified queries for the whole match (preferred first)."""
    element_queries: list[list[CapturedQuery]] = []
    """Verified queries for each matched element (first 20)."""
    indexed: list[CapturedQuery] = []
    """One element no query selects alone: queries that select it among a few others, each
    with its ``index`` in their result (see ``HandlerHolder.indexed``; here a role without a
    name too, last)."""
    inner: list[CapturedQuery] = []
    """One element no query selects alone: a query by role and name for the first element
    inside it that one selects exactly (for asserting only that it is there)."""
    css: str | None = None
    """A CSS selector verified to match exactly the same elements (for component selectors)."""
    absent_queries: list[CapturedQuery] = []
    """Where the selector matched nothing: queries that select its elements where it did match
    (elsewhere in the file) and that find nothing in what was rendered here."""
    inner_queries: list[CapturedQuery] = []
    """Several elements no query selects: queries for the element at the same place inside
    each (an item's heading), for counting them only."""
    labelled: list[CapturedQuery] = []
    """Several ``<label>``s no query selects, each the only label of a form control of its
    own whose accessible name is exactly the label's text: queries for those controls, in
    the labels' order (for asserting the labels' texts as the controls' names)."""
    sibling_queries: list[CapturedQuery] = []
    """Under ``:children`` and ``:childAt``: a role that, inside the one element they were
    called on, selects exactly that element's children, in order (a row's cells)."""
    states: list[StateHolder | None] = []
    """Where no query selects what it selected: for each element (first 20), the one element
    in it with an ARIA state, None where there is not exactly one that a query selects."""
    submit_queries: list[CapturedQuery] = []
    """A form: queries for its one submit button (what a user clicks to submit it)."""
    submit_disabled: bool = False
    """That button was disabled (no user could click it)."""
    texts: list[tuple[str, bool, str | None]] | None = None
    """Where no query selects what it selected (at most a few elements of a full render):
    every element of the page with text of its own, as Testing Library's text queries read it,
    whether it is inside what the find selected, and all of its text (None: too long to keep);
    None where the page had too many."""
    host: HostSelection | None = None
    """What ``hostNodes()`` keeps of the find, when that differs from what it selected."""
    components: list[str | None] = []
    """For each node the find selected (first 20): the display name of its component, None for
    an element. A prop read on a component's node is that component's, which its DOM may not
    show (``<ToggleButton className="toggle" toggleLeft>`` found by ``.toggle``)."""
    component_total: int = 0
    """When it selected one component's node: how many nodes of that component the render
    holds in all."""
    component_index: int | None = None
    """When it selected one of several nodes of a component by a CSS selector (``.mainSide
    Panel`` on one of two ``<SidePanel>``): which of them, in the render's order."""

    root_prop: RootProp | None = None
    """Under ``:root``, where the test read a prop of a full render's root: that prop."""

    state_shown: dict[str, ShownState] = {}
    """Under ``:state`` (the test read the state of a class component's render): for each key
    read, where the DOM showed its value."""

    handlers: dict[str, CapturedHandler] = {}
    """Under ``:handler`` (a component's callback props read, ``count`` of them found): each
    prop that an element the component rendered holds as its own handler."""

    def host_nodes(self) -> FindRecord:
        """This record as ``find(…).hostNodes()`` saw it."""
        if self.host is None:
            return self
        return self.model_copy(update={**dict(self.host), "host": None})


class UnrenderedChild(_Model):
    """A child component of a shallow render's output that does not render on its own: it
    needs what the shallow test never set up (a provider, a store, a router)."""

    name: str | None = None
    """Its display name (``Connect(Badge)`` for a wrapped one)."""
    error: str = ""
    """The first line of what rendering it threw."""
    dived: bool = False
    """The test (or its helper) dived into it: it did render, so it is never stubbed, but what
    it threw rendered in full (outside a router) still says what the full render needs."""


class RenderRecord(_Model):
    """One render call (``shallow``/``mount``/``render``) made from the test file, and the tag
    of the (first) root element the component rendered (``None`` when unknown)."""

    line: int
    column: int
    test: str | None = None
    tag: str | None = None
    host: bool | None = None
    """For a ``shallow`` render: whether its root is a host element (``<g>``) rather than
    another component's element (``<Group>``), whose props are not the DOM element's."""
    component: str | None = None
    """For a ``shallow`` render whose root is another component's element: that component's
    name (``Group``)."""
    unrendered: list[UnrenderedChild] = []
    """For a ``shallow`` render whose whole tree does not render: the children to blame."""
    root_queries: list[CapturedQuery] = []
    """Queries that selected the root element (the container's first element) alone: for a
    full render, both when it rendered and at the end of the test; for a shallow render, in
    its HTML at the end of the test, when the HTML parser keeps that HTML as it is."""
    empty: bool = False
    """The render produced nothing: for a full render, neither when it rendered nor at the end
    of its test; for a shallow render, the HTML of its whole tree at the end of its test."""


class DomCapture(_Model):
    """What one run of the original Enzyme test showed (see ``capture_dom``)."""

    file: str
    records: list[FindRecord] = []
    html_by_test: dict[str, str] = {}
    """The last HTML each test rendered (seen at its last ``find``)."""
    renders: list[RenderRecord] = []
    tests_passed: int = 0
    tests_failed: int = 0
    error: str | None = None
    """Why the run did not complete cleanly (suite error, timeout, tool problem)."""
    hangs: bool = False
    """The run was stopped at its timeout: a test never finishes (``error`` names it)."""
    warnings: list[str] = []
    duration_s: float = 0.0
    reused: bool = False
    """Kept from an earlier run (``runners/kept.py``): nothing it depends on had changed."""
    user_event_ready: bool | None = None
    """The test environment has what user-event 14 calls (``document.getSelection``,
    ``Event.composedPath``: jsdom 16 and later); None when the capture could not tell."""


# --- conversion result ------------------------------------------------------------------------

NoteKind = Literal[
    "untranslated",  # left for a person or the agent; the test fails until resolved
    "fallback",  # translated with a CSS selector (container.querySelector): works, not idiomatic
    "removed",  # Enzyme-only code dropped (update(), adapter setup, ...)
    "review",  # translated, worth a look (snapshots re-recorded, options dropped)
]


class Note(_Model):
    line: int
    """1-based line in the converted content."""
    kind: NoteKind
    message: str
    test: str | None = None
    """Full name of the test the note belongs to, if any."""


class TestInfo(_Model):
    __test__ = False

    name: str
    """Full name: describe titles and the test title joined by spaces (as jest reports it)."""
    line: int
    status: Literal["converted", "partial", "unchanged"]
    """``partial``: some statements were left with ``// testmend:`` comments (the test fails
    on purpose until they are resolved)."""
    untranslated: list[str] = []


class CodemodResult(_Model):
    content: str
    notes: list[Note] = []
    tests_before: int
    tests_after: int
    test_names_before: list[str] = []
    test_names_after: list[str] = []
    tests: list[TestInfo] = []
    enzyme_free: bool
    changed: bool
    support_files: dict[str, str] = {}
    """Project-relative path → content of the modules the result imports that the project may
    not have yet (the recording helper): written beside the result, once per project."""
    dropped_assertions: dict[str, list[str]] = {}
    """Test name → why each assertion it no longer makes was dropped: what it read was Enzyme's
    bookkeeping (the props the test passed, a full render's root count), not the component."""
    dom_queries_used: int = 0
    """How many queries came from the DOM capture."""
    error: str | None = None
    """Set when the file could not be converted (syntax errors, not an Enzyme test)."""

    @property
    def untranslated_count(self) -> int:
        return sum(n.kind == "untranslated" for n in self.notes)


__all__ = [
    "CapturedElement",
    "CapturedQuery",
    "CodemodOptions",
    "CodemodResult",
    "DomCapture",
    "EventStyle",
    "FindRecord",
    "HelperMapping",
    "Note",
    "NoteKind",
    "RenderHelper",
    "TestInfo",
]

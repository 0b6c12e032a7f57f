"""Enzyme → React Testing Library, deterministically (see docs/codemod.md).

``convert_enzyme_test`` is a pure function: source in, converted source and notes out. It
rewrites by byte ranges, so code it does not touch stays byte-identical. Whatever it cannot
translate faithfully is commented out with a ``// testmend:`` note, and the test (or hook)
that held it gets a ``throw`` at its end, so it fails until a person or the agent resolves it
instead of passing silently.

The converter's parts live in ``codemod/translate/`` (one concern per module, each class
building on the one below); this module runs them in order and reports the result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from tree_sitter import Tree

from ..js_syntax import first_syntax_error
from .models import CodemodOptions, CodemodResult, DomCapture, Note, TestInfo
from .syntax import apply_edits, args_of, parse, string_value, text, walk
from .tidy import tidy
from .translate.action_helpers import with_expanded_actions
from .translate.finishing import Finishing
from .translate.helper_modules import drop_expanded_imports, with_imported_helpers
from .translate.imports import is_enzyme_helper_module
from .translate.marker_ids import with_test_ids
from .translate.state import Ctx
from .translate.tables import ENZYME_MODULE, SNAPSHOT_NOTE

__all__ = ["SNAPSHOT_NOTE", "convert_enzyme_test", "is_enzyme_free", "test_names"]


class _Converter(Finishing):
    """All the parts together; :meth:`run` is the order they go in."""

    def run(self) -> None:
        """The conversion, after :meth:`collect_tests` and :meth:`scan_imports`."""
        self.collect_bindings()
        self.collect_class_refs()
        self.collect_selection_helpers()
        self.collect_selector_params()
        self.process_block(self.tree.root_node, Ctx())
        self.finish_bindings()
        self.finish_vars()
        self.finish_handler_aliases()
        self.finish_hooks()
        self.retype_all()
        self.finish_params()
        self.finish_selector_params()
        self.finish_render_prop_mocks()
        self.finish_recordings()
        self.finish_imports()
        self.place_recordings()
        self.finish_throws()


def test_names(source: str, path: str) -> list[str]:
    """The full names (describe titles + test title) of the tests in a file, in source order."""
    converter = _Converter(source, path, CodemodOptions(), None)
    converter.collect_tests()
    return [t.name for t in converter.tests]


USER_EVENT_UNREADY = (
    "events are fired with fireEvent: user-event is installed, but the test environment lacks "
    "what user-event 14 calls (document.getSelection, Event.composedPath; jsdom 16 and later "
    "have them)"
)


def convert_enzyme_test(
    source: str,
    *,
    path: str,
    options: CodemodOptions,
    dom: DomCapture | None = None,
) -> CodemodResult:
    """Convert one Enzyme test file to React Testing Library (pure: no I/O)."""
    unready = dom is not None and dom.user_event_ready is False
    if unready and options.event_style == "userEvent":
        # Every user-event 14 call would throw in this test environment (jsdom before 16).
        options = options.model_copy(update={"event_style": "fireEvent"})
    expanded, acted = with_expanded_actions(source, path, options.action_helpers)
    augmented, imported_helpers = with_imported_helpers(expanded, path, options.selection_helpers)
    converter = _Converter(augmented, path, options, dom)
    converter.virtual_from = len(expanded.encode("utf-8"))
    converter.collect_tests()
    names_before = [t.name for t in converter.tests]

    def unchanged(error: str, *, enzyme_free: bool) -> CodemodResult:
        return CodemodResult(
            content=source,
            tests_before=len(names_before),
            tests_after=len(names_before),
            test_names_before=names_before,
            test_names_after=names_before,
            enzyme_free=enzyme_free,
            changed=False,
            error=error,
        )

    if converter.tree.root_node.has_error:
        return unchanged("the file has syntax errors; fix them first", enzyme_free=False)
    converter.scan_imports()
    if not converter.enzyme_import_nodes and not converter.helper_imports:
        return unchanged("not an Enzyme test: it does not import enzyme", enzyme_free=True)
    refused = converter.helper_render_refused()
    if refused is not None:
        return unchanged(f"not converted: {refused}", enzyme_free=False)
    converter.run()
    if (
        unready
        and options.user_event_installed
        and any("fireEvent" in names for names in converter.imports.values())
    ):
        converter.notes.append((0, "review", USER_EVENT_UNREADY))
    content, placed, mapper = apply_edits(converter.src, converter.edits)
    if imported_helpers:  # the imported helpers' source appended for the converter goes
        content = content.encode("utf-8")[: mapper(converter.virtual_from)].decode("utf-8")
    if imported_helpers or acted:
        content = drop_expanded_imports(content, path, [*imported_helpers, *acted])
    content = with_test_ids(content, path, converter.markers, options.test_id_attribute)
    out = content.encode("utf-8")
    unplaced = [
        (out[: mapper(offset)].count(b"\n") + 1, kind, message)
        for offset, kind, message in converter.notes
    ]
    tidied = tidy(content, path, source)
    if tidied != content:
        placed = _relocated(placed, content, tidied)
        unplaced = _relocated(unplaced, content, tidied)
        content = tidied
    after = _Converter(content, path, CodemodOptions(), None)
    after.collect_tests()
    ranges = [(t.line, t.node.end_point[0] + 1, t.name) for t in after.tests]
    notes: list[Note] = []
    for line, kind, message in [*placed, *unplaced]:
        test = None
        for start, end, name in ranges:
            if start <= line <= end:
                test = name
        notes.append(Note(line=line, kind=kind, message=message, test=test))
    names_after = [t.name for t in after.tests]
    infos = [
        TestInfo(
            name=t.name,
            line=t.line,
            status="partial" if t.untranslated else ("converted" if t.touched else "unchanged"),
            untranslated=t.untranslated,
        )
        for t in converter.tests
    ]
    broken = first_syntax_error(after.tree)
    return CodemodResult(
        content=content,
        error=None
        if broken is None
        else f"the converted file does not parse (line {broken}): a codemod bug; the result "
        "needs fixing by hand or by the agent",
        notes=sorted(notes, key=lambda n: n.line),
        tests_before=len(names_before),
        tests_after=len(names_after),
        test_names_before=names_before,
        test_names_after=names_after,
        tests=infos,
        enzyme_free=is_enzyme_free(content, path, options, tree=after.tree),
        changed=content != source,
        support_files=converter.support_files,
        dropped_assertions=converter.dropped_assertions,
        dom_queries_used=converter.dom_queries_used,
    )


_N = TypeVar("_N", bound=str)


def _relocated(
    notes: Sequence[tuple[int, _N, str]], before: str, after: str
) -> list[tuple[int, _N, str]]:
    """Notes' lines after ``tidy`` moved code: a note follows its line's text (the k-th line
    with that text stays the k-th), also into code ``tidy`` commented out (its text behind
    ``// ``); a line that is gone keeps its number."""
    old = [_uncommented(text) for text in before.split("\n")]
    new = [_uncommented(text) for text in after.split("\n")]
    moved = []
    for line, kind, message in notes:
        if not 1 <= line <= len(old):
            moved.append((line, kind, message))
            continue
        wanted = old[line - 1]
        k = sum(1 for text in old[: line - 1] if text == wanted)
        hits = [i for i, text in enumerate(new, 1) if text == wanted]
        moved.append((hits[k] if k < len(hits) else line, kind, message))
    return moved


def _uncommented(line: str) -> str:
    """A line's text without its indentation and the ``//`` that comment it out."""
    return re.sub(r"^(//\s*)+", "", line.strip())


def is_enzyme_free(
    source: str, path: str, options: CodemodOptions, *, tree: Tree | None = None
) -> bool:
    """No import or require of Enzyme packages, nor of the project's Enzyme helpers (the
    functions of its Enzyme helper modules that render; their other exports are not Enzyme)
    (``tree``: the source already parsed)."""
    tree = tree if tree is not None else parse(source, path)
    reaching = set(options.enzyme_helper_renders) | {m.enzyme_name for m in options.helper_mappings}
    for node in walk(tree.root_node):
        if node.type == "import_statement":
            module = string_value(node.child_by_field_name("source")) or ""
            if not ENZYME_MODULE.match(module) and is_enzyme_helper_module(module, path, options):
                # A helper module's fakes and fixtures are not Enzyme; its renders are.
                names = {
                    text(n.child_by_field_name("name"))
                    for n in walk(node)
                    if n.type == "import_specifier"
                }
                whole = any(n.type == "namespace_import" for n in walk(node)) or (
                    not names and any(n.type == "import_clause" for n in node.named_children)
                )
                if whole or names & reaching:
                    return False
                continue
        elif node.type == "call_expression" and text(node.child_by_field_name("function")) in (
            "require",
            "jest.mock",
            "jest.requireActual",
        ):
            args = args_of(node)
            module = (string_value(args[0]) if args else None) or ""
        else:
            continue
        if ENZYME_MODULE.match(module) or is_enzyme_helper_module(module, path, options):
            return False
    return True

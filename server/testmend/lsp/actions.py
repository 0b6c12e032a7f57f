"""Which diagnostics and code actions a document gets: pure, fast functions (no I/O).

Code actions are answered from the in-memory document only: a regular expression finds the
Enzyme import, the file name says whether it is a test, and the request's diagnostics say
whether a lint/TypeScript fix applies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlparse

from lsprotocol import types

from ..enzyme_import import ENZYME_IMPORT
from ..patching.editor import utf16_len

SOURCE = "testmend"
ENZYME_MESSAGE = "This test uses Enzyme — Migrate to RTL"
MIGRATE_TITLE = "Migrate to RTL"
FIX_TITLE = "Fix lint/TS errors"
CMD_MIGRATE = "testmend.migrate"
CMD_FIX = "testmend.fix"
CMD_CANCEL = "testmend.cancel"
CMD_APPLY = "testmend.applyResult"
CMD_REPORT = "testmend.showReport"

FIX_SOURCE_KIND = types.CodeActionKind.Source + ".testmend.fix"
"""A source action (``source.testmend.fix``): listed in the editor's Source Action menu."""
MIGRATE_KIND = types.CodeActionKind.RefactorRewrite + ".testmend.migrate"
KINDS = [
    types.CodeActionKind.QuickFix,
    types.CodeActionKind.RefactorRewrite,
    MIGRATE_KIND,
    types.CodeActionKind.Source,
    FIX_SOURCE_KIND,
]

MAX_DOCUMENT_CHARS = 1_000_000
"""Larger documents get no diagnostics or actions (the engine refuses them too)."""

_JS_TS = re.compile(r"\.(?:[cm]?[jt]s|[jt]sx)$", re.IGNORECASE)
_TEST_NAME = re.compile(r"(?:\.(?:test|spec)\.(?:[cm]?[jt]s|[jt]sx)$)|(?:/__tests__/)", re.I)
_LINT_SOURCES = {"eslint", "ts", "typescript", "tsserver", "tsc", "deno-ts", "vtsls"}


def file_path(uri: str) -> str | None:
    """The path of a ``file:`` URI (None for any other scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return parsed.path


def is_js_ts(uri: str) -> bool:
    path = file_path(uri)
    return path is not None and bool(_JS_TS.search(path))


def is_test_file(uri: str) -> bool:
    path = file_path(uri)
    return path is not None and bool(_JS_TS.search(path)) and bool(_TEST_NAME.search(path))


def _readable(text: str) -> bool:
    return len(text) <= MAX_DOCUMENT_CHARS and "\0" not in text


def enzyme_import_range(text: str) -> types.Range | None:
    """Where the module name of the first Enzyme import is (UTF-16 columns), if any."""
    if "enzyme" not in text or not _readable(text):
        return None
    match = ENZYME_IMPORT.search(text)
    if match is None:
        return None
    start = match.start(2) - 1  # include the opening quote
    end = match.end(2) + 1
    line = text.count("\n", 0, start)
    line_start = text.rfind("\n", 0, start) + 1
    first = utf16_len(text[line_start:start])
    return types.Range(
        start=types.Position(line=line, character=first),
        end=types.Position(line=line, character=first + utf16_len(text[start:end])),
    )


def enzyme_diagnostics(uri: str, text: str) -> list[types.Diagnostic]:
    """An information diagnostic on the Enzyme import of a test file."""
    if not is_test_file(uri):
        return []
    where = enzyme_import_range(text)
    if where is None:
        return []
    return [
        types.Diagnostic(
            range=where,
            message=ENZYME_MESSAGE,
            severity=types.DiagnosticSeverity.Information,
            source=SOURCE,
            code="enzyme",
        )
    ]


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """LSP's ``only`` filter: a kind matches a requested kind or any of its parents."""
    if not only:
        return True
    return any(kind == want or kind.startswith(f"{want}.") for want in only)


def _diagnostic_json(diagnostic: types.Diagnostic) -> dict[str, object]:
    """A small JSON form of a diagnostic, passed back to the server as a command argument."""
    code = diagnostic.code
    return {
        "message": diagnostic.message,
        "source": diagnostic.source,
        "code": code if isinstance(code, (str, int)) else None,
        "line": diagnostic.range.start.line,
    }


def code_actions(
    uri: str,
    text: str,
    version: int | None,
    context: types.CodeActionContext,
    *,
    covered: bool = False,
) -> list[types.CodeAction]:
    """The actions a document gets; [] for other files and non-file URIs. ``covered``: a
    source file that tests cover (a fix of it can be checked by running them); Fix is offered
    on test files and on covered source files only."""
    if not is_js_ts(uri) or not _readable(text):
        return []
    only = [str(kind) for kind in context.only] if context.only else None
    actions: list[types.CodeAction] = []
    if is_test_file(uri) and enzyme_import_range(text) is not None:
        migrate = types.Command(
            title=MIGRATE_TITLE, command=CMD_MIGRATE, arguments=[uri, version, []]
        )
        ours = [d for d in context.diagnostics if d.source == SOURCE]
        if ours and _wanted(types.CodeActionKind.QuickFix, only):
            actions.append(
                types.CodeAction(
                    title=MIGRATE_TITLE,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=ours,
                    is_preferred=True,
                    command=migrate,
                )
            )
        elif _wanted(MIGRATE_KIND, only):
            actions.append(
                types.CodeAction(title=MIGRATE_TITLE, kind=MIGRATE_KIND, command=migrate)
            )
    if not (covered or is_test_file(uri)):
        return actions
    lint = [d for d in context.diagnostics if (d.source or "").lower() in _LINT_SOURCES]
    if lint and _wanted(types.CodeActionKind.QuickFix, only):
        arguments = [uri, version, [_diagnostic_json(d) for d in lint]]
        actions.append(
            types.CodeAction(
                title=FIX_TITLE,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=lint,
                command=types.Command(title=FIX_TITLE, command=CMD_FIX, arguments=arguments),
            )
        )
    elif _wanted(FIX_SOURCE_KIND, only):
        # Without eslint/TypeScript diagnostics in the request: a source action on the file.
        actions.append(
            types.CodeAction(
                title=FIX_TITLE,
                kind=FIX_SOURCE_KIND,
                command=types.Command(
                    title=FIX_TITLE, command=CMD_FIX, arguments=[uri, version, []]
                ),
            )
        )
    return actions

"""Open documents: the information diagnostic on an Enzyme import, and the code actions."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types
from pygls import uris

from ..layout import find_project_root
from ..workspace.paths import PathEscapeError
from . import actions
from .settings import SettingsServer


def _covered_by_tests(uri: str) -> bool:
    """Whether tests cover the source file at ``uri`` (so a fix of it can be checked).

    Runs in a worker thread, which also imports the project inspection (tree-sitter) on first
    use, off the event loop."""
    from ..project.dependencies import covering_tests
    from ..project.errors import ProjectToolError

    fs_path = uris.to_fs_path(uri)
    if not fs_path:
        return False
    path = Path(fs_path)
    root = find_project_root(path)
    try:
        return bool(covering_tests(root, path.resolve().relative_to(root).as_posix()))
    except (OSError, ValueError, ProjectToolError, PathEscapeError):
        return False


class DocumentsServer(SettingsServer):
    def _publish(self, uri: str) -> None:
        document = self.workspace.text_documents.get(uri)
        found = actions.enzyme_diagnostics(uri, document.source) if document is not None else []
        if not found and uri not in self.diagnosed:
            return
        if found:
            self.diagnosed.add(uri)
        else:
            self.diagnosed.discard(uri)
        version = document.version if document is not None else None
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )

    def on_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self.coverage.pop(params.text_document.uri, None)  # tests may have come or gone
        self._publish(params.text_document.uri)

    def on_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._publish(params.text_document.uri)

    def on_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in self.diagnosed:
            self.diagnosed.discard(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    async def on_code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        if self.workspace.text_documents.get(uri) is None:  # not open: would mean reading disk
            return None
        covered = False
        if actions.is_js_ts(uri) and not actions.is_test_file(uri):
            covered = await self._covered(uri)
        document = self.workspace.text_documents.get(uri)
        if document is None:  # closed meanwhile
            return None
        found = actions.code_actions(
            uri, document.source, document.version, params.context, covered=covered
        )
        return found or None

    async def _covered(self, uri: str) -> bool:
        """Whether tests cover a source file: looked up once per opening of the file, in a
        worker thread (directory listings and import parses), so the event loop keeps
        answering."""
        if uri not in self.coverage:
            covered = await asyncio.to_thread(_covered_by_tests, uri)
            if len(self.coverage) > 2000:
                self.coverage.clear()
            self.coverage[uri] = covered
        return self.coverage[uri]

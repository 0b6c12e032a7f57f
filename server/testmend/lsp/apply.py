"""A run's result as one LSP workspace edit: versioned, labelled, applied as presented.

A result is a list of :class:`FileChange` (the test file, its re-recorded snapshot, a module it
adds) so that every file of a result lands in the editor as one undoable edit. The edit never
asks for confirmation: the engine accepted the result (or the user chose "Apply kept result"),
and VS Code's confirmation preview starts with every change unticked, so that pressing its
Apply as shown would land nothing. Undo restores the original.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lsprotocol import types

from ..patching.editor import text_edits

ANNOTATION_ID = "testmend"


@dataclass(frozen=True)
class FileChange:
    uri: str
    version: int | None
    """The document version the edits are computed against (None: the file on disk)."""
    original: str
    updated: str
    create: bool = False
    """A new file (a module the result adds): created, then filled."""


def _annotations_supported(capabilities: types.ClientCapabilities) -> bool:
    edit = capabilities.workspace.workspace_edit if capabilities.workspace else None
    return bool(edit and edit.document_changes and edit.change_annotation_support is not None)


def _document_changes_supported(capabilities: types.ClientCapabilities) -> bool:
    edit = capabilities.workspace.workspace_edit if capabilities.workspace else None
    return bool(edit and edit.document_changes)


def workspace_edit(
    changes: Sequence[FileChange],
    capabilities: types.ClientCapabilities,
    *,
    label: str,
    description: str,
) -> types.WorkspaceEdit:
    """Versioned text document edits, labelled with a change annotation when the client
    supports them; plain TextEdits otherwise."""
    if not _document_changes_supported(capabilities):
        return types.WorkspaceEdit(
            changes={c.uri: text_edits(c.original, c.updated) for c in changes}
        )
    annotate = _annotations_supported(capabilities)
    documents: list[
        types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile
    ] = []
    for change in changes:
        if change.create:
            documents.append(
                types.CreateFile(
                    uri=change.uri,
                    options=types.CreateFileOptions(ignore_if_exists=True),
                    annotation_id=ANNOTATION_ID if annotate else None,
                )
            )
        edits: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = []
        for edit in text_edits(change.original, change.updated):
            if annotate:
                edits.append(
                    types.AnnotatedTextEdit(
                        range=edit.range, new_text=edit.new_text, annotation_id=ANNOTATION_ID
                    )
                )
            else:
                edits.append(edit)
        documents.append(
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=change.uri, version=None if change.create else change.version
                ),
                edits=edits,
            )
        )
    annotations = (
        {
            ANNOTATION_ID: types.ChangeAnnotation(
                label=label, needs_confirmation=False, description=description
            )
        }
        if annotate
        else None
    )
    return types.WorkspaceEdit(document_changes=documents, change_annotations=annotations)

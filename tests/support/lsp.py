"""A real LSP client (pytest-lsp) talking to ``testmend serve`` in a subprocess."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Union

from lsprotocol import types
from pygls import uris
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import register_lsp_features

from testmend.patching.editor import apply_text_edits

from .apps import REPO_ROOT
from .engine import testmend_environ

SCRIPTED_SERVER = Path(__file__).resolve().parents[1] / "lsp" / "scripted_server.py"
VSCODE = "visual-studio-code"
NEOVIM = "neovim@v0.7.0"


def _structure_action(obj: Any, _: Any) -> types.Command | types.CodeAction:
    """lsprotocol would structure a CodeAction carrying a command as a Command."""
    converter = _structure_action.converter  # type: ignore[attr-defined]
    if isinstance(obj.get("command"), str):
        return converter.structure(obj, types.Command)  # type: ignore[no-any-return]
    return converter.structure(obj, types.CodeAction)  # type: ignore[no-any-return]


class EditorClient(LanguageClient):
    """The pytest-lsp client plus what an editor does: apply edits, answer questions."""

    __test__ = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.edits: list[types.ApplyWorkspaceEditParams] = []
        self.accept_edits = True
        self.run_status: list[dict[str, Any]] = []
        self.batch_status: list[dict[str, Any]] = []
        self.kept: list[dict[str, Any]] = []
        self.answers: list[str] = []
        self.questions: list[types.ShowMessageRequestParams] = []
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}

    def open(self, uri: str, text: str, language: str = "typescriptreact") -> None:
        self.texts[uri] = text
        self.versions[uri] = 1
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id=language, version=1, text=text
                )
            )
        )

    def replace(self, uri: str, text: str) -> None:
        """Replace the whole buffer (a full-text change) and bump its version."""
        self.texts[uri] = text
        self.versions[uri] += 1
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def apply(self, edit: types.WorkspaceEdit) -> bool:
        changes: dict[str, tuple[int | None, list[Any]]] = {}
        for document in edit.document_changes or []:
            assert isinstance(document, types.TextDocumentEdit)
            ident = document.text_document
            changes[ident.uri] = (ident.version, list(document.edits))
        for uri, plain in (edit.changes or {}).items():
            changes[uri] = (None, list(plain))
        for uri, (version, _edits) in changes.items():
            if version is not None and version != self.versions.get(uri):
                return False
        for uri, (_, edits) in changes.items():
            if uri not in self.texts:
                # An editor edits a file it has not open (a snapshot) in a buffer it loads from
                # disk; this client loads it, edits it and saves it.
                path = Path(uris.to_fs_path(uri) or "")
                path.write_text(apply_text_edits(path.read_text(encoding="utf-8"), edits))
                continue
            new_text = apply_text_edits(self.texts[uri], edits)
            self.replace(uri, new_text)
        return True

    async def wait_for(self, predicate: Callable[[], object], timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s; messages: {self.messages}")
            await asyncio.sleep(0.05)

    def said(self, text: str) -> list[str]:
        return [m.message for m in self.messages if text in m.message]


def make_client() -> EditorClient:
    client = EditorClient(converter_factory=default_converter)
    converter = client.protocol._converter
    _structure_action.converter = converter  # type: ignore[attr-defined]
    for union in (Union[types.Command, types.CodeAction], Union[types.CodeAction, types.Command]):  # noqa: UP007
        converter.register_structure_hook(union, _structure_action)
    register_lsp_features(client)

    @client.feature(types.WORKSPACE_APPLY_EDIT)  # type: ignore[untyped-decorator]
    def apply_edit(
        ls: EditorClient, params: types.ApplyWorkspaceEditParams
    ) -> types.ApplyWorkspaceEditResult:
        ls.edits.append(params)
        if not ls.accept_edits:
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason="refused")
        applied = ls.apply(params.edit)
        return types.ApplyWorkspaceEditResult(
            applied=applied, failure_reason=None if applied else "version changed"
        )

    @client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)  # type: ignore[untyped-decorator]
    def ask(
        ls: EditorClient, params: types.ShowMessageRequestParams
    ) -> types.MessageActionItem | None:
        ls.questions.append(params)
        if not ls.answers:
            return None
        return types.MessageActionItem(title=ls.answers.pop(0))

    @client.feature("testmend/runStatus")  # type: ignore[untyped-decorator]
    def run_status(ls: EditorClient, params: Any) -> None:
        ls.run_status.append(params if isinstance(params, dict) else _as_dict(params))

    @client.feature("testmend/batchStatus")  # type: ignore[untyped-decorator]
    def batch_status(ls: EditorClient, params: Any) -> None:
        ls.batch_status.append(params if isinstance(params, dict) else _as_dict(params))

    @client.feature("testmend/resultKept")  # type: ignore[untyped-decorator]
    def result_kept(ls: EditorClient, params: Any) -> None:
        ls.kept.append(params if isinstance(params, dict) else _as_dict(params))

    return client


def _as_dict(params: Any) -> dict[str, Any]:
    """pygls hands custom notifications over as a namedtuple-like object."""
    if hasattr(params, "_asdict"):
        return {k: _as_dict(v) for k, v in params._asdict().items()}
    if isinstance(params, list):
        return [_as_dict(v) for v in params]  # type: ignore[return-value]
    return params  # type: ignore[no-any-return]


def server_env(workspaces_dir: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "TESTMEND_")) and k != "PYTHONPATH"
    }
    env.update(testmend_environ())  # the test's own settings (the intent check off, say)
    env["TESTMEND_WORKSPACES_DIR"] = str(workspaces_dir)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT / "server"), str(REPO_ROOT)])  # this tree
    env.update(extra)
    return env


@asynccontextmanager
async def session(
    root: Path,
    workspaces_dir: Path,
    *,
    capabilities: str = VSCODE,
    script: str | None = None,
    initialization_options: Any = None,
    server_args: tuple[str, ...] = (),
) -> AsyncIterator[EditorClient]:
    """A client connected to a fresh server; shut down (runs cancelled) at the end.
    ``server_args``: options of ``testmend serve`` (not with ``script``)."""
    if script is None:
        command = [sys.executable, "-m", "testmend", "serve", *server_args]
    else:
        command = [sys.executable, str(SCRIPTED_SERVER), script]
    config = ClientServerConfig(
        server_command=command,
        client_factory=make_client,
        server_env=server_env(workspaces_dir),
    )
    client = await config.start()
    assert isinstance(client, EditorClient)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(capabilities),
            root_uri=uris.from_fs_path(str(root)),
            workspace_folders=[
                types.WorkspaceFolder(uri=uris.from_fs_path(str(root)) or "", name="app")
            ],
            initialization_options=initialization_options,
        )
    )
    try:
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()  # type: ignore[no-untyped-call]


def uri_of(path: Path) -> str:
    uri: str | None = uris.from_fs_path(str(path))
    assert uri is not None
    return uri


async def command(client: EditorClient, name: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=name, arguments=list(arguments))
    )

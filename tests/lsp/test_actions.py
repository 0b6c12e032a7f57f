"""Diagnostics, code actions and settings over a real LSP connection (no run started)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from testmend.lsp.actions import ENZYME_MESSAGE, FIX_TITLE, MIGRATE_TITLE
from tests.support.engine import SIMPLE_TEST
from tests.support.lsp import NEOVIM, VSCODE, EditorClient, session, uri_of

ORIGIN = types.Range(
    start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
)


async def actions_for(
    client: EditorClient,
    uri: str,
    diagnostics: list[types.Diagnostic] | None = None,
    only: list[str] | None = None,
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=ORIGIN,
            context=types.CodeActionContext(diagnostics=diagnostics or [], only=only),
        )
    )
    result = list(found or [])
    assert all(isinstance(a, types.CodeAction) for a in result)
    return result  # type: ignore[return-value]


def eslint_diagnostic() -> types.Diagnostic:
    return types.Diagnostic(
        range=ORIGIN,
        message="Avoid destructuring queries from `render` result",
        source="eslint",
        code="testing-library/prefer-screen-queries",
    )


@pytest.mark.parametrize("capabilities", [VSCODE, NEOVIM])
async def test_actions_offered_and_not_offered(
    project: Path, workspaces: Path, capabilities: str
) -> None:
    enzyme_uri = uri_of(project / SIMPLE_TEST)
    source = project / "src/components/Counter/Counter.tsx"
    async with session(project, workspaces, capabilities=capabilities) as client:
        client.open(enzyme_uri, (project / SIMPLE_TEST).read_text())
        client.open(uri_of(source), source.read_text())
        client.open("untitled:Untitled-1", "import { mount } from 'enzyme';\n")
        client.open(uri_of(project / "README.md"), "uses enzyme\n", language="markdown")
        await client.wait_for(lambda: enzyme_uri in client.diagnostics, timeout=10)

        [diagnostic] = client.diagnostics[enzyme_uri]
        assert diagnostic.message == ENZYME_MESSAGE
        assert diagnostic.source == "testmend"
        assert diagnostic.severity == types.DiagnosticSeverity.Information
        assert diagnostic.range.start == types.Position(line=0, character=22)  # 'enzyme'

        # As a refactor (no diagnostic in the request), and as the quick fix of ours.
        [refactor, fix_source] = await actions_for(client, enzyme_uri)
        assert refactor.title == MIGRATE_TITLE
        assert refactor.kind is not None and refactor.kind.startswith("refactor.rewrite")
        assert refactor.command is not None and refactor.command.command == "testmend.migrate"
        assert list(refactor.command.arguments or []) == [enzyme_uri, 1, []]
        assert fix_source.title == FIX_TITLE and fix_source.kind == "source.testmend.fix"
        [quick] = await actions_for(client, enzyme_uri, [diagnostic], only=["quickfix"])
        assert quick.title == MIGRATE_TITLE and quick.kind == types.CodeActionKind.QuickFix
        assert list(quick.diagnostics or []) == [diagnostic]

        # A component (not a test): no migration, the lint fix as quick fix and source action.
        [lint] = await actions_for(client, uri_of(source), [eslint_diagnostic()])
        assert lint.title == FIX_TITLE and lint.kind == types.CodeActionKind.QuickFix
        assert lint.command is not None and lint.command.command == "testmend.fix"
        assert lint.command.arguments is not None
        assert lint.command.arguments[2][0]["source"] == "eslint"  # type: ignore[index]
        [source_action] = await actions_for(client, uri_of(source), only=["source"])
        assert source_action.title == FIX_TITLE
        assert await actions_for(client, uri_of(source), only=["refactor"]) == []
        # A source file no test covers: a fix could not be checked, so none is offered.
        uncovered = project / "src/hooks/useCountdown.ts"
        client.open(uri_of(uncovered), uncovered.read_text())
        assert await actions_for(client, uri_of(uncovered), [eslint_diagnostic()]) == []
        assert await actions_for(client, uri_of(uncovered), only=["source"]) == []

        # Nothing for other files, non-file URIs, or documents the editor has not opened.
        assert await actions_for(client, "untitled:Untitled-1") == []
        assert await actions_for(client, uri_of(project / "README.md")) == []
        assert await actions_for(client, uri_of(project / "src/App.test.tsx")) == []
        assert "untitled:Untitled-1" not in client.diagnostics

        # Removing the import removes the diagnostic.
        client.replace(enzyme_uri, "import { render } from '@testing-library/react';\n")
        await client.wait_for(lambda: not client.diagnostics[enzyme_uri], timeout=10)
        assert [a.title for a in await actions_for(client, enzyme_uri)] == [FIX_TITLE]


async def test_bad_settings_are_reported_naming_the_key(project: Path, workspaces: Path) -> None:
    options = {"testmend": {"retry": {"maxAttemptsPerError": 0}}}
    async with session(project, workspaces, initialization_options=options) as client:
        await client.wait_for(lambda: client.said("bad setting"), timeout=10)
        [message] = client.said("bad setting")
        assert "retry.maxAttemptsPerError" in message

        client.set_configuration({"timeouts": {"tset": 1}}, section="testmend")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await client.wait_for(lambda: len(client.said("bad setting")) == 2, timeout=10)
        assert "timeouts.tset" in client.said("bad setting")[1]

        # A good value is accepted silently; the same bad value twice is reported once.
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"testmend": {"maxConcurrentRuns": 3}})
        )
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"testmend": {"maxConcurrentRuns": 0}})
        )
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"testmend": {"maxConcurrentRuns": 0}})
        )
        await client.wait_for(lambda: len(client.said("bad setting")) == 3, timeout=10)
        assert "maxConcurrentRuns" in client.said("bad setting")[2]
        assert len(client.said("bad setting")) == 3


async def test_each_folder_runs_with_its_own_settings(project: Path, workspaces: Path) -> None:
    """Settings are asked for with the file as scopeUri: a folder of a multi-root workspace (here
    one folder of the project) may differ from the rest."""
    counter = project / "src/components/Counter"
    async with session(project, workspaces) as client:
        client.set_configuration(
            {"sandbox": {"mode": "seatbelt"}}, section="testmend", scope_uri=uri_of(counter)
        )
        client.set_configuration({}, section="testmend")
        seats = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="testmend.migrate", arguments=[uri_of(project / SIMPLE_TEST), None, []]
            )
        )
        assert seats["runId"] is None and 'sandbox.mode is "seatbelt"' in seats["error"]
        # Elsewhere the folder's setting does not apply: the run is refused for its own reason.
        other = project / "src/components/Pagination/Pagination.tsx"
        plain = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="testmend.migrate", arguments=[uri_of(other), None, []]
            )
        )
        assert "does not use Enzyme" in plain["error"]
        # A bad value in a folder's settings refuses its runs, naming the key.
        client.set_configuration(
            {"timeouts": {"test": -1}}, section="testmend", scope_uri=uri_of(counter)
        )
        bad = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="testmend.migrate", arguments=[uri_of(project / SIMPLE_TEST), None, []]
            )
        )
        assert "bad setting" in bad["error"] and "timeouts.test" in bad["error"]

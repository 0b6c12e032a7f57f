"""Bad requests get a clear message and an answer, never a crash or a hung request."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled

from testmend.lsp.server import configure_logging, parse_tcp
from tests.support.engine import SIMPLE_ENZYME, SIMPLE_TEST
from tests.support.lsp import command, session, uri_of


async def test_bad_requests_get_messages(project: Path, workspaces: Path, tmp_path: Path) -> None:
    binary = project / "src/blob.test.ts"
    binary.write_bytes(b"\0\1\2enzyme")
    huge = project / "src/huge.test.ts"
    huge.write_text("// enzyme\n" + "x" * 1_100_000)
    outside = tmp_path / "loose" / "Thing.test.tsx"
    outside.parent.mkdir()
    outside.write_text(SIMPLE_ENZYME)
    bare = tmp_path / "bare"
    (bare / "src").mkdir(parents=True)
    (bare / "package.json").write_text('{"devDependencies": {"jest": "^29.7.0"}}')
    (bare / "src/A.test.tsx").write_text(SIMPLE_ENZYME)
    no_rtl = tmp_path / "no-rtl"  # installed, but without Testing Library
    (no_rtl / "src").mkdir(parents=True)
    (no_rtl / "node_modules").mkdir()
    (no_rtl / "package.json").write_text('{"dependencies": {"react": "^16.14.0"}}')
    (no_rtl / "src/A.test.tsx").write_text(SIMPLE_ENZYME)
    async with session(project, workspaces) as client:
        component = uri_of(project / "src/components/Counter/Counter.tsx")
        cases = [
            ((), "the uri is missing"),
            ((42,), "the uri is missing"),
            ((component, "seven"), "expected a document version"),
            ((component, 1, "x"), "diagnostics as a list"),
            (("untitled:Untitled-1", 1, []), "file:// URIs"),
            ((uri_of(project / "README.md"), 1, []), "not a JavaScript or TypeScript file"),
            ((uri_of(project / "src/Missing.test.tsx"), None, []), "no such file"),
            ((uri_of(binary), None, []), "binary file"),
            ((uri_of(huge), None, []), "larger than 1 MB"),
            ((uri_of(outside), None, []), "no package.json"),
            ((uri_of(bare / "src/A.test.tsx"), None, []), "no node_modules"),
            (
                (uri_of(no_rtl / "src/A.test.tsx"), None, []),
                "Testing Library is not ready: @testing-library/react: not installed; "
                "@testing-library/jest-dom: not installed. Install it: `npm install --save-dev "
                "@testing-library/react@12 @testing-library/jest-dom@6`",
            ),
            ((component, None, []), "does not use Enzyme"),
        ]
        for arguments, expected in cases:
            answer = await command(client, "testmend.migrate", *arguments)
            assert answer["runId"] is None and expected in answer["error"], (arguments, answer)
            assert client.said(expected), expected
        named = await command(client, "testmend.migrate", {"uri": component, "version": None})
        assert "does not use Enzyme" in named["error"]
        huge_doc = uri_of(project / "src/Open.test.ts")
        client.open(huge_doc, "\0 enzyme")
        assert "binary" in (await command(client, "testmend.migrate", huge_doc, 1, []))["error"]
        for name in ("testmend.cancel", "testmend.applyResult", "testmend.showReport"):
            assert "no such run" in (await command(client, name, "nope"))["error"]
            assert "expected a run id" in (await command(client, name, 7))["error"]
        assert (await command(client, "testmend.showReport"))["shown"] is False
        # The server still answers.
        client.open(uri_of(project / SIMPLE_TEST), SIMPLE_ENZYME)
        found = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri_of(project / SIMPLE_TEST)),
                range=types.Range(
                    start=types.Position(line=0, character=0),
                    end=types.Position(line=0, character=0),
                ),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        assert found


async def test_bad_config_file_refuses_the_run(project: Path, workspaces: Path) -> None:
    (project / "testmend.config.json").write_text('{"retry": {"maxTotalAttempts": -1}}')
    async with session(project, workspaces) as client:
        uri = uri_of(project / SIMPLE_TEST)
        client.open(uri, SIMPLE_ENZYME)
        answer = await command(client, "testmend.migrate", uri, 1, [])
        assert "retry.maxTotalAttempts" in answer["error"]


def test_library_loggers_stay_quiet() -> None:
    configure_logging()
    for name in ("pygls", "pygls.protocol.json_rpc", "httpx", "langchain"):
        assert logging.getLogger(name).getEffectiveLevel() >= logging.WARNING


def test_tcp_address_parsing() -> None:
    assert parse_tcp("127.0.0.1:2087") == ("127.0.0.1", 2087)
    assert parse_tcp(":2087") == ("127.0.0.1", 2087)
    try:
        parse_tcp("localhost")
    except ValueError as exc:
        assert "HOST:PORT" in str(exc)
    else:
        raise AssertionError("accepted an address without a port")


async def test_shutdown_is_answered_while_another_request_is_still_running(
    example_copy: Path, workspaces: Path
) -> None:
    """pygls' own shutdown failed ("dictionary changed size during iteration") when a request
    ended while it went through the pending ones: the client got an internal error. The session
    ends with shutdown while the results list (which loads the engine) is still being made."""
    async with session(example_copy, workspaces) as client:
        pending = asyncio.ensure_future(command(client, "testmend.listResults"))
        await asyncio.sleep(0.05)
    with contextlib.suppress(JsonRpcRequestCancelled):  # cancelled by the shutdown: allowed
        await pending

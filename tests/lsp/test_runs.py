"""Runs through the language server: progress, applied edits, edits mid-run, cancel, lint fix.

Each full run takes real jest/eslint/tsc time (~20-40 s), so runs share a session where they can.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

from lsprotocol import types

from tests.support.engine import (
    LINT_AFTER,
    LINT_BEFORE,
    LINT_TEST,
    SIMPLE_ENZYME,
    SIMPLE_RTL,
    SIMPLE_TEST,
)
from tests.support.leftovers import in_use, left_behind
from tests.support.lsp import NEOVIM, VSCODE, EditorClient, command, session, uri_of

SECOND_TEST = "src/components/Counter/SeatsAgain.test.tsx"
PAGINATION = "src/components/Pagination/Pagination.test.tsx"


def events(client: EditorClient, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
    found = [s["event"] for s in client.run_status if s["runId"] == run_id and not s["done"]]
    return [e for e in found if kind is None or e["type"] == kind]


def finished(client: EditorClient, run_id: str) -> bool:
    return bool(events(client, run_id, "run_finished"))


def kinds(client: EditorClient, run_id: str) -> list[str | None]:
    return [getattr(v, "kind", None) for v in client.progress_reports.get(f"testmend-{run_id}", [])]


async def jest_passes(root: Path, relative: str, *, ci: bool = True) -> str:
    process = await asyncio.create_subprocess_exec(
        str(root / "node_modules/.bin/jest"),
        f"--ci={str(ci).lower()}",
        "--runTestsByPath",
        relative,
        cwd=root,
        env={**os.environ, "CI": "true" if ci else ""},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await process.communicate()
    assert process.returncode == 0, out.decode()
    return out.decode()


async def test_scripted_migration_progress_edit_and_edit_mid_run(
    project: Path, workspaces: Path
) -> None:
    (project / SECOND_TEST).write_text(SIMPLE_ENZYME, encoding="utf-8")
    first, second = uri_of(project / SIMPLE_TEST), uri_of(project / SECOND_TEST)
    async with session(project, workspaces, script="seats") as client:
        client.open(first, SIMPLE_ENZYME)
        client.open(second, SIMPLE_ENZYME)
        started = await command(client, "testmend.migrate", first, 1, [])
        run_a = started["runId"]
        assert run_a and started["file"] == SIMPLE_TEST
        refused = await command(client, "testmend.migrate", first, 1, [])
        assert refused["runId"] is None and "already has a run" in refused["error"]
        run_b = (await command(client, "testmend.migrate", second, 1, []))["runId"]
        assert run_b

        # The user types in the second file while its run works: the result must not clobber it.
        await client.wait_for(lambda: events(client, run_b, "step_started"), timeout=60)
        edited = SIMPLE_ENZYME + "\n// a note typed during the run\n"
        client.replace(second, edited)

        await client.wait_for(lambda: finished(client, run_a) and finished(client, run_b))
        await client.wait_for(lambda: client.said("changed during the run"), timeout=30)
        await client.wait_for(lambda: client.texts[first] == SIMPLE_RTL, timeout=30)

        # Progress: created by the server, begin / report… / end, with steps and tallies.
        progress = kinds(client, run_a)
        assert progress[0] == "begin" and progress[-1] == "end" and "report" in progress
        reports: list[Any] = list(client.progress_reports[f"testmend-{run_a}"])
        percentages = [r.percentage for r in reports if getattr(r, "percentage", None)]
        assert percentages == sorted(percentages) and percentages[-1] == 100
        messages = " ".join(str(getattr(r, "message", "")) for r in reports)
        assert "migrate" in messages and "tests 2/2 passing" in messages
        steps = [e["step"] for e in events(client, run_a, "step_started")]
        assert steps == [
            "research",
            "planning",
            "migrate",
            "lint",
            "typescript",
            "review",
            "finish",
        ]

        # One versioned, annotated edit against the version the run started from.
        [edit] = [e for e in client.edits if e.edit.document_changes]
        [document] = edit.edit.document_changes or []
        assert isinstance(document, types.TextDocumentEdit)
        assert document.text_document.uri == first and document.text_document.version == 1
        assert all(isinstance(e, types.AnnotatedTextEdit) for e in document.edits)
        annotation = (edit.edit.change_annotations or {})["testmend"]
        assert annotation.label == "Migrate to RTL"
        # Accepted by the engine: applied as presented (VS Code would otherwise open its preview
        # with every change unticked, and Apply would land nothing); undo restores.
        assert not annotation.needs_confirmation

        # The second file kept the user's text; its result is applied on request.
        assert client.texts[second] == edited
        applied = await command(client, "testmend.applyResult", run_b)
        assert applied == {"applied": True, "runId": run_b}
        assert client.texts[second] == SIMPLE_RTL

        shown = await command(client, "testmend.showReport", run_a)
        assert shown["shown"] is True
        assert client.shown_documents[-1].uri.endswith("report.md")
        assert Path(client.shown_documents[-1].uri.removeprefix("file://")).is_file()
        # By document: the latest report of that file.
        by_uri = await command(client, "testmend.showReport", second)
        assert by_uri["shown"] is True and f"/{run_b}/report.md" in by_uri["uri"]
        assert (await command(client, "testmend.applyResult"))["applied"] is False

    (project / SIMPLE_TEST).write_text(client.texts[first], encoding="utf-8")
    assert "2 passed" in await jest_passes(project, SIMPLE_TEST)
    assert left_behind(workspaces) == []


async def test_a_result_that_needs_review_is_kept_until_the_user_accepts_it(
    project: Path, workspaces: Path
) -> None:
    """The agent deleted the failing test: the tests pass, but the engine does not accept the
    result, so the editor gets no edit until the user applies it on purpose."""
    uri = uri_of(project / SIMPLE_TEST)
    async with session(project, workspaces, script="cheat") as client:
        client.open(uri, SIMPLE_ENZYME)
        run_id = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
        await client.wait_for(lambda: finished(client, run_id))
        [end] = events(client, run_id, "run_finished")
        assert end["status"] == "needs_review"
        assert "Seats counter increments" in end["failure_reason"]
        await client.wait_for(lambda: client.said("needs review"), timeout=30)
        [message] = client.said("needs review")
        assert "Seats counter increments" in message
        assert "Testmend: Apply kept result" in message and "testmend.applyResult" not in message
        assert client.edits == [] and client.texts[uri] == SIMPLE_ENZYME

        applied = await command(client, "testmend.applyResult", run_id)
        assert applied == {"applied": True, "runId": run_id}
        assert "it('increments'" not in client.texts[uri]
    assert (project / SIMPLE_TEST).read_text(encoding="utf-8") == SIMPLE_ENZYME


async def test_offline_migration_with_neovim_capabilities(
    project: Path, workspaces: Path, tmp_path: Path
) -> None:
    uri = uri_of(project / PAGINATION)
    original = (project / PAGINATION).read_text(encoding="utf-8")
    log = tmp_path / "serve.log"
    args = ("--verbose", "--log-file", str(log))
    async with session(project, workspaces, capabilities=NEOVIM, server_args=args) as client:
        client.open(uri, original)
        run_id = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
        await client.wait_for(lambda: finished(client, run_id))
        await client.wait_for(lambda: client.edits, timeout=30)
        assert any("no model configured" in m.message for m in client.log_messages)
        [edit] = client.edits
        assert edit.edit.document_changes is None and uri in (edit.edit.changes or {})
        assert "enzyme" not in client.texts[uri]
        assert kinds(client, run_id)[0] == "begin" and kinds(client, run_id)[-1] == "end"
        # Neovim cannot show documents: the report's path is given instead.
        shown = await command(client, "testmend.showReport")
        assert shown["shown"] is False and client.said("report:")
    # The Enzyme snapshot was recorded again from the DOM and is part of the same edit.
    snapshot = project / "src/components/Pagination/__snapshots__/Pagination.test.tsx.snap"
    assert uri_of(snapshot) in (edit.edit.changes or {})
    assert "<DocumentFragment>" in snapshot.read_text(encoding="utf-8")
    assert "re-record it (jest -u)" not in client.texts[uri]  # it travels with the test
    (project / PAGINATION).write_text(client.texts[uri], encoding="utf-8")
    await jest_passes(project, PAGINATION)
    # --verbose --log-file: the run's steps with times, no message bodies (file contents).
    logged = log.read_text(encoding="utf-8")
    assert re.search(
        r"^\d{4}-\d\d-\d\d [\d:,]+ INFO testmend\.lsp\.\w+: Pagination\.test\.tsx: "
        r"finished: succeeded$",
        logged,
        re.M,
    ), logged
    assert "describe(" not in logged and "didOpen" not in logged


async def test_cancel_mid_run(project: Path, workspaces: Path) -> None:
    uri = uri_of(project / SIMPLE_TEST)
    async with session(project, workspaces, capabilities=VSCODE) as client:
        client.open(uri, SIMPLE_ENZYME)
        run_id = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
        await client.wait_for(lambda: events(client, run_id, "step_started"), timeout=60)
        assert in_use(workspaces)  # working in its shadow workspace
        client.window_work_done_progress_cancel(
            types.WorkDoneProgressCancelParams(token=f"testmend-{run_id}")
        )
        await client.wait_for(lambda: finished(client, run_id), timeout=60)
        await client.wait_for(lambda: kinds(client, run_id)[-1:] == ["end"], timeout=30)
        [done] = events(client, run_id, "run_finished")
        assert done["status"] == "cancelled"
        assert left_behind(workspaces) == []
        # The last runStatus ends the run for clients that draw their own progress.
        await client.wait_for(
            lambda: [s for s in client.run_status if s["runId"] == run_id and s["done"]], 30
        )
        last = [s for s in client.run_status if s["runId"] == run_id][-1]
        assert (last["done"], last["event"], last["message"]) == (True, None, "cancelled")

        # The cancel command does the same, by uri.
        again = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
        await client.wait_for(lambda: events(client, again, "run_started"), timeout=60)
        assert await command(client, "testmend.cancel", uri) == {
            "cancelled": True,
            "runId": again,
        }
        assert events(client, again, "run_finished")[0]["status"] == "cancelled"
        assert client.edits == []
        assert client.texts[uri] == SIMPLE_ENZYME
        assert (await command(client, "testmend.cancel"))["cancelled"] is False
    assert left_behind(workspaces) == []


async def test_lint_quick_fix(project: Path, workspaces: Path) -> None:
    (project / LINT_TEST).write_text(LINT_BEFORE, encoding="utf-8")
    uri = uri_of(project / LINT_TEST)
    diagnostic = {"message": "Use screen", "source": "eslint", "code": "x", "line": 5}
    async with session(project, workspaces, script="lint") as client:
        client.open(uri, LINT_BEFORE)
        client.accept_edits = False  # the user closes the preview: nothing is lost
        run_id = (await command(client, "testmend.fix", uri, 1, [diagnostic]))["runId"]
        await client.wait_for(lambda: finished(client, run_id))
        await client.wait_for(lambda: client.said("was not applied (refused)"), timeout=30)
        assert client.texts[uri] == LINT_BEFORE
        client.accept_edits = True
        assert (await command(client, "testmend.applyResult", uri))["applied"] is True
        assert client.texts[uri] == LINT_AFTER
        steps = [e["step"] for e in events(client, run_id, "step_started")]
        assert steps == ["lint", "typescript", "review", "finish"]
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )


async def test_escalation_asks_the_person_and_resumes(project: Path, workspaces: Path) -> None:
    uri = uri_of(project / SIMPLE_TEST)
    options = {"testmend": {"retry": {"maxAttemptsPerError": 10}}}
    async with session(
        project, workspaces, script="escalate", initialization_options=options
    ) as client:
        client.answers.append("Retry with more attempts")
        client.open(uri, SIMPLE_ENZYME)
        run_id = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
        await client.wait_for(lambda: client.texts[uri] == SIMPLE_RTL)
        [question] = client.questions
        assert "stuck migrating" in question.message and "escalation-1.md" in question.message
        assert [a.title for a in question.actions or []] == [
            "Retry with more attempts",
            "Apply the best partial result",
            "Discard",
        ]
        assert [e["status"] for e in events(client, run_id, "run_finished")] == ["succeeded"]
        assert kinds(client, run_id)[-1] == "end"
    assert left_behind(workspaces) == []


async def test_runs_beyond_the_server_limit_are_refused(project: Path, workspaces: Path) -> None:
    (project / SECOND_TEST).write_text(SIMPLE_ENZYME, encoding="utf-8")
    first, second = uri_of(project / SIMPLE_TEST), uri_of(project / SECOND_TEST)
    async with session(project, workspaces, script="one-run") as client:
        client.open(first, SIMPLE_ENZYME)
        client.open(second, SIMPLE_ENZYME)
        run_id = (await command(client, "testmend.migrate", first, 1, []))["runId"]
        assert run_id
        refused = await command(client, "testmend.migrate", second, 1, [])
        assert refused["runId"] is None
        assert "1 runs are in progress (the limit)" in refused["error"]
        assert (await command(client, "testmend.cancel", run_id))["cancelled"] is True
        # The slot is free again.
        again = await command(client, "testmend.migrate", second, 1, [])
        assert again["runId"]
        await command(client, "testmend.cancel", again["runId"])
    assert left_behind(workspaces) == []

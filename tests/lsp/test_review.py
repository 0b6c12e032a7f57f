"""Reviewing a kept result through the language server, hunk by hunk: the results waiting are
listed from ``.testmend/`` (also by a new server), the result opens as a read-only document with
its findings as diagnostics and a lens per hunk, one hunk is rejected and the others taken, each
take one versioned edit that never lands over a changed file, and the engine records what was
taken. Offline runs of the example app's tests (the deterministic tier)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from lsprotocol import types

from testmend.engine.hunks import hunks, take
from tests.support.apps import REPO_ROOT
from tests.support.leftovers import left_behind
from tests.support.lsp import EditorClient, command, server_env, session, uri_of

COUNTDOWN = "src/components/Countdown/Countdown.test.tsx"


def _finished(client: EditorClient, run_id: str) -> bool:
    return any(
        s["runId"] == run_id and s["event"] and s["event"]["type"] == "run_finished"
        for s in client.run_status
        if not s["done"]
    )


async def _kept_run(client: EditorClient, uri: str, text: str) -> str:
    client.open(uri, text)
    run_id: str = (await command(client, "testmend.migrate", uri, 1, []))["runId"]
    await client.wait_for(lambda: _finished(client, run_id))
    await client.wait_for(lambda: client.said("kept, not applied"), timeout=30)
    return run_id


async def test_a_kept_result_is_taken_hunk_by_hunk_and_the_engine_records_it(
    example_copy: Path, workspaces: Path
) -> None:
    uri = uri_of(example_copy / COUNTDOWN)
    original = (example_copy / COUNTDOWN).read_text(encoding="utf-8")
    async with session(example_copy, workspaces) as client:
        run_id = await _kept_run(client, uri, original)
        listed = await command(client, "testmend.listResults")
        [row] = [r for r in listed["results"] if r["runId"] == run_id]
        assert row["state"] == "kept" and row["outcome"] == "needs_review"
        assert row["file"] == COUNTDOWN and row["hunks"] >= 2 and row["tests"] == [7, 7]

        opened = await command(client, "testmend.reviewResult", run_id)
        assert opened["opened"] and opened["shown"], opened
        review_uri = opened["resultUri"]
        assert client.shown_documents[-1].uri == review_uri
        document = Path(review_uri.removeprefix("file://"))
        assert document.name == "Countdown.test.result.tsx"
        assert not os.stat(document).st_mode & stat.S_IWUSR  # read-only
        content = document.read_text(encoding="utf-8")
        changes = hunks(original, content)
        assert [h["index"] for h in opened["hunks"]] == list(range(len(changes)))
        await client.wait_for(lambda: review_uri in client.diagnostics, timeout=10)
        found = client.diagnostics[review_uri]
        assert any("no-node-access" in d.message for d in found), found
        assert all(d.source == "testmend review" for d in found)

        client.open(review_uri, content)
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=review_uri))
        )
        titles = [lens.command.title for lens in lenses or [] if lens.command]
        assert f"Accept all ({len(changes)} hunks)" in titles and "Discard" in titles
        assert titles.count("Reject") == len(changes)
        first = changes[0]
        at = types.Position(line=first.changed_at - 1, character=0)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=review_uri),
                range=types.Range(start=at, end=at),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        action_titles = [a.title for a in actions or [] if isinstance(a, types.CodeAction)]
        assert f"Accept hunk 1/{len(changes)}" in action_titles, action_titles

        # The file changed meanwhile: nothing lands over it.
        client.replace(uri, original + "// edited\n")
        refused = await command(client, "testmend.acceptHunk", run_id, 0)
        assert refused["applied"] is False and "changed since" in refused["error"]
        assert client.texts[uri] == original + "// edited\n"
        client.replace(uri, original)

        last = len(changes) - 1
        rejected = await command(client, "testmend.rejectHunk", run_id, last)
        assert rejected["rejected"] and rejected["hunks"][last]["state"] == "rejected"
        took = await command(client, "testmend.acceptHunk", run_id, 0)
        assert took["applied"], took
        assert client.texts[uri] == take(original, content, [0])
        kept = list(range(last))
        rest = await command(client, "testmend.acceptResult", run_id)
        if last > 1:  # the hunks between: taken together
            assert rest["applied"], rest
        else:
            assert rest["applied"] is False and "no hunk is left" in rest["error"]
        assert client.texts[uri] == take(original, content, kept)
        assert [h["state"] for h in rest.get("hunks", took["hunks"])].count("pending") == 0
        lenses = await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=review_uri))
        )
        assert [lens.command.title for lens in lenses or [] if lens.command] == ["Discard"]
        # Each take was one versioned edit of the test file alone (the result's snapshot
        # goes only with the whole result).
        takes = [e for e in client.edits if e.label == "testmend: Countdown.test.tsx"]
        assert len(takes) == (2 if last > 1 else 1)
        for edit in takes:
            [change] = edit.edit.document_changes or []
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.uri == uri and change.text_document.version is not None

    runs = subprocess.run(
        [sys.executable, "-m", "testmend", "runs", str(example_copy), "--json"],
        capture_output=True, text=True, cwd=REPO_ROOT, env=server_env(workspaces),
    )  # fmt: skip
    [record] = [r for r in json.loads(runs.stdout) if r["run_id"] == run_id]
    assert record["status"] == "partial" and record["taken"] == kept and record["reviewed"]
    assert record["outcome_before_taken"] == "needs_review"
    report = (example_copy / ".testmend" / "runs" / run_id / "report.md").read_text()
    assert f"hunks {', '.join(map(str, kept))} of {len(changes)}" in report


async def test_the_list_survives_a_restart_and_a_discarded_result_leaves_it(
    example_copy: Path, workspaces: Path
) -> None:
    uri = uri_of(example_copy / COUNTDOWN)
    original = (example_copy / COUNTDOWN).read_text(encoding="utf-8")
    async with session(example_copy, workspaces) as client:
        run_id = await _kept_run(client, uri, original)
    async with session(example_copy, workspaces) as client:  # a new server: read from disk
        listed = await command(client, "testmend.listResults")
        assert [r["runId"] for r in listed["results"]] == [run_id]
        opened = await command(client, "testmend.reviewResult", {"runId": run_id, "show": False})
        assert opened["opened"] and not opened["shown"] and opened["uri"] == uri
        missing = await command(client, "testmend.acceptHunk", run_id, 99)
        assert missing["applied"] is False and "no hunk 99" in missing["error"]
        unknown = await command(client, "testmend.reviewResult", "20260101-000000-abcdef")
        assert unknown["opened"] is False and "no result" in unknown["error"]
        discarded = await command(client, "testmend.discardResult", run_id)
        assert discarded["discarded"]
        assert (await command(client, "testmend.listResults"))["results"] == []
        again = await command(client, "testmend.reviewResult", run_id)
        assert again["opened"] is False and "discarded" in again["error"]
    assert (example_copy / COUNTDOWN).read_text(encoding="utf-8") == original


async def test_a_folder_batch_keeps_every_result_for_review_unless_told_to_apply(
    example_copy: Path, workspaces: Path
) -> None:
    """Two folders in one batch, two runs at a time, one progress; nothing is written (the
    accepted result too is kept) until batch.applyAccepted is on."""
    folders = [uri_of(example_copy / "src/components/Pagination"), uri_of(example_copy / COUNTDOWN)]
    pagination = "src/components/Pagination/Pagination.test.tsx"
    before = {f: (example_copy / f).read_text(encoding="utf-8") for f in (pagination, COUNTDOWN)}
    async with session(example_copy, workspaces) as client:
        started = await command(client, "testmend.migrateBatch", folders)
        batch_id = started["batchId"]
        assert sorted(started["files"]) == sorted(uri_of(example_copy / f) for f in before)
        await client.wait_for(
            lambda: any(s["batchId"] == batch_id and s["finished"] for s in client.batch_status)
        )
        [last] = [s for s in client.batch_status if s["finished"]]
        assert last["total"] == last["done"] == 2 and last["left"] == 0 and not last["cancelled"]
        assert sorted(last["outcomes"].values()) == ["needs review", "succeeded"]
        assert max(s["running"] for s in client.batch_status) <= 2
        # One progress for the batch, none per run; no edit; both results listed.
        tokens = [str(t) for t in client.progress_reports]
        assert tokens == [f"testmend-{batch_id}"], tokens
        assert client.edits == []
        assert {k["batchId"] for k in client.kept} == {batch_id} and len(client.kept) == 2
        listed = await command(client, "testmend.listResults")
        assert sorted(r["outcome"] for r in listed["results"]) == ["needs_review", "succeeded"]
        assert client.said("2 files: 1 needs review, 1 succeeded")
    for file, text in before.items():
        assert (example_copy / file).read_text(encoding="utf-8") == text

    options = {"testmend": {"batch": {"applyAccepted": True}}}
    async with session(example_copy, workspaces, initialization_options=options) as client:
        client.open(uri_of(example_copy / pagination), before[pagination])
        started = await command(client, "testmend.migrateBatch", [folders[0]])
        await client.wait_for(lambda: any(s["finished"] for s in client.batch_status))
        assert "from 'enzyme'" not in client.texts[uri_of(example_copy / pagination)]


async def test_a_cancelled_batch_stops_every_run_and_leaves_nothing(
    example_copy: Path, workspaces: Path
) -> None:
    folder = uri_of(example_copy / "src/components")
    async with session(example_copy, workspaces) as client:
        started = await command(client, "testmend.migrateBatch", folder)
        assert len(started["files"]) == 10
        await client.wait_for(lambda: any(s["running"] for s in client.batch_status))
        cancelled = await command(client, "testmend.cancelBatch", started["batchId"])
        assert cancelled["cancelled"]
        [last] = [s for s in client.batch_status if s["finished"]]
        assert last["cancelled"] and last["done"] == 10
        assert "cancelled" in last["outcomes"].values()
        assert "not started (cancelled)" in last["outcomes"].values()
        assert client.edits == []
        empty = await command(client, "testmend.migrateBatch", uri_of(example_copy / "src/api"))
        assert empty["batchId"] is None and "no Enzyme test" in empty["error"]
    assert left_behind(workspaces) == []

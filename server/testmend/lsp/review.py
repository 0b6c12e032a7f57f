"""Reviewing a kept result in the editor: the result as a read-only document beside the test, its
findings as diagnostics on it, each hunk taken or rejected on its own (code lenses, code
actions, commands), and the results waiting for review listed from the runs in ``.testmend/``
(so the list survives a restart of the editor or the server).

Taking hunks never overwrites: the test file must hold the original with exactly the hunks
taken so far (``engine.hunks.take``), else the request is refused in one sentence. Each take is
one versioned workspace edit (undo restores), and the engine records what was taken
(``engine.kept.record_taken``).
"""

from __future__ import annotations

import asyncio
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls import uris

from ..layout import find_project_root, state_dir
from .apply import FileChange, workspace_edit
from .core import PendingResult, UserError, load_engine
from .results import ResultsServer

if TYPE_CHECKING:
    from ..engine import RunResult
    from ..engine.hunks import Hunk

CMD_REVIEW = "testmend.reviewResult"
CMD_ACCEPT = "testmend.acceptResult"
CMD_ACCEPT_HUNK = "testmend.acceptHunk"
CMD_REJECT_HUNK = "testmend.rejectHunk"
CMD_DISCARD = "testmend.discardResult"
CMD_LIST = "testmend.listResults"
REVIEW_SOURCE = "testmend review"
WAITING = ("kept", "partly applied", "stale")
"""Where a result waits for a person (see ``engine/kept.py``)."""


@dataclass
class Review:
    run_id: str
    root: Path
    uri: str
    """The test file's."""
    document: Path
    """The result, read-only, under ``.testmend/runs/<id>/review/``."""
    result: RunResult
    hunks: list[Hunk]
    taken: set[int] = field(default_factory=set)
    rejected: set[int] = field(default_factory=set)

    @property
    def document_uri(self) -> str:
        return uris.from_fs_path(str(self.document)) or self.document.as_uri()

    @property
    def left(self) -> list[int]:
        return [h.index for h in self.hunks if h.index not in self.taken | self.rejected]

    def hunk_at(self, line: int) -> Hunk | None:
        """The hunk whose lines of the result include ``line`` (0-based)."""
        for hunk in self.hunks:
            if hunk.updated_start - 1 <= line < hunk.updated_start - 1 + max(hunk.updated_lines, 1):
                return hunk
        return None


def _review_name(file: str) -> str:
    """``Accordion.test.tsx`` → ``Accordion.test.result.tsx``: the language is kept, and no
    test runner's default pattern (``*.test.tsx``, ``__tests__/``) takes it for a test."""
    name = Path(file).name
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.result.{ext}" if dot else f"{name}.result"


def _write_read_only(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    path.write_text(text, encoding="utf-8")
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)


def _findings(result: RunResult) -> list[types.Diagnostic]:
    """What the checks found, on the result's lines: lint and type messages where they are,
    the inventory's and the intent check's findings on their test (a lost mutant with its
    change), the conversion's notes, the reviewer agent's findings (on the first line)."""
    lines = {}
    if result.fidelity is not None:
        lines = {row.result.name: row.result.line for row in result.fidelity.rows if row.result}
    out: list[types.Diagnostic] = []

    def add(line: int, message: str, severity: types.DiagnosticSeverity, code: str) -> None:
        position = types.Position(line=max(line - 1, 0), character=0)
        out.append(
            types.Diagnostic(
                range=types.Range(start=position, end=position),
                message=message,
                severity=severity,
                source=REVIEW_SOURCE,
                code=code,
            )
        )

    warning, info = types.DiagnosticSeverity.Warning, types.DiagnosticSeverity.Information
    if result.fidelity is not None:
        for finding in result.fidelity.findings():
            where = lines.get(finding.test or "", finding.line or 1)
            add(where, finding.message, warning, finding.kind)
    for message in [*result.lint_messages, *result.type_messages]:
        severity = warning if message.severity == "error" else info
        add(message.line, f"{message.rule}: {message.message}", severity, message.tool)
    for note in result.codemod_findings:
        if note.kind != "removed":
            add(note.line, note.message, info, f"codemod {note.kind}")
    for reason in result.reasons:  # the reviewer's findings name no line of their own
        if reason.startswith("the reviewer"):
            add(1, reason, warning, "review")
    if not out and result.reasons:
        add(1, "; ".join(result.reasons[:3]), warning, "outcome")
    return out


class ReviewServer(ResultsServer):
    def __init__(self, **kwargs: Any) -> None:
        self.reviews: dict[str, Review] = {}
        super().__init__(**kwargs)

    async def on_code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        """A result under review gets its review actions; any other document its own."""
        found = self.review_actions(params)
        if found is not None:
            return found
        return await super().on_code_action(params)

    # -- finding a result ----------------------------------------------------------------------

    def _folders(self) -> list[Path]:
        folders = [Path(uris.to_fs_path(f.uri) or "") for f in self.workspace.folders.values()]
        if not folders and self.workspace.root_path:
            folders = [Path(self.workspace.root_path)]
        return [f for f in folders if str(f) and f.is_dir()]

    def _project_roots(self) -> list[Path]:
        """The projects whose runs the editor can see: those with an engine here, and those
        under the workspace folders that keep runs."""
        from ..engine.kept import projects_with_runs

        roots = list(self.engines)
        for folder in self._folders():
            roots += [find_project_root(folder), *projects_with_runs(folder)]
        return list(dict.fromkeys(r.resolve() for r in roots))

    def _root_of(self, run_id: str) -> Path:
        pending = self.pending.get(run_id)
        if pending is not None:
            path = Path(uris.to_fs_path(pending.uri) or "")
            return path.parents[len(Path(pending.result.file).parts) - 1].resolve()
        for root in self._project_roots():
            if (state_dir(root) / "runs" / run_id / "run.json").is_file():
                return root
        raise UserError(f"no result of run {run_id} in this workspace", kind="no such run")

    async def _load_review(self, run_id: str) -> Review:
        from ..engine.hunks import hunks
        from ..engine.kept import kept_result
        from ..engine.stores import open_store

        root = await asyncio.to_thread(self._root_of, run_id)
        pending = self.pending.get(run_id)
        result = pending.result if pending is not None else None
        record = await asyncio.to_thread(open_store(root).load, run_id)
        if result is None:
            result = await self._engine_for(root).result(run_id)
        if result is None:
            raise UserError(f"run {run_id} has no result ({record.status})", kind="no result")
        kept = await asyncio.to_thread(kept_result, root, record)
        if kept is None or kept.state not in WAITING:
            state = kept.state if kept else "no change"
            raise UserError(f"{Path(result.file).name}: its result is {state}, nothing to review")
        review = self.reviews.get(run_id)
        if review is None or review.result.content != result.content:
            review = Review(
                run_id=run_id,
                root=root,
                uri=uris.from_fs_path(str(root / result.file)) or "",
                document=state_dir(root) / "runs" / run_id / "review" / _review_name(result.file),
                result=result,
                # difflib over the whole file: off the event loop, like every diff here
                hunks=await asyncio.to_thread(hunks, result.original, result.content),
                taken=set(record.taken or []),
            )
            self.reviews[run_id] = review
        return review

    def _run_argument(self, args: tuple[Any, ...]) -> tuple[str, int | None]:
        """``[runId, hunk]`` or ``[{"runId", "hunk"}]``; the run id may be omitted for the
        latest kept result."""
        run_id: Any = args[0] if args else None
        index: Any = args[1] if len(args) > 1 else None
        if isinstance(run_id, dict):
            index = run_id.get("hunk", index)
            run_id = run_id.get("runId")
        if run_id is None:
            run_id = next(reversed(self.pending), None)
            if run_id is None:
                raise UserError("no result is waiting for review", kind="no result")
        if not isinstance(run_id, str) or not run_id:
            raise UserError(f"expected a run id, got {run_id!r}", kind="bad run id")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise UserError(f"expected a hunk number, got {index!r}", kind="bad hunk")
        return run_id, index

    # -- commands ------------------------------------------------------------------------------

    async def cmd_review(self, *args: Any) -> dict[str, Any]:
        """Open a kept result for review: the result as a read-only document (``show``), its
        findings as diagnostics, its hunks."""
        try:
            run_id, _ = self._run_argument(args)
            show = not (args and isinstance(args[0], dict) and args[0].get("show") is False)
            review = await self._load_review(run_id)
        except UserError as exc:
            self.refuse(exc)
            return {"opened": False, "error": str(exc)}
        await asyncio.to_thread(_write_read_only, review.document, review.result.content)
        self._publish_review(review)
        shown = False
        window = self.client_capabilities.window
        if show and window and window.show_document and window.show_document.support:
            try:
                answer = await self.window_show_document_async(
                    types.ShowDocumentParams(uri=review.document_uri, take_focus=True)
                )
                shown = answer.success
            except Exception as exc:
                self.note(f"could not open the result ({exc}): {review.document}")
        return {"opened": True, "shown": shown, **self._review_payload(review)}

    def _review_payload(self, review: Review) -> dict[str, Any]:
        result = review.result
        return {
            "runId": review.run_id,
            "uri": review.uri,
            "resultUri": review.document_uri,
            "outcome": result.status,
            "reasons": result.reasons,
            "reportPath": result.report_path,
            "hunks": [
                {
                    "index": h.index,
                    "header": h.header,
                    "line": h.changed_at - 1,
                    "state": "taken"
                    if h.index in review.taken
                    else "rejected"
                    if h.index in review.rejected
                    else "pending",
                }
                for h in review.hunks
            ],
        }

    async def cmd_accept_hunk(self, *args: Any) -> dict[str, Any]:
        return await self._take(args, whole=False)

    async def cmd_accept(self, *args: Any) -> dict[str, Any]:
        return await self._take(args, whole=True)

    async def _take(self, args: tuple[Any, ...], *, whole: bool) -> dict[str, Any]:
        try:
            run_id, index = self._run_argument(args)
            review = await self._load_review(run_id)
            if whole:
                chosen = review.left
            else:
                if index is None or not 0 <= index < len(review.hunks):
                    raise UserError(
                        f"no hunk {index} in this result ({len(review.hunks)} hunks)",
                        kind="bad hunk",
                    )
                chosen = [index]
            applied = await self._apply_hunks(review, chosen)
        except UserError as exc:
            self.refuse(exc)
            return {"applied": False, "error": str(exc)}
        return {"applied": applied, **self._review_payload(review)}

    async def _apply_hunks(self, review: Review, chosen: list[int]) -> bool:
        """Take ``chosen`` hunks on top of those taken: one versioned edit, never over a file
        that is not the original with exactly the hunks taken so far."""
        from ..engine.hunks import take

        result = review.result
        name = Path(result.file).name
        if not chosen:
            raise UserError(f"{name}: no hunk is left to take", kind="no hunk")
        current = self._current_text(review.root, result.file)
        expected = await asyncio.to_thread(take, result.original, result.content, review.taken)
        if current != expected:
            raise UserError(
                f"{name} changed since its result was made: nothing was overwritten (run the "
                "migration again on the current text)",
                kind="stale review",
            )
        taken = review.taken | set(chosen)
        updated = await asyncio.to_thread(take, result.original, result.content, taken)
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.apply_edit):
            raise UserError(f"{name}: this editor cannot apply edits", kind="no edits")
        document = self.workspace.text_documents.get(review.uri)
        version = document.version if document is not None else None
        changes = [FileChange(review.uri, version, current, updated)]
        every = taken == {h.index for h in review.hunks}
        if every:  # the snapshot and the modules it imports go with the whole result
            pending = PendingResult(review.run_id, review.uri, version, "migrate", result)
            changes += self._other_changes(pending, review.root)
        edit = workspace_edit(
            changes,
            self.client_capabilities,
            label="Take reviewed hunks",
            description=f"hunks {', '.join(str(i + 1) for i in sorted(chosen))} of "
            f"{len(review.hunks)}",
        )
        answer = await self.workspace_apply_edit_async(
            types.ApplyWorkspaceEditParams(edit=edit, label=f"testmend: {name}")
        )
        if not answer.applied:
            why = f" ({answer.failure_reason})" if answer.failure_reason else ""
            self.tell(f"{name}: the editor did not take the hunks{why}", types.MessageType.Warning)
            return False
        review.taken = taken
        await self._decided(review)
        what = "every hunk" if every else f"{len(taken)} of {len(review.hunks)} hunks"
        self.tell(f"{name}: took {what} of the result (undo restores)")
        return True

    async def cmd_reject_hunk(self, *args: Any) -> dict[str, Any]:
        try:
            run_id, index = self._run_argument(args)
            review = await self._load_review(run_id)
            if index is None or not 0 <= index < len(review.hunks):
                raise UserError(
                    f"no hunk {index} in this result ({len(review.hunks)} hunks)", kind="bad hunk"
                )
            if index in review.taken:
                raise UserError(f"hunk {index + 1} is taken already: undo takes it back")
        except UserError as exc:
            self.refuse(exc)
            return {"rejected": False, "error": str(exc)}
        review.rejected.add(index)
        await self._decided(review)
        return {"rejected": True, **self._review_payload(review)}

    async def cmd_discard(self, *args: Any) -> dict[str, Any]:
        from ..engine.kept import discard

        try:
            run_id, _ = self._run_argument(args)
            root = await asyncio.to_thread(self._root_of, run_id)
        except UserError as exc:
            self.refuse(exc)
            return {"discarded": False, "error": str(exc)}
        record = await asyncio.to_thread(discard, root, run_id)
        self.pending.pop(run_id, None)
        review = self.reviews.pop(run_id, None)
        if review is not None:
            self._clear_review(review)
        self.tell(f"{Path(record.file).name}: the result is discarded (its report stays)")
        return {"discarded": True, "runId": run_id}

    async def cmd_list(self, *args: Any) -> dict[str, Any]:
        """The runs in progress and the results waiting for review, for a results view."""
        from ..engine.kept import kept_results

        await load_engine()
        running = [
            {"runId": run.run_id, "uri": run.uri, "file": run.handle.file, "mode": run.mode}
            for run in self.active.values()
        ]
        results = []
        for root in await asyncio.to_thread(self._project_roots):
            for kept in await asyncio.to_thread(kept_results, root):
                if kept.state not in WAITING or kept.record.run_id in self.active:
                    continue
                record, summary = kept.record, kept.record.summary
                results.append(
                    {
                        "runId": record.run_id,
                        "uri": uris.from_fs_path(str(root / record.file)),
                        "file": record.file,
                        "state": kept.state,
                        "outcome": record.outcome_before_taken or record.status,
                        "tests": [summary.tests_passing, summary.tests_total] if summary else None,
                        "fidelity": summary.fidelity if summary else None,
                        "reason": record.failure_reason,
                        "hunks": kept.hunk_count,
                        "taken": kept.taken,
                        "finishedAt": record.updated_at.isoformat(),
                    }
                )
        return {"running": running, "results": results}

    # -- the review document -------------------------------------------------------------------

    def _publish_review(self, review: Review) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=review.document_uri, diagnostics=_findings(review.result)
            )
        )

    def _clear_review(self, review: Review) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=review.document_uri, diagnostics=[])
        )

    async def _decided(self, review: Review) -> None:
        """A hunk was taken or rejected: the engine records what was taken (and, once no hunk
        is left, that the review is done); the lenses change."""
        from ..engine.kept import discard, record_taken

        done = not review.left
        if done and not review.taken:  # every hunk rejected: nothing of it is wanted
            await asyncio.to_thread(discard, review.root, review.run_id)
        elif review.taken:
            await asyncio.to_thread(
                record_taken,
                review.root,
                review.run_id,
                review.taken,
                len(review.hunks),
                done=done,
            )
        if done:
            self.pending.pop(review.run_id, None)
        workspace = self.client_capabilities.workspace
        lenses = workspace.code_lens if workspace else None
        if lenses and lenses.refresh_support:
            self.workspace_code_lens_refresh(None)

    def review_of(self, uri: str) -> Review | None:
        for review in self.reviews.values():
            if review.document_uri == uri:
                return review
        return None

    def on_code_lens(self, params: types.CodeLensParams) -> list[types.CodeLens] | None:
        review = self.review_of(params.text_document.uri)
        if review is None:
            return None
        top = types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
        )
        lenses = []
        if review.left:
            lenses.append(
                _lens(top, f"Accept all ({len(review.left)} hunks)", CMD_ACCEPT, review.run_id)
            )
        lenses.append(_lens(top, "Discard", CMD_DISCARD, review.run_id))
        for hunk in review.hunks:
            if hunk.index not in review.left:
                continue
            at = types.Position(line=hunk.changed_at - 1, character=0)
            where = types.Range(start=at, end=at)
            number = f"{hunk.index + 1}/{len(review.hunks)}"
            lenses.append(
                _lens(where, f"Accept hunk {number}", CMD_ACCEPT_HUNK, review.run_id, hunk.index)
            )
            lenses.append(_lens(where, "Reject", CMD_REJECT_HUNK, review.run_id, hunk.index))
        return lenses

    def review_actions(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        """On a result under review: take or reject the hunk at the cursor, or all of it."""
        review = self.review_of(params.text_document.uri)
        if review is None:
            return None
        actions = []
        hunk = review.hunk_at(params.range.start.line)
        if hunk is not None and hunk.index in review.left:
            number = f"{hunk.index + 1}/{len(review.hunks)}"
            for title, name in ((f"Accept hunk {number}", CMD_ACCEPT_HUNK),
                                (f"Reject hunk {number}", CMD_REJECT_HUNK)):  # fmt: skip
                actions.append(
                    types.CodeAction(
                        title=title,
                        kind=types.CodeActionKind.QuickFix,
                        command=types.Command(
                            title=title, command=name, arguments=[review.run_id, hunk.index]
                        ),
                    )
                )
        if review.left:
            actions.append(_action(f"Accept all ({len(review.left)} hunks)", CMD_ACCEPT, review))
        actions.append(_action("Discard the result", CMD_DISCARD, review))
        return actions


def _lens(where: types.Range, title: str, command: str, *arguments: Any) -> types.CodeLens:
    return types.CodeLens(
        range=where, command=types.Command(title=title, command=command, arguments=list(arguments))
    )


def _action(title: str, command: str, review: Review) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.Source,
        command=types.Command(title=title, command=command, arguments=[review.run_id]),
    )

"""Finished runs: apply what the engine accepted as one workspace edit (the snapshot file with
its test), keep the rest for "Apply kept result", show reports."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls import uris

from . import actions
from .apply import FileChange, workspace_edit
from .core import (
    APPLY_TITLE,
    MAX_PENDING,
    MAX_REPORTS,
    PENDING_TTL_SECONDS,
    REPORT_TITLE,
    ActiveRun,
    PendingResult,
    RunReport,
    UserError,
    prune,
)
from .documents import DocumentsServer

RESULT_KEPT = "testmend/resultKept"
"""Sent when a finished run's result is kept for review rather than applied: ``{"runId",
"uri", "file", "status", "tests": [passing, total], "fidelity", "reasons"}``."""

if TYPE_CHECKING:
    from ..engine import RunResult


class ResultsServer(DocumentsServer):
    async def deliver(self, run: ActiveRun, result: RunResult) -> None:
        """Apply what the engine accepted; keep anything else for an explicit accept."""
        name = Path(result.file).name
        self.reports[run.run_id] = RunReport(run.uri, result.report_path)
        prune(self.reports, MAX_REPORTS)
        self._expire_pending()
        summary = result.summary
        tally = f"tests {summary.tests_passing}/{summary.tests_total} passing"
        if summary.fidelity is not None:
            tally += f", fidelity {summary.fidelity:.2f}"
        if result.status == "discarded":
            self.tell(f"{name}: result discarded")
            return
        if result.content == result.original:
            self.tell(f"{name}: {result.status}, nothing to change ({tally})")
            return
        pending = PendingResult(run.run_id, run.uri, run.version, run.mode, result)
        self.pending[run.run_id] = pending
        prune(self.pending, MAX_PENDING)
        held = run.batch is not None and not run.engine.config.batch.apply_accepted
        if not result.applies or held:
            why = f": {result.reasons[0]}" if result.reasons else ""
            more = f" (and {len(result.reasons) - 1} more)" if len(result.reasons) > 1 else ""
            self.protocol.notify(
                RESULT_KEPT,
                {
                    "runId": run.run_id,
                    "uri": run.uri,
                    "file": result.file,
                    "status": result.status,
                    "tests": [summary.tests_passing, summary.tests_total],
                    "fidelity": summary.fidelity,
                    "reasons": result.reasons,
                    **({"batchId": run.batch} if run.batch else {}),
                },
            )
            if run.batch is not None:  # the batch's progress counts it; the results list has it
                self.note(f"{name}: {result.status.replace('_', ' ')} ({tally}){why}, kept")
                return
            if self.reviews_in_client():
                self.note(f"{name}: {result.status.replace('_', ' ')} ({tally}){why}{more}")
                return
            self.tell(
                f"{name}: {result.status.replace('_', ' ')} ({tally}){why}{more}. The result is "
                f"kept, not applied: “{APPLY_TITLE}” applies it anyway, “{REPORT_TITLE}” shows "
                "the findings.",
                types.MessageType.Warning,
            )
            return
        await self.apply_pending(pending, against_current=False)

    def reviews_in_client(self) -> bool:
        """The client shows kept results itself (with a way to review them): it declares
        ``experimental.testmendReview`` (the VS Code extension does)."""
        experimental = self.client_capabilities.experimental
        return isinstance(experimental, dict) and bool(experimental.get("testmendReview"))

    def _expire_pending(self) -> None:
        """Kept results nobody applied within the hour go (the report stays on disk)."""
        now = time.monotonic()
        for run_id, pending in list(self.pending.items()):
            if now - pending.kept_at > PENDING_TTL_SECONDS:
                del self.pending[run_id]
                self.note(f"{Path(pending.result.file).name}: the kept result expired")

    def _current_text(self, root: Path, relative: str) -> str | None:
        """A file as the editor has it (open buffer) or as it is on disk."""
        path = root / relative
        uri = uris.from_fs_path(str(path)) or path.as_uri()
        document = self.workspace.text_documents.get(uri)
        if document is not None:
            return str(document.source)
        try:
            return path.read_text(encoding="utf-8") if path.is_file() else None
        except (OSError, UnicodeDecodeError):
            return None

    def _other_changes(self, pending: PendingResult, root: Path) -> list[FileChange]:
        """The result's other files (a re-recorded snapshot) as LSP changes, when still as the
        run found them."""
        from ..engine.changes import result_changes, write_changes  # loaded by the run

        result = pending.result
        changes = []
        creates = self._creates_files()
        for change in result_changes(result)[1:]:
            current = self._current_text(root, change.path)
            if current == change.updated:
                continue  # already as the result has it (a module another result added)
            if change.original is None and current is None and change.updated is not None:
                if not creates:  # the editor cannot create it in the edit: the file is new
                    write_changes(root, [change])
                    self.note(f"created {change.path} (the result imports it)")
                    continue
            elif change.updated is None or current not in (change.original, change.updated):
                self.tell(
                    f"{change.path} is not part of the edit (created, deleted or changed "
                    "meanwhile): run the test once with `jest -u` to record it",
                    types.MessageType.Warning,
                )
                continue
            path = root / change.path
            uri = uris.from_fs_path(str(path)) or path.as_uri()
            document = self.workspace.text_documents.get(uri)
            version = document.version if document is not None else None
            created = change.original is None
            changes.append(
                FileChange(uri, version, change.original or "", change.updated, create=created)
            )
        return changes

    def _creates_files(self) -> bool:
        """Whether the client creates files from a workspace edit (``resourceOperations``)."""
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace else None
        operations = (edit.resource_operations or []) if edit else []
        return bool(
            edit and edit.document_changes and types.ResourceOperationKind.Create in operations
        )

    async def apply_pending(self, pending: PendingResult, *, against_current: bool) -> bool:
        """Apply a kept result; ``against_current`` replaces whatever the buffer holds now."""
        from ..engine.changes import changed_since, result_changes  # loaded by the run

        result = pending.result
        name = Path(result.file).name
        test_path = Path(uris.to_fs_path(pending.uri) or "")
        root = test_path.parents[len(Path(result.file).parts) - 1]
        document = self.workspace.text_documents.get(pending.uri)
        version = document.version if document is not None else None
        current = self._current_text(root, result.file)
        if current is None:
            self.tell(f"{name}: cannot read it to apply the result")
            return False
        stale = changed_since(result_changes(result)[:1], lambda rel: current)
        if not against_current and (stale or version != pending.version):
            self.tell(
                f"{name} changed during the run: nothing was overwritten. The result is kept: "
                f"“{APPLY_TITLE}” applies it over the current text.",
                types.MessageType.Warning,
            )
            return False
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.apply_edit):
            self.tell(f"{name}: this editor cannot apply edits; see “{REPORT_TITLE}”")
            return False
        changes = [FileChange(pending.uri, version, current, result.content)]
        changes += self._other_changes(pending, root)
        edit = workspace_edit(
            changes,
            self.client_capabilities,
            label=actions.MIGRATE_TITLE if pending.mode == "migrate" else actions.FIX_TITLE,
            description=f"{result.status}: tests {result.summary.tests_passing}/"
            f"{result.summary.tests_total} passing",
        )
        try:
            answer = await self.workspace_apply_edit_async(
                types.ApplyWorkspaceEditParams(edit=edit, label=f"testmend: {name}")
            )
        except Exception as exc:
            self.tell(f"{name}: the editor did not apply the result ({exc}); it is kept")
            return False
        if not answer.applied:
            why = f" ({answer.failure_reason})" if answer.failure_reason else ""
            self.tell(
                f"{name}: the result was not applied{why}; it is kept: “{APPLY_TITLE}” applies "
                "it later.",
                types.MessageType.Warning,
            )
            return False
        self.pending.pop(pending.run_id, None)
        summary = result.summary
        self.tell(
            f"{name}: {result.status.replace('_', ' ')}, tests {summary.tests_passing}/"
            f"{summary.tests_total} passing — applied (undo restores the original)"
        )
        return True

    async def cmd_apply(self, *args: Any) -> dict[str, Any]:
        try:
            run_id = self._run_id_argument(args, self.pending)
        except UserError as exc:
            self.refuse(exc)
            return {"applied": False, "error": str(exc)}
        if run_id is None:
            self.tell("no result is waiting to be applied", mistake="no result")
            return {"applied": False}
        applied = await self.apply_pending(self.pending[run_id], against_current=True)
        return {"applied": applied, "runId": run_id}

    async def cmd_report(self, *args: Any) -> dict[str, Any]:
        try:
            run_id = self._run_id_argument(args, self.reports)
        except UserError as exc:
            self.refuse(exc)
            return {"shown": False, "error": str(exc)}
        if run_id is None:
            self.tell("no report yet: run `Migrate to RTL` first", mistake="no report")
            return {"shown": False}
        path = self.reports[run_id].path
        uri = uris.from_fs_path(path) or path
        window = self.client_capabilities.window
        if not (window and window.show_document and window.show_document.support):
            self.tell(f"report: {path}")
            return {"shown": False, "uri": uri}
        try:
            shown = await self.window_show_document_async(
                types.ShowDocumentParams(uri=uri, take_focus=True)
            )
        except Exception as exc:
            self.tell(f"report: {path} ({exc})")
            return {"shown": False, "uri": uri}
        return {"shown": shown.success, "uri": uri}

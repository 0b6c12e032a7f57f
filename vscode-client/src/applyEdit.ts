// How a result lands: the server's `workspace/applyEdit` is applied as a refactoring. VS Code then
// saves the files of a multi-file edit (`files.refactoring.autoSave`, on by default), so the
// migrated test and its re-recorded snapshot reach the disk together and the project's jest sees
// both; one undo restores both. vscode-languageclient applies edits without that flag.
// A one-file edit of a file no editor shows (Migrate from the explorer) is saved the same way:
// otherwise it would wait, changed but unseen, in a buffer. One that an editor shows stays there
// unsaved, as any one-file refactoring in VS Code does.
import * as vscode from 'vscode';
import type {
  ApplyWorkspaceEditParams,
  ApplyWorkspaceEditResult,
  WorkspaceEdit,
} from 'vscode-languageclient';

export interface EditConverter {
  asWorkspaceEdit(edit: WorkspaceEdit): Promise<vscode.WorkspaceEdit>;
  asUri(uri: string): vscode.Uri;
}

/** The open documents whose version is not the one the server edited. */
function staleDocuments(edit: WorkspaceEdit, convert: EditConverter): string[] {
  const open = new Map(vscode.workspace.textDocuments.map((doc) => [doc.uri.toString(), doc]));
  const stale: string[] = [];
  for (const change of edit.documentChanges ?? []) {
    if (!('textDocument' in change) || typeof change.textDocument.version !== 'number') continue;
    const uri = convert.asUri(change.textDocument.uri);
    const document = open.get(uri.toString());
    if (document && document.version !== change.textDocument.version) {
      stale.push(vscode.workspace.asRelativePath(uri));
    }
  }
  return stale;
}

export async function applyAsRefactoring(
  params: ApplyWorkspaceEditParams,
  convert: EditConverter,
): Promise<ApplyWorkspaceEditResult> {
  const stale = staleDocuments(params.edit, convert);
  if (stale.length > 0) {
    return { applied: false, failureReason: `${stale.join(', ')} changed meanwhile` };
  }
  const edit = await convert.asWorkspaceEdit(params.edit);
  const uris = edit.entries().map(([uri]) => uri);
  const dirtyBefore = new Set(
    vscode.workspace.textDocuments.filter((doc) => doc.isDirty).map((doc) => doc.uri.toString()),
  );
  const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
  if (!applied) return { applied, failureReason: 'VS Code did not apply the edit' };
  await saveUnseen(uris, dirtyBefore);
  return { applied };
}

async function saveUnseen(uris: vscode.Uri[], dirtyBefore: Set<string>): Promise<void> {
  const shown = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
  for (const uri of uris) {
    const key = uri.toString();
    if (shown.has(key) || dirtyBefore.has(key)) continue;
    if (!vscode.workspace.getConfiguration('files', uri).get<boolean>('refactoring.autoSave', true)) continue;
    const document = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === key);
    if (document?.isDirty) await document.save();
  }
}

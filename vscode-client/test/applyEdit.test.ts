import { beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceEdit } from 'vscode-languageclient';
import { applyAsRefactoring, type EditConverter } from '../src/applyEdit';
import { stub, stubDocument, Uri } from './stub/vscode';

const ROOT = Uri.file('/work/app');
const TEST = Uri.file('/work/app/src/Counter.test.tsx');
const SNAPSHOT = Uri.file('/work/app/src/__snapshots__/Counter.test.tsx.snap');

const replaceAll = (text: string) => ({
  range: { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } },
  newText: text,
});

/** The server's edit: the test (at the version it read) and its snapshot (not open). */
function serverEdit(testVersion: number | null): WorkspaceEdit {
  return {
    documentChanges: [
      { textDocument: { uri: TEST.toString(), version: testVersion }, edits: [replaceAll('rtl')] },
      { textDocument: { uri: SNAPSHOT.toString(), version: null }, edits: [replaceAll('dom')] },
    ],
  };
}

/** Converts as vscode-languageclient would, to the stub's edit (its resources, in order). */
const convert: EditConverter = {
  asUri: (uri) => Uri.parse(uri) as never,
  asWorkspaceEdit: async (edit) => {
    const uris = (edit.documentChanges ?? []).map((change) =>
      Uri.parse((change as { textDocument: { uri: string } }).textDocument.uri),
    );
    return { entries: () => uris.map((uri) => [uri, []]) } as never;
  },
};

describe('a result lands as a refactoring', () => {
  beforeEach(() => {
    stub.reset();
    stub.workspaceFolders = [{ uri: ROOT, name: 'app', index: 0 }];
  });

  it('is applied with isRefactoring (VS Code saves a multi-file edit); unseen files are saved, the shown one is left to the person', async () => {
    const test = stubDocument(TEST, 4);
    stub.textDocuments.push(test);
    stub.visibleDocuments.push(test);
    expect(await applyAsRefactoring({ edit: serverEdit(4) }, convert)).toEqual({ applied: true });
    expect(stub.appliedEdits).toHaveLength(1);
    expect(stub.appliedEdits[0].metadata).toEqual({ isRefactoring: true });
    const snapshot = stub.textDocuments.find((doc) => doc.uri.toString() === SNAPSHOT.toString());
    expect(snapshot).toMatchObject({ saved: 1, isDirty: false });
    expect(test).toMatchObject({ saved: 0, isDirty: true });
  });

  it('leaves a file that had unsaved changes before unsaved, and honours files.refactoring.autoSave', async () => {
    const snapshot = stubDocument(SNAPSHOT, 2, true);
    stub.textDocuments.push(snapshot);
    await applyAsRefactoring({ edit: serverEdit(null) }, convert);
    expect(snapshot.saved).toBe(0);
    const test = stub.textDocuments.find((doc) => doc.uri.toString() === TEST.toString());
    expect(test?.saved).toBe(1);

    stub.textDocuments = [];
    stub.settings.global.set('files.refactoring.autoSave', false);
    await applyAsRefactoring({ edit: serverEdit(null) }, convert);
    expect(stub.textDocuments.map((doc) => [doc.saved, doc.isDirty])).toEqual([
      [0, true],
      [0, true],
    ]);
  });

  it('refuses, naming the file, when an open document is not at the version the server edited', async () => {
    stub.textDocuments.push(stubDocument(TEST, 5, true));
    expect(await applyAsRefactoring({ edit: serverEdit(4) }, convert)).toEqual({
      applied: false,
      failureReason: 'src/Counter.test.tsx changed meanwhile',
    });
    expect(stub.appliedEdits).toEqual([]);
  });

  it('says so when VS Code does not apply the edit', async () => {
    stub.applyEditAnswer = false;
    expect(await applyAsRefactoring({ edit: serverEdit(null) }, convert)).toEqual({
      applied: false,
      failureReason: 'VS Code did not apply the edit',
    });
  });
});

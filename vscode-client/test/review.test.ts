// Reviewing kept results from VS Code: the notification's Review button, the diff editor, the
// review commands' arguments from lenses, editor titles and the results view, the view's groups
// and the status bar's count. The server is a recording stand-in (the wire: server.integration).
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/controller';
import { RESULTS_VIEW, type ResultNode } from '../src/results';
import { REVIEW_COMMANDS, runIdOf } from '../src/review';
import { stub, type TreeItem, Uri } from './stub/vscode';
import { activated } from './support/activate';

const RUN = '20261126-060000-abcdef';
const TEST = 'file:///project/src/Accordion.test.tsx';
const RESULT = `file:///project/.testmend/runs/${RUN}/review/Accordion.test.result.tsx`;
const OPENED = {
  opened: true,
  shown: false,
  runId: RUN,
  uri: TEST,
  resultUri: RESULT,
  outcome: 'needs_review',
  hunks: [{ index: 0, header: '@@ -1,3 +1,4 @@', line: 1, state: 'pending' }],
};
const LISTED = {
  running: [{ runId: 'r-live', uri: 'file:///project/src/Live.test.tsx', file: 'src/Live.test.tsx', mode: 'migrate' }],
  results: [
    {
      runId: RUN,
      uri: TEST,
      file: 'src/Accordion.test.tsx',
      state: 'kept',
      outcome: 'needs_review',
      tests: [7, 7],
      fidelity: 1,
      reason: '1 lint message(s) left',
      hunks: 3,
      taken: [],
    },
    {
      runId: 'r-failed',
      uri: 'file:///project/src/Form.test.tsx',
      file: 'src/Form.test.tsx',
      state: 'partly applied',
      outcome: 'failed',
      tests: [3, 7],
      fidelity: null,
      reason: '4 of 7 tests fail',
      hunks: 4,
      taken: [0, 2],
    },
  ],
};

const view = () => stub.treeViews.find((candidate) => candidate.id === RESULTS_VIEW)!;

describe('the run a review command is about', () => {
  it('is a run id, a results-view item, or the review document VS Code passes', () => {
    expect(runIdOf(RUN)).toBe(RUN);
    expect(runIdOf({ runId: RUN })).toBe(RUN);
    expect(runIdOf(Uri.parse(RESULT))).toBe(RUN);
    expect(runIdOf(RESULT)).toBe(RUN);
    expect(runIdOf({ kind: 'result', result: { runId: RUN, uri: TEST } })).toBe(RUN); // a row's menu
    expect(runIdOf(Uri.parse(TEST))).toBeUndefined();
    expect(runIdOf(undefined)).toBeUndefined();
  });
});

describe('reviewing a kept result', () => {
  it("the kept result's notification opens the review beside the test in a diff editor", async () => {
    const { client } = await activated();
    client().answers.set(REVIEW_COMMANDS.review, OPENED);
    stub.messageAnswers.push('Review');
    client().keep({ runId: RUN, uri: TEST, file: 'src/Accordion.test.tsx' });
    await expect.poll(() => stub.executed.map((e) => e.command)).toContain('vscode.diff');
    const [message] = stub.messages;
    expect(message.kind).toBe('warning');
    expect(message.message).toBe(
      'testmend: Accordion.test.tsx: needs review (tests 7/7 passing, fidelity 1.00): 1 lint message(s) left. The result is kept, not applied.',
    );
    expect(message.items).toEqual(['Review', 'Show report']);
    expect(client().commands).toEqual([{ command: REVIEW_COMMANDS.review, args: [{ runId: RUN, show: false }] }]);
    const diff = stub.executed.find((e) => e.command === 'vscode.diff')!;
    const [left, right, title] = diff.args as [Uri, Uri, string];
    expect([left.toString(), right.toString()]).toEqual([TEST, RESULT]);
    expect(title).toBe('Accordion.test.tsx ↔ testmend result (needs review)');
  });

  it('"Show report" asks the server for that run\'s report', async () => {
    const { client } = await activated();
    stub.messageAnswers.push('Show report');
    client().keep({ runId: RUN });
    await expect.poll(() => client().commands).toEqual([{ command: REVIEW_COMMANDS.report, args: [RUN] }]);
  });

  it('the review commands get their run and hunk from a lens, an editor title or the view', async () => {
    const { client } = await activated();
    const hook = client().init.onCommand!;
    const sent: { command: string; args: unknown[] }[] = [];
    const next = async (command: string, args: unknown[]) => {
      sent.push({ command, args });
      return { applied: true };
    };
    await hook(REVIEW_COMMANDS.acceptHunk, [RUN, 2], next); // a code lens
    await hook(REVIEW_COMMANDS.rejectHunk, [RUN, 0], next);
    await hook(REVIEW_COMMANDS.accept, [Uri.parse(RESULT)], next); // the diff editor's title
    await hook(REVIEW_COMMANDS.discard, [{ runId: RUN }], next); // the results view
    await hook(REVIEW_COMMANDS.report, [Uri.parse(RESULT)], next);
    await hook(REVIEW_COMMANDS.accept, [], next); // the palette: the server picks the latest
    await hook('testmend.migrate', ['file:///x.test.tsx', 1, []], next); // others pass through
    expect(sent).toEqual([
      { command: REVIEW_COMMANDS.acceptHunk, args: [RUN, 2] },
      { command: REVIEW_COMMANDS.rejectHunk, args: [RUN, 0] },
      { command: REVIEW_COMMANDS.accept, args: [RUN] },
      { command: REVIEW_COMMANDS.discard, args: [RUN] },
      { command: REVIEW_COMMANDS.report, args: [RUN] },
      { command: REVIEW_COMMANDS.accept, args: [] },
      { command: 'testmend.migrate', args: ['file:///x.test.tsx', 1, []] },
    ]);
    // reviewResult opens the diff editor instead of the server's read-only document alone.
    client().answers.set(REVIEW_COMMANDS.review, OPENED);
    await hook(REVIEW_COMMANDS.review, [{ runId: RUN }], next);
    expect(client().commands.at(-1)).toEqual({ command: REVIEW_COMMANDS.review, args: [{ runId: RUN, show: false }] });
    expect(stub.executed.map((e) => e.command)).toContain('vscode.diff');
  });

  it('a review the server refuses opens nothing', async () => {
    const { client } = await activated();
    client().answers.set(REVIEW_COMMANDS.review, { opened: false, error: 'its result is applied, nothing to review' });
    const answer = await client().init.onCommand!(REVIEW_COMMANDS.review, [RUN], async () => undefined);
    expect(answer).toEqual({ opened: false, error: 'its result is applied, nothing to review' });
    expect(stub.executed.map((e) => e.command)).not.toContain('vscode.diff');
  });
});

describe('the results view', () => {
  it('groups the runs and the kept results by outcome; a click reviews; the status bar counts them', async () => {
    const { client, controller } = await activated();
    client().answers.set(REVIEW_COMMANDS.list, LISTED);
    await stub.commands.get(COMMANDS.refreshResults)!();
    const groups = view().provider.getChildren() as ResultNode[];
    const label = (node: ResultNode) => (view().provider.getTreeItem(node) as TreeItem).label;
    expect(groups.map(label)).toEqual(['Running (1)', 'Needs review (1)', 'Failed (1)']);
    const [review] = view().provider.getChildren(groups[1]) as ResultNode[];
    const item = view().provider.getTreeItem(review) as TreeItem;
    expect(item).toMatchObject({
      label: 'Accordion.test.tsx',
      description: 'tests 7/7 · fidelity 1.00',
      contextValue: 'testmend.result',
      command: { command: REVIEW_COMMANDS.review, arguments: [{ runId: RUN }] },
    });
    const [failed] = view().provider.getChildren(groups[2]) as ResultNode[];
    expect((view().provider.getTreeItem(failed) as TreeItem).description).toBe('tests 3/7 · 2 of 4 hunks taken');
    expect(controller.results.waiting).toBe(2);
    expect(stub.statusItems[0].text).toBe('$(checklist) testmend: 2 to review');
    expect(stub.statusItems[0].command).toBe(COMMANDS.showResults);
    // A run under way shows its step and tally.
    const [live] = view().provider.getChildren(groups[0]) as ResultNode[];
    expect((view().provider.getTreeItem(live) as TreeItem).description).toBe('migrating');
    client().emit({ runId: 'r-live', message: 'migrate · tests 3/7 passing' });
    expect((view().provider.getTreeItem(live) as TreeItem).description).toBe('migrate · tests 3/7 passing');
  });

  it("a row's context menu runs the migration of its file again", async () => {
    const { client } = await activated();
    const row = { kind: 'result', result: LISTED.results[0] };
    await stub.commands.get(COMMANDS.migrate)!(row);
    expect(client().commands).toEqual([{ command: 'testmend.migrate', args: [TEST, null, []] }]);
  });

  it('is asked again when the server starts, a run starts or ends and a result is kept', async () => {
    const { client } = await activated();
    const before = client().lists;
    expect(before).toBeGreaterThan(0); // the server's start
    client().emit({ runId: 'r1', event: { type: 'run_started' } });
    await expect.poll(() => client().lists).toBe(before + 1);
    client().emit({ runId: 'r1', done: true, event: null });
    await expect.poll(() => client().lists).toBe(before + 2);
    client().keep({ runId: 'r1' });
    await expect.poll(() => client().lists).toBe(before + 3);
  });

  it('asks once more, not once per event, for a burst; a batch only when a file of it ends', async () => {
    const { client } = await activated();
    const before = client().lists;
    client().keep({ runId: 'r1' });
    client().keep({ runId: 'r2' });
    client().keep({ runId: 'r3' });
    await expect.poll(() => client().lists).toBe(before + 2); // the first, then one for the rest
    client().batch({ batchId: 'b1', running: 2, left: 1 });
    client().batch({ batchId: 'b1', running: 2, left: 1 }); // a count that changed nothing listed
    client().emit({ runId: 'r4', batchId: 'b1', done: true, event: null });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client().lists).toBe(before + 3); // the batch's first status only
    client().batch({ batchId: 'b1', running: 1, done: 1, left: 1 });
    await expect.poll(() => client().lists).toBe(before + 4);
  });
});

describe('migrating a folder', () => {
  it('sends the folders in one batch; one notification counts its files and cancels them all', async () => {
    const { client } = await activated();
    const folder = Uri.file('/project/src/components');
    const other = Uri.file('/project/src/pages');
    await stub.commands.get(COMMANDS.migrateFolder)!(folder, [folder, other]);
    expect(client().commands).toEqual([
      { command: 'testmend.migrateBatch', args: [[folder.toString(), other.toString()]] },
    ]);
    client().batch({ batchId: 'b1', running: 2, left: 1 });
    client().emit({ runId: 'r1', batchId: 'b1' }); // a run of the batch: no notification of its own
    client().keep({ runId: 'r1', batchId: 'b1' }); // its result: listed, no message
    await expect.poll(() => stub.progress.length).toBe(1);
    const [shown] = stub.progress;
    expect(shown.title).toBe('testmend: Migrating components');
    expect(shown.reports.at(-1)?.message).toBe('0/3 done, 2 running, 1 left');
    expect(stub.statusItems[0].text).toBe('$(loading~spin) testmend: 2 runs');
    client().batch({ batchId: 'b1', running: 1, done: 2, left: 0, outcomes: { a: 'succeeded', b: 'needs review' } });
    expect(shown.reports.at(-1)).toEqual({ message: '2/3 done, 1 running, 0 left', increment: 66 });
    client().answers.set('testmend.cancelBatch', { cancelled: true, batchId: 'b1' });
    shown.cancel();
    await expect.poll(() => client().commands.at(-1)).toEqual({ command: 'testmend.cancelBatch', args: ['b1'] });
    client().batch({ batchId: 'b1', running: 0, done: 3, left: 0, finished: true, cancelled: true });
    await shown.done;
    expect(shown.finished).toBe(true);
    expect(stub.messages).toEqual([]);
    expect(stub.statusItems[0].text).toBe('$(check) testmend');
  });

  it('without a folder picked: the workspace folder; without one, a warning', async () => {
    const { client } = await activated();
    await stub.commands.get(COMMANDS.migrateFolder)!();
    expect(client().commands).toEqual([]);
    expect(stub.messages.map((m) => m.message)).toEqual(['testmend: pick a folder in the explorer']);
    stub.workspaceFolders = [{ uri: Uri.file('/project'), name: 'project', index: 0 }];
    await stub.commands.get(COMMANDS.migrateFolder)!();
    expect(client().commands).toEqual([{ command: 'testmend.migrateBatch', args: [['file:///project']] }]);
  });
});

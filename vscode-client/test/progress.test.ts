import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/controller';
import { ProgressLocation, stub } from './stub/vscode';
import { activated } from './support/activate';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('run progress', () => {
  it('one cancellable notification per run, fed by testmend/runStatus, closed when done', async () => {
    const { client } = await activated();
    client().emit({ runId: 'r1', title: 'Migrating Pagination.test.tsx', message: 'research', percentage: 5 });
    client().emit({ runId: 'r1', message: 'migrate · run_test_file', percentage: 35 });
    client().emit({ runId: 'r1', message: 'lint · tests 3/3 passing', percentage: 80 });
    client().emit({ runId: 'r1', message: 'lint', percentage: 75 }); // never goes back
    expect(stub.progress).toHaveLength(1);
    const [shown] = stub.progress;
    expect(shown).toMatchObject({
      title: 'testmend: Migrating Pagination.test.tsx',
      location: ProgressLocation.Notification,
      cancellable: true,
    });
    expect(shown.reports).toEqual([
      { message: 'research', increment: 5 },
      { message: 'migrate · run_test_file', increment: 30 },
      { message: 'lint · tests 3/3 passing', increment: 45 },
      { message: 'lint', increment: 0 },
    ]);
    client().emit({ runId: 'r1', done: true, event: null, message: 'succeeded' });
    await shown.done;
    expect(shown.finished).toBe(true);
  });

  it('a run started from the lightbulb (not by the extension) gets its notification too', async () => {
    const { client } = await activated();
    client().emit({ runId: 'from-code-action', title: 'Fixing Form.test.tsx' });
    expect(stub.progress.map((p) => p.title)).toEqual(['testmend: Fixing Form.test.tsx']);
  });

  it("the notification's cancel button sends testmend.cancel for that run", async () => {
    const { client } = await activated();
    client().emit({ runId: 'r1' });
    client().emit({ runId: 'r2' });
    stub.progress[1].cancel();
    await tick();
    expect(client().commands).toEqual([{ command: 'testmend.cancel', args: ['r2'] }]);
    expect(stub.progress[1].reports.at(-1)).toEqual({ message: 'cancelling…' });
    expect(stub.progress[1].finished).toBe(false); // until the server says the run ended
    client().emit({ runId: 'r2', done: true, event: null, message: 'cancelled' });
    await stub.progress[1].done;
    expect(stub.progress[0].finished).toBe(false);
  });

  it('a cancel the server cannot take still closes the notification', async () => {
    const { client } = await activated();
    client().executeCommand = async () => {
      throw new Error('server gone');
    };
    client().emit({ runId: 'r1' });
    stub.progress[0].cancel();
    await stub.progress[0].done;
    expect(stub.progress[0].finished).toBe(true);
  });

  it('restarting the server closes the notifications of its runs', async () => {
    const { client } = await activated();
    client().emit({ runId: 'r1' });
    await stub.commands.get(COMMANDS.restart)!();
    await stub.progress[0].done;
    expect(stub.progress[0].finished).toBe(true);
    await stub.commands.get(COMMANDS.cancel)!();
    expect(stub.messages.at(-1)?.message).toBe('testmend: no run in progress');
  });

  it('statuses of a finished run do not reopen it', async () => {
    const { client } = await activated();
    client().emit({ runId: 'r1', done: true, event: null });
    expect(stub.progress).toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/controller';
import { stub } from './stub/vscode';
import { activated } from './support/activate';

const item = () => {
  expect(stub.statusItems).toHaveLength(1);
  return stub.statusItems[0];
};

describe('status bar item', () => {
  it('shows a running server, its runs, and opens the results view when clicked', async () => {
    const { client } = await activated();
    expect(item()).toMatchObject({ text: '$(check) testmend', visible: true, command: COMMANDS.showResults });
    expect(item().tooltip).toBe(
      'testmend: running python3 -m testmend serve (from the default, python3 on PATH)',
    );
    client().emit({ runId: 'r1' });
    client().emit({ runId: 'r2' });
    expect(item().text).toBe('$(loading~spin) testmend: 2 runs');
    client().emit({ runId: 'r1', done: true, event: null });
    expect(item().text).toBe('$(loading~spin) testmend: 1 run');
    client().emit({ runId: 'r2', done: true, event: null });
    expect(item().text).toBe('$(check) testmend');
  });

  it('keeps a failed start visible after the error message is gone', async () => {
    await activated({
      probe: async () => ({ ok: false, reason: 'not-installed', message: 'testmend is not installed for python3' }),
    });
    expect(item().text).toBe('$(error) testmend');
    expect(item().tooltip).toBe('testmend: testmend is not installed for python3');
    expect(item().backgroundColor?.id).toBe('statusBarItem.errorBackground');
  });

  it('goes away with the extension', async () => {
    const { controller } = await activated();
    await controller.dispose();
    expect(item().disposed).toBe(true);
    expect(stub.output().disposed).toBe(true);
  });
});

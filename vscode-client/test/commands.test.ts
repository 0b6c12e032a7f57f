import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/controller';
import { DiagnosticSeverity, stub, Uri } from './stub/vscode';
import { activated } from './support/activate';

const run = (id: string, ...args: unknown[]) => stub.commands.get(id)!(...args);
const testFile = Uri.file('/project/src/Button.test.tsx');
const otherTest = Uri.file('/project/src/Card.spec.jsx');

describe('Migrate to RTL', () => {
  it('from the editor context menu: the file, its open version, no diagnostics', async () => {
    const { client } = await activated();
    stub.textDocuments = [{ uri: testFile, version: 7 }];
    const answers = await run(COMMANDS.migrate, testFile);
    expect(client().commands).toEqual([
      { command: 'testmend.migrate', args: ['file:///project/src/Button.test.tsx', 7, []] },
    ]);
    expect(answers).toEqual([{ runId: 'run-1' }]);
  });

  it('from the explorer with several files selected: one run each, version null when closed', async () => {
    const { client } = await activated();
    await run(COMMANDS.migrate, testFile, [testFile, otherTest]);
    expect(client().commands).toEqual([
      { command: 'testmend.migrate', args: [testFile.toString(), null, []] },
      { command: 'testmend.migrate', args: [otherTest.toString(), null, []] },
    ]);
  });

  it('from the palette: the active editor file', async () => {
    const { client } = await activated();
    stub.activeDocument = { uri: otherTest, version: 3 };
    stub.textDocuments = [stub.activeDocument];
    await run(COMMANDS.migrate);
    expect(client().commands).toEqual([
      { command: 'testmend.migrate', args: [otherTest.toString(), 3, []] },
    ]);
  });

  it('with no file: a warning and nothing sent', async () => {
    const { client } = await activated();
    await run(COMMANDS.migrate);
    expect(client().commands).toEqual([]);
    expect(stub.messages.map((m) => m.message)).toEqual([
      'testmend: open a test file, or pick one in the explorer',
    ]);
  });

  it('an untitled buffer is refused with a reason', async () => {
    const { client } = await activated();
    await run(COMMANDS.migrate, Uri.parse('untitled:Untitled-1'));
    expect(client().commands).toEqual([]);
    expect(stub.messages[0].message).toBe('testmend: save Untitled-1 as a file first');
  });
});

describe('Fix lint/TS errors', () => {
  it("sends the file's eslint and TypeScript problems, not testmend's own hints", async () => {
    const { client } = await activated();
    stub.diagnostics.set(testFile.toString(), [
      {
        range: { start: { line: 4, character: 2 } },
        message: "'wrapper' is assigned a value but never used.",
        source: 'eslint',
        code: { value: '@typescript-eslint/no-unused-vars' },
        severity: DiagnosticSeverity.Error,
      },
      {
        range: { start: { line: 9, character: 0 } },
        message: "Property 'x' does not exist on type 'Y'.",
        source: 'ts',
        code: 2339,
        severity: DiagnosticSeverity.Error,
      },
      {
        range: { start: { line: 0, character: 0 } },
        message: 'This test uses Enzyme — Migrate to RTL',
        source: 'testmend',
        severity: DiagnosticSeverity.Information,
      },
      {
        range: { start: { line: 1, character: 0 } },
        message: 'a hint',
        source: 'ts',
        severity: DiagnosticSeverity.Hint,
      },
    ]);
    await run(COMMANDS.fix, testFile);
    expect(client().commands).toEqual([
      {
        command: 'testmend.fix',
        args: [
          testFile.toString(),
          null,
          [
            {
              line: 4,
              character: 2,
              source: 'eslint',
              code: '@typescript-eslint/no-unused-vars',
              message: "'wrapper' is assigned a value but never used.",
            },
            {
              line: 9,
              character: 0,
              source: 'ts',
              code: '2339',
              message: "Property 'x' does not exist on type 'Y'.",
            },
          ],
        ],
      },
    ]);
  });
});

describe('other commands', () => {
  it('Show last report and Apply kept result ask the server for the latest run', async () => {
    const { client } = await activated();
    await run(COMMANDS.report);
    await run(COMMANDS.apply);
    expect(client().commands).toEqual([
      { command: 'testmend.showReport', args: [] },
      { command: 'testmend.applyResult', args: [] },
    ]);
  });

  it('Cancel run with nothing running says so', async () => {
    const { client } = await activated();
    await run(COMMANDS.cancel);
    expect(client().commands).toEqual([]);
    expect(stub.messages.map((m) => m.message)).toEqual(['testmend: no run in progress']);
  });

  it('Cancel run cancels the only run, or the one picked among several', async () => {
    const { client } = await activated();
    client().emit({ runId: 'r1', title: 'Migrating a.test.tsx' });
    await run(COMMANDS.cancel);
    expect(client().commands).toEqual([{ command: 'testmend.cancel', args: ['r1'] }]);

    client().emit({ runId: 'r2', title: 'Fixing b.test.tsx' });
    let offered: unknown[] = [];
    stub.pickAnswer = (items) => {
      offered = items;
      return items[1];
    };
    await run(COMMANDS.cancel);
    expect(offered).toEqual([
      { label: 'Migrating a.test.tsx', description: 'r1', runId: 'r1' },
      { label: 'Fixing b.test.tsx', description: 'r2', runId: 'r2' },
    ]);
    expect(client().commands[1]).toEqual({ command: 'testmend.cancel', args: ['r2'] });

    stub.pickAnswer = () => undefined; // Escape: nothing cancelled
    await run(COMMANDS.cancel);
    expect(client().commands).toHaveLength(2);
  });

  it('Show output reveals the channel', async () => {
    await activated();
    await run(COMMANDS.showOutput);
    expect(stub.output().shown).toBe(1);
  });

  it('a server command that fails is reported, not thrown', async () => {
    const { client } = await activated();
    client().executeCommand = async () => {
      throw new Error('Request workspace/executeCommand failed with message: boom');
    };
    await expect(run(COMMANDS.report)).resolves.toBeUndefined();
    expect(stub.messages[0]).toMatchObject({
      kind: 'error',
      message: 'testmend: testmend.showReport failed: Request workspace/executeCommand failed with message: boom',
    });
  });
});

describe('starting the server', () => {
  it('Restart server stops the client and starts a new one', async () => {
    const { factory } = await activated();
    await run(COMMANDS.restart);
    expect(factory.clients).toHaveLength(2);
    expect(factory.clients[0].stopped).toBe(true);
    expect(factory.clients[1].started).toBe(true);
  });

  it('a server that fails to start is one error; the next command tries again', async () => {
    let attempts = 0;
    const { factory, controller } = await activated({
      probe: async () =>
        ++attempts === 1
          ? { ok: false, reason: 'not-installed', message: 'testmend is not installed for python3' }
          : { ok: true, version: '0.1.0' },
    });
    expect(controller.state).toBe('failed');
    expect(factory.clients).toHaveLength(0);
    expect(stub.messages.map((m) => [m.kind, m.message])).toEqual([
      ['error', 'testmend: testmend is not installed for python3'],
    ]);
    await run(COMMANDS.migrate, testFile);
    expect(controller.state).toBe('running');
    expect(factory.clients[0].commands[0].command).toBe('testmend.migrate');
  });

  it('the client failing to start (e.g. initialize refused) is reported with the command line', async () => {
    const { factory, controller, client } = await activated();
    factory.prepare = (next) => {
      next.failStart = new Error('Connection to server got closed. Server will not be restarted.');
    };
    await run(COMMANDS.restart);
    expect(controller.state).toBe('failed');
    expect(stub.messages.at(-1)?.message).toBe(
      'testmend: the server did not start (Connection to server got closed. Server will not be restarted.): python3 -m testmend serve (from the default, python3 on PATH)',
    );
    expect(client().stopped).toBe(true);
  });

  it('an unexpected failure while starting is shown, not thrown', async () => {
    const { controller, factory } = await activated({
      probe: () => Promise.reject(new Error('spawn EMFILE')),
    });
    expect(controller.state).toBe('failed');
    expect(factory.clients).toHaveLength(0);
    expect(stub.messages.map((m) => m.message)).toEqual([
      'testmend: the server could not be started: spawn EMFILE',
    ]);
  });

  it('a server that crashed too often gives up with the same error', async () => {
    const { client, controller } = await activated();
    client().init.onGiveUp('the server stopped 5 times in 3 minutes and is not restarted');
    expect(controller.state).toBe('failed');
    expect(stub.messages[0].items).toEqual(['Open settings', 'Install instructions', 'Show output']);
  });
});

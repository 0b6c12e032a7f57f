import { afterEach, describe, expect, it } from 'vitest';
import manifest from '../package.json';
import { activate, deactivate } from '../src/extension';
import { COMMANDS, SERVER_COMMANDS } from '../src/controller';
import { REVIEW_COMMANDS } from '../src/review';
import { createContext, stub, type Uri } from './stub/vscode';
import { activated } from './support/activate';

const contributed = manifest.contributes.commands.map((command) => command.command);
// The server's review commands are contributed (titles, menus) but registered by
// vscode-languageclient, as every command the server offers.
const serverOwned = new Set<string>([...Object.values(SERVER_COMMANDS), ...Object.values(REVIEW_COMMANDS)]);
const own = () => contributed.filter((id) => !serverOwned.has(id));

afterEach(async () => {
  await deactivate();
});

describe('activation', () => {
  it('registers every contributed command of its own, and only those', async () => {
    await activated();
    expect([...stub.commands.keys()].sort()).toEqual(own().sort());
    expect(Object.values(COMMANDS).sort()).toEqual(own().sort());
  });

  it('never registers a server command id (vscode-languageclient registers those itself)', async () => {
    await activated();
    for (const id of serverOwned) expect(stub.commands.has(id)).toBe(false);
    // The review commands it contributes are the server's: menus and the palette name them.
    expect(contributed.filter((id) => serverOwned.has(id)).sort()).toEqual(
      [
        'testmend.acceptHunk',
        'testmend.acceptResult',
        'testmend.discardResult',
        'testmend.rejectHunk',
        'testmend.reviewResult',
        'testmend.showReport',
      ].sort(),
    );
  });

  it('titles every command "Testmend: …" in the palette', () => {
    const titles = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Testmend: Migrate to RTL',
        'Testmend: Fix lint/TS errors',
        'Testmend: Cancel run',
        'Testmend: Show last report',
        'Testmend: Restart server',
        'Testmend: Set API key',
      ]),
    );
  });

  it('activates on JavaScript and TypeScript files and is off in untrusted workspaces', () => {
    expect(manifest.activationEvents.sort()).toEqual(
      ['javascript', 'javascriptreact', 'typescript', 'typescriptreact'].map((l) => `onLanguage:${l}`),
    );
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe(false);
  });

  it('starts the server once, with the settings and the output channel', async () => {
    const { factory, client } = await activated();
    expect(factory.clients).toHaveLength(1);
    expect(client().started).toBe(true);
    expect(client().init.output).toBe(stub.output('testmend'));
    expect(stub.output().text).toContain('starting the server: python3 -m testmend serve');
  });

  it('real activate(): an interpreter that does not exist is one error with ways out', async () => {
    stub.reset();
    stub.settings.global.set('testmend.server.python', '/nonexistent/bin/python3');
    stub.messageAnswers.push('Open settings');
    const context = createContext();
    activate(context as never);
    await expect.poll(() => stub.messages.length, { timeout: 10_000 }).toBe(1);
    const [problem] = stub.messages;
    expect(problem.kind).toBe('error');
    expect(problem.message).toBe(
      'testmend: cannot run the Python interpreter /nonexistent/bin/python3 (from the setting testmend.server.python): not found',
    );
    expect(problem.items).toEqual(['Open settings', 'Install instructions', 'Show output']);
    await expect
      .poll(() => stub.executed)
      .toEqual([{ command: 'workbench.action.openSettings', args: ['testmend.server'] }]);
    expect([...stub.commands.keys()].sort()).toEqual(own().sort());
  });

  it('"Install instructions" opens the bundled README', async () => {
    stub.reset();
    stub.settings.global.set('testmend.server.python', '/nonexistent/python');
    stub.messageAnswers.push('Install instructions');
    const context = createContext('/ext');
    activate(context as never);
    await expect.poll(() => stub.executed.length, { timeout: 10_000 }).toBe(1);
    const [{ command, args }] = stub.executed;
    expect(command).toBe('markdown.showPreview');
    expect((args[0] as Uri).fsPath).toBe('/ext/README.md');
  });
});

describe('menus', () => {
  const menus = manifest.contributes.menus as Record<string, { command: string; when: string }[]>;

  /** Evaluates the `resourceFilename =~ /…/` and `resourceExtname =~ /…/` parts of a when clause. */
  function shownFor(when: string, fileName: string): boolean {
    const extension = fileName.slice(fileName.lastIndexOf('.'));
    const tests = [...when.matchAll(/(resourceFilename|resourceExtname) =~ \/(.+?)\/(?= |$)/g)];
    expect(tests.length).toBeGreaterThan(0);
    return tests.every(([, key, pattern]) =>
      new RegExp(pattern).test(key === 'resourceFilename' ? fileName : extension),
    );
  }

  for (const place of ['editor/context', 'explorer/context']) {
    it(`${place} offers Migrate and Fix on JS/TS test files only`, () => {
      const entries = menus[place].filter((entry) => entry.command !== COMMANDS.migrateFolder);
      expect(entries.map((entry) => entry.command)).toEqual([COMMANDS.migrate, COMMANDS.fix]);
      for (const { when } of entries) {
        for (const name of ['Button.test.tsx', 'a.spec.js', 'x.test.jsx', 'y.spec.ts', 'z.test.mjs']) {
          expect(shownFor(when, name), name).toBe(true);
        }
        for (const name of ['Button.tsx', 'test.tsx', 'a.test.css', 'spec.md', 'a.test.tsx.snap']) {
          expect(shownFor(when, name), name).toBe(false);
        }
      }
    });
  }

  it('offers folders only Migrate folder to RTL in the explorer', () => {
    for (const { command, when } of menus['explorer/context']) {
      if (command === COMMANDS.migrateFolder) expect(when).toBe('explorerResourceIsFolder');
      else expect(when).toContain('!explorerResourceIsFolder');
    }
  });
});

// The file that ships: the production bundle, loaded as VS Code loads it (require, `vscode`
// provided by the host), activates and registers its commands.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import manifest from '../package.json';
import { createContext, stub } from './stub/vscode';

const scratch = mkdtempSync(path.join(tmpdir(), 'testmend-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('the production bundle activates, registers every command and reports a missing server', async () => {
  const outfile = path.join(scratch, 'extension.js');
  execFileSync(process.execPath, ['esbuild.mjs', '--production', `--outfile=${outfile}`], {
    cwd: path.join(__dirname, '..'),
  });
  const extension = createRequire(__filename)(outfile) as {
    activate(context: unknown): void;
    deactivate(): Promise<void>;
  };
  stub.reset();
  stub.settings.global.set('testmend.server.python', '/nonexistent/python3');
  extension.activate(createContext());
  // Its own commands: the server's (review, report) are vscode-languageclient's to register.
  const serverOwned = /^testmend\.(reviewResult|acceptResult|acceptHunk|rejectHunk|discardResult|showReport)$/;
  expect([...stub.commands.keys()].sort()).toEqual(
    manifest.contributes.commands
      .map((command) => command.command)
      .filter((id) => !serverOwned.test(id))
      .sort(),
  );
  await expect.poll(() => stub.messages.map((m) => m.message), { timeout: 10_000 }).toEqual([
    'testmend: cannot run the Python interpreter /nonexistent/python3 (from the setting testmend.server.python): not found',
  ]);
  await extension.deactivate();
});

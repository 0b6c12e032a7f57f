// The extension against the real `python -m testmend serve` (the repository's .venv) and the
// example React app: the launch plan, the settings, the command arguments, the progress and the
// cancel all cross a real LSP connection. Only VS Code itself is the stub.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import manifest from '../package.json';
import { COMMANDS, type Controller } from '../src/controller';
import { stub, Uri } from './stub/vscode';
import { activated } from './support/activate';
import { EXAMPLE_APP, REPO_PYTHON } from './support/repo';
import { rpcFactory } from './support/rpcClient';

const PAGINATION = 'src/components/Pagination/Pagination.test.tsx';
const COUNTER = 'src/components/Counter/Counter.test.tsx';
const RUN_TIMEOUT = 240_000;

let scratch: string;

/** Warm slots whose lock a process still holds (`flock -n` fails on those). */
function heldSlots(): string[] {
  const held: string[] = [];
  for (const pool of readdirSync(workspaces).filter((name) => name.startsWith('pool-'))) {
    for (const slot of readdirSync(path.join(workspaces, pool))) {
      try {
        execFileSync('flock', ['-n', path.join(workspaces, pool, slot, 'lock'), 'true']);
      } catch {
        held.push(`${pool}/${slot}`);
      }
    }
  }
  return held;
}
let project: string;
let workspaces: string;
let controller: Controller | undefined;

const run = (id: string, ...args: unknown[]) => stub.commands.get(id)!(...args);
const messages = () => stub.messages.map((message) => message.message);

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: project, encoding: 'utf8' });
}

beforeAll(() => {
  expect(existsSync(REPO_PYTHON), 'run ./scripts/setup.sh first').toBe(true);
  expect(existsSync(path.join(EXAMPLE_APP, 'node_modules')), 'run ./scripts/setup.sh first').toBe(true);
  scratch = mkdtempSync(path.join(tmpdir(), 'testmend-vscode-'));
  project = path.join(scratch, 'react-app');
  workspaces = path.join(scratch, 'workspaces');
  cpSync(EXAMPLE_APP, project, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|\.testmend)$/.test(source),
  });
  symlinkSync(path.join(EXAMPLE_APP, 'node_modules'), path.join(project, 'node_modules'));
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'example app');
});

afterEach(async () => {
  await controller?.dispose();
  controller = undefined;
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The extension host's environment, without a model key or testmend settings of this machine. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(OPENAI_|TESTMEND_)/.test(name)),
  );
  return { ...env, TESTMEND_WORKSPACES_DIR: workspaces };
}

async function withServer(settings: Record<string, unknown> = {}) {
  const factory = rpcFactory();
  const activation = await activated(
    { clientFactory: factory, probe: undefined, baseEnv: cleanEnvironment() },
    () => {
      stub.workspaceFolders = [{ uri: Uri.file(project), name: 'react-app', index: 0 }];
      stub.settings.global.set('testmend.server.python', REPO_PYTHON);
      for (const [key, value] of Object.entries(settings)) stub.settings.workspace.set(key, value);
    },
  );
  controller = activation.controller;
  expect(activation.controller.state, stub.output().text).toBe('running');
  return { ...activation, record: factory.record };
}

/** A valid value other than the default for every setting the server gets. */
function everySetting(): Record<string, unknown> {
  const properties = manifest.contributes.configuration.properties as Record<
    string,
    { type: string | string[]; default: unknown; enum?: string[]; minimum?: number }
  >;
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(properties)) {
    if (key.startsWith('testmend.server.') || key.startsWith('testmend.trace.')) continue;
    const type = Array.isArray(spec.type) ? spec.type[0] : spec.type;
    if (spec.enum) values[key] = spec.enum.find((option) => option !== spec.default);
    else if (type === 'boolean') values[key] = !spec.default;
    else if (type === 'integer' || type === 'number') values[key] = (spec.minimum ?? 1) + 1;
    else if (key === 'testmend.sandbox.env') values[key] = ['TESTMEND_EXTRA'];
    else if (key === 'testmend.sandbox.network') values[key] = ['registry.npmjs.org'];
    else if (key.startsWith('testmend.sandbox.')) values[key] = ['/tmp/testmend-extra'];
    else if (type === 'array') values[key] = ['node_modules/.bin/tool', '--flag'];
    else if (key === 'testmend.budget.prices') values[key] = { 'some-model': { input: 2, output: 8 } };
    else if (key.endsWith('baseUrl')) values[key] = 'http://127.0.0.1:9/v1';
    else if (key.endsWith('apiKeyEnv')) values[key] = 'TESTMEND_TEST_KEY';
    else values[key] = 'some-model';
  }
  return values;
}

describe('against the real testmend server', () => {
  it('the server accepts every setting the extension declares', async () => {
    const { record } = await withServer(everySetting());
    const [options] = record.initializationOptions as { testmend: Record<string, unknown> }[];
    expect(Object.keys(options.testmend).sort()).toEqual(
      [
        'batch',
        'budget',
        'codemod',
        'commands',
        'fidelity',
        'maxConcurrentRuns',
        'model',
        'retry',
        'sandbox',
        'timeouts',
        'tracing',
        'workspace',
      ].sort(),
    );
    // The server validates initializationOptions, then the answer to its workspace/configuration
    // pull: once that is answered and a later request has come back, it must not have complained.
    await expect.poll(() => record.configurationAnswers, { timeout: 15_000 }).toBeGreaterThan(0);
    await run(COMMANDS.report);
    expect(messages().filter((message) => message.includes('bad setting'))).toEqual([]);
  });

  it('a bad setting, at start or changed later, is the server’s one message naming the key', async () => {
    await withServer({ 'testmend.retry.maxTotalAttempts': 0 });
    await expect
      .poll(() => messages().find((m) => m.includes('bad setting')), { timeout: 15_000 })
      .toMatch(/^testmend: bad setting: editor settings: retry\.maxTotalAttempts: /);

    stub.messages = [];
    stub.setSetting('testmend.retry.maxTotalAttempts', 4);
    stub.setSetting('testmend.timeouts.lint', -1);
    await expect
      .poll(() => messages().find((m) => m.includes('bad setting')), { timeout: 15_000 })
      .toMatch(/^testmend: bad setting: editor settings: timeouts\.lint: /);
  });

  it(
    'Migrate to RTL from the explorer: progress to the end, the result as an edit, the report',
    async () => {
      const { record } = await withServer();
      const file = Uri.file(path.join(project, PAGINATION));
      const [answer] = (await run(COMMANDS.migrate, file, [file])) as { runId: string }[];
      expect(answer.runId).toMatch(/\S/);

      await expect.poll(() => stub.progress.length, { timeout: 30_000 }).toBe(1);
      const [shown] = stub.progress;
      expect(shown.title).toBe('testmend: Migrating Pagination.test.tsx');
      expect(shown.cancellable).toBe(true);
      await expect.poll(() => shown.finished, { timeout: RUN_TIMEOUT, interval: 500 }).toBe(true);

      const steps = shown.reports.map((report) => report.message?.split(' · ')[0]);
      expect(steps).toEqual(expect.arrayContaining(['research', 'planning', 'migrate', 'lint', 'typescript']));
      const total = shown.reports.reduce((sum, report) => sum + (report.increment ?? 0), 0);
      expect(total).toBeGreaterThanOrEqual(90);
      expect(total).toBeLessThanOrEqual(100);

      // The deterministic tier passes this suite: the server offers the result as one edit.
      // The progress ends first and the edit follows it, so it is waited for, not assumed.
      await expect.poll(() => record.edits.length, { timeout: 30_000 }).toBe(1);
      const [edit] = record.edits;
      const changed = edit.edit.documentChanges?.map((change) => ('textDocument' in change ? change.textDocument.uri : ''));
      expect(changed).toContain(file.toString());
      expect(git('status', '--porcelain')).toBe(''); // nothing written behind the editor's back

      await run(COMMANDS.report);
      expect(record.documents.map((d) => path.basename(d.uri))).toEqual(['report.md']);
    },
    RUN_TIMEOUT + 30_000,
  );

  it(
    "Cancel from the notification's button: the run stops and leaves nothing behind",
    async () => {
      await withServer();
      await run(COMMANDS.migrate, Uri.file(path.join(project, COUNTER)));
      await expect.poll(() => stub.progress[0]?.reports.length ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);
      stub.progress[0].cancel();
      await expect.poll(() => stub.progress[0].finished, { timeout: 60_000, interval: 200 }).toBe(true);
      // The message follows the progress's end (the server says it once the run has stopped).
      await expect
        .poll(messages, { timeout: 30_000 })
        .toContain('testmend: Counter.test.tsx: cancelled; nothing was changed');
      // No workspace of the run's own is left; its warm slot stays for the next run, unlocked.
      expect(readdirSync(workspaces).filter((name) => !name.startsWith('pool-'))).toEqual([]);
      expect(heldSlots()).toEqual([]);
      expect(git('status', '--porcelain')).toBe('');
    },
    150_000,
  );
});

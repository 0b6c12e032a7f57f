import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  probeCommand,
  probePython,
  resolveLaunch,
  serverEnvironment,
  type LaunchChoice,
} from '../src/launch';
import { PYTHON_EXTENSION_ID } from '../src/python';
import { EventEmitter, stub, Uri } from './stub/vscode';
import { activated } from './support/activate';
import { REPO_PYTHON } from './support/repo';

const choice = (extra: Partial<LaunchChoice> = {}): LaunchChoice => ({
  pythonFromExtension: async () => '/from/extension/python',
  cwd: '/project',
  baseEnv: { PATH: '/bin' },
  apiKeyEnv: 'OPENAI_API_KEY',
  apiKey: undefined,
  ...extra,
});

describe('which server command', () => {
  it('testmend.server.command wins over everything', async () => {
    const plan = await resolveLaunch(
      choice({ command: ['uvx', 'testmend', 'serve'], python: '/usr/bin/python3' }),
    );
    expect(plan).toMatchObject({ command: 'uvx', args: ['testmend', 'serve'], cwd: '/project' });
    expect(plan.python).toBeUndefined();
    expect(plan.origin).toBe('the setting testmend.server.command');
  });

  it('then testmend.server.python, then the Python extension, then python3', async () => {
    expect(await resolveLaunch(choice({ python: ' /opt/py/bin/python ' }))).toMatchObject({
      command: '/opt/py/bin/python',
      args: ['-m', 'testmend', 'serve'],
      origin: 'the setting testmend.server.python',
    });
    expect(await resolveLaunch(choice())).toMatchObject({
      command: '/from/extension/python',
      origin: "the Python extension's selected interpreter",
    });
    const fallback = await resolveLaunch(
      choice({ pythonFromExtension: () => Promise.reject(new Error('extension broken')) }),
    );
    expect(fallback).toMatchObject({ command: 'python3', origin: 'the default, python3 on PATH' });
  });

  it('adds the stored key to a copy of the environment, under the configured name', () => {
    const base = { PATH: '/bin', OPENAI_API_KEY: 'from-env' };
    expect(serverEnvironment(base, 'OPENAI_API_KEY', 'stored')).toEqual({
      PATH: '/bin',
      OPENAI_API_KEY: 'stored',
    });
    expect(serverEnvironment(base, 'OTHER', undefined)).toEqual(base);
    expect(base.OPENAI_API_KEY).toBe('from-env');
  });
});

describe('the Python extension', () => {
  function pythonExtension(interpreter: { current: string }, active = true) {
    const changed = new EventEmitter<unknown>();
    const api = {
      environments: {
        getActiveEnvironmentPath: () => ({ path: path.dirname(path.dirname(interpreter.current)) }),
        resolveEnvironment: async () => ({ executable: { uri: Uri.file(interpreter.current) } }),
        onDidChangeActiveEnvironmentPath: changed.event,
      },
    };
    const extension = {
      isActive: active,
      exports: api,
      activated: 0,
      async activate() {
        extension.activated += 1;
        return api;
      },
    };
    return { extension, changed };
  }

  it("starts the server with the selected interpreter and restarts when it changes", async () => {
    const interpreter = { current: '/work/.venv/bin/python' };
    const { extension, changed } = pythonExtension(interpreter, false);
    const { factory, controller } = await activated({ interpreter: undefined }, () => {
      stub.extensions.set(PYTHON_EXTENSION_ID, extension);
    });
    expect(extension.activated).toBeGreaterThan(0);
    expect(factory.clients[0].init.plan.command).toBe('/work/.venv/bin/python');

    interpreter.current = '/other/.venv/bin/python';
    changed.fire({});
    await expect.poll(() => factory.clients.length).toBe(2);
    await controller.settled();
    expect(factory.clients[1].init.plan.command).toBe('/other/.venv/bin/python');
  });

  it('an interpreter set in testmend.server.python is kept when the selection changes', async () => {
    const { extension, changed } = pythonExtension({ current: '/a/bin/python' });
    const { factory, controller } = await activated({ interpreter: undefined }, () => {
      stub.extensions.set(PYTHON_EXTENSION_ID, extension);
      stub.settings.global.set('testmend.server.python', '/mine/bin/python');
    });
    changed.fire({});
    await controller.settled();
    expect(factory.clients.map((c) => c.init.plan.command)).toEqual(['/mine/bin/python']);
  });

  it('falls back to the older execution-details API', async () => {
    const { factory } = await activated({ interpreter: undefined }, () => {
      stub.extensions.set(PYTHON_EXTENSION_ID, {
        isActive: true,
        exports: { settings: { getExecutionDetails: () => ({ execCommand: ['/old/api/python'] }) } },
      });
    });
    expect(factory.clients[0].init.plan.command).toBe('/old/api/python');
  });
});

describe('probing the interpreter (real Python processes)', () => {
  let bare: string;

  beforeAll(() => {
    bare = mkdtempSync(path.join(tmpdir(), 'testmend-bare-venv-'));
    execFileSync('python3', ['-m', 'venv', '--without-pip', bare]);
  });
  afterAll(() => rmSync(bare, { recursive: true, force: true }));

  const plan = async (python: string) => resolveLaunch(choice({ python }));

  it('a missing interpreter', async () => {
    const result = await probePython(await plan('/nonexistent/python'));
    expect(result).toEqual({
      ok: false,
      reason: 'no-program',
      message:
        'cannot run the Python interpreter /nonexistent/python (from the setting testmend.server.python): not found',
    });
  });

  it('an interpreter without testmend', async () => {
    const python = path.join(bare, 'bin', 'python');
    const result = await probePython(await plan(python));
    expect(result).toEqual({
      ok: false,
      reason: 'not-installed',
      message: `testmend is not installed for ${python} (from the setting testmend.server.python): install it into that environment or choose another interpreter`,
    });
  });

  it("the repository's environment, where testmend is installed", async () => {
    expect(existsSync(REPO_PYTHON), 'run ./scripts/setup.sh first').toBe(true);
    const result = await probePython(await plan(REPO_PYTHON));
    expect(result).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});

describe('checking testmend.server.command before starting it', () => {
  const plan = (command: string[], PATH = path.dirname(process.execPath)) =>
    resolveLaunch(choice({ command, baseEnv: { PATH } }));

  it('a program found on PATH, or given as an executable path', async () => {
    expect(probeCommand(await plan(['node', 'server.js']))).toEqual({ ok: true, version: undefined });
    expect(probeCommand(await plan([process.execPath], '')).ok).toBe(true);
  });

  it('a program that is not there is one error naming the setting', async () => {
    expect(probeCommand(await plan(['testmend-nope', 'serve']))).toEqual({
      ok: false,
      reason: 'no-program',
      message: 'cannot run testmend-nope (from the setting testmend.server.command): not found on PATH or not executable',
    });
    expect(probeCommand(await plan(['/opt/none/testmend', 'serve']))).toMatchObject({
      ok: false,
      message: 'cannot run /opt/none/testmend (from the setting testmend.server.command): not found or not executable',
    });
  });

  it('the extension checks it before the client starts', async () => {
    const { factory, controller } = await activated({ probe: undefined }, () => {
      stub.settings.global.set('testmend.server.command', ['/opt/none/testmend', 'serve']);
    });
    expect(controller.state).toBe('failed');
    expect(factory.clients).toHaveLength(0);
    expect(stub.messages.map((m) => m.message)).toEqual([
      'testmend: cannot run /opt/none/testmend (from the setting testmend.server.command): not found or not executable',
    ]);
  });
});


import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import manifest from '../package.json';
import { RESTART_KEYS, SETTING_KEYS, serverSettings } from '../src/settings';
import { stub } from './stub/vscode';
import { activated } from './support/activate';

describe('settings reach the server', () => {
  it('as initializationOptions: only what was set, nested, without client-only settings', async () => {
    const { client } = await activated({}, () => {
      stub.settings.global.set('testmend.model.tiers.full', 'gpt-5');
      stub.settings.global.set('testmend.model.baseUrl', 'http://localhost:11434/v1');
      stub.settings.workspace.set('testmend.model.tiers.full', 'gpt-5.1'); // workspace wins
      stub.settings.workspace.set('testmend.commands.test', ['yarn', 'jest']);
      stub.settings.workspace.set('testmend.retry.maxTotalAttempts', 9);
      stub.settings.workspace.set('testmend.maxConcurrentRuns', 1);
      stub.settings.workspace.set('testmend.model.offline', false); // explicit false is kept
      stub.settings.global.set('testmend.server.python', '/usr/bin/python3');
      stub.settings.global.set('testmend.trace.server', 'verbose');
      stub.settings.global.set('testmend.commands.lint', null); // "unset" in settings.json
    });
    expect(client().init.settings()).toEqual({
      model: { tiers: { full: 'gpt-5.1' }, baseUrl: 'http://localhost:11434/v1', offline: false },
      commands: { test: ['yarn', 'jest'] },
      retry: { maxTotalAttempts: 9 },
      maxConcurrentRuns: 1,
    });
  });

  it('sends no defaults, so the project’s testmend.config.json is not overridden', async () => {
    const { client } = await activated();
    expect(client().init.settings()).toEqual({});
  });

  it('a change is sent to the running server without restarting it', async () => {
    const { factory, client } = await activated();
    stub.setSetting('testmend.retry.maxAttemptsPerError', 3);
    await expect.poll(() => client().settingsSent).toEqual([{ retry: { maxAttemptsPerError: 3 } }]);
    expect(factory.clients).toHaveLength(1);
  });

  for (const key of ['server.python', 'server.command', 'model.apiKeyEnv']) {
    it(`changing testmend.${key} restarts the server`, async () => {
      const { factory, controller } = await activated();
      stub.setSetting(`testmend.${key}`, key === 'server.command' ? ['testmend', 'serve'] : 'X_KEY');
      await expect.poll(() => factory.clients.length).toBe(2);
      await controller.settled();
      expect(factory.clients[0].stopped).toBe(true);
      expect(factory.clients[0].settingsSent).toEqual([]);
    });
  }

  it('ignores changes to other extensions’ settings', async () => {
    const { factory, client, controller } = await activated();
    stub.setSetting('editor.fontSize', 14);
    await controller.settled();
    expect(factory.clients).toHaveLength(1);
    expect(client().settingsSent).toEqual([]);
  });

  it('restart keys are declared settings', () => {
    for (const key of RESTART_KEYS) expect(SETTING_KEYS).toContain(key);
  });

  it('every server setting is described and typed', () => {
    const properties = manifest.contributes.configuration.properties as Record<
      string,
      { type?: unknown; markdownDescription?: string }
    >;
    for (const [key, spec] of Object.entries(properties)) {
      expect(spec.type, key).toBeDefined();
      expect(spec.markdownDescription?.length ?? 0, key).toBeGreaterThan(20);
    }
  });

  it('no setting can hold an API key, even one written into settings.json by hand', async () => {
    for (const key of SETTING_KEYS) expect(key.toLowerCase()).not.toMatch(/apikey$|secret|token$/);
    const { client } = await activated({}, () => {
      stub.settings.workspace.set('testmend.model.apiKey', 'sk-in-settings');
      stub.settings.global.set('testmend.apiKey', 'sk-in-settings');
      stub.settings.workspace.set('testmend.model.apiKeyEnv', 'MY_KEY');
    });
    expect(client().init.settings()).toEqual({ model: { apiKeyEnv: 'MY_KEY' } });
    expect(JSON.stringify(serverSettings())).not.toContain('sk-in-settings');
  });

  it('the README documents every setting and every command', () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    for (const key of SETTING_KEYS) expect(readme).toContain(`| \`testmend.${key}\` |`);
    for (const { title } of manifest.contributes.commands) expect(readme).toContain(`**Testmend: ${title}**`);
  });
});

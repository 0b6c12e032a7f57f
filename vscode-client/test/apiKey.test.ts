import { describe, expect, it } from 'vitest';
import { API_KEY_SECRET, COMMANDS } from '../src/controller';
import { stub } from './stub/vscode';
import { activated } from './support/activate';

const KEY = 'sk-test-0123456789abcdef';
const run = (id: string, ...args: unknown[]) => stub.commands.get(id)!(...args);

/** Everything the extension wrote or sent anywhere but the server's environment. */
function everywhereButTheEnvironment(activation: Awaited<ReturnType<typeof activated>>): string {
  return JSON.stringify({
    output: stub.outputs.map((channel) => channel.lines),
    messages: stub.messages.map((message) => message.message),
    settings: activation.factory.clients.map((client) => client.init.settings()),
    sent: activation.factory.clients.map((client) => [client.settingsSent, client.commands]),
    plans: activation.factory.clients.map(({ init }) => ({ ...init.plan, env: undefined })),
    globalSettings: [...stub.settings.global],
    workspaceSettings: [...stub.settings.workspace],
  });
}

describe('Set API key', () => {
  it('stores the key in secret storage and restarts the server with it in its environment', async () => {
    const activation = await activated();
    stub.inputAnswers.push(`  ${KEY}\n`);
    await run(COMMANDS.setApiKey);
    await expect.poll(() => activation.factory.clients.length).toBe(2);
    await activation.controller.settled();

    expect(activation.context.secretValues.get(API_KEY_SECRET)).toBe(KEY);
    expect(stub.inputOptions[0]).toMatchObject({ password: true, ignoreFocusOut: true });
    expect(activation.client().init.plan.env.OPENAI_API_KEY).toBe(KEY);
    expect(activation.factory.clients[0].init.plan.env.OPENAI_API_KEY).toBeUndefined();
    expect(everywhereButTheEnvironment(activation)).not.toContain(KEY);
    expect(stub.output().text).toContain("API key: OPENAI_API_KEY from VS Code's secret storage");
  });

  it('uses the variable named by testmend.model.apiKeyEnv', async () => {
    const activation = await activated({}, () => {
      stub.settings.global.set('testmend.model.apiKeyEnv', 'LOCAL_LLM_KEY');
    });
    await activation.context.secrets.store(API_KEY_SECRET, KEY);
    await expect.poll(() => activation.factory.clients.length).toBe(2);
    await activation.controller.settled();
    const env = activation.client().init.plan.env;
    expect(env.LOCAL_LLM_KEY).toBe(KEY);
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(everywhereButTheEnvironment(activation)).not.toContain(KEY);
  });

  it('an empty answer removes the stored key; Escape changes nothing', async () => {
    const activation = await activated();
    await activation.context.secrets.store(API_KEY_SECRET, KEY);
    await expect.poll(() => activation.factory.clients.length).toBe(2);

    stub.inputAnswers.push(undefined);
    await run(COMMANDS.setApiKey);
    expect(activation.context.secretValues.get(API_KEY_SECRET)).toBe(KEY);

    stub.inputAnswers.push('');
    await run(COMMANDS.setApiKey);
    await expect.poll(() => activation.factory.clients.length).toBe(3);
    await activation.controller.settled();
    expect(activation.context.secretValues.has(API_KEY_SECRET)).toBe(false);
    expect(activation.client().init.plan.env.OPENAI_API_KEY).toBeUndefined();
    expect(stub.messages.at(-1)?.message).toBe('testmend: stored API key removed');
  });

  it('without a stored key the environment’s key passes through, and the log says where it is from', async () => {
    const activation = await activated({ baseEnv: { PATH: '/bin', OPENAI_API_KEY: KEY } });
    expect(activation.client().init.plan.env.OPENAI_API_KEY).toBe(KEY);
    expect(stub.output().text).toContain('API key: OPENAI_API_KEY from the environment');
    expect(everywhereButTheEnvironment(activation)).not.toContain(KEY);
  });

  it('with no key anywhere the log says how to set one', async () => {
    await activated();
    expect(stub.output().text).toContain(
      'API key: none (OPENAI_API_KEY is not set; set one with "Testmend: Set API key")',
    );
  });
});

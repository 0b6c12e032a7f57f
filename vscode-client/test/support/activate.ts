// Activates the extension against the stub editor and a recording client.
import { activateWith } from '../../src/extension';
import type { Controller, ControllerDeps } from '../../src/controller';
import { createContext, stub } from '../stub/vscode';
import { fakeFactory } from './fakeClient';

export interface Activated {
  controller: Controller;
  context: ReturnType<typeof createContext>;
  factory: ReturnType<typeof fakeFactory>;
  /** The client of the latest server start. */
  client(): ReturnType<typeof fakeFactory>['clients'][number];
}

export async function activated(
  deps: Partial<ControllerDeps> = {},
  before: () => void = () => undefined,
): Promise<Activated> {
  stub.reset();
  before();
  const context = createContext();
  const factory = fakeFactory();
  const controller = activateWith(context as never, {
    clientFactory: factory,
    probe: async () => ({ ok: true, version: '0.1.0' }),
    interpreter: async () => undefined,
    baseEnv: { PATH: '/usr/bin:/bin' },
    ...deps,
  });
  await controller.settled();
  return {
    controller,
    context,
    factory,
    client: () => {
      const last = factory.clients[factory.clients.length - 1];
      if (!last) throw new Error('no server was started');
      return last;
    },
  };
}

// A ServerClient that records what the extension sends, for tests of the extension's own logic
// (the wire to the real server is exercised in server.integration.test.ts).
import { EventEmitter } from '../stub/vscode';
import type { BatchStatus } from '../../src/batch';
import type { ClientFactory, ClientInit, ResultKept, RunStatus, ServerClient } from '../../src/client';
import type { Settings } from '../../src/settings';

export class FakeClient implements ServerClient {
  started = false;
  stopped = false;
  commands: { command: string; args: unknown[] }[] = [];
  settingsSent: Settings[] = [];
  answers = new Map<string, unknown>();
  failStart: Error | undefined;
  private readonly status = new EventEmitter<RunStatus>();
  private readonly kept = new EventEmitter<ResultKept>();
  private readonly batchStatus = new EventEmitter<BatchStatus>();

  constructor(readonly init: ClientInit) {}

  async start(): Promise<void> {
    if (this.failStart) throw this.failStart;
    this.started = true;
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
  /** How many times the results were listed (a query, kept apart from `commands`). */
  lists = 0;
  async executeCommand(command: string, args: unknown[]): Promise<unknown> {
    if (command === 'testmend.listResults') {
      this.lists += 1;
      return this.answers.get(command) ?? { running: [], results: [] };
    }
    this.commands.push({ command, args });
    if (this.answers.has(command)) return this.answers.get(command);
    if (command === 'testmend.cancel') return { cancelled: true, runId: args[0] };
    return { runId: `run-${this.commands.length}` };
  }
  async settingsChanged(settings: Settings): Promise<void> {
    this.settingsSent.push(settings);
  }
  onRunStatus(handler: (status: RunStatus) => void) {
    return this.status.event(handler);
  }
  onResultKept(handler: (kept: ResultKept) => void) {
    return this.kept.event(handler);
  }
  onBatchStatus(handler: (status: BatchStatus) => void) {
    return this.batchStatus.event(handler);
  }
  /** The server sends testmend/batchStatus. */
  batch(status: Partial<BatchStatus> & { batchId: string }): void {
    this.batchStatus.fire({
      title: 'Migrating components',
      total: 3,
      done: 0,
      running: 0,
      left: 3,
      outcomes: {},
      finished: false,
      cancelled: false,
      ...status,
    });
  }
  /** The server sends testmend/resultKept. */
  keep(kept: Partial<ResultKept> & { runId: string }): void {
    this.kept.fire({
      uri: 'file:///p/a.test.tsx',
      file: 'a.test.tsx',
      status: 'needs_review',
      tests: [7, 7],
      fidelity: 1,
      reasons: ['1 lint message(s) left'],
      ...kept,
    });
  }
  /** The server sends testmend/runStatus. */
  emit(status: Partial<RunStatus> & { runId: string }): void {
    this.status.fire({
      uri: 'file:///p/a.test.tsx',
      title: 'Migrating a.test.tsx',
      message: 'starting',
      percentage: 0,
      done: false,
      event: { type: 'step_started' },
      ...status,
    });
  }
}

/** A factory that keeps every client it made (one per server start). */
export function fakeFactory(): ClientFactory & { clients: FakeClient[]; prepare?: (c: FakeClient) => void } {
  const factory = Object.assign(
    (init: ClientInit) => {
      const client = new FakeClient(init);
      factory.prepare?.(client);
      factory.clients.push(client);
      return client;
    },
    { clients: [] as FakeClient[], prepare: undefined as ((c: FakeClient) => void) | undefined },
  );
  return factory;
}

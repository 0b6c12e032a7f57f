// The connection to the server: an interface the controller uses, and its implementation on
// vscode-languageclient (which also brings diagnostics, code actions and document sync).
import type * as vscode from 'vscode';
import {
  ApplyWorkspaceEditRequest,
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  DidChangeConfigurationNotification,
  LanguageClient,
  type ClientCapabilities,
  type ResponseError,
  type LanguageClientOptions,
  type ServerOptions,
  type StaticFeature,
} from 'vscode-languageclient/node';
import { applyAsRefactoring } from './applyEdit';
import type { BatchStatus } from './batch';
import type { LaunchPlan } from './launch';
import type { Settings } from './settings';

export const RUN_STATUS = 'testmend/runStatus';
export const BATCH_STATUS = 'testmend/batchStatus';

/** A `testmend/runStatus` notification (see docs/lsp.md). */
export interface RunStatus {
  runId: string;
  uri: string;
  title: string;
  message: string;
  percentage: number;
  done: boolean;
  event: { type: string; [field: string]: unknown } | null;
  /** The folder batch the run belongs to (its progress is the batch's). */
  batchId?: string;
}

export const RESULT_KEPT = 'testmend/resultKept';

/** A `testmend/resultKept` notification: a finished run's result kept for review. */
export interface ResultKept {
  runId: string;
  uri: string;
  file: string;
  status: string;
  tests: [number, number];
  fidelity: number | null;
  reasons: string[];
  /** The folder batch it came from (the batch's progress counts it; no message of its own). */
  batchId?: string;
}

export interface ServerClient {
  start(): Promise<void>;
  stop(): Promise<void>;
  executeCommand(command: string, args: unknown[]): Promise<unknown>;
  /** Sends the settings again after they changed (workspace/didChangeConfiguration). */
  settingsChanged(settings: Settings): Promise<void>;
  onRunStatus(handler: (status: RunStatus) => void): vscode.Disposable;
  onResultKept(handler: (kept: ResultKept) => void): vscode.Disposable;
  onBatchStatus(handler: (status: BatchStatus) => void): vscode.Disposable;
}

/** A server command run from VS Code (a code lens, a menu, the palette): the extension may
 * translate its arguments and add what VS Code shows around it; `next` sends it. */
export type CommandHook = (
  command: string,
  args: unknown[],
  next: (command: string, args: unknown[]) => Promise<unknown>,
) => Promise<unknown>;

export interface ClientInit {
  plan: LaunchPlan;
  /** What the server gets as `initializationOptions` and answers to `workspace/configuration`. */
  settings: () => Settings;
  output: vscode.OutputChannel;
  /** The server died and will not be restarted: say so, with a way out. */
  onGiveUp: (message: string) => void;
  /** Server commands run from VS Code go through this (see CommandHook). */
  onCommand?: CommandHook;
}

export type ClientFactory = (init: ClientInit) => ServerClient;

export const DOCUMENT_SELECTOR = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact'].map(
  (language) => ({ scheme: 'file', language }),
);

const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60_000;

/**
 * Progress is drawn by the extension from `testmend/runStatus` (a notification with a cancel
 * button); without this the server would add its own work-done progress to the status bar.
 * Kept results too: the extension shows them with a Review button (`testmendReview`), so the
 * server sends `testmend/resultKept` instead of a message of its own.
 */
class OwnProgressFeature implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.window = { ...capabilities.window, workDoneProgress: false };
    capabilities.experimental = {
      ...(capabilities.experimental as object | undefined),
      testmendReview: true,
    };
  }
  initialize(): void {}
  getState(): { kind: 'static' } {
    return { kind: 'static' };
  }
  clear(): void {}
}

export const createLanguageClient: ClientFactory = (init) => {
  const { plan } = init;
  const serverOptions: ServerOptions = {
    command: plan.command,
    args: plan.args,
    options: { cwd: plan.cwd, env: plan.env },
  };
  const crashes: number[] = [];
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: init.output,
    initializationOptions: { testmend: init.settings() },
    middleware: {
      executeCommand: (command, args, next) => {
        const send = (name: string, values: unknown[]): Promise<unknown> =>
          Promise.resolve(next(name, values) as unknown);
        return init.onCommand ? init.onCommand(command, args, send) : send(command, args);
      },
      workspace: {
        // Only explicitly set values (see settings.ts), never VS Code's defaults.
        configuration: async (params, token, next) => {
          const answers = (await next(params, token)) as unknown;
          if (!Array.isArray(answers)) return answers as ResponseError<void>;
          const values: unknown[] = answers;
          return params.items.map((item, index) =>
            item.section === 'testmend' ? init.settings() : values[index],
          );
        },
      },
    },
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        const now = Date.now();
        crashes.push(now);
        while (crashes.length > 0 && now - crashes[0] > RESTART_WINDOW_MS) crashes.shift();
        if (crashes.length <= MAX_RESTARTS) return { action: CloseAction.Restart };
        init.onGiveUp(
          `the server stopped ${crashes.length} times in 3 minutes and is not restarted; see the testmend output`,
        );
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
    initializationFailedHandler: () => false,
  };
  const client = new LanguageClient('testmend', 'testmend', serverOptions, clientOptions);
  client.registerFeature(new OwnProgressFeature());
  // Replaces the client's own handler (registered before this one when the connection starts).
  client.onRequest(ApplyWorkspaceEditRequest.type, (params) =>
    applyAsRefactoring(params, {
      asWorkspaceEdit: (edit) => client.protocol2CodeConverter.asWorkspaceEdit(edit),
      asUri: (uri) => client.protocol2CodeConverter.asUri(uri),
    }),
  );
  return {
    start: () => client.start(),
    stop: () => client.stop(),
    executeCommand: (command, args) =>
      client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    settingsChanged: (settings) =>
      client.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { testmend: settings },
      }),
    onRunStatus: (handler) => client.onNotification(RUN_STATUS, handler),
    onResultKept: (handler) => client.onNotification(RESULT_KEPT, handler),
    onBatchStatus: (handler) => client.onNotification(BATCH_STATUS, handler),
  };
};

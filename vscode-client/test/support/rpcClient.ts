// A ServerClient that speaks LSP over stdio to the real `testmend serve`, started from the launch
// plan the extension computed. It plays the editor's part the way vscode-languageclient does:
// showMessage → window.show*Message, logMessage → the output channel, workspace/configuration
// answered with the extension's settings; edits and documents the server sends are recorded.
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  ApplyWorkspaceEditRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  MessageType,
  ShowDocumentRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ApplyWorkspaceEditParams,
  type ProtocolConnection,
  type ShowDocumentParams,
} from 'vscode-languageserver-protocol/node';
import * as vscode from '../stub/vscode';
import type { BatchStatus } from '../../src/batch';
import type { ClientFactory, ClientInit, ResultKept, RunStatus, ServerClient } from '../../src/client';
import type { Settings } from '../../src/settings';

export interface EditorRecord {
  initializationOptions: unknown[];
  /** workspace/configuration requests answered (the server validates each answer). */
  configurationAnswers: number;
  edits: ApplyWorkspaceEditParams[];
  documents: ShowDocumentParams[];
  stderr: string[];
  processes: ChildProcess[];
}

class RpcClient implements ServerClient {
  private process: ChildProcess | undefined;
  private connection: ProtocolConnection | undefined;
  private readonly status = new vscode.EventEmitter<RunStatus>();
  private readonly kept = new vscode.EventEmitter<ResultKept>();
  private readonly batches = new vscode.EventEmitter<BatchStatus>();

  constructor(
    private readonly init: ClientInit,
    private readonly record: EditorRecord,
  ) {}

  async start(): Promise<void> {
    const { plan } = this.init;
    const child = spawn(plan.command, plan.args, { cwd: plan.cwd, env: plan.env, stdio: 'pipe' });
    this.process = child;
    this.record.processes.push(child);
    child.stderr?.on('data', (chunk) => this.record.stderr.push(String(chunk)));
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    await spawned;
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    this.connection = connection;
    connection.onNotification(ShowMessageNotification.type, ({ type, message }) => {
      const show =
        type === MessageType.Error
          ? vscode.window.showErrorMessage
          : type === MessageType.Warning
            ? vscode.window.showWarningMessage
            : vscode.window.showInformationMessage;
      void show(message);
    });
    connection.onNotification(LogMessageNotification.type, ({ message }) =>
      this.init.output.appendLine(message),
    );
    connection.onNotification('testmend/runStatus', (status: RunStatus) => this.status.fire(status));
    connection.onNotification('testmend/resultKept', (kept: ResultKept) => this.kept.fire(kept));
    connection.onNotification('testmend/batchStatus', (status: BatchStatus) => this.batches.fire(status));
    connection.onRequest(ConfigurationRequest.type, ({ items }) => {
      this.record.configurationAnswers += 1;
      return items.map((item) => (item.section === 'testmend' ? this.init.settings() : null));
    });
    connection.onRequest(ApplyWorkspaceEditRequest.type, (params) => {
      this.record.edits.push(params);
      return { applied: false, failureReason: 'the test editor records edits' };
    });
    connection.onRequest(ShowDocumentRequest.type, (params) => {
      this.record.documents.push(params);
      return { success: true };
    });
    connection.onRequest(ShowMessageRequest.type, () => null);
    connection.listen();
    const initializationOptions = { testmend: this.init.settings() };
    this.record.initializationOptions.push(initializationOptions);
    const root = plan.cwd ? pathToFileURL(plan.cwd).href : null;
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: root,
      workspaceFolders: root ? [{ uri: root, name: 'project' }] : null,
      initializationOptions,
      capabilities: {
        workspace: { configuration: true, applyEdit: true, workspaceEdit: { documentChanges: true } },
        // As the extension's client declares: progress comes from testmend/runStatus.
        window: { workDoneProgress: false, showDocument: { support: true } },
      },
    });
    await connection.sendNotification(InitializedNotification.type, {});
  }

  async stop(): Promise<void> {
    const { connection, process: child } = this;
    this.connection = undefined;
    if (!connection || !child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
    } finally {
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      child.kill('SIGKILL');
      connection.dispose();
    }
  }

  executeCommand(command: string, args: unknown[]): Promise<unknown> {
    if (!this.connection) return Promise.reject(new Error('not connected'));
    return this.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  async settingsChanged(settings: Settings): Promise<void> {
    await this.connection?.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { testmend: settings },
    });
  }

  onRunStatus(handler: (status: RunStatus) => void) {
    return this.status.event(handler);
  }

  onResultKept(handler: (kept: ResultKept) => void) {
    return this.kept.event(handler);
  }

  onBatchStatus(handler: (status: BatchStatus) => void) {
    return this.batches.event(handler);
  }
}

export function rpcFactory(): ClientFactory & { record: EditorRecord } {
  const record: EditorRecord = {
    initializationOptions: [],
    configurationAnswers: 0,
    edits: [],
    documents: [],
    stderr: [],
    processes: [],
  };
  return Object.assign((init: ClientInit) => new RpcClient(init, record), { record });
}

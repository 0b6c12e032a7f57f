// The extension's behaviour: starts and restarts the server, runs the commands, keeps the API key
// in secret storage, and shows problems with a way to fix them.
import * as vscode from 'vscode';
import { BatchProgress } from './batch';
import type { ClientFactory, ResultKept, ServerClient } from './client';
import { describe, probe, resolveLaunch, type LaunchPlan, type ProbeResult } from './launch';
import { RunProgress } from './progress';
import { onInterpreterChange, selectedInterpreter } from './python';
import { RESULTS_VIEW, ResultsView, type ResultNode } from './results';
import { Review, REVIEW_COMMANDS } from './review';
import { apiKeyEnv, needsRestart, serverSettings, setting, SECTION } from './settings';
import { StatusItem, type ServerState } from './status';

/** Commands of the extension (palette, menus). */
export const COMMANDS = {
  migrate: 'testmend.migrateToRtl',
  migrateFolder: 'testmend.migrateFolder',
  fix: 'testmend.fixErrors',
  cancel: 'testmend.cancelRun',
  report: 'testmend.showLastReport',
  apply: 'testmend.applyKeptResult',
  restart: 'testmend.restartServer',
  setApiKey: 'testmend.setApiKey',
  showOutput: 'testmend.showOutput',
  showResults: 'testmend.showResults',
  refreshResults: 'testmend.refreshResults',
} as const;

/** Commands of the server (workspace/executeCommand); see docs/lsp.md. */
export const SERVER_COMMANDS = {
  migrate: 'testmend.migrate',
  fix: 'testmend.fix',
  cancel: 'testmend.cancel',
  apply: 'testmend.applyResult',
  report: 'testmend.showReport',
  migrateBatch: 'testmend.migrateBatch',
  cancelBatch: 'testmend.cancelBatch',
} as const;

export const API_KEY_SECRET = 'testmend.apiKey';

export const ACTIONS = {
  openSettings: 'Open settings',
  install: 'Install instructions',
  showOutput: 'Show output',
  review: 'Review',
  report: 'Show report',
} as const;

export interface ControllerDeps {
  clientFactory: ClientFactory;
  /** Checks the plan before starting (default: imports testmend with the interpreter, or looks
   * for the program of testmend.server.command). */
  probe?: (plan: LaunchPlan) => Promise<ProbeResult>;
  /** The Python extension's interpreter (default: asks ms-python.python). */
  interpreter?: (resource?: vscode.Uri) => Promise<string | undefined>;
  /** The environment the server inherits (default: the extension host's). */
  baseEnv?: NodeJS.ProcessEnv;
}

/** What the server answers to testmend.migrate / testmend.fix. */
export interface StartAnswer {
  runId: string | null;
  file?: string;
  error?: string;
}

interface FixDiagnostic {
  line: number;
  character: number;
  source: string;
  code?: string;
  message: string;
}

export class Controller implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  private readonly status: StatusItem;
  private currentState: ServerState = 'stopped';
  /** The command line (starting, running) or the problem (failed), for the status item. */
  private stateDetail = '';
  private client: ServerClient | undefined;
  private progress: RunProgress;
  private batches: BatchProgress;
  private clientSubscriptions: vscode.Disposable[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  /** start/stop/restart run one after the other. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  readonly results: ResultsView;
  readonly review: Review;
  /** Each run's latest progress message (step · tool · tests), for the results view. */
  private readonly doing = new Map<string, string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly deps: ControllerDeps,
  ) {
    this.output = vscode.window.createOutputChannel('testmend');
    this.status = new StatusItem(COMMANDS.showOutput, COMMANDS.showResults);
    this.progress = this.newProgress();
    this.batches = this.newBatches();
    this.results = new ResultsView(
      () => this.sender(),
      (runId) => this.doing.get(runId),
    );
    this.review = new Review(
      () => this.sender(),
      () => void this.results.refresh(),
    );
    this.subscriptions.push(this.results.onDidChangeTreeData(() => this.showStatus()));
    this.showStatus();
  }

  get state(): ServerState {
    return this.currentState;
  }

  private setState(state: ServerState, detail = this.stateDetail): void {
    this.currentState = state;
    this.stateDetail = detail;
    this.showStatus();
  }

  private showStatus(): void {
    this.status.show(
      this.currentState,
      this.stateDetail,
      this.progress.active().length + this.batches.running(),
      this.results.waiting,
    );
  }

  // -- lifecycle ------------------------------------------------------------------------------

  /** Registers commands and listeners; the server starts in the background. */
  activate(): Promise<boolean> {
    const register = (id: string, handler: (...args: never[]) => unknown) =>
      this.subscriptions.push(vscode.commands.registerCommand(id, handler));
    register(COMMANDS.migrate, (uri?: vscode.Uri | ResultNode, selected?: vscode.Uri[]) =>
      this.startRuns('migrate', fileOf(uri), selected),
    );
    register(COMMANDS.migrateFolder, (uri?: vscode.Uri, selected?: vscode.Uri[]) =>
      this.migrateFolder(uri, selected),
    );
    register(COMMANDS.fix, (uri?: vscode.Uri, selected?: vscode.Uri[]) =>
      this.startRuns('fix', uri, selected),
    );
    register(COMMANDS.cancel, () => this.cancel());
    register(COMMANDS.report, () => this.serverCommand(SERVER_COMMANDS.report, []));
    register(COMMANDS.apply, () => this.serverCommand(SERVER_COMMANDS.apply, []));
    register(COMMANDS.restart, () => this.restart());
    register(COMMANDS.setApiKey, () => this.setApiKey());
    register(COMMANDS.showOutput, () => this.output.show(true));
    register(COMMANDS.showResults, () => vscode.commands.executeCommand(`${RESULTS_VIEW}.focus`));
    register(COMMANDS.refreshResults, () => this.results.refresh());
    this.subscriptions.push(
      vscode.window.createTreeView(RESULTS_VIEW, { treeDataProvider: this.results, showCollapseAll: false }),
    );

    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => this.onSettingsChanged(event)),
      this.context.secrets.onDidChange((event) => {
        if (event.key === API_KEY_SECRET) void this.restart();
      }),
    );
    void onInterpreterChange(() => {
      if (!setting('server.python') && !setting<string[]>('server.command')?.length) {
        this.output.appendLine('the Python extension selected another interpreter: restarting');
        void this.restart();
      }
    }).then((subscription) => {
      if (this.disposed) subscription.dispose();
      else this.subscriptions.push(subscription);
    });
    return this.start();
  }

  start(): Promise<boolean> {
    return this.enqueue(() => this.doStart());
  }

  /** Starts the server; every problem ends in state "failed" with the error shown, not thrown. */
  private async doStart(): Promise<boolean> {
    try {
      return await this.startServer();
    } catch (error) {
      await this.doStop();
      return this.failed(`the server could not be started: ${errorText(error)}`);
    }
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  restart(): Promise<boolean> {
    return this.enqueue(async () => {
      await this.doStop();
      return this.doStart();
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    await this.stop();
    this.status.dispose();
    this.output.dispose();
  }

  /** Resolves when no start, stop or restart is under way. */
  async settled(): Promise<void> {
    await this.queue;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private newBatches(): BatchProgress {
    return new BatchProgress(
      async (batchId) => {
        const answer = await this.serverCommand(SERVER_COMMANDS.cancelBatch, [batchId]);
        return Boolean((answer as { cancelled?: boolean } | undefined)?.cancelled);
      },
      () => this.showStatus(),
    );
  }

  private newProgress(): RunProgress {
    return new RunProgress(
      (runId) => this.cancelRun(runId),
      () => this.showStatus(),
    );
  }

  private async launchPlan(): Promise<LaunchPlan> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const interpreter = this.deps.interpreter ?? selectedInterpreter;
    return resolveLaunch({
      command: setting<string[]>('server.command') ?? undefined,
      python: setting<string>('server.python'),
      pythonFromExtension: () => interpreter(folder?.uri),
      cwd: folder?.uri.fsPath,
      baseEnv: this.deps.baseEnv ?? process.env,
      apiKeyEnv: apiKeyEnv(),
      apiKey: await this.context.secrets.get(API_KEY_SECRET),
    });
  }

  private async startServer(): Promise<boolean> {
    if (this.client) await this.doStop(); // one that gave up after crashes
    this.setState('starting', '');
    const plan = await this.launchPlan();
    this.setState('starting', describe(plan));
    this.output.appendLine(`starting the server: ${describe(plan)}`);
    this.output.appendLine(`API key: ${this.keyOrigin(plan)}`);
    const probed = await (this.deps.probe ?? probe)(plan);
    if (!probed.ok) return this.failed(probed.message);
    if (probed.version) this.output.appendLine(`testmend ${probed.version} found for ${plan.command}`);
    const client: ServerClient = this.deps.clientFactory({
      plan,
      settings: serverSettings,
      output: this.output,
      onGiveUp: (message) => {
        if (this.client !== client) return; // a client replaced since
        this.setState('failed', message);
        void this.showProblem(message);
      },
      onCommand: (command, args, next) => this.review.handle(command, args, next),
    });
    this.client = client;
    this.clientSubscriptions = [
      client.onRunStatus((status) => {
        this.progress.update(status);
        if (status.done) this.doing.delete(status.runId);
        else this.doing.set(status.runId, status.message);
        // A batch's runs are listed when the batch says a file ended.
        const listed = !status.batchId && (status.done || status.event?.type === 'run_started');
        if (listed) void this.results.refresh();
        else this.results.runChanged();
      }),
      client.onResultKept((kept) => void this.onResultKept(kept)),
      client.onBatchStatus((status) => {
        const before = this.batches.done(status.batchId);
        this.batches.update(status);
        // The list changes when a file of the batch ends (not on every count of it).
        if (status.finished || status.done !== before) void this.results.refresh();
      }),
    ];
    try {
      await client.start();
    } catch (error) {
      await this.doStop();
      return this.failed(`the server did not start (${errorText(error)}): ${describe(plan)}`);
    }
    this.setState('running');
    void this.results.refresh();
    return true;
  }

  /** The server to send commands to, while it runs. */
  private sender(): ((command: string, args: unknown[]) => Promise<unknown>) | undefined {
    const client = this.client;
    if (!client || this.state !== 'running') return undefined;
    return (command, args) => client.executeCommand(command, args);
  }

  /** A result kept for review: say so, with the way to review it. */
  private async onResultKept(kept: ResultKept): Promise<void> {
    void this.results.refresh();
    if (kept.batchId) return; // the batch's notification counts it; the view lists it
    const name = kept.file.split('/').pop() ?? kept.file;
    const facts = [`tests ${kept.tests[0]}/${kept.tests[1]} passing`];
    if (kept.fidelity !== null) facts.push(`fidelity ${kept.fidelity.toFixed(2)}`);
    const why = kept.reasons.length > 0 ? `: ${kept.reasons[0]}` : '';
    const more = kept.reasons.length > 1 ? ` (and ${kept.reasons.length - 1} more)` : '';
    const choice = await vscode.window.showWarningMessage(
      `testmend: ${name}: ${kept.status.replace('_', ' ')} (${facts.join(', ')})${why}${more}. The result is kept, not applied.`,
      ACTIONS.review,
      ACTIONS.report,
    );
    if (choice === ACTIONS.review) await this.review.open(kept.runId);
    else if (choice === ACTIONS.report) await this.serverCommand(REVIEW_COMMANDS.report, [kept.runId]);
  }

  private keyOrigin(plan: LaunchPlan): string {
    const name = apiKeyEnv();
    if (!plan.env[name]) return `none (${name} is not set; set one with "Testmend: Set API key")`;
    const fromBase = (this.deps.baseEnv ?? process.env)[name] === plan.env[name];
    return `${name} from ${fromBase ? 'the environment' : "VS Code's secret storage"}`;
  }

  private failed(message: string): false {
    this.setState('failed', message);
    this.output.appendLine(`error: ${message}`);
    void this.showProblem(message);
    return false;
  }

  private async doStop(): Promise<void> {
    this.progress.dispose();
    this.progress = this.newProgress();
    this.batches.dispose();
    this.batches = this.newBatches();
    for (const subscription of this.clientSubscriptions.splice(0)) subscription.dispose();
    const client = this.client;
    this.client = undefined;
    if (this.state !== 'failed') this.setState('stopped');
    if (client) await client.stop().catch(() => undefined);
  }

  /** One error with the ways out: the setting, the install instructions, the log. */
  async showProblem(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(
      `testmend: ${message}`,
      ACTIONS.openSettings,
      ACTIONS.install,
      ACTIONS.showOutput,
    );
    if (choice === ACTIONS.openSettings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
    } else if (choice === ACTIONS.install) {
      const readme = vscode.Uri.joinPath(this.context.extensionUri, 'README.md');
      await vscode.commands.executeCommand('markdown.showPreview', readme);
    } else if (choice === ACTIONS.showOutput) {
      this.output.show(true);
    }
  }

  private async onSettingsChanged(event: vscode.ConfigurationChangeEvent): Promise<void> {
    if (!event.affectsConfiguration(SECTION)) return;
    if (needsRestart(event)) {
      this.output.appendLine('a setting that changes how the server starts changed: restarting');
      await this.restart();
    } else if (this.client && this.state === 'running') {
      await this.client
        .settingsChanged(serverSettings())
        .catch((error) => this.output.appendLine(`settings not sent: ${errorText(error)}`));
    }
  }

  // -- commands -------------------------------------------------------------------------------

  /** The running client; starts the server first when it is not running (the person may have
   * fixed what stopped it). */
  private async ready(): Promise<ServerClient | undefined> {
    await this.queue;
    if (this.state !== 'running' && !(await this.start())) return undefined;
    return this.client;
  }

  private async serverCommand(command: string, args: unknown[]): Promise<unknown> {
    const client = await this.ready();
    if (!client) return undefined;
    try {
      return await client.executeCommand(command, args);
    } catch (error) {
      void vscode.window.showErrorMessage(`testmend: ${command} failed: ${errorText(error)}`);
      return undefined;
    }
  }

  /** Migrate or fix the file(s) of a context menu, else the active editor's file. */
  async startRuns(
    mode: 'migrate' | 'fix',
    clicked?: vscode.Uri,
    selected?: vscode.Uri[],
  ): Promise<StartAnswer[]> {
    const targets = selected?.length ? selected : clicked ? [clicked] : [];
    if (targets.length === 0) {
      const editor = vscode.window.activeTextEditor;
      if (editor) targets.push(editor.document.uri);
    }
    if (targets.length === 0) {
      void vscode.window.showWarningMessage('testmend: open a test file, or pick one in the explorer');
      return [];
    }
    const answers: StartAnswer[] = [];
    for (const uri of targets) {
      if (uri.scheme !== 'file') {
        void vscode.window.showWarningMessage(`testmend: save ${uri.path} as a file first`);
        continue;
      }
      const document = vscode.workspace.textDocuments.find(
        (open) => open.uri.toString() === uri.toString(),
      );
      const diagnostics = mode === 'fix' ? fixDiagnostics(uri) : [];
      const command = mode === 'migrate' ? SERVER_COMMANDS.migrate : SERVER_COMMANDS.fix;
      const answer = await this.serverCommand(command, [
        uri.toString(),
        document?.version ?? null,
        diagnostics,
      ]);
      if (answer) answers.push(answer as StartAnswer);
    }
    return answers;
  }

  /** Migrate every Enzyme test under the folder(s) of a context menu, in one batch. */
  async migrateFolder(clicked?: vscode.Uri, selected?: vscode.Uri[]): Promise<unknown> {
    const targets = selected?.length ? selected : clicked ? [clicked] : [];
    if (targets.length === 0) {
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (folder) targets.push(folder.uri);
    }
    if (targets.length === 0) {
      void vscode.window.showWarningMessage('testmend: pick a folder in the explorer');
      return undefined;
    }
    return this.serverCommand(
      SERVER_COMMANDS.migrateBatch,
      [targets.map((uri) => uri.toString())],
    );
  }

  async cancel(): Promise<void> {
    const runs = this.progress.active();
    if (runs.length === 0) {
      void vscode.window.showInformationMessage('testmend: no run in progress');
      return;
    }
    let runId = runs[0].runId;
    if (runs.length > 1) {
      const picked = await vscode.window.showQuickPick(
        runs.map((run) => ({ label: run.title, description: run.runId, runId: run.runId })),
        { title: 'testmend: cancel which run?' },
      );
      if (!picked) return;
      runId = picked.runId;
    }
    await this.cancelRun(runId);
  }

  /** True when the server took the cancel (it then ends the run with a last runStatus). */
  private async cancelRun(runId: string): Promise<boolean> {
    const answer = await this.serverCommand(SERVER_COMMANDS.cancel, [runId]);
    return Boolean((answer as { cancelled?: boolean } | undefined)?.cancelled);
  }

  async setApiKey(): Promise<void> {
    const name = apiKeyEnv();
    const value = await vscode.window.showInputBox({
      title: 'testmend: API key',
      prompt: `Kept in VS Code's secret storage and given to the server as ${name}. Leave empty to remove the stored key.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return;
    const key = value.trim();
    if (key) {
      await this.context.secrets.store(API_KEY_SECRET, key);
      void vscode.window.showInformationMessage('testmend: API key stored; the server restarts to use it');
    } else {
      await this.context.secrets.delete(API_KEY_SECRET);
      void vscode.window.showInformationMessage('testmend: stored API key removed');
    }
  }
}

/** The file's lint and type errors, for testmend.fix to start from. */
function fixDiagnostics(uri: vscode.Uri): FixDiagnostic[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter(
      (diagnostic) =>
        diagnostic.source !== SECTION && diagnostic.severity <= vscode.DiagnosticSeverity.Warning,
    )
    .map((diagnostic) => {
      const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
      return {
        line: diagnostic.range.start.line,
        character: diagnostic.range.start.character,
        source: diagnostic.source ?? '',
        ...(code === undefined ? {} : { code: String(code) }),
        message: diagnostic.message,
      };
    });
}

/** The file a command is about: a URI, or a results-view row (its context menu's "run again"). */
function fileOf(arg?: vscode.Uri | ResultNode): vscode.Uri | undefined {
  if (arg && 'kind' in arg && arg.kind === 'result') return vscode.Uri.parse(arg.result.uri);
  return arg && !('kind' in arg) ? arg : undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

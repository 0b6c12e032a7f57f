// A stand-in for the `vscode` module (aliased in vitest.config.ts): the parts of the API the
// extension uses, recording what the extension asks of the editor and answering as a test says.
import * as nodePath from 'node:path';
import manifest from '../../package.json';

export class Disposable {
  constructor(private readonly onDispose: () => void) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}

export type Event<T> = (listener: (event: T) => unknown) => Disposable;

export class EventEmitter<T> {
  private listeners = new Set<(event: T) => unknown>();
  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', nodePath.resolve(path));
  }
  static parse(value: string): Uri {
    const match = /^([a-z][\w+.-]*):(?:\/\/)?(.*)$/i.exec(value);
    if (!match) throw new Error(`not a URI: ${value}`);
    return new Uri(match[1], decodeURIComponent(match[2]));
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, nodePath.posix.join(base.path, ...parts));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    const encoded = this.path.split('/').map(encodeURIComponent).join('/');
    return `${this.scheme}://${encoded}`;
  }
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class StatusBarItem {
  name: string | undefined;
  text = '';
  tooltip: string | undefined;
  command: string | undefined;
  backgroundColor: ThemeColor | undefined;
  visible = false;
  disposed = false;
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeIcon {
  constructor(readonly id: string) {}
}

export class TreeItem {
  description?: string;
  tooltip?: string;
  iconPath?: ThemeIcon;
  resourceUri?: Uri;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

/** A tree view the extension made: its provider, to read what it shows. */
export interface StubTreeView {
  id: string;
  provider: {
    getChildren(node?: unknown): unknown[] | Thenable<unknown[]>;
    getTreeItem(node: unknown): TreeItem | Thenable<TreeItem>;
  };
  disposed: boolean;
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

// -- what the editor was asked, and the answers a test scripts ---------------------------------

export interface ShownMessage {
  kind: 'error' | 'warning' | 'information';
  message: string;
  items: string[];
  answered: Promise<string | undefined>;
}

export interface ShownProgress {
  title: string | undefined;
  location: ProgressLocation;
  cancellable: boolean;
  reports: { message?: string; increment?: number }[];
  /** Presses the notification's cancel button. */
  cancel(): void;
  done: Promise<void>;
  finished: boolean;
}

export class OutputChannel {
  lines: string[] = [];
  shown = 0;
  disposed = false;
  constructor(readonly name: string) {}
  append(value: string): void {
    this.lines.push(value);
  }
  appendLine(value: string): void {
    this.lines.push(value);
  }
  replace(value: string): void {
    this.lines = [value];
  }
  clear(): void {
    this.lines = [];
  }
  show(): void {
    this.shown += 1;
  }
  hide(): void {}
  dispose(): void {
    this.disposed = true;
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

type Handler = (...args: unknown[]) => unknown;

export interface Diagnostic {
  range: { start: { line: number; character: number } };
  message: string;
  source?: string;
  code?: string | number | { value: string | number };
  severity: DiagnosticSeverity;
}

interface Inspected {
  key: string;
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

const declared = manifest.contributes.configuration.properties as Record<string, { default?: unknown }>;

/** An open document; `saved` counts its saves. */
export interface StubDocument {
  uri: Uri;
  version: number;
  isDirty?: boolean;
  saved?: number;
  save?: () => Promise<boolean>;
}

export function stubDocument(uri: Uri, version: number, isDirty = false): StubDocument {
  const document: StubDocument = { uri, version, isDirty, saved: 0 };
  document.save = async () => {
    document.saved = (document.saved ?? 0) + 1;
    document.isDirty = false;
    return true;
  };
  return document;
}

export const stub = {
  commands: new Map<string, Handler>(),
  /** Commands the extension executed that it does not own (built-in VS Code commands). */
  executed: [] as { command: string; args: unknown[] }[],
  messages: [] as ShownMessage[],
  progress: [] as ShownProgress[],
  outputs: [] as OutputChannel[],
  statusItems: [] as StatusBarItem[],
  treeViews: [] as StubTreeView[],
  /** Answers for the next message boxes / input boxes / quick picks, in order. */
  messageAnswers: [] as (string | undefined)[],
  inputAnswers: [] as (string | undefined)[],
  pickAnswer: (items: unknown[]): unknown => items[0],
  inputOptions: [] as unknown[],
  settings: { global: new Map<string, unknown>(), workspace: new Map<string, unknown>() },
  diagnostics: new Map<string, Diagnostic[]>(),
  extensions: new Map<string, unknown>(),
  textDocuments: [] as StubDocument[],
  visibleDocuments: [] as StubDocument[],
  /** Edits given to workspace.applyEdit, with their metadata; `applyEditAnswer` is the answer
   * (an edit marks its documents dirty when applied). */
  appliedEdits: [] as { edit: { entries(): [Uri, unknown[]][] }; metadata: unknown }[],
  applyEditAnswer: true,
  activeDocument: undefined as { uri: Uri; version: number } | undefined,
  workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
  configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),

  reset(): void {
    this.commands.clear();
    this.executed = [];
    this.messages = [];
    this.progress = [];
    this.outputs = [];
    this.statusItems = [];
    this.treeViews = [];
    this.messageAnswers = [];
    this.inputAnswers = [];
    this.inputOptions = [];
    this.pickAnswer = (items) => items[0];
    this.settings.global.clear();
    this.settings.workspace.clear();
    this.diagnostics.clear();
    this.extensions.clear();
    this.textDocuments = [];
    this.visibleDocuments = [];
    this.appliedEdits = [];
    this.applyEditAnswer = true;
    this.activeDocument = undefined;
    this.workspaceFolders = undefined;
    this.configurationChanged = new EventEmitter();
  },

  /** Changes a setting as the Settings editor would, and tells the extension. */
  setSetting(key: string, value: unknown, target: 'global' | 'workspace' = 'workspace'): void {
    const store = this.settings[target];
    if (value === undefined) store.delete(key);
    else store.set(key, value);
    this.configurationChanged.fire({
      affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`),
    });
  },

  output(name = 'testmend'): OutputChannel {
    const found = this.outputs.find((channel) => channel.name === name);
    if (!found) throw new Error(`no output channel ${name}`);
    return found;
  },
};

function show(kind: ShownMessage['kind']) {
  return (message: string, ...items: unknown[]): Promise<string | undefined> => {
    const labels = items.filter((item): item is string => typeof item === 'string');
    const answer = Promise.resolve(stub.messageAnswers.shift());
    stub.messages.push({ kind, message, items: labels, answered: answer });
    return answer;
  };
}

export const window = {
  createOutputChannel(name: string): OutputChannel {
    const channel = new OutputChannel(name);
    stub.outputs.push(channel);
    return channel;
  },
  createStatusBarItem(): StatusBarItem {
    const item = new StatusBarItem();
    stub.statusItems.push(item);
    return item;
  },
  createTreeView(id: string, options: { treeDataProvider: StubTreeView['provider'] }) {
    const view: StubTreeView = { id, provider: options.treeDataProvider, disposed: false };
    stub.treeViews.push(view);
    return {
      dispose: () => {
        view.disposed = true;
      },
    };
  },
  showErrorMessage: show('error'),
  showWarningMessage: show('warning'),
  showInformationMessage: show('information'),
  async showInputBox(options: unknown): Promise<string | undefined> {
    stub.inputOptions.push(options);
    return stub.inputAnswers.shift();
  },
  async showQuickPick(items: unknown[]): Promise<unknown> {
    return stub.pickAnswer(items);
  },
  get activeTextEditor() {
    return stub.activeDocument ? { document: stub.activeDocument } : undefined;
  },
  get visibleTextEditors() {
    return stub.visibleDocuments.map((document) => ({ document }));
  },
  withProgress<R>(
    options: { location: ProgressLocation; title?: string; cancellable?: boolean },
    task: (
      progress: { report(value: { message?: string; increment?: number }): void },
      token: { isCancellationRequested: boolean; onCancellationRequested: Event<void> },
    ) => Thenable<R>,
  ): Promise<R> {
    const cancelled = new EventEmitter<void>();
    const token = { isCancellationRequested: false, onCancellationRequested: cancelled.event };
    const shown: ShownProgress = {
      title: options.title,
      location: options.location,
      cancellable: Boolean(options.cancellable),
      reports: [],
      cancel: () => {
        token.isCancellationRequested = true;
        cancelled.fire();
      },
      done: Promise.resolve(),
      finished: false,
    };
    stub.progress.push(shown);
    const result = Promise.resolve(task({ report: (value) => shown.reports.push(value) }, token));
    shown.done = result.then(() => {
      shown.finished = true;
    });
    return result;
  },
};

export const commands = {
  registerCommand(id: string, handler: Handler): Disposable {
    if (stub.commands.has(id)) throw new Error(`command '${id}' already exists`);
    stub.commands.set(id, handler);
    return new Disposable(() => stub.commands.delete(id));
  },
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const handler = stub.commands.get(id);
    if (handler) return handler(...args);
    stub.executed.push({ command: id, args });
    return undefined;
  },
};

export const workspace = {
  getConfiguration(section?: string) {
    const full = (key: string) => (section ? `${section}.${key}` : key);
    const inspect = (key: string): Inspected | undefined => {
      const name = full(key);
      return {
        key: name,
        defaultValue: declared[name]?.default,
        globalValue: stub.settings.global.get(name),
        workspaceValue: stub.settings.workspace.get(name),
      };
    };
    return {
      get<T>(key: string, fallback?: T): T | undefined {
        const found = inspect(key);
        const value = found?.workspaceValue ?? found?.globalValue ?? found?.defaultValue;
        return (value === undefined ? fallback : value) as T | undefined;
      },
      has: (key: string) => full(key) in declared,
      inspect,
    };
  },
  onDidChangeConfiguration(listener: (event: { affectsConfiguration(s: string): boolean }) => unknown) {
    return stub.configurationChanged.event(listener);
  },
  get workspaceFolders() {
    return stub.workspaceFolders;
  },
  get textDocuments() {
    return stub.textDocuments;
  },
  asRelativePath(uri: Uri): string {
    const folder = stub.workspaceFolders?.[0]?.uri.path;
    return folder && uri.path.startsWith(`${folder}/`) ? uri.path.slice(folder.length + 1) : uri.path;
  },
  async applyEdit(edit: { entries(): [Uri, unknown[]][] }, metadata?: unknown): Promise<boolean> {
    stub.appliedEdits.push({ edit, metadata });
    if (!stub.applyEditAnswer) return false;
    for (const [uri] of edit.entries()) {
      const open = stub.textDocuments.find((doc) => doc.uri.toString() === uri.toString());
      if (open) open.isDirty = true;
      else stub.textDocuments.push(stubDocument(uri, 1, true));
    }
    return true;
  },
};

export const languages = {
  getDiagnostics(uri: Uri): Diagnostic[] {
    return stub.diagnostics.get(uri.toString()) ?? [];
  },
};

export const extensions = {
  getExtension(id: string): unknown {
    return stub.extensions.get(id);
  },
};

/** An ExtensionContext with a secret storage held in memory. */
export function createContext(extensionPath = nodePath.resolve(__dirname, '../..')) {
  const secrets = new Map<string, string>();
  const secretChanged = new EventEmitter<{ key: string }>();
  return {
    subscriptions: [] as { dispose(): unknown }[],
    extensionUri: Uri.file(extensionPath),
    extensionPath,
    secretValues: secrets,
    secrets: {
      async get(key: string) {
        return secrets.get(key);
      },
      async store(key: string, value: string) {
        secrets.set(key, value);
        secretChanged.fire({ key });
      },
      async delete(key: string) {
        secrets.delete(key);
        secretChanged.fire({ key });
      },
      onDidChange: secretChanged.event,
    },
  };
}

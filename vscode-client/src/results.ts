// The results view (Explorer › Testmend Results): the runs in progress and the kept results,
// grouped by outcome, rebuilt from the server (which reads the run records in .testmend/, so the
// list survives a window reload). A click opens the review; the context menu accepts, discards,
// runs the migration again or shows the report.
import * as vscode from 'vscode';
import { REVIEW_COMMANDS } from './review';

export const RESULTS_VIEW = 'testmend.results';

/** One entry of testmend.listResults' `results`. */
export interface ListedResult {
  runId: string;
  uri: string;
  file: string;
  state: string;
  outcome: string;
  tests: [number, number] | null;
  fidelity: number | null;
  reason: string | null;
  hunks: number;
  taken: number[];
}

export interface ListedRun {
  runId: string;
  uri: string;
  file: string;
  mode: string;
}

type Send = (command: string, args: unknown[]) => Promise<unknown>;

const GROUPS: { label: string; outcomes: string[] }[] = [
  { label: 'Needs review', outcomes: ['needs_review'] },
  { label: 'Failed', outcomes: ['failed'] },
  { label: 'Accepted, not applied', outcomes: ['succeeded', 'partial'] },
];

export type ResultNode =
  | { kind: 'group'; label: string; children: ResultNode[] }
  | { kind: 'run'; run: ListedRun }
  | { kind: 'result'; result: ListedResult };

function basename(path: string): string {
  return path.split('/').pop() ?? path;
}

export class ResultsView implements vscode.TreeDataProvider<ResultNode> {
  private readonly changed = new vscode.EventEmitter<ResultNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private running: ListedRun[] = [];
  private results: ListedResult[] = [];

  constructor(
    private readonly send: () => Send | undefined,
    /** What a run under way is doing now (its step and test tally), when known. */
    private readonly doing: (runId: string) => string | undefined = () => undefined,
  ) {}

  /** A run's step changed: its row says so. */
  runChanged(): void {
    if (this.running.length > 0) this.changed.fire(undefined);
  }

  /** The results waiting for a person. */
  get waiting(): number {
    return this.results.length;
  }

  private inFlight: Promise<void> | undefined;
  private again = false;

  /** Asks the server again; the view (and whoever listens) updates. Asks made while one is
   * under way become one more after it (a batch's runs end in bursts, and each list reads
   * every run record of the workspace). */
  refresh(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = this.fetch().finally(() => {
      this.inFlight = undefined;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.inFlight;
  }

  private async fetch(): Promise<void> {
    const send = this.send();
    if (!send) return;
    try {
      const answer = (await send(REVIEW_COMMANDS.list, [])) as
        | { running: ListedRun[]; results: ListedResult[] }
        | undefined;
      this.running = answer?.running ?? [];
      this.results = answer?.results ?? [];
    } catch {
      return; // the server went away meanwhile: the next start refreshes
    }
    this.changed.fire(undefined);
  }

  getChildren(node?: ResultNode): ResultNode[] {
    if (node) return node.kind === 'group' ? node.children : [];
    const groups: ResultNode[] = [];
    if (this.running.length > 0) {
      groups.push({
        kind: 'group',
        label: 'Running',
        children: this.running.map((run) => ({ kind: 'run', run })),
      });
    }
    for (const group of GROUPS) {
      const members = this.results.filter((result) => group.outcomes.includes(result.outcome));
      if (members.length === 0) continue;
      groups.push({
        kind: 'group',
        label: group.label,
        children: members.map((result) => ({ kind: 'result', result })),
      });
    }
    return groups;
  }

  getTreeItem(node: ResultNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(
        `${node.label} (${node.children.length})`,
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.contextValue = 'testmend.group';
      return item;
    }
    if (node.kind === 'run') {
      const item = new vscode.TreeItem(basename(node.run.file), vscode.TreeItemCollapsibleState.None);
      item.description = this.doing(node.run.runId) ?? (node.run.mode === 'fix' ? 'fixing' : 'migrating');
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      item.resourceUri = vscode.Uri.parse(node.run.uri);
      item.contextValue = 'testmend.running';
      return item;
    }
    const result = node.result;
    const item = new vscode.TreeItem(basename(result.file), vscode.TreeItemCollapsibleState.None);
    const facts = [];
    if (result.tests) facts.push(`tests ${result.tests[0]}/${result.tests[1]}`);
    if (result.fidelity !== null) facts.push(`fidelity ${result.fidelity.toFixed(2)}`);
    if (result.taken.length > 0) facts.push(`${result.taken.length} of ${result.hunks} hunks taken`);
    if (result.state === 'stale') facts.push('file changed since');
    item.description = facts.join(' · ');
    item.tooltip = `${result.file}\n${result.reason ?? result.outcome.replace('_', ' ')}`;
    item.resourceUri = vscode.Uri.parse(result.uri);
    item.contextValue = 'testmend.result';
    item.command = {
      command: REVIEW_COMMANDS.review,
      title: 'Review result',
      arguments: [{ runId: result.runId }],
    };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

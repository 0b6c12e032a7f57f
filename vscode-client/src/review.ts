// Reviewing a kept result: the result beside the test in a diff editor (the server's read-only
// copy of it on the right, with the findings as diagnostics and a code lens per hunk), and the
// server's review commands run from VS Code (lenses, editor title, the results view, the
// palette) with their arguments translated. The hunks, the edits and what is recorded are the
// server's (docs/lsp.md, "Reviewing a kept result").
import * as vscode from 'vscode';

/** The server's review commands; VS Code runs them under the same ids. */
export const REVIEW_COMMANDS = {
  review: 'testmend.reviewResult',
  accept: 'testmend.acceptResult',
  acceptHunk: 'testmend.acceptHunk',
  rejectHunk: 'testmend.rejectHunk',
  discard: 'testmend.discardResult',
  list: 'testmend.listResults',
  report: 'testmend.showReport',
} as const;

/** What the server answers to testmend.reviewResult. */
export interface ReviewAnswer {
  opened: boolean;
  error?: string;
  runId?: string;
  uri?: string;
  resultUri?: string;
  outcome?: string;
  hunks?: { index: number; header: string; line: number; state: string }[];
}

type Send = (command: string, args: unknown[]) => Promise<unknown>;

const REVIEW_PATH = /\/\.testmend\/runs\/([a-z0-9][a-z0-9-]{3,63})\/review\//;

/**
 * The run a command is about: a run id, a results-view row (its context menu passes the row,
 * its click `{runId}`), or the result's document (editor title menus pass its URI); undefined
 * leaves the choice to the server (the latest kept result).
 */
export function runIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') {
    const fromPath = REVIEW_PATH.exec(arg);
    return fromPath ? fromPath[1] : arg;
  }
  if (arg && typeof arg === 'object') {
    const named = arg as { runId?: unknown; path?: unknown; result?: { runId?: unknown } };
    if (typeof named.runId === 'string') return named.runId;
    if (typeof named.result?.runId === 'string') return named.result.runId; // a results-view row
    if (typeof named.path === 'string') return REVIEW_PATH.exec(named.path)?.[1];
  }
  return undefined;
}

export class Review {
  constructor(
    /** Sends a command to the server (never through the hook below). */
    private readonly send: () => Send | undefined,
    /** The results view and the status bar change after a review command. */
    private readonly changed: () => void,
  ) {}

  /** Opens a kept result beside its test: the diff editor, the test on the left. */
  async open(runId?: string): Promise<ReviewAnswer | undefined> {
    const send = this.send();
    if (!send) return undefined;
    const answer = (await send(REVIEW_COMMANDS.review, [{ runId: runId ?? null, show: false }])) as
      | ReviewAnswer
      | undefined;
    if (!answer?.opened || !answer.uri || !answer.resultUri) return answer;
    const left = vscode.Uri.parse(answer.uri);
    const right = vscode.Uri.parse(answer.resultUri);
    const name = left.path.split('/').pop() ?? left.path;
    const outcome = (answer.outcome ?? 'kept').replace('_', ' ');
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name} ↔ testmend result (${outcome})`, {
      preview: false,
    });
    return answer;
  }

  /** A server command run from VS Code: the review commands get their run id (and hunk) from
   * whatever VS Code passed; reviewResult opens the diff editor. */
  async handle(command: string, args: unknown[], next: Send): Promise<unknown> {
    switch (command) {
      case REVIEW_COMMANDS.review:
        return this.open(runIdOf(args[0]));
      case REVIEW_COMMANDS.accept:
      case REVIEW_COMMANDS.discard:
      case REVIEW_COMMANDS.report: {
        const runId = runIdOf(args[0]);
        const answer = await next(command, runId === undefined ? [] : [runId]);
        this.changed();
        return answer;
      }
      case REVIEW_COMMANDS.acceptHunk:
      case REVIEW_COMMANDS.rejectHunk: {
        const answer = await next(command, [runIdOf(args[0]) ?? null, args[1] ?? null]);
        this.changed();
        return answer;
      }
      default:
        return next(command, args);
    }
  }
}

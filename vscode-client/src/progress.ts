// One progress notification per run, fed by `testmend/runStatus`; its cancel button cancels the
// run on the server.
import * as vscode from 'vscode';
import type { RunStatus } from './client';

interface ShownRun {
  runId: string;
  uri: string;
  title: string;
  percentage: number;
  progress?: vscode.Progress<{ message?: string; increment?: number }>;
  /** Latest status that arrived before the notification was on screen. */
  pending?: RunStatus;
  finish: () => void;
}

export interface ActiveRun {
  runId: string;
  uri: string;
  title: string;
}

export class RunProgress implements vscode.Disposable {
  private readonly runs = new Map<string, ShownRun>();

  /** `cancel` resolves false when the server could not take it (gone, or the run unknown). */
  constructor(
    private readonly cancel: (runId: string) => Promise<boolean>,
    /** Called when a run appears or ends. */
    private readonly changed: () => void = () => undefined,
  ) {}

  /** Runs in progress, oldest first. */
  active(): ActiveRun[] {
    return [...this.runs.values()].map(({ runId, uri, title }) => ({ runId, uri, title }));
  }

  update(status: RunStatus): void {
    if (status.batchId) return; // the batch's notification counts it
    let run = this.runs.get(status.runId);
    if (status.done) {
      run?.finish();
      return;
    }
    if (!run) run = this.show(status);
    if (!run.progress) {
      run.pending = status;
      return;
    }
    this.report(run, status);
  }

  private show(status: RunStatus): ShownRun {
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const run: ShownRun = {
      runId: status.runId,
      uri: status.uri,
      title: status.title,
      percentage: 0,
      finish: () => {
        if (this.runs.delete(run.runId)) this.changed();
        finish();
      },
    };
    this.runs.set(run.runId, run);
    this.changed();
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `testmend: ${status.title}`,
        cancellable: true,
      },
      (progress, token) => {
        run.progress = progress;
        token.onCancellationRequested(() => {
          progress.report({ message: 'cancelling…' });
          void this.cancel(run.runId).then(
            (taken) => taken || run.finish(),
            () => run.finish(),
          );
        });
        if (run.pending) this.report(run, run.pending);
        return finished;
      },
    );
    return run;
  }

  private report(run: ShownRun, status: RunStatus): void {
    const increment = Math.max(0, status.percentage - run.percentage);
    run.percentage = Math.max(run.percentage, status.percentage);
    run.progress?.report({ message: status.message, increment });
  }

  /** The server went away: no run of it goes on. */
  dispose(): void {
    for (const run of [...this.runs.values()]) run.finish();
  }
}

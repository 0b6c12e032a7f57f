// One progress notification per folder batch, fed by `testmend/batchStatus` (files done, running,
// left); its cancel button stops the whole batch on the server. The batch's runs show no
// notification of their own.
import * as vscode from 'vscode';

/** A `testmend/batchStatus` notification (see docs/lsp.md). */
export interface BatchStatus {
  batchId: string;
  title: string;
  total: number;
  done: number;
  running: number;
  left: number;
  outcomes: Record<string, string>;
  finished: boolean;
  cancelled: boolean;
}

interface ShownBatch {
  status: BatchStatus;
  progress?: vscode.Progress<{ message?: string; increment?: number }>;
  reported: number;
  finish: () => void;
}

export function batchMessage(status: BatchStatus): string {
  return `${status.done}/${status.total} done, ${status.running} running, ${status.left} left`;
}

export class BatchProgress implements vscode.Disposable {
  private readonly batches = new Map<string, ShownBatch>();

  constructor(
    /** Resolves false when the server could not take it. */
    private readonly cancel: (batchId: string) => Promise<boolean>,
    /** Called after every change (the status bar counts the batches' runs). */
    private readonly changed: () => void = () => undefined,
  ) {}

  /** How many files of a batch ended so far (undefined: not shown). */
  done(batchId: string): number | undefined {
    return this.batches.get(batchId)?.status.done;
  }

  /** Runs of batches under way. */
  running(): number {
    return [...this.batches.values()].reduce((sum, batch) => sum + batch.status.running, 0);
  }

  update(status: BatchStatus): void {
    let batch = this.batches.get(status.batchId);
    if (!batch) {
      if (status.finished) return;
      batch = this.show(status);
    }
    batch.status = status;
    this.report(batch);
    if (status.finished) batch.finish();
    this.changed();
  }

  private show(status: BatchStatus): ShownBatch {
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const batch: ShownBatch = {
      status,
      reported: 0,
      finish: () => {
        this.batches.delete(status.batchId);
        finish();
      },
    };
    this.batches.set(status.batchId, batch);
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `testmend: ${status.title}`, cancellable: true },
      (progress, token) => {
        batch.progress = progress;
        token.onCancellationRequested(() => {
          progress.report({ message: 'cancelling every run of the batch…' });
          void this.cancel(status.batchId).then(
            (taken) => taken || batch.finish(),
            () => batch.finish(),
          );
        });
        this.report(batch);
        return finished;
      },
    );
    return batch;
  }

  private report(batch: ShownBatch): void {
    if (!batch.progress) return;
    const { status } = batch;
    const percentage = status.total > 0 ? Math.floor((100 * status.done) / status.total) : 100;
    batch.progress.report({ message: batchMessage(status), increment: Math.max(0, percentage - batch.reported) });
    batch.reported = Math.max(batch.reported, percentage);
  }

  dispose(): void {
    for (const batch of [...this.batches.values()]) batch.finish();
  }
}

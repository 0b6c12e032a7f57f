// A status bar item that says whether the server runs and how many runs are under way, so a
// server that failed to start stays visible after its error message is gone.
import * as vscode from 'vscode';

export type ServerState = 'stopped' | 'starting' | 'running' | 'failed';

export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  /** `problemCommand`: what a click does when the server failed (the log); `viewCommand`: else
   * (the results view). */
  constructor(
    private readonly problemCommand: string,
    private readonly viewCommand: string = problemCommand,
  ) {
    this.item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'testmend';
    this.item.command = problemCommand;
    this.item.show();
  }

  /** `detail`: the command line (running, starting) or the problem (failed); `waiting`: the
   * results waiting for review. */
  show(state: ServerState, detail: string, runs: number, waiting = 0): void {
    const item = this.item;
    item.backgroundColor = undefined;
    item.command = state === 'failed' || state === 'stopped' ? this.problemCommand : this.viewCommand;
    if (state === 'failed') {
      item.text = '$(error) testmend';
      item.tooltip = `testmend: ${detail}`;
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    } else if (state === 'starting') {
      item.text = '$(loading~spin) testmend';
      item.tooltip = `testmend: starting ${detail}`;
    } else if (state === 'stopped') {
      item.text = '$(circle-slash) testmend';
      item.tooltip = 'testmend: the server is stopped';
    } else if (runs > 0) {
      item.text = `$(loading~spin) testmend: ${runs} run${runs === 1 ? '' : 's'}${review(waiting, ', ')}`;
      item.tooltip = `testmend: ${runs} run${runs === 1 ? '' : 's'} in progress (Testmend: Cancel run)${review(waiting, '; ')}`;
    } else if (waiting > 0) {
      item.text = `$(checklist) testmend:${review(waiting, ' ')}`;
      item.tooltip = `testmend:${review(waiting, ' ')} (click: the results view)`;
    } else {
      item.text = '$(check) testmend';
      item.tooltip = `testmend: running ${detail}`;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}

function review(waiting: number, separator: string): string {
  return waiting > 0 ? `${separator}${waiting} to review` : '';
}

// A status bar item that says whether the server runs and how many runs are under way, so a
// server that failed to start stays visible after its error message is gone.
import * as vscode from 'vscode';

export type ServerState = 'stopped' | 'starting' | 'running' | 'failed';

export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(command: string) {
    this.item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'testmend';
    this.item.command = command;
    this.item.show();
  }

  /** `detail`: the command line (running, starting) or the problem (failed). */
  show(state: ServerState, detail: string, runs: number): void {
    const item = this.item;
    item.backgroundColor = undefined;
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
      item.text = `$(loading~spin) testmend: ${runs} run${runs === 1 ? '' : 's'}`;
      item.tooltip = `testmend: ${runs} run${runs === 1 ? '' : 's'} in progress (Testmend: Cancel run)`;
    } else {
      item.text = '$(check) testmend';
      item.tooltip = `testmend: running ${detail}`;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}

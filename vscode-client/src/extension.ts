// Entry point: VS Code calls activate() when a JavaScript or TypeScript file opens.
import type * as vscode from 'vscode';
import { createLanguageClient } from './client';
import { Controller, type ControllerDeps } from './controller';

let controller: Controller | undefined;

/** Activation with its dependencies given (the tests give their own client). */
export function activateWith(context: vscode.ExtensionContext, deps: ControllerDeps): Controller {
  const created = new Controller(context, deps);
  context.subscriptions.push(created);
  void created.activate();
  return created;
}

export function activate(context: vscode.ExtensionContext): void {
  controller = activateWith(context, { clientFactory: createLanguageClient });
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}

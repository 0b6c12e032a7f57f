// The interpreter selected in the Python extension (ms-python.python), when it is installed.
import * as vscode from 'vscode';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

interface EnvironmentPath {
  path: string;
}

/** The parts of the Python extension's API used here (environments API, older settings API). */
interface PythonApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(
      environment: EnvironmentPath | string,
    ): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand?: string[] };
  };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION_ID);
  if (!extension) return undefined;
  return extension.isActive ? extension.exports : await extension.activate();
}

export async function selectedInterpreter(resource?: vscode.Uri): Promise<string | undefined> {
  const api = await pythonApi();
  if (!api) return undefined;
  if (api.environments) {
    const active = api.environments.getActiveEnvironmentPath(resource);
    const resolved = await api.environments.resolveEnvironment(active);
    return resolved?.executable?.uri?.fsPath ?? active.path;
  }
  return api.settings?.getExecutionDetails?.(resource)?.execCommand?.[0];
}

/** Calls `listener` when the selected interpreter changes (nothing without the extension). */
export async function onInterpreterChange(listener: () => void): Promise<vscode.Disposable> {
  const api = await pythonApi().catch(() => undefined);
  const event = api?.environments?.onDidChangeActiveEnvironmentPath;
  return event ? event(() => listener()) : new vscode.Disposable(() => undefined);
}

// The `testmend.*` settings: which reach the server, which only the extension reads, and which
// need the server restarted when they change.
import * as vscode from 'vscode';
import manifest from '../package.json';

export const SECTION = 'testmend';

/** Setting keys (without the `testmend.` prefix) as the manifest declares them. */
export const SETTING_KEYS: readonly string[] = Object.keys(
  manifest.contributes.configuration.properties,
).map((key) => key.slice(SECTION.length + 1));

/** Read by the extension itself; the server's configuration would refuse them. */
const CLIENT_ONLY = ['server.', 'trace.'];

/** Changing these changes how the server process is started (its command or environment). */
export const RESTART_KEYS = ['server.python', 'server.command', 'model.apiKeyEnv'];

export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';

export type Settings = { [key: string]: unknown };

/**
 * The value a person set (folder, workspace or user), or undefined when only the default applies.
 * Defaults are not sent to the server: editor settings take precedence over the project's
 * testmend.config.json, and a default would silently override what the project says.
 */
function explicitValue(config: vscode.WorkspaceConfiguration, key: string): unknown {
  const found = config.inspect(key);
  if (found === undefined) return undefined;
  const value = found.workspaceFolderValue ?? found.workspaceValue ?? found.globalValue;
  return value === null ? undefined : value;
}

function scope(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** One setting's effective value (defaults included), for what the extension itself reads. */
export function setting<T>(key: string): T | undefined {
  const value = vscode.workspace.getConfiguration(SECTION, scope()).get<T>(key);
  return value === null ? undefined : value;
}

/**
 * The settings the server gets (initializationOptions, workspace/configuration,
 * didChangeConfiguration): only those set explicitly, nested as the server's configuration
 * expects (`model.tiers.full` → `{model: {tiers: {full: …}}}`). Never an API key: the server
 * refuses keys in settings, and the key travels in the process environment instead.
 */
export function serverSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION, scope());
  const settings: Settings = {};
  for (const key of SETTING_KEYS) {
    if (CLIENT_ONLY.some((prefix) => key.startsWith(prefix))) continue;
    const value = explicitValue(config, key);
    if (value === undefined) continue;
    const parts = key.split('.');
    let node = settings;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      node = (typeof next === 'object' && next !== null ? next : (node[part] = {})) as Settings;
    }
    node[parts[parts.length - 1]] = value;
  }
  return settings;
}

export function needsRestart(event: vscode.ConfigurationChangeEvent): boolean {
  return RESTART_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`));
}

export function apiKeyEnv(): string {
  return setting<string>('model.apiKeyEnv') || DEFAULT_API_KEY_ENV;
}

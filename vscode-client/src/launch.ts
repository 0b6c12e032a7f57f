// How the server process is started: which command, from which setting, with which environment,
// and a quick check that it can start before the language client tries.
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

export interface LaunchPlan {
  command: string;
  args: string[];
  cwd: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Where the command came from, in words the person can act on. */
  origin: string;
  /** The interpreter, when the server runs as `<python> -m testmend serve`. */
  python?: string;
}

export interface LaunchChoice {
  /** `testmend.server.command`, if set. */
  command?: readonly string[];
  /** `testmend.server.python`, if set. */
  python?: string;
  /** Asks the Python extension for its selected interpreter (undefined: none). */
  pythonFromExtension: () => Promise<string | undefined>;
  cwd: string | undefined;
  baseEnv: NodeJS.ProcessEnv;
  apiKeyEnv: string;
  /** From VS Code's secret storage; undefined keeps whatever the environment has. */
  apiKey: string | undefined;
}

export const FALLBACK_PYTHON = 'python3';

/** The server's environment: the editor's, plus the stored API key under the configured name. */
export function serverEnvironment(
  base: NodeJS.ProcessEnv,
  apiKeyEnv: string,
  apiKey: string | undefined,
): NodeJS.ProcessEnv {
  const env = { ...base };
  if (apiKey) env[apiKeyEnv] = apiKey;
  return env;
}

export async function resolveLaunch(choice: LaunchChoice): Promise<LaunchPlan> {
  const env = serverEnvironment(choice.baseEnv, choice.apiKeyEnv, choice.apiKey);
  if (choice.command && choice.command.length > 0) {
    const [command, ...args] = choice.command;
    return { command, args, cwd: choice.cwd, env, origin: 'the setting testmend.server.command' };
  }
  let python = choice.python?.trim();
  let origin = 'the setting testmend.server.python';
  if (!python) {
    python = await choice.pythonFromExtension().catch(() => undefined);
    origin = "the Python extension's selected interpreter";
  }
  if (!python) {
    python = FALLBACK_PYTHON;
    origin = `the default, ${FALLBACK_PYTHON} on PATH`;
  }
  return { command: python, args: ['-m', 'testmend', 'serve'], cwd: choice.cwd, env, origin, python };
}

export function describe(plan: LaunchPlan): string {
  const quoted = [plan.command, ...plan.args].map((part) => (/\s/.test(part) ? `"${part}"` : part));
  return `${quoted.join(' ')} (from ${plan.origin})`;
}

export type ProbeResult =
  | { ok: true; version: string | undefined }
  | { ok: false; reason: 'no-program' | 'not-installed' | 'broken'; message: string };

const PROBE = 'import sys, testmend; sys.stdout.write(testmend.__version__)';

/**
 * Imports testmend with the plan's interpreter: tells "no such Python" from "testmend is not
 * installed there" before the language client would only say that the server died.
 */
export function probePython(plan: LaunchPlan, timeoutMs = 30_000): Promise<ProbeResult> {
  const python = plan.python ?? plan.command;
  return new Promise((resolve) => {
    execFile(
      python,
      ['-c', PROBE],
      { env: plan.env, timeout: timeoutMs, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ ok: true, version: String(stdout).trim() });
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EACCES') {
          resolve({
            ok: false,
            reason: 'no-program',
            message: `cannot run the Python interpreter ${python} (from ${plan.origin}): ${code === 'ENOENT' ? 'not found' : 'not executable'}`,
          });
          return;
        }
        if ((error as { killed?: boolean }).killed) {
          resolve({
            ok: false,
            reason: 'broken',
            message: `${python} (from ${plan.origin}) did not import testmend within ${Math.round(timeoutMs / 1000)} s`,
          });
          return;
        }
        const output = String(stderr);
        if (/No module named '?testmend/.test(output)) {
          resolve({
            ok: false,
            reason: 'not-installed',
            message: `testmend is not installed for ${python} (from ${plan.origin}): install it into that environment or choose another interpreter`,
          });
          return;
        }
        const lastLine = output.trim().split('\n').pop() || error.message;
        resolve({
          ok: false,
          reason: 'broken',
          message: `${python} (from ${plan.origin}) cannot import testmend: ${lastLine}`,
        });
      },
    );
  });
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The program of `testmend.server.command` exists and is executable (on PATH, or as a path). */
export function probeCommand(plan: LaunchPlan): ProbeResult {
  const program = plan.command;
  const candidates = program.includes(path.sep)
    ? [path.resolve(plan.cwd ?? '', program)]
    : (plan.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program));
  if (candidates.some(isExecutableFile)) return { ok: true, version: undefined };
  return {
    ok: false,
    reason: 'no-program',
    message: `cannot run ${program} (from ${plan.origin}): not found${program.includes(path.sep) ? '' : ' on PATH'} or not executable`,
  };
}

/** Checks a plan before the language client starts it. */
export function probe(plan: LaunchPlan): Promise<ProbeResult> {
  return plan.python ? probePython(plan) : Promise.resolve(probeCommand(plan));
}

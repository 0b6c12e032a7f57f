// A real VS Code for the end-to-end test: code-server (VS Code 1.100.3's workbench and extension
// host, served to a browser) with the packaged extension installed, in a profile of its own.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CLIENT_DIR = resolve(__dirname, '..');
export const REPO_ROOT = resolve(CLIENT_DIR, '..');
export const CODE_SERVER = join(__dirname, 'code-server', 'node_modules', 'code-server');
export const VSIX = join(CLIENT_DIR, 'testmend-0.1.0.vsix');

export interface CodeServerOptions {
  /** Everything of this VS Code lives here: profile, extensions, config, home, log. */
  home: string;
  /** The folder to open. */
  folder: string;
  /** User settings (settings.json). */
  settings: Record<string, unknown>;
}

export interface CodeServer {
  url: string;
  /** The server's own output (code-server, extension host errors). */
  log: () => string;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export function installed(): string | undefined {
  const entry = join(CODE_SERVER, 'out', 'node', 'entry.js');
  if (!existsSync(entry)) return `code-server is not installed (${entry}): run ./scripts/setup.sh`;
  if (!existsSync(VSIX)) return `the extension is not packaged (${VSIX}): npm run package`;
  return undefined;
}

/** Installs the .vsix into a fresh profile and starts code-server on a free port. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const userData = join(options.home, 'user-data');
  const extensions = join(options.home, 'extensions');
  const config = join(options.home, 'config.yaml');
  mkdirSync(extensions, { recursive: true });
  // The settings as the user's and as the machine's (code-server's `Machine/settings.json`, the
  // remote settings, which the workbench asks the server for and applies, with a change event,
  // when they arrive). On a machine's first start, code-server has twice started the extension
  // host without the user's file (the server then ran from the default interpreter, and no change
  // ever came); the machine's file is the way code-server's own deployments preset settings.
  // Settings only the user's file may hold (`telemetry.telemetryLevel`) are ignored in it.
  for (const kind of ['User', 'Machine']) {
    mkdirSync(join(userData, kind), { recursive: true });
    writeFileSync(join(userData, kind, 'settings.json'), JSON.stringify(options.settings, null, 2));
  }
  const port = await freePort();
  // Without --config, code-server writes ~/.config/code-server/config.yaml.
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: options.home,
    XDG_CONFIG_HOME: join(options.home, '.config'),
    XDG_DATA_HOME: join(options.home, '.local', 'share'),
    XDG_STATE_HOME: join(options.home, '.local', 'state'),
    XDG_CACHE_HOME: join(options.home, '.cache'),
  };
  for (const name of Object.keys(env)) if (name.startsWith('TESTMEND_') || name.startsWith('VSCODE_')) delete env[name];
  const entry = join(CODE_SERVER, 'out', 'node', 'entry.js');
  const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];
  await run(process.execPath, [entry, ...common, '--install-extension', VSIX], { env, timeout: 120_000 });

  const child: ChildProcess = spawn(
    process.execPath,
    [entry, ...common, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', options.folder],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!output.includes('HTTP server listening')) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL'); // nothing outlives the test
      throw new Error(`code-server did not start within 60 s:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  return {
    url,
    log: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.pid === undefined) return;
      const exited = once(child, 'exit');
      process.kill(-child.pid, 'SIGTERM'); // its whole group: the extension host and our server
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

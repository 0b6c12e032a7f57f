// A long-lived jest for one workspace: runs the project's own jest through its programmatic API
// (@jest/core's runCLI, the arguments parsed by jest-cli's own options), so that re-running a
// file skips node's start-up, jest's module loading and its configuration.
//
// Protocol: one JSON request per line on stdin, {"id", "args": [...], "env": {...}}; for each,
// one line on stdout starting with the marker below, {"id", "exit": 0|1} or {"id", "error"}.
// The first line says whether this jest can be driven ({"ready": true, "version"} or
// {"ready": false, "why"}). Everything else jest or the tests print goes to stderr or stays on
// stdout unmarked. The process ends at the end of stdin.
'use strict';

const path = require('path');
const readline = require('readline');

const MARK = '\u001etestmend-warm ';

function say(message) {
  process.stdout.write(MARK + JSON.stringify(message) + '\n');
}

function load() {
  const root = process.cwd();
  const cliPackage = require.resolve('jest-cli/package.json', { paths: [root] });
  const version = require(cliPackage).version;
  const major = Number(String(version).split('.')[0]);
  if (!(major >= 27)) {
    return { why: `jest ${version} (the warm runner drives jest 27 and later)` };
  }
  const cliDir = path.dirname(cliPackage);
  const cli = require(cliDir);
  if (!cli.yargsOptions) {
    return { why: `jest-cli ${version} does not export its options` };
  }
  const core = require(require.resolve('@jest/core', { paths: [cliDir] }));
  const yargs = require(require.resolve('yargs', { paths: [cliDir] }));
  return { version, core, cli, yargs };
}

function parse(yargs, options, args) {
  const parser = typeof yargs === 'function' ? yargs(args) : yargs;
  return parser.options(options).parserConfiguration({ 'strip-aliases': false }).parse(args);
}

async function main() {
  let jest;
  try {
    jest = load();
  } catch (error) {
    jest = { why: `jest cannot be loaded here: ${String(error && error.message).split('\n')[0]}` };
  }
  if (jest.why) {
    say({ ready: false, why: jest.why });
    return;
  }
  say({ ready: true, version: jest.version });
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      say({ id: null, error: `not a request: ${line.slice(0, 80)}` });
      continue;
    }
    const saved = {};
    for (const [name, value] of Object.entries(request.env || {})) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    try {
      const argv = parse(jest.yargs, jest.cli.yargsOptions, request.args);
      const { results } = await jest.core.runCLI(argv, [process.cwd()]);
      say({ id: request.id, exit: results && results.success ? 0 : 1 });
    } catch (error) {
      say({ id: request.id, error: String((error && error.stack) || error).slice(0, 4000) });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(String((error && error.stack) || error) + '\n');
    process.exit(1);
  },
);

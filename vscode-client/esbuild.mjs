// Bundles the extension and vscode-languageclient into one file: the .vsix ships no node_modules.
// `--production` minifies (vsce runs it before packaging); `--outfile=PATH` builds elsewhere.
import { build } from 'esbuild';

const production = process.argv.includes('--production');
const outfile = process.argv.find((arg) => arg.startsWith('--outfile='))?.slice(10) ?? 'dist/extension.js';

await build({
  entryPoints: ['src/extension.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  external: ['vscode'],
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: production ? 'warning' : 'info',
});

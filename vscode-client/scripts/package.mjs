// Packages the extension as a .vsix (vsce runs the production bundle first), then checks what is
// inside: the bundled client, the manifest, README and LICENSE, and nothing else (no
// node_modules, sources or tests). Prints the file list and the size.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Buffer } from 'node:buffer';
import { isBuiltin } from 'node:module';
import { inflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsix = join(root, `${manifest.name}-${manifest.version}.vsix`);

execFileSync(
  join(root, 'node_modules', '.bin', 'vsce'),
  ['package', '--no-dependencies', '--allow-missing-repository', '--out', vsix],
  { cwd: root, stdio: 'inherit' },
);

/** The entries of a zip file, from its central directory. */
function zipEntries(buffer) {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${vsix} is not a zip file`);
  const count = buffer.readUInt16LE(end + 10);
  let offset = buffer.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const method = buffer.readUInt16LE(offset + 10);
    const compressedSize = buffer.readUInt32LE(offset + 20);
    const size = buffer.readUInt32LE(offset + 24);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    const localHeader = buffer.readUInt32LE(offset + 42);
    const name = buffer.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.push({ name, method, compressedSize, size, localHeader });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function read(buffer, entry) {
  const start =
    entry.localHeader + 30 + buffer.readUInt16LE(entry.localHeader + 26) + buffer.readUInt16LE(entry.localHeader + 28);
  const data = buffer.subarray(start, start + entry.compressedSize);
  return entry.method === 8 ? inflateRawSync(data) : data;
}

const buffer = readFileSync(vsix);
const entries = zipEntries(buffer);
const names = entries.map((entry) => entry.name);
const expected = [
  'extension/dist/extension.js',
  'extension/package.json',
  'extension/readme.md',
  'extension/LICENSE.txt',
];
const problems = [];
for (const name of expected) {
  if (!names.some((found) => found.toLowerCase() === name.toLowerCase())) problems.push(`missing ${name}`);
}
for (const name of names) {
  if (/node_modules\/|\/src\/|\/test\/|\.ts$|\.map$|\.vsix$/.test(name)) problems.push(`should not ship ${name}`);
}
const bundle = entries.find((entry) => entry.name === 'extension/dist/extension.js');
if (bundle) {
  const code = read(buffer, bundle).toString('utf8');
  // vscode-languageclient is inside the bundle; only `vscode` itself is left to the editor.
  const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]);
  const external = [...new Set(required)].filter((id) => !isBuiltin(id));
  if (external.join() !== 'vscode') problems.push(`the bundle requires ${external.join(', ')}`);
  if (!code.includes('testmend/runStatus')) problems.push('the bundle lacks the extension code');
}


console.log(`\n${vsix}`);
for (const entry of entries) console.log(`  ${String(entry.size).padStart(9)}  ${entry.name}`);
const kib = (statSync(vsix).size / 1024).toFixed(1);
console.log(`  ${entries.length} files, ${kib} KiB packed`);
if (problems.length) {
  console.error(`package check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

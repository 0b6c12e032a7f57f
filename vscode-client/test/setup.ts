// vscode-languageclient is CommonJS and `require('vscode')`s: point Node's loader at the same
// stub instance the extension's own imports get through the vitest alias.
import Module from 'node:module';
import * as vscodeStub from './stub/vscode';

const STUB_ID = '/virtual/vscode-stub.js';
const loader = Module as unknown as {
  _resolveFilename(request: string, ...rest: unknown[]): string;
  _cache: Record<string, unknown>;
};
const resolve = loader._resolveFilename;
loader._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? STUB_ID : resolve.call(this, request, ...rest);
};
// The library subclasses API classes the extension never touches (CompletionItem, CodeLens…)
// when it loads: those get empty classes; everything the stub has is the stub's.
const emptyClasses = new Map<string | symbol, unknown>();
const forLibrary = new Proxy(vscodeStub, {
  get(target, name) {
    if (name in target) return target[name as keyof typeof target];
    if (!emptyClasses.has(name)) emptyClasses.set(name, class {});
    return emptyClasses.get(name);
  },
});
loader._cache[STUB_ID] = { id: STUB_ID, filename: STUB_ID, loaded: true, exports: forLibrary };

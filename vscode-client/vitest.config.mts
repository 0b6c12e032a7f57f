import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The extension's `import * as vscode from 'vscode'` gets the stub: no VS Code download.
    alias: { vscode: fileURLToPath(new URL('test/stub/vscode.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
  },
});

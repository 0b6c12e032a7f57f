import { defineConfig } from 'vitest/config';

// The end-to-end test in a real VS Code (e2e/): one file, steps in order, minutes per step.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    bail: 1,
  },
});

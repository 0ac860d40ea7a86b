import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser and one server at a time: the machines have two cores.
    fileParallelism: false,
  },
});

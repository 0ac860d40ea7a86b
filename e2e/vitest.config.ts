import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser and one server at a time: the machines have two cores.
    fileParallelism: false,
    // expect.poll waits for what a page or a server does next; vitest's 1 s default gave up on a
    // loaded CI machine (an enabled button after the page's first load). Polls that must be quick
    // say so with their own timeout.
    expect: { poll: { timeout: 10_000 } },
  },
});

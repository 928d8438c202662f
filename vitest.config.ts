import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // expect.poll gives up after 1 s by default: too short for a loaded 2-core CI running Chromium and Xvfb beside the suite.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});

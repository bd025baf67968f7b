import { defineConfig } from 'vitest/config';

/** Browser tests: playwright-core drives Debian's /usr/bin/chromium against a fresh server. */
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

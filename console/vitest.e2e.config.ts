import { defineConfig } from 'vitest/config';

/** End-to-end: a real identity service (PostgreSQL + Redis) and the built console in headless Chromium. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    // The scenarios drive a real browser against a real service on a 2-core machine shared with other runs.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});

import { defineConfig } from 'vitest/config';

/** End-to-end: a real identity service (PostgreSQL + Redis) serving the built pages, in headless Chromium. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});

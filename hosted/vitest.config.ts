import { defineConfig } from 'vitest/config';

/** Unit tests: the catalogue, the language choice and the link helpers (no browser, no service). */
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});

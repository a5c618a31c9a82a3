import { defineConfig } from 'vitest/config';

/** Unit tests: provider mappings against a fake fetch (no browser, no service). */
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], environment: 'node' },
});

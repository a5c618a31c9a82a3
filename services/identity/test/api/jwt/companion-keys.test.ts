import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../../setup/app';
import { migratedScratchDatabase } from '../../setup/scratch-database';

/**
 * The signing key set with a companion algorithm (RS256 for the OpenID provider, docs/oidc-provider.md "Keys"):
 * one active key per algorithm in use, the configured one signing session tokens; a rotation replaces each; a
 * change of JWT_ALG retires the old algorithm's key and keeps the companion's. On a database of its own, so the
 * key set is this file's alone.
 */
const db = migratedScratchDatabase('companion_keys');
// the provider needs the hosted pages: a stand-in build
const PAGES = mkdtempSync(join(tmpdir(), 'companion-pages-'));
writeFileSync(join(PAGES, 'index.html'), '<!doctype html><html><head><title>p</title></head><body></body></html>');
const apps: TestApp[] = [];
const start = async (env: Record<string, string>) => {
  const t = await startTestApp(
    { oidcProvider: { enabled: true } },
    {
      DATABASE_URL: db.url(),
      HOSTED_PAGES_ENABLED: 'true',
      HOSTED_PAGES_DIR: PAGES,
      ...env,
    },
  );
  apps.push(t);
  return t;
};
afterAll(() => Promise.all(apps.map((t) => t.close())));

const activeRows = () =>
  db.sql().query<{ id: string; alg: string }>('SELECT id, alg FROM jwks WHERE retired_at IS NULL ORDER BY alg');

it('keeps one active key per algorithm in use; session tokens keep the configured one', async () => {
  const t = await start({});
  const primary = await t.ctx.features.jwt.keys.signingKey();
  const companion = await t.ctx.features.jwt.keys.signingKey('RS256');
  expect(primary.alg).toBe('EdDSA');
  expect(companion.alg).toBe('RS256');
  expect((await activeRows()).map((r) => r.alg)).toEqual(['EdDSA', 'RS256']);
  const published = (await t.ctx.features.jwt.keys.publicSet()).keys.map((k) => k.kid);
  expect(published).toEqual(expect.arrayContaining([primary.kid, companion.kid]));
});

it('a rotation replaces every active key, and the retired ones stay published', async () => {
  const t = apps[0];
  const before = (await activeRows()).map((r) => r.id);
  const kid = await t.ctx.features.jwt.keys.rotate();
  const after = await activeRows();
  expect(after.map((r) => r.alg)).toEqual(['EdDSA', 'RS256']);
  expect(after.map((r) => r.id).filter((id) => before.includes(id))).toEqual([]);
  expect(after.find((r) => r.alg === 'EdDSA')?.id).toBe(kid);
  const published = (await t.ctx.features.jwt.keys.publicSet()).keys.map((k) => k.kid);
  expect(published).toEqual(expect.arrayContaining([...before, ...after.map((r) => r.id)]));
});

it('a new JWT_ALG retires the old algorithm’s key and keeps the companion’s', async () => {
  const rs256 = (await activeRows()).find((r) => r.alg === 'RS256')!.id;
  const t = await start({ JWT_ALG: 'ES256' });
  expect((await t.ctx.features.jwt.keys.signingKey()).alg).toBe('ES256');
  const active = await activeRows();
  expect(active.map((r) => r.alg)).toEqual(['ES256', 'RS256']);
  expect(active.find((r) => r.alg === 'RS256')?.id).toBe(rs256);
});

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import argon2 from 'argon2';
import { Client } from 'pg';
import type { BenchInfra } from './infra';

/**
 * The identity server as it is deployed, not as a lab instance: the settings it ships with (request lines logged at
 * info, rate limits on, the hosted sign-in pages served), a mail worker beside it, a database holding a population
 * of users and sessions, and a while of traffic behind it before anything is measured. Only the sign-in limits are
 * raised, so that the bench's own sign-ins from one address are not refused (get-session is never rate-limited).
 */
export const POPULATION = Number(process.env.BENCH_POPULATION || 5000);

let settings: Record<string, string> | undefined;

/** Settings of a deployed instance that the bench sets (the rest are the shipped defaults). */
export function deployedEnv(): Record<string, string> {
  settings ??= writeSettings();
  return settings;
}

function writeSettings(): Record<string, string> {
  const hostedDir = join(__dirname, '..', '..', '..', '..', 'hosted', 'dist');
  if (!existsSync(join(hostedDir, 'index.html')))
    throw new Error(`the hosted pages are not built (${hostedDir}): make hosted`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-config-'));
  const file = join(dir, 'config.json');
  const generous = { windowSec: 60, max: 1_000_000 };
  writeFileSync(
    file,
    JSON.stringify({
      rateLimit: { rules: { '/sign-in/email': generous, '/sign-up/email': generous }, accountFailures: generous },
    }),
  );
  return {
    HOSTED_PAGES_ENABLED: 'true',
    HOSTED_PAGES_DIR: hostedDir,
    RATE_LIMIT_ENABLED: 'true',
    CONFIG_FILE: file,
  };
}

/**
 * `POPULATION` users with a password, a verified address and a session each, written directly (hashing that many
 * passwords through the API would take minutes): one argon2 hash shared by all.
 */
export async function seedPopulation(infra: BenchInfra): Promise<void> {
  const hash = await argon2.hash('population password', { type: argon2.argon2id });
  const client = new Client({ connectionString: infra.databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO users (id, email, email_verified, name, created_at, updated_at)
       SELECT gen_random_uuid(), 'population-' || g || '@example.com', true, 'Population ' || g, now(), now()
       FROM generate_series(1, $1) g`,
      [POPULATION],
    );
    await client.query(
      `INSERT INTO accounts (id, provider_id, account_id, user_id, password, created_at, updated_at)
       SELECT gen_random_uuid(), 'credential', u.id::text, u.id, $1, now(), now()
       FROM users u WHERE u.email LIKE 'population-%'`,
      [hash],
    );
    await client.query(
      `INSERT INTO sessions (id, token, user_id, expires_at, created_at, updated_at)
       SELECT gen_random_uuid(), md5(random()::text) || md5(random()::text), u.id, now() + interval '7 days', now(), now()
       FROM users u WHERE u.email LIKE 'population-%'`,
    );
    await client.query('COMMIT');
    await client.query('ANALYZE users; ANALYZE accounts; ANALYZE sessions');
  } finally {
    await client.end();
  }
}

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { deriveKey } from '../../../src/crypto/keys';
import { Sealer } from '../../../src/crypto/sealed';
import { SocialRepository } from '../../../src/features/social/repository';
import { TokenVault } from '../../../src/features/social/vault';
import { resealStoredSecrets } from '../../../src/reseal';
import { startTestApp, TEST_SECRET, type TestApp } from '../../setup/app';
import { runCliWith } from '../../setup/cli-process';
import { get, post, signIn, signUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { signUpAdmin } from '../admin/helpers';
import { codeAt, type Enrolled, enrolledUser, pendingSignIn } from '../two-factor/helpers';
import { createEndpoint, Receiver, until } from '../webhook/helpers';

/**
 * `secrets:reseal` (docs/security.md, rotating the secret): values sealed under secret A (TOTP secrets with their
 * backup codes, provider tokens, webhook endpoint secrets, signing keys) are sealed again under B while A is still
 * listed in AUTH_SECRET_PREVIOUS; then A is dropped and everything still works. A walk stopped half-way leaves every
 * value readable, and running it again finishes it. On a database of this file's own: the command re-seals every
 * row, and the run's shared database holds other files' values.
 */
const A = TEST_SECRET;
const B = 'second-secret-abcdefghijklmnopqrstuvwxyz-0123456789';
const C = 'unrelated-secret-0123456789-abcdefghijklmnopqrstuvw';

const db = migratedScratchDatabase('reseal');
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(() => receiver?.close());

/** The service on this file's database under `env`'s secrets (webhooks delivered in process, fast retries). */
async function app(env: Record<string, string>, logTo?: NodeJS.WritableStream): Promise<TestApp> {
  return startTestApp(
    { webhook: { retryScheduleMs: [100], timeoutMs: 2000, endpointRefreshMs: 200 }, outbox: { pollMs: 100 } },
    { DATABASE_URL: db.url(), REDIS_URL: '', ...env },
    logTo,
  );
}

/** What the first instance, under A alone, leaves behind. */
interface Before {
  users: Enrolled[];
  provider: { userId: string; token: string };
  endpoint: { id: string; secret: string };
  admin: { email: string };
  clock: number;
}
let before: Before;

/** Each instance's clock starts past the last one's, so a TOTP code is never one used before. */
const catchUp = (t: TestApp) => t.clock.advance((before.clock - t.clock.now()) / 1000 + 60);

const sealedUnder = (secret: string, purpose: Parameters<typeof deriveKey>[1]) =>
  new Sealer(deriveKey(secret, purpose));

/** Which of A and B opens each user's stored TOTP secret. */
async function secretsUnder(users: Enrolled[]): Promise<Array<'A' | 'B' | null>> {
  const rows = await db
    .sql()
    .query<{ user_id: string; secret_sealed: string }>(
      'SELECT user_id, secret_sealed FROM two_factors WHERE user_id = ANY($1)',
      [users.map((u) => u.userId)],
    );
  const bySealed = new Map(rows.map((r) => [r.user_id, r.secret_sealed]));
  return users.map((u) => {
    const sealed = bySealed.get(u.userId)!;
    if (sealedUnder(A, 'two-factor-secrets').open(sealed, `two-factor:${u.userId}`)) return 'A';
    if (sealedUnder(B, 'two-factor-secrets').open(sealed, `two-factor:${u.userId}`)) return 'B';
    return null;
  });
}

/** A password sign-in completed with a TOTP code (`backup`: with a backup code instead). */
async function signInWithCode(t: TestApp, u: Enrolled, backup?: string) {
  const { jar } = await pendingSignIn(t, u.email);
  const res = backup
    ? await post(t.app, '/two-factor/verify-backup-code', { code: backup }, { jar })
    : await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
  t.clock.advance(30);
  return res;
}

describe('secrets:reseal', () => {
  it('under A: second factors, a provider token, a webhook endpoint and a signing key are stored', async () => {
    const t = await app({ AUTH_SECRET: A });
    try {
      const users = [];
      for (let i = 0; i < 5; i++) users.push(await enrolledUser(t));
      const holder = await signUp(t.app);
      await new SocialRepository(t.ctx.sql).insertAccount(
        holder.userId,
        {
          providerId: 'github',
          accountId: `gh-${holder.userId}`,
          seal: new TokenVault(sealedUnder(A, 'provider-tokens')).seal({ accessToken: 'gho_sealed_under_a' }),
        },
        new Date(),
      );
      const admin = await signUpAdmin(t);
      const endpoint = await createEndpoint(t, admin.jar, { url: receiver.url(), eventTypes: ['webhook.'] });
      expect((await get(t.app, '/token', { bearer: holder.token })).statusCode).toBe(200); // the first signing key
      before = {
        users,
        provider: { userId: holder.userId, token: holder.token },
        endpoint,
        admin: { email: admin.email },
        clock: t.clock.now(),
      };
    } finally {
      await t.close();
    }
  });

  it('rotated (B, A previous): a walk stopped after its first batch leaves every value readable', async () => {
    const t = await app({ AUTH_SECRET: B, AUTH_SECRET_PREVIOUS: A });
    try {
      catchUp(t);
      const stop = new Error('stopped, as a killed process would');
      const walk = resealStoredSecrets(t.ctx.features, {
        batchSize: 2,
        afterBatch: () => {
          throw stop;
        },
      });
      await expect(walk).rejects.toBe(stop);
      const under = await secretsUnder(before.users);
      expect(under.filter((s) => s === 'B').length).toBeLessThanOrEqual(2);
      expect(under.filter((s) => s === 'A').length).toBeGreaterThanOrEqual(3);
      expect(under).not.toContain(null);
      // every user still signs in, whichever secret holds theirs
      for (const u of before.users) expect((await signInWithCode(t, u)).statusCode).toBe(200);
      before.clock = t.clock.now();
    } finally {
      await t.close();
    }
  });

  it('the command killed mid-walk (SIGKILL, its batch waiting on a row) leaves every value readable', async () => {
    const under = await secretsUnder(before.users);
    const order = before.users.map((u) => u.userId).sort();
    // hold the fourth row (key order), so a walk of one row per batch stops there, inside its transaction
    const held = order[3];
    await db.sql().transaction(async (tx) => {
      await tx.query('SELECT 1 FROM two_factors WHERE user_id = $1 FOR UPDATE', [held]);
      const child = spawn(process.execPath, ['dist/cli.js', 'secrets:reseal', '--batch-size', '1'], {
        cwd: resolve(__dirname, '../../..'),
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          DATABASE_URL: db.url(),
          AUTH_SECRET: B,
          AUTH_SECRET_PREVIOUS: A,
          LOG_LEVEL: 'silent',
        },
        stdio: 'ignore',
      });
      const exited = new Promise((done) => child.on('exit', done));
      await until(
        async () => {
          const rows = await db
            .sql()
            .query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            );
          return rows[0].n > 0 || null;
        },
        20_000,
        'the command waiting on the held row',
      );
      child.kill('SIGKILL');
      await exited;
    });
    const after = await secretsUnder(before.users);
    expect(after).not.toContain(null);
    // the rows before the held one are under B now; the held one and those after it are as they were
    const index = (u: Enrolled) => order.indexOf(u.userId);
    before.users.forEach((u, i) => {
      expect([index(u), after[i]]).toEqual([index(u), index(u) < 3 ? 'B' : under[i]]);
    });
  });

  it('the command (a process) seals the rest under B, prints its counts, and a second run finds nothing to do', async () => {
    const env = { AUTH_SECRET: B, AUTH_SECRET_PREVIOUS: A, DATABASE_URL: db.url(), REDIS_URL: undefined };
    const run = await runCliWith(env, 'secrets:reseal', '--batch-size', '2');
    expect([run.code, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('two-factor secrets: 5 values, 2 sealed again, 3 already current, 0 unreadable');
    expect(lines[1]).toBe('provider tokens: 1 values, 1 sealed again, 0 already current, 0 unreadable');
    expect(lines[2]).toBe('webhook endpoint secrets: 1 values, 1 sealed again, 0 already current, 0 unreadable');
    expect(lines[3]).toBe('signing keys: 1 values, 1 sealed again, 0 already current, 0 unreadable');
    expect(await secretsUnder(before.users)).toEqual(['B', 'B', 'B', 'B', 'B']);
    const again = await runCliWith(env, 'secrets:reseal');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('two-factor secrets: 5 values, 0 sealed again, 5 already current, 0 unreadable');
    expect(again.stdout).toContain('signing keys: 1 values, 0 sealed again, 1 already current, 0 unreadable');
    // bad options are refused before anything runs
    const bad = await runCliWith(env, 'secrets:reseal', '--batch-size', '0');
    expect([bad.code, bad.stderr.trim()]).toEqual([
      2,
      'secrets:reseal: --batch-size takes a whole number from 1 to 10000',
    ]);
  });

  it('A dropped: TOTP and backup codes, the provider token, webhook signing and /token all still work', async () => {
    const t = await app({ AUTH_SECRET: B });
    try {
      // the webhook first, while this instance's clock is the machine's (receivers check the message's timestamp)
      const admin = await signIn(t.app, before.admin.email);
      receiver.secrets = [before.endpoint.secret];
      const sent = await post(t.app, '/admin/send-test-webhook', { id: before.endpoint.id }, { jar: admin.jar });
      expect(sent.statusCode).toBe(200);
      await receiver.waitFor(
        (all) => all.some((r) => r.webhookId === sent.json().webhookId && r.verifiedWith.includes(0)),
        'a test message signed with the endpoint secret made under A',
      );
      catchUp(t);
      for (const u of before.users) expect((await signInWithCode(t, u)).statusCode).toBe(200);
      const [first] = before.users;
      expect((await signInWithCode(t, first, first.backupCodes[0])).statusCode).toBe(200);
      const token = await post(t.app, '/get-access-token', { providerId: 'github' }, { bearer: before.provider.token });
      expect([token.statusCode, token.json().accessToken]).toEqual([200, 'gho_sealed_under_a']);
      expect((await get(t.app, '/token', { bearer: before.provider.token })).statusCode).toBe(200);
      before.clock = t.clock.now();
    } finally {
      await t.close();
    }
  });

  it('a value no configured secret opens: the command says which and exits 3; reading it answers a catalogue error', async () => {
    const run = await runCliWith({ AUTH_SECRET: C, DATABASE_URL: db.url(), REDIS_URL: undefined }, 'secrets:reseal');
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('two-factor secrets: 5 values, 0 sealed again, 0 already current, 5 unreadable');
    expect(run.stdout).toContain(
      `unreadable two-factor secrets (rows ${[...before.users.map((u) => u.userId)].sort()[0]}`,
    );
    expect(run.stdout).toContain('put the secret they were sealed under back in AUTH_SECRET_PREVIOUS');
    // nothing was written: B still opens everything
    expect(await secretsUnder(before.users)).toEqual(['B', 'B', 'B', 'B', 'B']);
    let log = '';
    const sink = new PassThrough();
    sink.on('data', (chunk) => (log += chunk));
    const t = await app({ AUTH_SECRET: C, LOG_LEVEL: 'error' }, sink);
    try {
      const u = await signUp(t.app);
      const res = await get(t.app, '/token', { bearer: u.token });
      expect([res.statusCode, res.json().code]).toEqual([503, 'STORED_SECRET_UNREADABLE']);
      await new Promise((r) => setImmediate(r));
      expect(log).toContain('the private key of signing key');
      expect(log).toContain('npm run cli -- secrets:reseal');
    } finally {
      await t.close();
    }
  });
});

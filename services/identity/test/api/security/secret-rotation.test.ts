import { createHmac, hkdfSync } from 'node:crypto';
import { Signer } from '@fastify/cookie';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { deriveKey } from '../../../src/crypto/keys';
import { Sealer } from '../../../src/crypto/sealed';
import { VerificationTokens } from '../../../src/crypto/verification-token';
import { SocialRepository } from '../../../src/features/social/repository';
import { TokenVault } from '../../../src/features/social/vault';
import { listenOnLoopback, PUBLIC_URL, startTestApp, TEST_SECRET, type TestApp } from '../../setup/app';
import { runCliWith } from '../../setup/cli-process';
import { CookieJar, DATA_COOKIE, get, post, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';

/**
 * Rotating AUTH_SECRET (docs/security.md): three instances on one database of their own (its signing keys are
 * sealed under these secrets, so the run's shared database stays out of it). `before` knows only the old secret,
 * `rotated` signs with the new one and still accepts the old one (AUTH_SECRET_PREVIOUS), `forgotten` knows only
 * the new one: whatever the old secret made is refused there.
 */
const OLD = TEST_SECRET;
const NEW = 'rotated-secret-9876543210-zyxwvutsrqponmlkjihgfedcba';

const db = migratedScratchDatabase('secret_rotation');
let before: TestApp;
let rotated: TestApp;
let forgotten: TestApp;
beforeAll(async () => {
  const on = (env: Record<string, string>) => startTestApp({}, { DATABASE_URL: db.url(), ...env });
  before = await on({});
  rotated = await on({ AUTH_SECRET: NEW, AUTH_SECRET_PREVIOUS: OLD });
  forgotten = await on({ AUTH_SECRET: NEW });
});
afterAll(async () => {
  await Promise.all([before, rotated, forgotten].map((t) => t?.close()));
});

const setCookies = (res: Response) => res.headers.getSetCookie().map((line) => line.slice(0, line.indexOf('=')));

describe('session cookies across a secret rotation', () => {
  it('accepts cookies signed under a previous secret and sends them again under the current one', async () => {
    const u = await signUp(before.app);
    const jar = u.jar.clone();
    const res = await get(rotated.app, '/get-session', { jar });
    expect(res.json().session.token).toBe(u.token);
    // Both cookies again, signed under the new secret, with the session's lifetime.
    expect(jar.get(TOKEN_COOKIE)).not.toBe(u.jar.get(TOKEN_COOKIE));
    expect(jar.get(DATA_COOKIE)).not.toBe(u.jar.get(DATA_COOKIE));
    expect(Number(jar.attributes.get(TOKEN_COOKIE)?.['max-age'])).toBeGreaterThan(
      rotated.config.session.expiresInSec - 5,
    );
    // An instance that knows only the new secret answers from the new cookies, and refuses the old ones.
    expect((await sessionOf(forgotten.app, { jar: jar.clone() })).user.id).toBe(u.userId);
    const old = u.jar.clone();
    expect((await get(forgotten.app, '/get-session', { jar: old })).json()).toBeNull();
    expect(old.get(TOKEN_COOKIE)).toBeUndefined();
    // Routes that need a session accept the old cookie too where the old secret is still listed.
    expect((await get(rotated.app, '/list-sessions', { jar: u.jar.clone() })).statusCode).toBe(200);
    expect((await get(forgotten.app, '/list-sessions', { jar: u.jar.clone() })).statusCode).toBe(401);
  });

  it('never answers an old-secret cookie from the cookie fast path, which cannot send it again', async () => {
    const u = await signUp(before.app);
    const base = await listenOnLoopback(rotated.app);
    const old = await fetch(`${base}/get-session`, { headers: { cookie: u.jar.header() } });
    expect(((await old.json()) as { session: { token: string } }).session.token).toBe(u.token);
    expect(setCookies(old).sort()).toEqual([DATA_COOKIE, TOKEN_COOKIE]);
    // A current token beside a cache cookie of the old secret: answered after a lookup, with a new cache cookie.
    const current = new CookieJar().store(old);
    current.cookies.set(DATA_COOKIE, u.jar.get(DATA_COOKIE)!);
    const mixed = await fetch(`${base}/get-session`, { headers: { cookie: current.header() } });
    expect(((await mixed.json()) as { session: { token: string } }).session.token).toBe(u.token);
    expect(setCookies(mixed)).toEqual([DATA_COOKIE]);
  });

  it('refuses a forged cache cookie, and one of the previous format, and answers from the session store', async () => {
    const u = await signUp(rotated.app);
    const data = u.jar.get(DATA_COOKIE)!;
    const text = Buffer.from(data.slice(0, data.lastIndexOf('.')), 'base64url').toString();
    const bar = text.indexOf('|');
    const body = JSON.parse(text.slice(bar + 1));
    body.user.role = 'admin';
    const forgedPayload = Buffer.from(`${text.slice(0, bar)}|${JSON.stringify(body)}`).toString('base64url');
    const honest = Buffer.from(text).toString('base64url');
    // The previous format: its own HMAC (base64url) under a key of its own, derived from the same secret.
    const previousKey = Buffer.from(hkdfSync('sha256', NEW, 'identity-service', 'identity/session-cache', 32));
    const previousFormat = (payload: string) =>
      `${payload}.${createHmac('sha256', previousKey).update(payload).digest('base64url')}`;
    const cases: Array<[string, string]> = [
      ['signed by a stranger', new Signer(deriveKey('s'.repeat(40), 'cookie')).sign(forgedPayload)],
      ['an old-format cookie, body edited', previousFormat(forgedPayload)],
      ['an old-format cookie', previousFormat(honest)],
    ];
    for (const [name, cookie] of cases) {
      const jar = u.jar.clone();
      jar.cookies.set(DATA_COOKIE, cookie);
      const res = await get(rotated.app, '/get-session', { jar });
      expect({ name, role: res.json().user.role }).toEqual({ name, role: 'user' });
      expect({ name, replaced: jar.get(DATA_COOKIE) !== cookie }).toEqual({ name, replaced: true });
    }
  });
});

describe('what the old secret made, after a rotation', () => {
  it('a verification link made under the previous secret still verifies', async () => {
    const [kept, dropped] = [await signUp(before.app), await signUp(before.app)];
    const mailedBefore = new VerificationTokens([deriveKey(OLD, 'verification-jwt')], before.clock.now);
    const link = async (email: string) => `/verify-email?token=${(await mailedBefore.sign(email, 3600)).token}`;
    const ok = await get(rotated.app, `${await link(kept.email)}&callbackURL=/welcome`);
    expect([ok.statusCode, ok.headers.location]).toEqual([302, '/welcome']);
    const refused = await get(forgotten.app, `${await link(dropped.email)}&callbackURL=/welcome`);
    expect(refused.headers.location).toBe('/welcome?error=invalid_token');
    const verified = await db
      .sql()
      .query<{ id: string; email_verified: boolean }>('SELECT id, email_verified FROM users WHERE id = ANY($1)', [
        [kept.userId, dropped.userId],
      ]);
    expect(Object.fromEntries(verified.map((r) => [r.id, r.email_verified]))).toEqual({
      [kept.userId]: true,
      [dropped.userId]: false,
    });
  });

  it('a JWKS private key sealed under the previous secret still signs', async () => {
    const u = await signUp(before.app);
    const first = await get(before.app, '/token', { bearer: u.token }); // the first key, sealed under the old secret
    expect(first.statusCode).toBe(200);
    const kid = decodeProtectedHeader(first.json().token).kid;
    const after = await get(rotated.app, '/token', { bearer: u.token });
    expect(after.statusCode).toBe(200);
    const token = after.json().token as string;
    expect(decodeProtectedHeader(token).kid).toBe(kid);
    const jwks = createLocalJWKSet((await get(rotated.app, '/jwks')).json());
    const { payload } = await jwtVerify(token, jwks, {
      issuer: PUBLIC_URL,
      audience: PUBLIC_URL,
      currentDate: new Date(rotated.clock.now()),
    });
    expect(payload.sub).toBe(u.userId);
    const unreadable = await get(forgotten.app, '/token', { bearer: u.token });
    expect([unreadable.statusCode, unreadable.json().code]).toEqual([503, 'STORED_SECRET_UNREADABLE']);
  });

  it('a provider token sealed under the previous secret still opens', async () => {
    const u = await signUp(before.app);
    const sealedBefore = new TokenVault(new Sealer(deriveKey(OLD, 'provider-tokens')));
    await new SocialRepository(db.sql()).insertAccount(
      u.userId,
      { providerId: 'github', accountId: `gh-${u.userId}`, seal: sealedBefore.seal({ accessToken: 'gho_before' }) },
      new Date(),
    );
    const ask = (t: TestApp) => post(t.app, '/get-access-token', { providerId: 'github' }, { bearer: u.token });
    const opened = await ask(rotated);
    expect([opened.statusCode, opened.json().accessToken]).toEqual([200, 'gho_before']);
    expect((await ask(forgotten)).json().accessToken).toBeNull();
  });

  it('the previous secrets are masked like the secret in `cli config`', async () => {
    const res = await runCliWith({ AUTH_SECRET: NEW, AUTH_SECRET_PREVIOUS: OLD, DATABASE_URL: db.url() }, 'config');
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain(OLD);
    expect(res.stdout).not.toContain(NEW);
    expect(JSON.parse(res.stdout).previousSecrets).toEqual([`${OLD.slice(0, 4)}…(${OLD.length} chars)`]);
  });
});

import { CookieJar, post, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { CLIENT_ID, OTHER_CLIENT_ID, type SocialTest, startSocialTest } from './helpers';

let s: SocialTest;
beforeAll(async () => {
  s = await startSocialTest();
});
afterAll(() => s?.close());

const claims = (sub: string, extra: object = {}) => ({
  sub,
  aud: CLIENT_ID,
  email: `${sub}@mobile.example`,
  email_verified: true,
  name: `Mobile ${sub}`,
  nonce: 'nonce-1',
  ...extra,
});

/** Users registered with the test's addresses (other test files share the database: count only ours). */
async function usersCount(): Promise<number> {
  const [{ n }] = await s.t.ctx.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM users WHERE email LIKE 'bad_@mobile.example' OR email = 'victim@mobile.example'",
  );
  return n;
}

function signInWith(token: string, nonce: string | null = 'nonce-1', provider = 'loop', jar = new CookieJar()) {
  return post(s.t.app, '/sign-in/social', { provider, idToken: { token, ...(nonce ? { nonce } : {}) } }, { jar });
}

describe('id-token sign-in (mobile apps), verified with the provider JWKS', () => {
  it('a good token signs in (and registers) at once: redirect false, token and user, session cookie', async () => {
    const token = await s.op.mintIdToken(claims('m1'));
    const jar = new CookieJar();
    const res = await signInWith(token, 'nonce-1', 'loop', jar);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      redirect: false,
      token: expect.any(String),
      user: { email: 'm1@mobile.example', emailVerified: true },
    });
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
    expect((await sessionOf(s.t.app, { jar })).user.id).toBe(body.user.id);
    // again: the same user
    const again = await signInWith(await s.op.mintIdToken(claims('m1')));
    expect(again.json().user.id).toBe(body.user.id);
  });

  it.each([
    ['wrong audience', () => s.op.mintIdToken(claims('bad1', { aud: OTHER_CLIENT_ID }))],
    ['wrong issuer', () => s.op.mintIdToken(claims('bad2'), { issuer: 'http://127.0.0.1:1' })],
    ['expired', () => s.op.mintIdToken(claims('bad3'), { iatOffsetSec: -7200, expiresInSec: 600 })],
    ['bad signature (a key the provider never published)', () => s.op.mintForeignIdToken(claims('bad4'))],
    [
      'an edited payload',
      async () => {
        const [h, , sig] = (await s.op.mintIdToken(claims('bad5'))).split('.');
        const payload = Buffer.from(JSON.stringify(claims('bad5', { email: 'victim@mobile.example' }))).toString(
          'base64url',
        );
        return `${h}.${payload}.${sig}`;
      },
    ],
    [
      'alg none',
      async () => {
        const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ...claims('bad6'), iss: s.op.issuer, iat: now, exp: now + 600 })}.`;
      },
    ],
    ['not a JWT at all', async () => 'not-a-token'],
  ])('%s: 401 invalid token (as better-auth), nobody registered', async (_label, mint) => {
    const before = await usersCount();
    const res = await signInWith(await mint());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN', message: 'invalid token' });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await usersCount()).toBe(before);
  });

  it('wrong nonce, or a nonce in the token that the app did not send: invalid token', async () => {
    const token = await s.op.mintIdToken(claims('n1'));
    expect((await signInWith(token, 'another-nonce')).json().code).toBe('INVALID_TOKEN');
    expect((await signInWith(token, null)).json().code).toBe('INVALID_TOKEN');
    expect((await signInWith(token, 'nonce-1')).statusCode).toBe(200);
  });

  it('expiry follows the service clock', async () => {
    const token = await s.op.mintIdToken(claims('clock1'), { expiresInSec: 120 });
    s.t.clock.advance(300);
    try {
      expect((await signInWith(token)).json().code).toBe('INVALID_TOKEN');
    } finally {
      s.t.clock.advance(-300);
    }
  });

  /** A refusal of the token: the catalogue's invalid token (its status is the catalogue's; never 2xx, never 500). */
  const expectInvalidToken = (res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) => {
    expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN', message: 'invalid token' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['set-cookie']).toBeUndefined();
  };

  /** An unexpired token issued `offsetSec` from the service clock's now (the test clock stands still). */
  const issuedAt = (sub: string, offsetSec: number, extra: object = {}) =>
    s.op.mintIdToken(claims(sub, extra), {
      iatOffsetSec: Math.round((s.t.clock.now() - Date.now()) / 1000) + offsetSec,
      expiresInSec: 3600,
    });

  it('a token issued longer ago than social.idTokenMaxAgeSec (600 s) is refused, even unexpired', async () => {
    expect(s.t.config.social.idTokenMaxAgeSec).toBe(600);
    const before = await usersCount();
    expectInvalidToken(await signInWith(await issuedAt('age-old', -660, { email: 'bad7@mobile.example' })));
    expect(await usersCount()).toBe(before);
    expect((await signInWith(await issuedAt('age-recent', -540))).statusCode).toBe(200);
  });

  it('the age follows the service clock; iat more than a minute ahead of it is refused too', async () => {
    const token = await issuedAt('age-clock', 0);
    s.t.clock.advance(610);
    try {
      expectInvalidToken(await signInWith(token));
    } finally {
      s.t.clock.advance(-610);
    }
    expect((await signInWith(token)).statusCode).toBe(200);
    expectInvalidToken(await signInWith(await issuedAt('age-ahead', 120)));
    expect((await signInWith(await issuedAt('age-skew', 20))).statusCode).toBe(200); // a provider clock a bit fast
  });

  it('a token without iat is refused (its age is unknown)', async () => {
    expectInvalidToken(await signInWith(await s.op.mintIdToken(claims('age-none'), { omitIat: true })));
  });

  it('link-social refuses an old id token and links nothing', async () => {
    const user = await signUp(s.t.app, { email: 'age-link@mobile.example' });
    await s.t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [user.userId]);
    const old = await issuedAt('age-link', -660);
    const res = await post(
      s.t.app,
      '/link-social',
      { provider: 'loop', idToken: { token: old, nonce: 'nonce-1' } },
      { jar: user.jar },
    );
    expectInvalidToken(res);
    const accounts = await s.t.ctx.sql.query('SELECT provider_id FROM accounts WHERE user_id = $1', [user.userId]);
    expect(accounts).toEqual([{ provider_id: 'credential' }]);
  });

  it('a provider without id tokens answers "id_token not supported"; an unknown provider "Provider not found"', async () => {
    const token = await s.op.mintIdToken(claims('x1'));
    const plain = await signInWith(token, 'nonce-1', 'plain');
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({ code: 'ID_TOKEN_NOT_SUPPORTED', message: 'id_token not supported' });
    const unknown = await signInWith(token, 'nonce-1', 'nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'PROVIDER_NOT_FOUND', message: 'Provider not found' });
  });

  it('a banned user gets the BANNED_USER error (JSON: no redirect on this route)', async () => {
    const first = await signInWith(await s.op.mintIdToken(claims('ban1')));
    await s.t.ctx.features.admin!.bans.ban(null, { userId: first.json().user.id });
    const res = await signInWith(await s.op.mintIdToken(claims('ban1')));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('BANNED_USER');
  });

  it('link-social with an id token: linked when verified and the same email; refused otherwise', async () => {
    const user = await signUp(s.t.app, { email: 'lnk@mobile.example' });
    const link = (token: string) =>
      post(s.t.app, '/link-social', { provider: 'loop', idToken: { token, nonce: 'nonce-1' } }, { jar: user.jar });
    const unverified = await link(await s.op.mintIdToken(claims('lnk', { email_verified: false })));
    expect(unverified.json()).toMatchObject({
      code: 'LINKING_NOT_ALLOWED',
      message: 'Account not linked - linking not allowed',
    });
    const otherEmail = await link(await s.op.mintIdToken(claims('lnk', { email: 'someone-else@mobile.example' })));
    expect(otherEmail.json()).toMatchObject({ code: 'LINKING_DIFFERENT_EMAILS_NOT_ALLOWED' });
    const ok = await link(await s.op.mintIdToken(claims('lnk')));
    expect(ok.json()).toEqual({ url: '', redirect: false, status: true });
    const taken = await post(
      s.t.app,
      '/link-social',
      {
        provider: 'loop',
        idToken: { token: await s.op.mintIdToken(claims('m1', { email: 'lnk@mobile.example' })), nonce: 'nonce-1' },
      },
      { jar: user.jar },
    );
    expect(taken.json()).toMatchObject({ code: 'UNABLE_TO_CREATE_ACCOUNT' });
    const forged = await link('not-a-token');
    expect([forged.statusCode, forged.json().code]).toEqual([401, 'INVALID_TOKEN']);
  });
});

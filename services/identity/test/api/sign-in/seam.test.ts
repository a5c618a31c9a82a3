import { Client } from 'pg';
import { banInForce, banInForceSql } from '../../../src/shared/ban';
import { CookieJar, get, post, sessionOf, signIn, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { type OrgApp, startOrgApp } from '../organization/helpers';
import { codeAt, enrolledUser, eventsOf, TWO_FACTOR_COOKIE } from '../two-factor/helpers';

/**
 * The sign-in seam (docs/architecture.md "The sign-in seam"): every method's proof ends in the same steps, so what
 * one method gets (the ban, the second factor, the event) every method gets.
 */
let t: OrgApp;
beforeAll(async () => {
  t = await startOrgApp({ emailVerification: { autoSignInAfterVerification: true } });
});
afterAll(() => t.close());

async function verificationLink(u: Awaited<ReturnType<typeof signUp>>): Promise<string> {
  t.mails.length = 0;
  const res = await post(t.app, '/send-verification-email', { email: u.email, callbackURL: '/welcome' }, u);
  expect(res.json()).toEqual({ status: true });
  const job = t.mails.find((m) => m.kind === 'verify-email' && m.to === u.email) as { url: string } | undefined;
  const link = new URL(job!.url);
  return `${link.pathname.replace('/api/auth', '')}${link.search}`;
}

describe('the sign-in seam', () => {
  it("verify-email's sign-in asks the second factor of a user who has one, and its second step names the method", async () => {
    const u = await enrolledUser(t);
    const browser = new CookieJar(); // another browser than the one that asked for the mail
    const res = await get(t.app, await verificationLink(u), { jar: browser });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/welcome?twoFactorRedirect=true');
    expect(browser.get(TOKEN_COOKIE)).toBeUndefined();
    expect(browser.get(TWO_FACTOR_COOKIE)).toBeDefined();
    const done = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar: browser });
    expect(done.statusCode).toBe(200);
    expect((await sessionOf(t.app, { jar: browser })).user.id).toBe(u.userId);
    const signedIn = await eventsOf(t, u.userId, 'user.signed_in');
    expect(signedIn.at(-1)!.details).toMatchObject({ method: 'email-verification', secondFactor: 'totp' });
  });

  it("verify-email's sign-in of a user without a second factor makes the session at once", async () => {
    const u = await signUp(t.app);
    const browser = new CookieJar();
    const res = await get(t.app, await verificationLink(u), { jar: browser });
    expect(res.headers.location).toBe('/welcome');
    expect((await sessionOf(t.app, { jar: browser })).user).toMatchObject({ id: u.userId, emailVerified: true });
  });

  it('a ban whose end has passed is cleared at the next sign-in, with its event by the system', async () => {
    const u = await signUp(t.app);
    const ended = new Date(t.clock.now() - 1000);
    await t.ctx.sql.query("UPDATE users SET banned = true, ban_reason = 'cool off', ban_expires = $2 WHERE id = $1", [
      u.userId,
      ended,
    ]);
    const { res } = await signIn(t.app, u.email);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect(await eventsOf(t, u.userId, 'user.ban_lapsed')).toEqual([
      { actor_type: 'system', details: { expiredAt: ended.toISOString(), reason: 'cool off' } },
    ]);
  });

  it('two parallel sign-ins past a lapsed ban both succeed and record the lapse once', async () => {
    const u = await signUp(t.app);
    const ended = new Date(t.clock.now() - 1000);
    await t.ctx.sql.query('UPDATE users SET banned = true, ban_expires = $2 WHERE id = $1', [u.userId, ended]);
    const results = await Promise.all([signIn(t.app, u.email), signIn(t.app, u.email)]);
    expect(results.map((r) => r.res.statusCode)).toEqual([200, 200]);
    for (const r of results) expect(r.res.json().user.banned).toBe(false);
    expect(await eventsOf(t, u.userId, 'user.ban_lapsed')).toHaveLength(1);
  });

  it('the JavaScript and SQL forms of the ban rule agree (shared/ban.ts)', async () => {
    const now = Date.parse('2030-01-01T00:00:00.000Z');
    const cases = [
      { banned: false, banExpires: null },
      { banned: false, banExpires: '2031-01-01T00:00:00.000Z' },
      { banned: true, banExpires: null },
      { banned: true, banExpires: '2029-12-31T23:59:59.999Z' },
      { banned: true, banExpires: '2030-01-01T00:00:00.000Z' },
      { banned: true, banExpires: '2030-01-01T00:00:00.001Z' },
    ];
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      for (const c of cases) {
        const { rows } = await client.query(
          `SELECT ${banInForceSql('$3::timestamptz', 'u')} AS v FROM (SELECT $1::boolean AS banned, $2::timestamptz AS ban_expires) u`,
          [c.banned, c.banExpires, new Date(now)],
        );
        expect([c, rows[0].v]).toEqual([c, banInForce(c, now)]);
      }
    } finally {
      await client.end();
    }
  });
});

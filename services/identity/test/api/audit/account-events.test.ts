import type { MailJob } from '../../../src/mail/jobs';
import { TRUSTED_ORIGIN } from '../../setup/app';
import { get, PASSWORD, post, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { type OrgApp, startOrgApp } from '../organization/helpers';
import { eventsAbout, keysOf, type StoredEvent, typesAbout } from './helpers';

let t: OrgApp;
beforeAll(async () => {
  t = await startOrgApp({ emailVerification: { autoSignInAfterVerification: true } });
});
afterAll(() => t.close());

const SECRET_KEY = /pass|token|secret|hash|cookie|credential|^key$/i;
const NEW_PASSWORD = 'another long passphrase';

/** No event holds a secret field, a session token, or the password given. */
function expectNoSecrets(events: StoredEvent[], ...values: string[]) {
  for (const e of events) {
    expect(keysOf(e.details).filter((k) => SECRET_KEY.test(k))).toEqual([]);
    const text = JSON.stringify(e);
    for (const value of values) expect(text).not.toContain(value);
  }
}

const last = async (userId: string) => (await eventsAbout(t, userId)).at(-1)!;

/** The first captured mail job of `kind` to `to`, waited for (some are written after the answer). */
async function mailOf(kind: MailJob['kind'], to: string): Promise<Extract<MailJob, { url: string }>> {
  for (let i = 0; i < 100; i++) {
    const job = t.mails.find((m) => m.kind === kind && m.to === to);
    if (job) return job as Extract<MailJob, { url: string }>;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${kind} mail to ${to}`);
}

describe('account events (docs/audit.md): the change and its event together', () => {
  it('sign-up records user.signed_up and the first session user.signed_in, by the user, with the request', async () => {
    const res = await post(
      t.app,
      '/sign-up/email',
      { name: 'New', email: uniqueEmail(), password: PASSWORD },
      { headers: { 'user-agent': 'audit-test/1.0', 'x-request-id': 'req-sign-up' } },
    );
    expect(res.statusCode).toBe(200);
    const { user, token } = res.json();
    const events = await eventsAbout(t, user.id);
    expect(events.map((e) => e.type)).toEqual(['user.signed_up', 'user.signed_in']);
    expect(events[0]).toMatchObject({
      actor_type: 'user',
      actor_id: user.id,
      target_type: 'user',
      target_id: user.id,
      user_agent: 'audit-test/1.0',
      request_id: 'req-sign-up',
      ip_address: expect.any(String),
      details: { method: 'email' },
    });
    const [session] = await t.ctx.sql.query('SELECT id FROM sessions WHERE token = $1', [token]);
    expect(events[1].details).toEqual({ method: 'sign-up', sessionId: session.id });
    expectNoSecrets(events, PASSWORD, token);
  });

  it('sign-in records user.signed_in naming the new session', async () => {
    const u = await signUp(t.app);
    const { res, token } = await signIn(t.app, u.email);
    expect(res.statusCode).toBe(200);
    const [session] = await t.ctx.sql.query('SELECT id FROM sessions WHERE token = $1', [token]);
    expect(await last(u.userId)).toMatchObject({
      type: 'user.signed_in',
      actor_id: u.userId,
      details: { method: 'email', sessionId: session.id },
    });
  });

  it('a failed sign-in is recorded under a digest of the address, the same whichever of the two was wrong', async () => {
    const u = await signUp(t.app);
    const unknown = uniqueEmail('nobody');
    expect((await signIn(t.app, u.email, 'wrong password here')).res.statusCode).toBe(401);
    expect((await signIn(t.app, unknown.toUpperCase())).res.statusCode).toBe(401);
    const digest = (email: string) => t.ctx.features.audit.events.emailTarget(email).id;
    const failures = await t.ctx.sql.query<StoredEvent>(
      `SELECT * FROM audit_events WHERE type = 'user.sign_in_failed' AND target_id = ANY($1) ORDER BY occurred_at, seq`,
      [[digest(u.email), digest(unknown)]],
    );
    expect(failures.map((f) => [f.target_type, f.target_id, f.actor_type, f.actor_id, f.details])).toEqual([
      ['email', digest(u.email), 'anonymous', null, { method: 'email' }],
      ['email', digest(unknown), 'anonymous', null, { method: 'email' }],
    ]);
    expect(digest(u.email)).not.toContain(u.email);
    expectNoSecrets(failures, u.email, unknown, unknown.toLowerCase(), 'wrong password here');
    // nothing names the user: a failure does not say the address has an account
    expect((await typesAbout(t, u.userId)).filter((type) => type === 'user.sign_in_failed')).toEqual([]);
    // an operator finds them by the address
    const admin = await signUp(t.app);
    await t.ctx.features.admin!.users.setRole(null, admin.userId, 'admin');
    const listed = await get(t.app, `/admin/list-events?email=${encodeURIComponent(u.email)}`, { jar: admin.jar });
    expect(listed.json().events.map((e: { type: string }) => e.type)).toEqual(['user.sign_in_failed']);
  });

  it('sign-out records user.signed_out by the session user; revoke-session, revoke-sessions and revoke-other-sessions theirs', async () => {
    const u = await signUp(t.app);
    const second = await signIn(t.app, u.email);
    const third = await signIn(t.app, u.email);
    const fourth = await signIn(t.app, u.email);
    const ids = async (...tokens: string[]) => {
      const rows = await t.ctx.sql.query<{ id: string; token: string }>(
        'SELECT id, token FROM sessions WHERE token = ANY($1)',
        [tokens],
      );
      return Object.fromEntries(rows.map((r) => [r.token, r.id]));
    };
    const sessionIds = await ids(second.token!, third.token!);
    expect((await post(t.app, '/sign-out', undefined, { jar: second.jar })).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'user.signed_out',
      actor_type: 'user',
      actor_id: u.userId,
      details: { sessionId: sessionIds[second.token!] },
    });
    expect((await post(t.app, '/revoke-session', { token: third.token }, { jar: u.jar })).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'user.session_revoked',
      actor_id: u.userId,
      details: { sessionId: sessionIds[third.token!] },
    });
    expect((await post(t.app, '/revoke-other-sessions', undefined, { jar: u.jar })).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({ type: 'user.sessions_revoked', details: { otherSessionsOnly: true } });
    expect((await post(t.app, '/revoke-sessions', undefined, { jar: fourth.jar })).statusCode).toBe(401); // revoked
    const again = await signIn(t.app, u.email);
    expect((await post(t.app, '/revoke-sessions', undefined, { jar: again.jar })).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'user.sessions_revoked',
      details: { otherSessionsOnly: false },
    });
    expectNoSecrets(await eventsAbout(t, u.userId), second.token!, third.token!, again.token!);
  });

  it('a sign-out or revocation that ends nothing records nothing', async () => {
    const u = await signUp(t.app);
    const before = await typesAbout(t, u.userId);
    expect((await post(t.app, '/revoke-session', { token: 'not-a-session-token' }, { jar: u.jar })).statusCode).toBe(
      401,
    );
    expect(await typesAbout(t, u.userId)).toEqual(before);
  });

  it('update-user records user.updated with the field names only', async () => {
    const u = await signUp(t.app);
    expect((await post(t.app, '/update-user', { name: 'Renamed', image: null }, { jar: u.jar })).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({ type: 'user.updated', details: { fields: ['name', 'image'] } });
  });

  it('change-password records user.password_changed (and the new session when others are revoked), no secret', async () => {
    const u = await signUp(t.app);
    const plain = await post(
      t.app,
      '/change-password',
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      { jar: u.jar },
    );
    expect(plain.statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'user.password_changed',
      actor_id: u.userId,
      details: { otherSessionsRevoked: false },
    });
    const revoking = await post(
      t.app,
      '/change-password',
      { currentPassword: NEW_PASSWORD, newPassword: PASSWORD, revokeOtherSessions: true },
      { jar: u.jar },
    );
    expect(revoking.statusCode).toBe(200);
    const types = await typesAbout(t, u.userId);
    expect(types.slice(-2)).toEqual(['user.password_changed', 'user.signed_in']);
    expect((await eventsAbout(t, u.userId)).at(-2)!.details).toEqual({ otherSessionsRevoked: true });
    expectNoSecrets(await eventsAbout(t, u.userId), PASSWORD, NEW_PASSWORD, revoking.json().token);
  });

  it('a refused password change records nothing', async () => {
    const u = await signUp(t.app);
    const before = await typesAbout(t, u.userId);
    const res = await post(
      t.app,
      '/change-password',
      { currentPassword: 'not the password', newPassword: NEW_PASSWORD },
      { jar: u.jar },
    );
    expect(res.statusCode).toBe(400);
    expect(await typesAbout(t, u.userId)).toEqual(before);
  });

  it('reset-password records user.password_reset by the link holder as the user; the token is nowhere', async () => {
    const u = await signUp(t.app);
    t.mails.length = 0;
    await post(t.app, '/request-password-reset', { email: u.email, redirectTo: `${TRUSTED_ORIGIN}/reset` });
    const token = (await mailOf('reset-password', u.email)).url.split('/reset-password/')[1].split('?')[0];
    const res = await post(t.app, '/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    const event = await last(u.userId);
    expect(event).toMatchObject({ type: 'user.password_reset', actor_type: 'user', actor_id: u.userId });
    expectNoSecrets(await eventsAbout(t, u.userId), token, NEW_PASSWORD);
  });

  it('set-password (server only) records user.password_set with the service credential as the actor', async () => {
    const app = await startOrgApp({}, { SERVICE_API_KEY: 'a-static-service-credential-of-32-chars-or-more' });
    try {
      const u = await signUp(app.app);
      await app.ctx.sql.query("DELETE FROM accounts WHERE user_id = $1 AND provider_id = 'credential'", [u.userId]);
      const res = await post(
        app.app,
        '/set-password',
        { newPassword: NEW_PASSWORD },
        { jar: u.jar, origin: null, headers: { 'x-api-key': 'a-static-service-credential-of-32-chars-or-more' } },
      );
      expect(res.statusCode).toBe(200);
      const events = await eventsAbout(app, u.userId);
      expect(events.at(-1)).toMatchObject({ type: 'user.password_set', actor_type: 'service', actor_id: 'static' });
      expectNoSecrets(events, NEW_PASSWORD, 'a-static-service-credential-of-32-chars-or-more');
    } finally {
      await app.close();
    }
  });

  it('verify-email records user.email_verified (and the auto sign-in); change-email of an unverified address user.email_changed', async () => {
    const u = await signUp(t.app);
    t.mails.length = 0;
    await post(t.app, '/send-verification-email', { email: u.email });
    const link = new URL((await mailOf('verify-email', u.email)).url);
    const token = link.searchParams.get('token')!;
    const res = await get(t.app, `/verify-email?token=${token}`);
    expect(res.statusCode).toBe(200);
    const types = await typesAbout(t, u.userId);
    expect(types.slice(-2)).toEqual(['user.email_verified', 'user.signed_in']);
    expect((await eventsAbout(t, u.userId)).at(-2)).toMatchObject({
      actor_id: u.userId,
      details: { email: u.email },
    });
    expectNoSecrets(await eventsAbout(t, u.userId), token);

    const other = await signUp(t.app);
    const to = uniqueEmail('moved');
    expect((await post(t.app, '/change-email', { newEmail: to }, { jar: other.jar })).statusCode).toBe(200);
    expect(await last(other.userId)).toMatchObject({
      type: 'user.email_changed',
      details: { from: other.email, to, confirmed: false },
    });
  });

  it('change-email of a verified address records user.email_change_requested, then user.email_changed when confirmed', async () => {
    const u = await signUp(t.app);
    await t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [u.userId]);
    const to = uniqueEmail('new-address');
    t.mails.length = 0;
    expect((await post(t.app, '/change-email', { newEmail: to }, { jar: u.jar })).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({ type: 'user.email_change_requested', details: { to } });
    const token = new URL((await mailOf('change-email', u.email)).url).searchParams.get('token')!;
    expect((await get(t.app, `/verify-email?token=${token}`, { jar: u.jar })).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'user.email_changed',
      actor_id: u.userId,
      details: { from: u.email, to, confirmed: true },
    });
    expectNoSecrets(await eventsAbout(t, u.userId), token);
  });

  it('delete-user records user.deleted with the proof it took; the event outlives the user', async () => {
    const u = await signUp(t.app);
    const res = await post(t.app, '/delete-user', { password: PASSWORD }, { jar: u.jar });
    expect(res.json()).toMatchObject({ success: true, message: 'User deleted' });
    expect(await t.ctx.sql.query('SELECT 1 FROM users WHERE id = $1', [u.userId])).toEqual([]);
    expect(await last(u.userId)).toMatchObject({
      type: 'user.deleted',
      actor_id: u.userId,
      target_id: u.userId,
      details: { proof: 'password' },
    });
    expectNoSecrets(await eventsAbout(t, u.userId), PASSWORD);
  });
});

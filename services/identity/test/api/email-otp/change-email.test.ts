import { startTestApp } from '../../setup/app';
import { CookieJar, post, type SignedUp, sessionOf, signUp, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { codesTo, mailedCode, ON, wrong } from './helpers';

/**
 * better-auth's change of email by code (docs/passwordless.md): `POST /email-otp/request-email-change` mails a code
 * to the new address, `POST /email-otp/change-email` moves the signed-in user's account there with it. The move
 * goes through the account feature's change-of-email rules (spec §4–5): on, not the same address, not a taken one,
 * and a verified address confirms the change itself (here with a code mailed to it). Off unless
 * EMAIL_OTP_CHANGE_EMAIL, as better-auth's `changeEmail.enabled`.
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack({}, { ...ON, EMAIL_OTP_CHANGE_EMAIL: 'true' });
}, 60_000);
afterAll(() => t?.close());

const ask = (u: SignedUp, body: object, headers: Record<string, string> = {}) =>
  post(t.app, '/email-otp/request-email-change', body, { jar: u.jar, headers });
const change = (u: SignedUp, newEmail: string, otp: string) =>
  post(t.app, '/email-otp/change-email', { newEmail, otp }, { jar: u.jar });

/** Asks for a change to `newEmail` and answers the code mailed there. */
async function changeCode(u: SignedUp, newEmail: string, body: object = {}) {
  const before = codesTo(t, newEmail).length;
  const res = await ask(u, { newEmail, ...body });
  expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
  await t.sink.waitFor(() => codesTo(t, newEmail).length > before, 10_000);
  return codesTo(t, newEmail)[before];
}

const userRow = async (id: string) =>
  (
    await t.ctx.sql.query<{ email: string; email_verified: boolean }>(
      'SELECT email, email_verified FROM users WHERE id = $1',
      [id],
    )
  )[0];

/** A user whose address is verified (by a code, as better-auth's verify-email). */
async function verifiedUser() {
  const u = await signUp(t.app);
  const code = await mailedCode(t, u.email, 'email-verification');
  expect((await post(t.app, '/email-otp/verify-email', { email: u.email, otp: code })).statusCode).toBe(200);
  return u;
}

describe('change of email by code', () => {
  it('an unverified address: the code mailed to the new one moves the account there, verified, once', async () => {
    const u = await signUp(t.app);
    const to = uniqueEmail('moved');
    const code = await changeCode(u, to);
    const mail = t.sink.messages.filter((m) => m.to.includes(to)).at(-1)!;
    expect(mail.subject).toBe(`Confirm your new email address: ${code}`);
    const res = await change(u, to, code);
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect(await userRow(u.userId)).toEqual({ email: to, email_verified: true });
    // the browser's cache cookie shows the new address at once; the session itself, looked up, too
    expect((await sessionOf(t.app, { jar: u.jar })).user).toMatchObject({ email: to, emailVerified: true });
    expect((await sessionOf(t.app, { jar: u.jar }, '?disableCookieCache=true')).user.email).toBe(to);
    const [event] = await t.ctx.sql.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_events WHERE type = 'user.email_changed' AND target_id = $1",
      [u.userId],
    );
    expect(event.details).toEqual({ from: u.email, to, confirmed: false, method: 'email-otp' });
    // the old address no longer signs in; the code is gone
    expect((await post(t.app, '/sign-in/email', { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await post(t.app, '/sign-in/email', { email: to, password: u.password })).statusCode).toBe(200);
  });

  it('a verified address confirms the change with a code mailed to it (better-auth’s verifyCurrentEmail)', async () => {
    const u = await verifiedUser();
    const to = uniqueEmail('moved');
    const missing = await ask(u, { newEmail: to });
    expect([missing.statusCode, missing.json()]).toEqual([
      400,
      { code: 'CURRENT_EMAIL_OTP_REQUIRED', message: 'OTP is required to verify current email' },
    ]);
    const current = await mailedCode(t, u.email, 'email-verification');
    const refused = await ask(u, { newEmail: to, otp: wrong(current) });
    expect([refused.statusCode, refused.json().code]).toEqual([400, 'INVALID_OTP']);
    expect(codesTo(t, to)).toHaveLength(0);
    const code = await changeCode(u, to, { otp: current });
    // the current address's code was used up by the request
    expect((await ask(u, { newEmail: to, otp: current })).json().code).toBe('INVALID_OTP');
    expect((await change(u, to, code)).statusCode).toBe(200);
    expect(await userRow(u.userId)).toEqual({ email: to, email_verified: true });
    const [event] = await t.ctx.sql.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_events WHERE type = 'user.email_changed' AND target_id = $1",
      [u.userId],
    );
    expect(event.details).toMatchObject({ from: u.email, to, confirmed: true, method: 'email-otp' });
  });

  it('a taken address: the same answer and no mail; a code for it moves nothing', async () => {
    const u = await signUp(t.app);
    const other = await signUp(t.app);
    const free = await ask(u, { newEmail: uniqueEmail('free') });
    const taken = await ask(u, { newEmail: other.email });
    expect([taken.statusCode, taken.body]).toEqual([free.statusCode, free.body]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(t.sink.messages.filter((m) => m.to.includes(other.email) && /new email/.test(m.subject))).toHaveLength(0);
    expect((await change(u, other.email, '123456')).json().code).toBe('INVALID_OTP');
    expect((await userRow(u.userId)).email).toBe(u.email);
  });

  it('an address taken after the code was mailed: COULDNT_UPDATE_EMAIL, nothing moved, the code kept', async () => {
    const u = await signUp(t.app);
    const to = uniqueEmail('raced');
    const code = await changeCode(u, to);
    const squatter = await signUp(t.app, { email: to });
    const res = await change(u, to, code);
    expect([res.statusCode, res.json().code]).toEqual([400, 'COULDNT_UPDATE_EMAIL']);
    expect((await userRow(u.userId)).email).toBe(u.email);
    await t.ctx.sql.query('DELETE FROM users WHERE id = $1', [squatter.userId]);
    expect((await change(u, to, code)).statusCode).toBe(200);
  });

  it('the code is bound to the account and the new address, and its tries are counted (in parallel too)', async () => {
    const u = await signUp(t.app);
    const to = uniqueEmail('bound');
    const code = await changeCode(u, to);
    expect((await change(u, uniqueEmail('elsewhere'), code)).json().code).toBe('INVALID_OTP');
    const someoneElse = await signUp(t.app);
    expect((await change(someoneElse, to, code)).json().code).toBe('INVALID_OTP');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => change(u, to, wrong(code, i + 1))));
    const codes = answers.map((r) => r.json().code);
    expect(codes.filter((c) => c === 'INVALID_OTP').length).toBeLessThanOrEqual(3);
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS').length).toBeGreaterThanOrEqual(17);
    expect((await change(u, to, code)).json().code).toBe('TOO_MANY_ATTEMPTS');
    expect((await userRow(u.userId)).email).toBe(u.email);
  });

  it('refuses what the account’s rules refuse, and callers without a session', async () => {
    const u = await signUp(t.app);
    for (const route of ['/email-otp/request-email-change', '/email-otp/change-email']) {
      const same = await post(t.app, route, { newEmail: u.email.toUpperCase(), otp: '123456' }, { jar: u.jar });
      expect([route, same.statusCode, same.json().code]).toEqual([route, 400, 'EMAIL_IS_THE_SAME']);
      const anonymous = await post(t.app, route, { newEmail: uniqueEmail(), otp: '123456' }, { jar: new CookieJar() });
      expect([route, anonymous.statusCode]).toEqual([route, 401]);
      const bad = await post(t.app, route, { newEmail: 'not an address', otp: '123456' }, { jar: u.jar });
      expect([route, bad.statusCode]).toEqual([route, 400]);
    }
    expect((await post(t.app, '/email-otp/change-email', { newEmail: uniqueEmail() }, { jar: u.jar })).statusCode).toBe(
      400,
    );
  });

  it('mails the code in the user’s language, else the request’s', async () => {
    const u = await signUp(t.app, { language: 'GERMAN' });
    const to = uniqueEmail('sprache');
    await changeCode(u, to);
    expect(t.sink.messages.filter((m) => m.to.includes(to)).at(-1)?.subject).toMatch(/^Bestätigen Sie Ihre neue/);
    const v = await signUp(t.app);
    const fr = uniqueEmail('langue');
    const before = codesTo(t, fr).length;
    await ask(v, { newEmail: fr }, { 'accept-language': 'fr' });
    await t.sink.waitFor(() => codesTo(t, fr).length > before, 10_000);
    expect(t.sink.messages.filter((m) => m.to.includes(fr)).at(-1)?.subject).toMatch(/^Confirmez votre nouvelle/);
  });
});

describe('change of email by code switched off', () => {
  it('answers CHANGE_EMAIL_DISABLED without EMAIL_OTP_CHANGE_EMAIL (the default), and without CHANGE_EMAIL_ENABLED', async () => {
    for (const env of [ON, { ...ON, EMAIL_OTP_CHANGE_EMAIL: 'true', CHANGE_EMAIL_ENABLED: 'false' }]) {
      const off = await startTestApp({}, env);
      try {
        const u = await signUp(off.app);
        for (const route of ['/email-otp/request-email-change', '/email-otp/change-email']) {
          const res = await post(off.app, route, { newEmail: uniqueEmail(), otp: '123456' }, { jar: u.jar });
          expect([route, res.statusCode, res.json().code]).toEqual([route, 400, 'CHANGE_EMAIL_DISABLED']);
        }
      } finally {
        await off.close();
      }
    }
  });
});

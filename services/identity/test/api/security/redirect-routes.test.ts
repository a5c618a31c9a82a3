import type { LightMyRequestResponse } from 'fastify';
import { get, PASSWORD, post, signUp, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';

/**
 * spec §5: every route that takes a redirect parameter refuses a relative value that is not a plain path (here an
 * encoded dot segment, which used to pass and got the reset token appended) with 403 and the parameter's own
 * code, before anything is created or mailed. Runs against the real mail worker and SMTP sink.
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t?.close());

const BAD = '/app/%2e%2e/%2E%2E/evil';
const CODES = {
  callbackURL: ['INVALID_CALLBACK_URL', 'Invalid callbackURL'],
  redirectTo: ['INVALID_REDIRECT_TO', 'Invalid redirectTo'],
  errorCallbackURL: ['INVALID_ERROR_CALLBACK_URL', 'Invalid errorCallbackURL'],
  newUserCallbackURL: ['INVALID_NEW_USER_CALLBACK_URL', 'Invalid newUserCallbackURL'],
} as const;

function expectRefused(res: LightMyRequestResponse, label: string, field: keyof typeof CODES) {
  const [code, message] = CODES[field];
  expect([label, res.statusCode, res.json(), res.headers.location]).toEqual([label, 403, { code, message }, undefined]);
}

const rows = async (sql: string, value: string) =>
  (await t.ctx.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [value]))[0].n;

describe('a relative redirect that is not a plain path', () => {
  it('is refused on every route that takes one, with nothing created and no mail sent', async () => {
    const u = await signUp(t.app);
    const options = { jar: u.jar };
    const newEmail = uniqueEmail('moved');
    const signUpEmail = uniqueEmail('never');
    const sessionsBefore = await rows('sessions WHERE user_id = $1', u.userId);
    const tokensBefore = await rows("verifications WHERE value LIKE '%' || $1 || '%'", u.userId);

    const bodies: Array<[string, object, keyof typeof CODES, object]> = [
      ['/sign-in/email', { email: u.email, password: PASSWORD, callbackURL: BAD }, 'callbackURL', {}],
      ['/sign-up/email', { name: 'N', email: signUpEmail, password: PASSWORD, callbackURL: BAD }, 'callbackURL', {}],
      ['/sign-in/social', { provider: 'github', callbackURL: BAD }, 'callbackURL', {}],
      ['/sign-in/social', { provider: 'github', callbackURL: '/', errorCallbackURL: BAD }, 'errorCallbackURL', {}],
      ['/sign-in/social', { provider: 'github', callbackURL: '/', newUserCallbackURL: BAD }, 'newUserCallbackURL', {}],
      ['/link-social', { provider: 'github', callbackURL: BAD }, 'callbackURL', options],
      ['/link-social', { provider: 'github', callbackURL: '/', errorCallbackURL: BAD }, 'errorCallbackURL', options],
      ['/send-verification-email', { email: u.email, callbackURL: BAD }, 'callbackURL', options],
      ['/request-password-reset', { email: u.email, redirectTo: BAD }, 'redirectTo', {}],
      ['/forget-password', { email: u.email, redirectTo: BAD }, 'redirectTo', {}],
      ['/change-email', { newEmail, callbackURL: BAD }, 'callbackURL', options],
      ['/delete-user', { callbackURL: BAD }, 'callbackURL', options],
    ];
    for (const [path, body, field, opts] of bodies) expectRefused(await post(t.app, path, body, opts), path, field);
    const inQuery: Array<[string, object]> = [
      ['/sign-in/email', { email: u.email, password: PASSWORD }],
      ['/send-verification-email', { email: u.email }],
    ];
    for (const [path, body] of inQuery)
      expectRefused(
        await post(t.app, `${path}?callbackURL=${encodeURIComponent(BAD)}`, body, options),
        `${path} query`,
        'callbackURL',
      );

    // The mailed links' routes: a live reset token is not handed to the path (nor consumed).
    expect((await post(t.app, '/request-password-reset', { email: u.email, redirectTo: '/reset' })).statusCode).toBe(
      200,
    );
    const resetLink = t.linkIn(await t.mailTo(u.email, (m) => /reset-password/.test(m.text)));
    const token = resetLink.pathname.split('/').pop()!;
    const links = [
      `/reset-password/${token}?callbackURL=${encodeURIComponent(BAD)}`,
      `/verify-email?token=x.y.z&callbackURL=${encodeURIComponent(BAD)}`,
      `/delete-user/callback?token=${'a'.repeat(32)}&callbackURL=${encodeURIComponent(BAD)}`,
    ];
    for (const link of links) expectRefused(await get(t.app, link, options), link, 'callbackURL');
    const live = await get(t.app, `/reset-password/${token}?callbackURL=/reset`);
    expect([live.statusCode, live.headers.location]).toEqual([302, `/reset?token=${token}`]);

    // Nothing was created: no user, no session, no token beyond the control reset; the user is untouched.
    expect(await rows('users WHERE email = $1', signUpEmail)).toBe(0);
    expect(await rows('users WHERE email = $1', newEmail)).toBe(0);
    expect(await rows('sessions WHERE user_id = $1', u.userId)).toBe(sessionsBefore);
    expect(await rows("verifications WHERE value LIKE '%' || $1 || '%'", u.userId)).toBe(tokensBefore + 1);
    const [user] = await t.ctx.sql.query('SELECT email, email_verified FROM users WHERE id = $1', [u.userId]);
    expect(user).toEqual({ email: u.email, email_verified: false });
    // No mail but the control one: a later mail of each kind arrives, and nothing before it.
    expect(
      (await post(t.app, '/send-verification-email', { email: u.email, callbackURL: '/done' }, options)).statusCode,
    ).toBe(200);
    await t.mailTo(u.email, (m) => /verify-email/.test(m.text));
    await new Promise((r) => setTimeout(r, 300));
    const mailed = t.sink.messages.filter((m) => m.to.includes(u.email) || m.to.includes(newEmail));
    expect(
      mailed.map((m) => (/reset-password/.test(m.text) ? 'reset' : /verify-email/.test(m.text) ? 'verify' : m.subject)),
    ).toEqual(['reset', 'verify']);
    expect(mailed.map((m) => m.text).join('\n')).not.toMatch(/%2e%2e/i);
  });
});

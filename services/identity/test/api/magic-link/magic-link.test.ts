import { CookieJar, DATA_COOKIE, post, sessionOf, signUp, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { codeAt, enrolledUser, TWO_FACTOR_COOKIE } from '../two-factor/helpers';
import { LINK_COOKIE, mailedLink, ON, verify } from './helpers';

/**
 * Sign-in by a mailed one-time link (docs/passwordless.md): better-auth's magic-link routes over the real mail
 * worker and an SMTP sink, ending in the sign-in seam (ban, second factor, session, event).
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack({}, ON);
}, 60_000);
afterAll(() => t?.close());

const events = (type: string, userId: string) =>
  t.ctx.sql.query<{ details: Record<string, unknown> }>(
    'SELECT details FROM audit_events WHERE type = $1 AND target_id = $2 ORDER BY seq',
    [type, userId],
  );

describe('magic link', () => {
  it('mails a link that signs in once, in the browser that asked, with its audit event', async () => {
    const u = await signUp(t.app);
    const { jar, link, token, message } = await mailedLink(t, u.email, { callbackURL: '/dashboard' });
    expect(link.pathname).toBe('/api/auth/magic-link/verify');
    expect(link.searchParams.get('callbackURL')).toBe('/dashboard');
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(message.subject).toBe('Your sign-in link');
    // stored hashed: the token itself is nowhere in the table
    const stored = await t.ctx.sql.query('SELECT 1 FROM verifications WHERE identifier LIKE $1', [`%${token}%`]);
    expect(stored).toHaveLength(0);

    const res = await verify(t, token, jar);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user.email).toBe(u.email);
    expect(body.session.userId).toBe(u.userId);
    expect(body.token).toBe(body.session.token);
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
    expect((await sessionOf(t.app, { jar })).user.email).toBe(u.email);
    const signedIn = await events('user.signed_in', u.userId);
    expect(signedIn.at(-1)?.details).toMatchObject({ method: 'magic-link', sessionId: body.session.id });

    const again = await verify(t, token, jar);
    expect([again.statusCode, again.json().code]).toEqual([400, 'INVALID_TOKEN']);
  });

  it('with a callbackURL the link redirects there, and a used link to callbackURL?error=INVALID_TOKEN', async () => {
    const u = await signUp(t.app);
    const { jar, token } = await mailedLink(t, u.email);
    const res = await verify(t, token, jar, '&callbackURL=%2Fhome');
    expect([res.statusCode, res.headers.location]).toEqual([302, '/home']);
    expect(jar.get(DATA_COOKIE)).toBeDefined();
    const again = await verify(t, token, jar, '&callbackURL=%2Fhome&errorCallbackURL=%2Foops');
    expect([again.statusCode, again.headers.location]).toEqual([302, '/oops?error=INVALID_TOKEN']);
  });

  it('20 parallel uses of one link: exactly one session', async () => {
    const u = await signUp(t.app);
    const { jar, token } = await mailedLink(t, u.email);
    const before = await events('user.signed_in', u.userId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(t, token, jar.clone())));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) expect(r.json().code).toBe('INVALID_TOKEN');
    expect(await events('user.signed_in', u.userId)).toHaveLength(before.length + 1);
  });

  it('is bound to the browser that asked: another browser is refused and the link still works where asked', async () => {
    const u = await signUp(t.app);
    const { jar, token } = await mailedLink(t, u.email);
    expect(jar.attributes.get(LINK_COOKIE)).toMatchObject({ httponly: true, samesite: 'Lax' });
    const elsewhere = await verify(t, token, new CookieJar());
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([403, 'MAGIC_LINK_OTHER_BROWSER']);
    const forged = new CookieJar();
    forged.cookies.set(LINK_COOKIE, 'not-signed');
    expect((await verify(t, token, forged)).statusCode).toBe(403);
    const failed = await t.ctx.sql.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_events WHERE type = 'user.sign_in_failed' AND details->>'method' = 'magic-link' ORDER BY seq DESC LIMIT 1",
    );
    expect(failed[0].details).toMatchObject({ reason: 'other-browser' });
    expect((await verify(t, token, jar)).statusCode).toBe(200);
  });

  it('expires after magicLink.ttlSec (5 minutes by default)', async () => {
    expect(t.config.magicLink.ttlSec).toBe(300);
    const u = await signUp(t.app);
    const { jar, token } = await mailedLink(t, u.email);
    t.clock.advance(301);
    const res = await verify(t, token, jar);
    expect([res.statusCode, res.json().code]).toEqual([400, 'INVALID_TOKEN']);
  });

  it('answers an unknown address exactly as a known one, and mails nothing (sign-up off by default)', async () => {
    expect(t.config.magicLink.allowSignUp).toBe(false);
    const known = await signUp(t.app);
    const unknown = uniqueEmail('nobody');
    const shape = (r: Awaited<ReturnType<typeof post>>) => ({
      status: r.statusCode,
      body: r.body,
      cookies: ([] as string[])
        .concat(r.headers['set-cookie'] ?? [])
        .map((c) => c.split('=')[0])
        .sort(),
    });
    const a = await post(t.app, '/sign-in/magic-link', { email: known.email }, { jar: new CookieJar() });
    const b = await post(t.app, '/sign-in/magic-link', { email: unknown }, { jar: new CookieJar() });
    expect(shape(b)).toEqual(shape(a));
    expect(shape(a)).toMatchObject({ status: 200, body: '{"status":true}' });
    await t.mailTo(known.email);
    await new Promise((r) => setTimeout(r, 1000));
    expect(t.sink.messages.filter((m) => m.to.includes(unknown))).toHaveLength(0);
  });

  it('refuses untrusted callback URLs when asked and when used', async () => {
    const u = await signUp(t.app);
    for (const field of ['callbackURL', 'newUserCallbackURL', 'errorCallbackURL']) {
      const res = await post(t.app, '/sign-in/magic-link', { email: u.email, [field]: 'https://evil.example/x' });
      expect(res.statusCode).toBe(403);
    }
    const { jar, token } = await mailedLink(t, u.email);
    const res = await verify(t, token, jar, '&callbackURL=https%3A%2F%2Fevil.example%2F');
    expect([res.statusCode, res.json().code]).toEqual([403, 'INVALID_CALLBACK_URL']);
    // the refusal spent nothing: the link still signs in
    expect((await verify(t, token, jar)).statusCode).toBe(200);
  });

  it('asks the second factor of a user who has one; the link then opens one pending sign-in only', async () => {
    const u = await enrolledUser(t);
    const { jar, token } = await mailedLink(t, u.email);
    const res = await verify(t, token, jar);
    expect(res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(jar.get(TWO_FACTOR_COOKIE)).toBeDefined();
    expect((await verify(t, token, jar.clone())).json().code).toBe('INVALID_TOKEN');
    const step = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, { jar });
    expect(step.statusCode).toBe(200);
    const signedIn = await events('user.signed_in', u.userId);
    expect(signedIn.at(-1)?.details).toMatchObject({ method: 'magic-link', secondFactor: 'totp' });
  });

  it('20 parallel uses by a user with a second factor: exactly one pending sign-in', async () => {
    const u = await enrolledUser(t);
    const { jar, token } = await mailedLink(t, u.email);
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(t, token, jar.clone())));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });

  it('refuses a banned user, and the link signs nobody in', async () => {
    const u = await signUp(t.app);
    const { jar, token } = await mailedLink(t, u.email);
    await t.ctx.sql.query("UPDATE users SET banned = true, ban_reason = 'spam' WHERE id = $1", [u.userId]);
    const res = await verify(t, token, jar);
    expect([res.statusCode, res.json().code]).toEqual([403, 'BANNED_USER']);
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
  });

  it('proves the address of an unverified account: verified, and the password set before it stops working', async () => {
    const u = await signUp(t.app);
    expect((await sessionOf(t.app, { jar: u.jar })).user.emailVerified).toBe(false);
    const { jar, token } = await mailedLink(t, u.email);
    const res = await verify(t, token, jar);
    expect(res.json().user.emailVerified).toBe(true);
    const password = await post(t.app, '/sign-in/email', { email: u.email, password: u.password });
    expect(password.json().code).toBe('INVALID_EMAIL_OR_PASSWORD');
    // the sessions made before the address was proven are gone; the link's session stays
    expect(await sessionOf(t.app, { jar: u.jar }, '?disableCookieCache=true')).toBeNull();
    expect((await sessionOf(t.app, { jar }, '?disableCookieCache=true')).user.email).toBe(u.email);
  });

  it('mails in the language asked for', async () => {
    const u = await signUp(t.app);
    await post(t.app, '/sign-in/magic-link', { email: u.email }, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    const mail = await t.mailTo(u.email);
    expect(mail.subject).toBe('Ihr Anmeldelink');
  });
});

describe('magic link with sign-up and any browser', () => {
  let s: MailStack;
  beforeAll(async () => {
    s = await startMailStack({}, { ...ON, MAGIC_LINK_SIGN_UP: 'true', MAGIC_LINK_SAME_BROWSER: 'false' });
  }, 60_000);
  afterAll(() => s?.close());

  it('a JSON answer says whether the link registered its user (newUser), beside better-auth’s token, user, session', async () => {
    const email = uniqueEmail('json-newcomer');
    const { token } = await mailedLink(s, email);
    const res = await verify(s, token, new CookieJar());
    expect(res.json()).toMatchObject({ newUser: true, token: expect.any(String), user: { email }, session: {} });
  });

  it('a link to an unknown address registers it (verified, the name given) and goes to newUserCallbackURL', async () => {
    const email = uniqueEmail('newcomer');
    const { token } = await mailedLink(s, email, { name: 'New Comer', newUserCallbackURL: '/welcome' });
    // any browser: a fresh one uses it
    const res = await verify(s, token, new CookieJar(), '&callbackURL=%2Fhome&newUserCallbackURL=%2Fwelcome');
    expect([res.statusCode, res.headers.location]).toEqual([302, '/welcome']);
    const [user] = await s.ctx.sql.query<{ id: string; name: string; email_verified: boolean }>(
      'SELECT id, name, email_verified FROM users WHERE email = $1',
      [email],
    );
    expect(user).toMatchObject({ name: 'New Comer', email_verified: true });
    // without a callbackURL the answer says so itself (the hosted page then goes to newUserCallbackURL)
    const again = await mailedLink(s, email);
    const json = await verify(s, again.token, new CookieJar());
    expect(json.json()).toMatchObject({ newUser: false, user: { id: user.id } });
    const signedUp = await s.ctx.sql.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_events WHERE type = 'user.signed_up' AND target_id = $1",
      [user.id],
    );
    expect(signedUp[0].details).toEqual({ method: 'magic-link' });
  });
});

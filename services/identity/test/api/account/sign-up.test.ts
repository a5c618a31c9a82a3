import { startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, DATA_COOKIE, PASSWORD, post, sessionOf, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const usersWith = async (email: string) =>
  (await t.ctx.sql.query('SELECT id FROM users WHERE email = $1', [email.toLowerCase()])).length;

describe('POST /sign-up/email', () => {
  it('creates the user with a lowercased email and a credential account, and signs in', async () => {
    const email = uniqueEmail('Mixed.Case').replace('example.com', 'Example.COM');
    const jar = new CookieJar();
    const res = await post(
      t.app,
      '/sign-up/email',
      { name: 'Ada', email, password: PASSWORD, image: 'https://img/x.png' },
      { jar },
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      email: email.toLowerCase(),
      name: 'Ada',
      emailVerified: false,
      role: 'user',
      banned: false,
    });
    expect(body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
    expect(jar.get(DATA_COOKIE)).toBeDefined();
    expect(jar.attributes.get(TOKEN_COOKIE)).toMatchObject({ httponly: true, samesite: 'Lax', path: '/' });
    const [account] = await t.ctx.sql.query<{ provider_id: string; password: string }>(
      'SELECT provider_id, password FROM accounts WHERE user_id = $1',
      [body.user.id],
    );
    expect(account.provider_id).toBe('credential');
    expect(account.password).toMatch(/^\$argon2id\$v=19\$m=47104,t=1,p=1\$/);
    expect(JSON.stringify(body)).not.toContain(account.password);
    expect((await sessionOf(t.app, { jar })).user.id).toBe(body.user.id);
  });

  it('refuses an existing email in any case with 422 USER_ALREADY_EXISTS and creates nothing', async () => {
    const email = uniqueEmail();
    expect((await post(t.app, '/sign-up/email', { name: 'A', email, password: PASSWORD })).statusCode).toBe(200);
    const again = await post(t.app, '/sign-up/email', { name: 'B', email: email.toUpperCase(), password: PASSWORD });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ code: 'USER_ALREADY_EXISTS', message: 'User already exists' });
    expect(await usersWith(email)).toBe(1);
  });

  it('lets exactly one of two concurrent sign-ups with the same email win', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all(
      [1, 2, 3].map(() => post(t.app, '/sign-up/email', { name: 'R', email, password: PASSWORD })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422, 422]);
    expect(await usersWith(email)).toBe(1);
  });

  it.each([
    ['short', 'x'.repeat(7), 'PASSWORD_TOO_SHORT', 'Password too short'],
    ['long', 'x'.repeat(129), 'PASSWORD_TOO_LONG', 'Password too long'],
  ])('refuses a %s password and creates nothing', async (_kind, password, code, message) => {
    const email = uniqueEmail();
    const res = await post(t.app, '/sign-up/email', { name: 'A', email, password });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code, message });
    expect(await usersWith(email)).toBe(0);
  });

  it('accepts passwords exactly at the configured bounds, untrimmed', async () => {
    const low = await post(t.app, '/sign-up/email', { name: 'A', email: uniqueEmail(), password: ' '.repeat(8) });
    expect(low.statusCode).toBe(200);
    const high = await post(t.app, '/sign-up/email', { name: 'A', email: uniqueEmail(), password: 'p'.repeat(128) });
    expect(high.statusCode).toBe(200);
  });

  it('refuses an invalid email with 400 INVALID_EMAIL', async () => {
    for (const email of ['not-an-email', 'a@b.co, c@d.co', 'a@b.co\r\nBcc: x@y.z', 'a＠example.com', '']) {
      const res = await post(t.app, '/sign-up/email', { name: 'A', email, password: PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' });
    }
  });

  it.each([
    'role',
    'banned',
    'banReason',
    'banExpires',
    'twoFactorEnabled',
    'passkeyCount',
    'emailVerified',
    'id',
    'userId',
    'impersonatedBy',
    'activeOrganizationId',
    'createdAt',
  ])('refuses the client-forbidden field %s with 400 FIELD_NOT_ALLOWED and creates nothing', async (field) => {
    const email = uniqueEmail();
    const value = field === 'banned' || field === 'emailVerified' ? true : 'admin';
    const res = await post(t.app, '/sign-up/email', { name: 'A', email, password: PASSWORD, [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'FIELD_NOT_ALLOWED',
      message: 'Field not allowed',
      details: [{ field: `body.${field}` }],
    });
    expect(await usersWith(email)).toBe(0);
  });

  it('refuses a missing name or a non-string with 400 VALIDATION_ERROR', async () => {
    const email = uniqueEmail();
    const missing = await post(t.app, '/sign-up/email', { email, password: PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('VALIDATION_ERROR');
    const wrongType = await post(t.app, '/sign-up/email', { name: 'A', email: [email], password: PASSWORD });
    expect(wrongType.json().code).toBe('VALIDATION_ERROR');
    expect(await usersWith(email)).toBe(0);
  });

  it('refuses sign-up when disabled, and everything when email+password is off', async () => {
    const off = await startTestApp({ emailAndPassword: { disableSignUp: true } });
    const email = uniqueEmail();
    try {
      const res = await post(off.app, '/sign-up/email', { name: 'A', email, password: PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'SIGN_UP_DISABLED', message: 'Sign up is disabled' });
    } finally {
      await off.close();
    }
    const none = await startTestApp({ emailAndPassword: { enabled: false } });
    try {
      const res = await post(none.app, '/sign-up/email', { name: 'A', email, password: PASSWORD });
      expect(res.json()).toEqual({ code: 'EMAIL_PASSWORD_DISABLED', message: 'Email and password is not enabled' });
    } finally {
      await none.close();
    }
    expect(await usersWith(email)).toBe(0);
  });

  it('creates the user but no session when auto sign-in is off', async () => {
    const manual = await startTestApp({ emailAndPassword: { autoSignIn: false } });
    try {
      const jar = new CookieJar();
      const res = await post(
        manual.app,
        '/sign-up/email',
        { name: 'A', email: uniqueEmail(), password: PASSWORD },
        { jar },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().token).toBeNull();
      expect(jar.cookies.size).toBe(0);
    } finally {
      await manual.close();
    }
  });
});

import { get, PASSWORD, post, sessionOf, signIn, signUp, TOKEN_COOKIE, uniqueEmail } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';

let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t.close());

const userRow = async (userId: string) =>
  (
    await t.ctx.sql.query<{ email: string; email_verified: boolean }>(
      'SELECT email, email_verified FROM users WHERE id = $1',
      [userId],
    )
  )[0];

async function verify(u: Awaited<ReturnType<typeof signUp>>): Promise<void> {
  await post(t.app, '/send-verification-email', { email: u.email }, { jar: u.jar });
  const token = t.linkIn(await t.mailTo(u.email)).searchParams.get('token')!;
  expect((await get(t.app, `/verify-email?token=${token}`)).statusCode).toBe(200);
  t.sink.clear();
}

describe('POST /change-email', () => {
  it('moves an unverified user at once and mails a verification to the new address', async () => {
    const u = await signUp(t.app);
    const next = uniqueEmail('moved');
    expect((await post(t.app, '/change-email', { newEmail: next.toUpperCase() }, { jar: u.jar })).json()).toEqual({
      status: true,
    });
    expect(await userRow(u.userId)).toEqual({ email: next, email_verified: false });
    const link = t.linkIn(await t.mailTo(next));
    expect(link.pathname).toBe('/api/auth/verify-email');
    expect([link.searchParams.get('callbackURL'), link.searchParams.has('token')]).toEqual(['/', true]);
  });

  it('without a callbackURL, the confirmation and the new address verification links carry callbackURL=/', async () => {
    const u = await signUp(t.app);
    await verify(u);
    const next = uniqueEmail('slash');
    await post(t.app, '/change-email', { newEmail: next }, { jar: u.jar });
    const confirm = t.linkIn(await t.mailTo(u.email));
    expect([confirm.searchParams.get('callbackURL'), confirm.searchParams.has('token')]).toEqual(['/', true]);
    const followed = await get(t.app, `${confirm.pathname.replace('/api/auth', '')}${confirm.search}`, { jar: u.jar });
    expect([followed.statusCode, followed.headers.location]).toEqual([302, '/']);
    const verification = t.linkIn(await t.mailTo(next));
    expect([verification.searchParams.get('callbackURL'), verification.searchParams.has('token')]).toEqual(['/', true]);
  });

  it('asks a verified user to confirm from the old address; the link needs that user session', async () => {
    const u = await signUp(t.app);
    await verify(u);
    const next = uniqueEmail('confirmed');
    await post(t.app, '/change-email', { newEmail: next, callbackURL: '/done' }, { jar: u.jar });
    const mail = await t.mailTo(u.email);
    expect(mail.text).toContain(next);
    const link = t.linkIn(mail);
    expect((await userRow(u.userId)).email).toBe(u.email); // nothing moves before confirmation
    const anonymous = await get(t.app, `${link.pathname.replace('/api/auth', '')}${link.search}`);
    expect(anonymous.headers.location).toBe('/done?error=unauthorized');
    const confirmed = await get(t.app, `${link.pathname.replace('/api/auth', '')}${link.search}`, { jar: u.jar });
    expect(confirmed.headers.location).toBe('/done');
    expect(await userRow(u.userId)).toEqual({ email: next, email_verified: false });
    await t.mailTo(next); // a verification mail for the new address
  });

  it('refuses the same email, a taken one, and an untrusted callbackURL; nothing changes', async () => {
    const u = await signUp(t.app);
    const taken = await signUp(t.app);
    const same = await post(t.app, '/change-email', { newEmail: u.email }, { jar: u.jar });
    expect([same.statusCode, same.json()]).toEqual([400, { code: 'EMAIL_IS_THE_SAME', message: 'Email is the same' }]);
    const dup = await post(t.app, '/change-email', { newEmail: taken.email }, { jar: u.jar });
    expect(dup.json()).toEqual({ code: 'COULDNT_UPDATE_EMAIL', message: "Couldn't update your email" });
    const evil = await post(
      t.app,
      '/change-email',
      { newEmail: uniqueEmail(), callbackURL: 'https://evil.example' },
      { jar: u.jar },
    );
    expect(evil.statusCode).toBe(403);
    expect((await userRow(u.userId)).email).toBe(u.email);
  });

  it('is refused when disabled', async () => {
    const off = await startMailStack({}, { CHANGE_EMAIL_ENABLED: 'false' });
    try {
      const u = await signUp(off.app);
      const res = await post(off.app, '/change-email', { newEmail: uniqueEmail() }, { jar: u.jar });
      expect(res.json()).toEqual({ code: 'CHANGE_EMAIL_DISABLED', message: 'Change email is disabled' });
    } finally {
      await off.close();
    }
  }, 60_000);
});

describe('POST /delete-user', () => {
  it('deletes at once with the right password (sessions and accounts too) and clears cookies', async () => {
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    const wrong = await post(t.app, '/delete-user', { password: 'not it at all' }, { jar: u.jar });
    expect(wrong.json().code).toBe('INVALID_PASSWORD');
    expect(await userRow(u.userId)).toBeDefined();
    const res = await post(t.app, '/delete-user', { password: PASSWORD }, { jar: u.jar });
    expect(res.json()).toEqual({ success: true, message: 'User deleted' });
    expect(u.jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(await userRow(u.userId)).toBeUndefined();
    expect(await sessionOf(t.app, { bearer: other.token })).toBeNull();
    expect((await t.ctx.sql.query('SELECT 1 FROM accounts WHERE user_id = $1', [u.userId])).length).toBe(0);
  });

  it('deletes at once with a fresh session; otherwise mails a confirmation link used once by its owner', async () => {
    const fresh = await signUp(t.app);
    expect((await post(t.app, '/delete-user', {}, { jar: fresh.jar })).json().message).toBe('User deleted');
    const u = await signUp(t.app);
    const mallory = await signUp(t.app);
    t.clock.advance(t.config.session.freshAgeSec + 1);
    try {
      const mailed = await post(t.app, '/delete-user', { callbackURL: '/bye' }, { jar: u.jar });
      expect(mailed.json()).toEqual({ success: true, message: 'Verification email sent' });
      const link = t.linkIn(await t.mailTo(u.email));
      const token = link.searchParams.get('token')!;
      expect(token).toMatch(/^[a-z0-9]{32}$/);
      const path = `${link.pathname.replace('/api/auth', '')}${link.search}`;
      const foreign = await get(t.app, path, { jar: mallory.jar });
      expect(foreign.json().code).toBe('INVALID_TOKEN');
      expect(await userRow(mallory.userId)).toBeDefined();
      const viaBody = await post(t.app, '/delete-user', { token: 'a'.repeat(32) }, { jar: u.jar });
      expect(viaBody.json().code).toBe('INVALID_TOKEN');
      const answers = await Promise.all([get(t.app, path, { jar: u.jar }), get(t.app, path, { jar: u.jar })]);
      // one wins; the other finds the token used (400) or, arriving later, the session gone with the user (401)
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes[0]).toBe(302);
      expect([400, 401]).toContain(codes[1]);
      expect(answers.find((a) => a.statusCode === 302)!.headers.location).toBe('/bye');
      expect(await userRow(u.userId)).toBeUndefined();
    } finally {
      t.clock.advance(-(t.config.session.freshAgeSec + 1));
    }
  });

  it('refuses an expired deletion token and an untrusted callbackURL', async () => {
    const u = await signUp(t.app);
    t.clock.advance(t.config.session.freshAgeSec + 1);
    try {
      const evil = await post(t.app, '/delete-user', { callbackURL: 'https://evil.example' }, { jar: u.jar });
      expect(evil.statusCode).toBe(403);
      await post(t.app, '/delete-user', {}, { jar: u.jar });
      const link = t.linkIn(await t.mailTo(u.email));
      expect(link.searchParams.get('callbackURL')).toBe('/'); // spec §2: token and callbackURL, "/" by default
      const token = link.searchParams.get('token')!;
      t.clock.advance(t.config.deleteUser.tokenExpiresInSec);
      await signIn(t.app, u.email); // keeps a valid session for the owner
      const late = await post(t.app, '/delete-user', { token }, { jar: (await signIn(t.app, u.email)).jar });
      expect(late.json().code).toBe('INVALID_TOKEN');
      expect(await userRow(u.userId)).toBeDefined();
    } finally {
      t.clock.advance(-(t.config.session.freshAgeSec + 1 + t.config.deleteUser.tokenExpiresInSec));
    }
  });

  it('is refused when disabled', async () => {
    const off = await startMailStack({}, { DELETE_USER_ENABLED: 'false' });
    try {
      const u = await signUp(off.app);
      const res = await post(off.app, '/delete-user', { password: PASSWORD }, { jar: u.jar });
      expect(res.json().code).toBe('DELETE_USER_DISABLED');
    } finally {
      await off.close();
    }
  }, 60_000);
});

import { CookieJar, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { errorOf, providerUser, type SocialTest, socialSignIn, startSocialTest } from './helpers';

let s: SocialTest;
beforeAll(async () => {
  s = await startSocialTest();
});
afterAll(() => s?.close());

/** Everything a sign-in could have written about these addresses and provider subjects. */
async function traces(emails: string[], subs: string[]) {
  const [row] = await s.t.ctx.sql.query<{ users: number; accounts: number; sessions: number }>(
    `SELECT (SELECT count(*)::int FROM users WHERE email = ANY($1)) AS users,
            (SELECT count(*)::int FROM accounts WHERE account_id = ANY($2)) AS accounts,
            (SELECT count(*)::int FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ANY($1)) AS sessions`,
    [emails, subs],
  );
  return row;
}

const verifyEmail = (userId: string) =>
  // fixture: the user followed their verification link (tested in test/api/mail)
  s.t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [userId]);

describe('OpenID Connect userinfo must be about the id token subject (OIDC Core §5.3.2)', () => {
  it('a userinfo answer for another subject fails the sign-in with unable_to_get_user_info; nothing is written', async () => {
    providerUser(s.op, 'ui-other'); // someone else at the provider, never signed in here
    providerUser(s.op, 'ui-sub', { userinfo: { sub: 'ui-other', email: 'ui-other@provider.example' } });
    const before = await traces(['ui-sub@provider.example', 'ui-other@provider.example'], ['ui-sub', 'ui-other']);
    expect(before).toEqual({ users: 0, accounts: 0, sessions: 0 });
    for (const provider of ['loop', 'plain']) {
      // generic OIDC by discovery, and generic OAuth 2 whose token endpoint also returns an id token
      const { location, jar } = await socialSignIn(s, 'ui-sub', { provider, errorCallbackURL: '/failed' });
      expect([provider, location]).toEqual([provider, '/failed?error=unable_to_get_user_info']);
      expect(errorOf(location)).toBe('unable_to_get_user_info');
      expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    }
    expect(await traces(['ui-sub@provider.example', 'ui-other@provider.example'], ['ui-sub', 'ui-other'])).toEqual(
      before,
    );
  });

  it('link-social: a userinfo answer for another subject links nothing', async () => {
    const owner = await signUp(s.t.app, { email: 'ui-owner@provider.example' });
    await verifyEmail(owner.userId);
    providerUser(s.op, 'ui-owner', { userinfo: { sub: 'ui-stranger' } });
    const { location } = await socialSignIn(
      s,
      'ui-owner',
      { errorCallbackURL: '/link-failed' },
      owner.jar,
      '/link-social',
    );
    expect(location).toBe('/link-failed?error=unable_to_get_user_info');
    const accounts = await s.t.ctx.sql.query('SELECT provider_id FROM accounts WHERE user_id = $1', [owner.userId]);
    expect(accounts).toEqual([{ provider_id: 'credential' }]);
  });

  it('a userinfo claiming another verified email changes neither the new user nor the existing one', async () => {
    const victim = await signUp(s.t.app, { email: 'ui-victim@provider.example' });
    await verifyEmail(victim.userId);
    providerUser(s.op, 'ui-mallory', {
      email: 'ui-mallory@provider.example',
      userinfo: { email: 'ui-victim@provider.example', email_verified: true, name: 'Mallory From Userinfo' },
    });
    const { location, jar } = await socialSignIn(s, 'ui-mallory');
    expect(location).toBe('/dashboard');
    const { user } = await sessionOf(s.t.app, { jar });
    // the email is the id token's; the name (a profile field) may come from userinfo
    expect(user).toMatchObject({ email: 'ui-mallory@provider.example', name: 'Mallory From Userinfo' });
    expect(user.id).not.toBe(victim.userId);
    const victimAccounts = await s.t.ctx.sql.query('SELECT provider_id FROM accounts WHERE user_id = $1', [
      victim.userId,
    ]);
    expect(victimAccounts).toEqual([{ provider_id: 'credential' }]);
  });

  it('a userinfo saying email_verified: true does not enable linking when the id token says false', async () => {
    const owner = await signUp(s.t.app, { email: 'ui-unv@provider.example' });
    await verifyEmail(owner.userId);
    providerUser(s.op, 'ui-unv', { email_verified: false, userinfo: { email_verified: true } });
    const { location, jar } = await socialSignIn(s, 'ui-unv');
    expect(errorOf(location)).toBe('account_not_linked');
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    const accounts = await s.t.ctx.sql.query('SELECT provider_id FROM accounts WHERE user_id = $1', [owner.userId]);
    expect(accounts).toEqual([{ provider_id: 'credential' }]);
  });

  it('a userinfo that agrees with the id token still signs in, with its profile fields', async () => {
    providerUser(s.op, 'ui-ok', { userinfo: { picture: 'https://img.example/from-userinfo.png' } });
    const jar = new CookieJar();
    const { location } = await socialSignIn(s, 'ui-ok', {}, jar);
    expect(location).toBe('/dashboard');
    expect((await sessionOf(s.t.app, { jar })).user).toMatchObject({
      email: 'ui-ok@provider.example',
      emailVerified: true,
      image: 'https://img.example/from-userinfo.png',
    });
  });
});

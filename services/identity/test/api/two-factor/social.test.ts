import { CookieJar, post, sessionOf, TOKEN_COOKIE } from '../../setup/fixtures';
import { CLIENT_ID, providerUser, type SocialTest, socialSignIn, startSocialTest } from '../social/helpers';
import { codeAt, enrolledUser, eventsOf, TRUST_COOKIE, TWO_FACTOR_COOKIE } from './helpers';

/**
 * Social and id-token sign-in honour the second factor (docs/two-factor.md): a user who has one is asked for it
 * after the provider, unless the provider's `twoFactor` setting is false.
 */
let s: SocialTest;
let off: SocialTest; // the same providers with twoFactor: false
const linking = { social: { requireLocalEmailVerifiedForLinking: false } };
beforeAll(async () => {
  s = await startSocialTest(linking);
  off = await startSocialTest(linking, { twoFactor: false });
});
afterAll(async () => {
  await s?.close();
  await off?.close();
});

const idToken = (t: SocialTest, sub: string, email: string) =>
  t.op.mintIdToken({ sub, aud: CLIENT_ID, email, email_verified: true, name: 'Mobile', nonce: 'n-1' });

const signInWithIdToken = async (t: SocialTest, sub: string, email: string, jar = new CookieJar()) => ({
  jar,
  res: await post(
    t.t.app,
    '/sign-in/social',
    { provider: 'loop', idToken: { token: await idToken(t, sub, email), nonce: 'n-1' } },
    { jar },
  ),
});

describe('id-token sign-in', () => {
  it('a user with a second factor gets the two-factor answer and no session; a code completes it', async () => {
    const u = await enrolledUser(s.t);
    const { res, jar } = await signInWithIdToken(s, `id-${u.userId}`, u.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    const done = await post(s.t.app, '/two-factor/verify-totp', { code: await codeAt(s.t, u.secret) }, { jar });
    expect(done.statusCode).toBe(200);
    expect((await sessionOf(s.t.app, { jar })).user.id).toBe(u.userId);
    // the second step's event names how the first was made
    const signedIn = await eventsOf(s.t, u.userId, 'user.signed_in');
    expect(signedIn.at(-1)!.details).toMatchObject({ method: 'social:loop', secondFactor: 'totp' });
  });

  it('a pending answer clears the session cookies the browser held', async () => {
    const u = await enrolledUser(s.t);
    const jar = new CookieJar();
    jar.cookies.set(TOKEN_COOKIE, u.jar.get(TOKEN_COOKIE)!);
    const { res } = await signInWithIdToken(s, `clear-${u.userId}`, u.email, jar);
    expect(res.json()).toMatchObject({ twoFactorRedirect: true });
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
  });

  it('a trusted device lets it through', async () => {
    const u = await enrolledUser(s.t);
    const first = await signInWithIdToken(s, `trust-${u.userId}`, u.email);
    await post(s.t.app, '/two-factor/verify-totp', { code: await codeAt(s.t, u.secret), trustDevice: true }, first);
    const browser = new CookieJar();
    browser.cookies.set(TRUST_COOKIE, first.jar.get(TRUST_COOKIE)!);
    const again = await signInWithIdToken(s, `trust-${u.userId}`, u.email, browser);
    expect(again.res.json()).toMatchObject({ redirect: false, user: { id: u.userId } });
  });

  it('a provider with twoFactor: false signs in at once', async () => {
    const u = await enrolledUser(off.t);
    const { res } = await signInWithIdToken(off, `off-${u.userId}`, u.email);
    expect(res.json()).toMatchObject({ redirect: false, token: expect.any(String), user: { id: u.userId } });
  });
});

describe('OAuth callback', () => {
  it('back at callbackURL with twoFactorRedirect=true, the pending cookie and no session; a backup code completes it', async () => {
    const u = await enrolledUser(s.t);
    const sub = `cb-${u.userId}`;
    providerUser(s.op, sub, { email: u.email });
    const { res, jar, location } = await socialSignIn(s, sub);
    expect(res.statusCode).toBe(302);
    expect(location).toBe('/dashboard?twoFactorRedirect=true');
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    expect(jar.get(TWO_FACTOR_COOKIE)).toBeDefined();
    const done = await post(s.t.app, '/two-factor/verify-backup-code', { code: u.backupCodes[0] }, { jar });
    expect(done.statusCode).toBe(200);
    expect((await sessionOf(s.t.app, { jar })).user.id).toBe(u.userId);
  });

  it('a provider with twoFactor: false signs in at once', async () => {
    const u = await enrolledUser(off.t);
    const sub = `cb-off-${u.userId}`;
    providerUser(off.op, sub, { email: u.email });
    const { jar, location } = await socialSignIn(off, sub);
    expect(location).toBe('/dashboard');
    expect((await sessionOf(off.t.app, { jar })).user.id).toBe(u.userId);
  });
});

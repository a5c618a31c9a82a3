import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { REDIRECT_ERRORS } from '../../../src/errors/catalogue';
import { PUBLIC_URL } from '../../setup/app';
import { CookieJar, get, post, sessionOf, signUp, TOKEN_COOKIE } from '../../setup/fixtures';
import { callback, errorOf, providerUser, type SocialTest, socialSignIn, startFlow, startSocialTest } from './helpers';

let s: SocialTest;
beforeAll(async () => {
  s = await startSocialTest();
});
afterAll(() => s?.close());

const ERROR_PAGE = `${PUBLIC_URL}/api/auth/error?error=`;

/** Start a flow as `sub` and log in at the provider: the URL the provider sends the browser back to. */
async function backFromProvider(sub: string, jar: CookieJar, body: object = {}) {
  const url = await startFlow(s, jar, { loginHint: sub, ...body });
  return s.op.authorize(url);
}

/** Whether a user with this address exists (other test files share the database: never count them all). */
async function userExists(email: string): Promise<boolean> {
  return (await s.t.ctx.sql.query('SELECT 1 FROM users WHERE email = $1', [email])).length > 0;
}

describe('callback failures redirect with the spec §8 codes, reached by real requests', () => {
  it('invalid_callback_request: repeated parameters', async () => {
    const res = await get(s.t.app, '/callback/loop?state=a&state=b&code=c');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${ERROR_PAGE}invalid_callback_request`);
  });

  it('oauth_provider_not_found: a provider that is not configured', async () => {
    const res = await get(s.t.app, '/callback/nope?state=x&code=y');
    expect(res.headers.location).toBe(`${ERROR_PAGE}oauth_provider_not_found`);
  });

  it('state_not_found: missing, unknown, reused, and from another provider', async () => {
    providerUser(s.op, 'sn');
    expect((await get(s.t.app, '/callback/loop?code=abc')).headers.location).toBe(`${ERROR_PAGE}state_not_found`);
    const jar = new CookieJar();
    const back = await backFromProvider('sn', jar, { errorCallbackURL: '/oops' });
    // the same state at another provider's callback: unknown there (and left intact)
    const other = new URL(back.toString().replace('/callback/loop', '/callback/loop2'));
    expect(errorOf((await callback(s, other, jar.clone())).headers.location as string)).toBe('state_not_found');
    const replay = jar.clone();
    const first = await callback(s, back, jar);
    expect(first.headers.location).toBe('/dashboard');
    const again = await callback(s, back, replay); // the same browser replays the callback
    // gone: the flow's errorURL died with it, so the error page answers
    expect(again.headers.location).toBe(`${ERROR_PAGE}state_not_found`);
    const unknown = new URL(back);
    unknown.searchParams.set('state', 'A'.repeat(32));
    const jarUnknown = new CookieJar();
    expect(errorOf((await callback(s, unknown, jarUnknown)).headers.location as string)).toBe(
      'please_restart_the_process',
    );
  });

  it('please_restart_the_process: the state comes back to another browser (and still works in the right one)', async () => {
    providerUser(s.op, 'pr');
    const jar = new CookieJar();
    const back = await backFromProvider('pr', jar);
    const attacker = new CookieJar();
    const stolen = await callback(s, back, attacker);
    expect(stolen.headers.location).toBe(`${ERROR_PAGE}please_restart_the_process`);
    expect(attacker.get(TOKEN_COOKIE)).toBeUndefined();
    const res = await callback(s, back, jar);
    expect(res.headers.location).toBe('/dashboard');
    expect(jar.get(TOKEN_COOKIE)).toBeDefined();
  });

  it('a state is used once even by parallel callbacks', async () => {
    providerUser(s.op, 'par');
    const jar = new CookieJar();
    const back = await backFromProvider('par', jar);
    const results = await Promise.all(Array.from({ length: 6 }, () => callback(s, back, jar.clone())));
    const locations = results.map((r) => r.headers.location as string);
    expect(locations.filter((l) => l === '/dashboard')).toHaveLength(1);
    expect(locations.filter((l) => errorOf(l) === 'state_not_found')).toHaveLength(5);
    const sessions = await s.t.ctx.sql.query(
      "SELECT s.id FROM sessions s JOIN accounts a ON a.user_id = s.user_id WHERE a.account_id = 'par'",
    );
    expect(sessions).toHaveLength(1);
  });

  it("provider error: the user refuses at the provider; the provider's code goes to errorCallbackURL", async () => {
    const jar = new CookieJar();
    const back = await backFromProvider('deny', jar, { errorCallbackURL: '/login-failed' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    const res = await callback(s, back, jar);
    expect(res.headers.location).toBe('/login-failed?error=access_denied');
  });

  it('no_code and invalid_code', async () => {
    providerUser(s.op, 'nc');
    const jar = new CookieJar();
    const back = await backFromProvider('nc', jar);
    const noCode = new URL(back);
    noCode.searchParams.delete('code');
    expect(errorOf((await callback(s, noCode, jar.clone())).headers.location as string)).toBe('no_code');
    const jar2 = new CookieJar();
    const back2 = await backFromProvider('nc', jar2);
    back2.searchParams.set('code', 'not-a-code-the-provider-issued');
    expect(errorOf((await callback(s, back2, jar2)).headers.location as string)).toBe('invalid_code');
  });

  it('no_callback_url: the flow was started without one', async () => {
    providerUser(s.op, 'ncb');
    const jar = new CookieJar();
    const started = await post(s.t.app, '/sign-in/social', { provider: 'loop', loginHint: 'ncb' }, { jar });
    const url = started.json().url;
    const res = await callback(s, await s.op.authorize(url), jar);
    expect(res.headers.location).toBe(`${ERROR_PAGE}no_callback_url`);
  });

  it('unable_to_get_user_info: the user-info endpoint fails (generic OAuth 2 provider)', async () => {
    providerUser(s.op, 'ui');
    const { location } = await socialSignIn(s, 'ui', { provider: 'broken' });
    expect(errorOf(location)).toBe('unable_to_get_user_info');
    expect(await userExists('ui@provider.example')).toBe(false);
  });

  it('email_not_found: the provider shares no email', async () => {
    s.op.users.set('noemail', { name: 'No Email' });
    const { location, jar } = await socialSignIn(s, 'noemail');
    expect(errorOf(location)).toBe('email_not_found');
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
  });

  it('signup_disabled: a provider with sign-up disabled refuses new users', async () => {
    providerUser(s.op, 'closed-new');
    const { location } = await socialSignIn(s, 'closed-new', { provider: 'closed' });
    expect(errorOf(location)).toBe('signup_disabled');
    expect(await userExists('closed-new@provider.example')).toBe(false);
  });

  it('signup_disabled without requestSignUp when implicit sign-up is off; requestSignUp registers', async () => {
    providerUser(s.op, 'invited');
    const { location } = await socialSignIn(s, 'invited', { provider: 'invite' });
    expect(errorOf(location)).toBe('signup_disabled');
    const asked = await socialSignIn(s, 'invited', { provider: 'invite', requestSignUp: true });
    expect(asked.location).toBe('/dashboard');
    expect((await sessionOf(s.t.app, { jar: asked.jar })).user.email).toBe('invited@provider.example');
  });

  it('a malformed provider email counts as none; a non-http picture is dropped', async () => {
    providerUser(s.op, 'bad-mail', { email: 'not an email' });
    expect(errorOf((await socialSignIn(s, 'bad-mail')).location)).toBe('email_not_found');
    providerUser(s.op, 'js-pic', { picture: 'javascript:alert(1)' });
    const { jar } = await socialSignIn(s, 'js-pic');
    expect((await sessionOf(s.t.app, { jar })).user).toMatchObject({ email: 'js-pic@provider.example', image: null });
  });

  it('account_not_linked: an existing email account that may not be linked', async () => {
    const local = await signUp(s.t.app, { email: 'anl@provider.example' }); // unverified local account
    providerUser(s.op, 'anl');
    const { location, jar } = await socialSignIn(s, 'anl');
    expect(errorOf(location)).toBe('account_not_linked');
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    const accounts = await s.t.ctx.sql.query('SELECT provider_id FROM accounts WHERE user_id = $1', [local.userId]);
    expect(accounts).toEqual([{ provider_id: 'credential' }]);
  });

  it('unable_to_link_account and account_already_linked_to_different_user (link-social)', async () => {
    const owner = await signUp(s.t.app, { email: 'lk@provider.example' });
    providerUser(s.op, 'lk-unverified', { email: 'lk@provider.example', email_verified: false });
    const refused = await socialSignIn(
      s,
      'lk-unverified',
      { errorCallbackURL: '/link-failed' },
      owner.jar,
      '/link-social',
    );
    expect(refused.location).toBe('/link-failed?error=unable_to_link_account');

    providerUser(s.op, 'taken');
    await socialSignIn(s, 'taken'); // registers a user owning loop:taken
    const other = await signUp(s.t.app, { email: 'other-lk@provider.example' });
    const taken = await socialSignIn(s, 'taken', {}, other.jar, '/link-social');
    expect(errorOf(taken.location)).toBe('account_already_linked_to_different_user');
    expect((await get(s.t.app, '/list-accounts', { jar: other.jar })).json()).toHaveLength(1);
  });

  it('internal_server_error: the database refuses the account (a provider id too large to index)', async () => {
    const sub = randomBytes(9000).toString('base64url');
    providerUser(s.op, sub, { email: 'huge@provider.example' });
    s.op.defaultLogin = sub; // too long for loginHint: the provider's default login
    const jar = new CookieJar();
    const res = await callback(s, await s.op.authorize(await startFlow(s, jar, { errorCallbackURL: '/oops' })), jar);
    expect(res.headers.location).toBe('/oops?error=internal_server_error');
  });

  it('a banned user is redirected to the error page, not signed in (admin ban hook)', async () => {
    providerUser(s.op, 'banned-user');
    const first = await socialSignIn(s, 'banned-user');
    const user = (await sessionOf(s.t.app, { jar: first.jar })).user;
    await s.t.ctx.features.admin!.bans.ban(null, { userId: user.id, banReason: 'spam' });
    const { location, jar } = await socialSignIn(s, 'banned-user');
    expect(location).toBe(`${ERROR_PAGE}banned`);
    expect(jar.get(TOKEN_COOKIE)).toBeUndefined();
    const page = await get(s.t.app, '/error?error=banned');
    expect(page.body).toContain('banned');
  });

  it('every spec callback code is exercised by this file', async () => {
    const source = readFileSync(__filename, 'utf8');
    const body = source.slice(0, source.indexOf('every spec callback code'));
    for (const code of REDIRECT_ERRORS.callback) expect([code, body.includes(code)]).toEqual([code, true]);
  });
});

import * as oidc from 'openid-client';
import { CookieJar, PASSWORD, post, sessionOf, signUp } from '../../setup/fixtures';
import {
  authorizationRequest,
  browse,
  call,
  discover,
  FIRST_PARTY,
  ISSUER,
  type OpTest,
  ORIGIN,
  startOpTest,
  THIRD_PARTY,
} from './helpers';

/**
 * The browser's side of the provider (docs/oidc-provider.md, "Sign-in and consent"): the service session is the
 * sign-in; without one the browser goes to the hosted sign-in page and comes back; prompt=none and max_age;
 * consent for a third-party client through the JSON API the hosted consent page calls.
 */
let s: OpTest;
beforeAll(async () => {
  s = await startOpTest();
});
afterAll(() => s?.close());

const firstParty = () => discover(s.app, FIRST_PARTY);

describe('a browser that is not signed in', () => {
  it('goes to the hosted sign-in page with a callbackURL that leads back, and the flow completes after sign-in', async () => {
    const u = await signUp(s.app);
    const config = await firstParty();
    const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
    const jar = new CookieJar();
    const { url: signInPage } = await browse(s.app, jar, request.url);
    expect(`${signInPage.origin}${signInPage.pathname}`).toBe(`${ORIGIN}/auth/sign-in`);
    const callbackURL = signInPage.searchParams.get('callbackURL')!;
    expect(callbackURL).toMatch(new RegExp(`^${ISSUER}/interaction/[\\w-]+/continue$`));
    // the hosted pages accept that callback (the service's verdict on a callbackURL)
    expect((await call(s.app, signInPage)).statusCode).toBe(200);

    // the user signs in through the service's API in this browser, and the page goes to the callback
    const signIn = await post(s.app, '/sign-in/email', { email: u.email, password: PASSWORD }, { jar });
    expect(signIn.statusCode).toBe(200);
    const { url } = await browse(s.app, jar, callbackURL);
    expect(`${url.origin}${url.pathname}`).toBe(FIRST_PARTY.redirect_uris[0]);
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
    });
    expect(tokens.claims()?.sub).toBe(u.userId);
  });

  it('the callback step is bound to the browser that started the request (another browser gets the error page)', async () => {
    const victim = await signUp(s.app);
    const config = await firstParty();
    const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
    const attacker = new CookieJar();
    const { url: signInPage } = await browse(s.app, attacker, request.url);
    const callbackURL = signInPage.searchParams.get('callbackURL')!;
    // the signed-in victim is lured to the attacker's callback: nothing is finished for the attacker's request
    const res = await call(s.app, callbackURL, { jar: victim.jar });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${ORIGIN}/auth/error?error=INTERACTION_NOT_FOUND`);
  });

  it('prompt=none answers login_required to the client', async () => {
    const config = await firstParty();
    const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0], { prompt: 'none' });
    const { url } = await browse(s.app, new CookieJar(), request.url);
    expect(`${url.origin}${url.pathname}`).toBe(FIRST_PARTY.redirect_uris[0]);
    expect(url.searchParams.get('error')).toBe('login_required');
    expect(url.searchParams.get('code')).toBeNull();
  });
});

describe('a signed-in browser', () => {
  it('is not asked again: prompt=none gives a code at once for a first-party client', async () => {
    const u = await signUp(s.app);
    const config = await firstParty();
    const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0], { prompt: 'none' });
    const { url } = await browse(s.app, u.jar, request.url);
    expect(url.searchParams.get('code')).toBeTruthy();
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
    });
    expect(tokens.claims()?.sub).toBe(u.userId);
  });

  it('max_age counts from the session’s creation: within it a code, past it login_required', async () => {
    const u = await signUp(s.app);
    await s.t.ctx.sql.query("UPDATE sessions SET created_at = now() - interval '2 hours' WHERE user_id = $1", [
      u.userId,
    ]);
    const config = await firstParty();
    const within = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0], { max_age: '86400' });
    const ok = await browse(s.app, u.jar, within.url);
    const tokens = await oidc.authorizationCodeGrant(config, ok.url, {
      pkceCodeVerifier: within.verifier,
      expectedState: within.state,
      maxAge: 86400,
    });
    const authTime = tokens.claims()!.auth_time!;
    expect(Math.abs(authTime - (Math.floor(Date.now() / 1000) - 7200))).toBeLessThan(60);

    const past = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0], { max_age: '3600' });
    const refused = await browse(s.app, u.jar, past.url);
    expect(`${refused.url.origin}${refused.url.pathname}`).toBe(FIRST_PARTY.redirect_uris[0]);
    expect(refused.url.searchParams.get('error')).toBe('login_required');
  });

  it('signed out of the service, the next request is asked to sign in again', async () => {
    const u = await signUp(s.app);
    const config = await firstParty();
    const first = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
    expect((await browse(s.app, u.jar, first.url)).url.searchParams.get('code')).toBeTruthy();
    expect((await post(s.app, '/sign-out', {}, { jar: u.jar })).statusCode).toBe(200);
    const again = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0], { prompt: 'none' });
    const { url } = await browse(s.app, u.jar, again.url);
    expect(url.searchParams.get('error')).toBe('login_required');
  });

  it('another user signed in in the same browser gets their own tokens', async () => {
    const a = await signUp(s.app);
    const config = await firstParty();
    const first = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
    const one = await browse(s.app, a.jar, first.url);
    expect(one.url.searchParams.get('code')).toBeTruthy();
    const b = await signUp(s.app);
    const jar = a.jar.clone();
    for (const [name, value] of b.jar.cookies) jar.cookies.set(name, value); // b's session cookies over a's
    const second = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
    const two = await browse(s.app, jar, second.url);
    const tokens = await oidc.authorizationCodeGrant(config, two.url, {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
    });
    expect(tokens.claims()?.sub).toBe(b.userId);
  });
});

describe('consent for a third-party client', () => {
  async function toConsent() {
    const u = await signUp(s.app);
    const config = await discover(s.app, THIRD_PARTY);
    const request = await authorizationRequest(config, THIRD_PARTY.redirect_uris[0], { scope: 'openid email' });
    const { url } = await browse(s.app, u.jar, request.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${ORIGIN}/auth/consent`);
    return { u, config, request, uid: url.searchParams.get('interaction')! };
  }

  it('the consent page reads the request, the user allows it, and the client gets its code', async () => {
    const { u, config, request, uid } = await toConsent();
    const view = await call(s.app, `${ISSUER}/interaction/${uid}`, { jar: u.jar });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toEqual({
      uid,
      client: { clientId: THIRD_PARTY.client_id, name: 'Third App', logoUri: THIRD_PARTY.logo_uri },
      scopes: ['openid', 'email'],
      claims: [],
    });
    const answer = await post(s.app, `/interaction/${uid}/consent`, { approve: true }, { jar: u.jar });
    expect(answer.statusCode).toBe(200);
    const { url } = await browse(s.app, u.jar, answer.json().redirectTo);
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
    });
    expect(tokens.claims()?.sub).toBe(u.userId);
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid']);

    // the grant stands: the next request of this client is not asked again
    const again = await authorizationRequest(config, THIRD_PARTY.redirect_uris[0], { scope: 'openid email' });
    expect((await browse(s.app, u.jar, again.url)).url.searchParams.get('code')).toBeTruthy();
  });

  it('refused, the client gets access_denied', async () => {
    const { u, uid } = await toConsent();
    const answer = await post(s.app, `/interaction/${uid}/consent`, { approve: false }, { jar: u.jar });
    const { url } = await browse(s.app, u.jar, answer.json().redirectTo);
    expect(`${url.origin}${url.pathname}`).toBe(THIRD_PARTY.redirect_uris[0]);
    expect(url.searchParams.get('error')).toBe('access_denied');
  });

  it('is the requesting user’s alone, needs a session, and is a guarded browser POST', async () => {
    const { u, uid } = await toConsent();
    const other = await signUp(s.app);
    expect((await call(s.app, `${ISSUER}/interaction/${uid}`, { jar: other.jar })).statusCode).toBe(404);
    const stolen = await post(s.app, `/interaction/${uid}/consent`, { approve: true }, { jar: other.jar });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().code).toBe('INTERACTION_NOT_FOUND');
    expect((await call(s.app, `${ISSUER}/interaction/${uid}`)).statusCode).toBe(401);
    const crossSite = await post(
      s.app,
      `/interaction/${uid}/consent`,
      { approve: true },
      { jar: u.jar, origin: 'https://evil.example' },
    );
    expect(crossSite.statusCode).toBe(403);
    expect((await call(s.app, `${ISSUER}/interaction/not-a-real-uid`, { jar: u.jar })).statusCode).toBe(404);
  });
});

describe('RP-initiated logout', () => {
  async function signedInWithTokens() {
    const u = await signUp(s.app);
    const config = await firstParty();
    const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
    const { url } = await browse(s.app, u.jar, request.url);
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
    });
    const logout = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: FIRST_PARTY.post_logout_redirect_uris[0],
      state: 'bye',
    });
    const page = await call(s.app, logout, { jar: u.jar });
    expect(page.statusCode).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
    expect(xsrf).toBeTruthy();
    const confirm = (fields: string) =>
      call(s.app, `${ISSUER}/oauth2/end-session/confirm`, {
        method: 'POST',
        jar: u.jar,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `xsrf=${xsrf}${fields}`,
      });
    return { u, config, confirm };
  }

  it('confirmed, signs the browser out of the service too, and the client gets its post-logout page', async () => {
    const { u, config, confirm } = await signedInWithTokens();
    const res = await confirm('&logout=yes');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${FIRST_PARTY.post_logout_redirect_uris[0]}?state=bye`);
    // the session is revoked (not only its cookies cleared), as POST /sign-out does, and recorded so
    expect(await sessionOf(s.app, { bearer: u.token })).toBeNull();
    const events = await s.t.ctx.sql.query(
      "SELECT type FROM audit_events WHERE target_id = $1 AND type = 'user.signed_out'",
      [u.userId],
    );
    expect(events).toHaveLength(1);
    const again = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0], { prompt: 'none' });
    expect((await browse(s.app, u.jar, again.url)).url.searchParams.get('error')).toBe('login_required');
  });

  it('not confirmed (stay signed in), the service session stays', async () => {
    const { u, confirm } = await signedInWithTokens();
    const res = await confirm('');
    expect(res.statusCode).toBe(303);
    expect((await sessionOf(s.app, { bearer: u.token }))?.user.id).toBe(u.userId);
  });
});

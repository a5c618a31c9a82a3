import type { ConfigOverrides } from '../../../src/config';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, get, post } from '../../setup/fixtures';
import { type LoopbackOidc, startOidcProvider } from '../../setup/oidc-provider';

export const CLIENT_ID = 'identity-service';
export const CLIENT_SECRET = 'loopback-client-secret-0123456789';
export const OTHER_CLIENT_ID = 'some-other-app';

export interface SocialTest {
  t: TestApp;
  op: LoopbackOidc;
  close(): Promise<void>;
}

/**
 * The service with providers on one loopback oidc-provider, all with the same client:
 * - `loop`, `loop2`: generic OIDC by discovery (offline_access + prompt=consent, which the provider needs to issue refresh tokens);
 * - `closed`: the same with sign-up disabled; `invite`: new users only when the sign-in asks (requestSignUp);
 * - `plain`: generic OAuth 2 with explicit endpoints; `broken`: OAuth 2 whose user-info endpoint does not exist.
 */
export async function startSocialTest(
  overrides: ConfigOverrides = {},
  providerOverrides: object = {},
): Promise<SocialTest> {
  const op = await startLoopbackProvider();
  const providers = loopbackProviders(op, providerOverrides);
  const t = await startTestApp({
    ...overrides,
    social: { ...overrides.social, providers: { ...providers, ...overrides.social?.providers } },
  }).catch(async (error) => {
    await op.close();
    throw error;
  });
  return { t, op, close: async () => void (await Promise.all([t.close(), op.close()])) };
}

const PROVIDER_IDS = ['loop', 'loop2', 'closed', 'invite', 'plain', 'broken'];

/** The loopback oidc-provider with this service's client (every provider id's callback) and another app's. */
export function startLoopbackProvider(): Promise<LoopbackOidc> {
  const redirectUris = PROVIDER_IDS.map((id) => `${PUBLIC_URL}/api/auth/callback/${id}`);
  return startOidcProvider([
    { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris },
    { clientId: OTHER_CLIENT_ID, clientSecret: 'other-secret-0123456789', redirectUris: ['https://other.example/cb'] },
  ]);
}

/** The service's provider settings on the loopback provider (the list above `startSocialTest`). */
export function loopbackProviders(op: LoopbackOidc, providerOverrides: object = {}) {
  const client = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
  const oidc = {
    ...client,
    type: 'oidc' as const,
    discoveryUrl: op.issuer,
    scopes: ['offline_access'],
    prompt: 'consent',
    ...providerOverrides,
  };
  const oauth2 = {
    ...client,
    type: 'oauth2' as const,
    authorizationEndpoint: `${op.issuer}/auth`,
    tokenEndpoint: `${op.issuer}/token`,
    userInfoEndpoint: `${op.issuer}/me`,
    scopes: ['openid', 'email', 'profile'],
  };
  return {
    loop: oidc,
    loop2: oidc,
    closed: { ...oidc, disableSignUp: true },
    invite: { ...oidc, disableImplicitSignUp: true },
    plain: oauth2,
    broken: { ...oauth2, userInfoEndpoint: `${op.issuer}/no-such-endpoint` },
  };
}

/** A provider user with a verified email by default. */
export function providerUser(op: LoopbackOidc, sub: string, claims: object = {}) {
  const email = `${sub}@provider.example`;
  op.users.set(sub, {
    email,
    email_verified: true,
    name: `User ${sub}`,
    picture: `https://img.example/${sub}.png`,
    ...claims,
  });
  return { sub, email, ...claims } as { sub: string; email: string };
}

export async function startFlow(s: SocialTest, jar: CookieJar, body: object, route = '/sign-in/social') {
  if (route === '/link-social' && 'loginHint' in body) {
    s.op.defaultLogin = String(body.loginHint); // link-social has no loginHint: the provider's default login
    const { loginHint: _, ...rest } = body as { loginHint: string };
    body = rest;
  }
  const res = await post(s.t.app, route, { provider: 'loop', callbackURL: '/dashboard', ...body }, { jar });
  if (res.statusCode !== 200) throw new Error(`${route}: ${res.statusCode} ${res.body}`);
  return res.json().url as string;
}

/** The service's callback as the browser reaches it: GET with the browser's cookies. */
export function callback(s: SocialTest, url: URL, jar: CookieJar) {
  return get(s.t.app, `${url.pathname.replace(/^\/api\/auth/, '')}${url.search}`, { jar });
}

/** A whole sign-in: start, log in at the provider as `sub`, come back. Answers the callback's response. */
export async function socialSignIn(
  s: SocialTest,
  sub: string,
  body: object = {},
  jar = new CookieJar(),
  route = '/sign-in/social',
) {
  const url = await startFlow(s, jar, { loginHint: sub, ...body }, route);
  const back = await s.op.authorize(url);
  const res = await callback(s, back, jar);
  return { res, jar, location: res.headers.location as string };
}

export const errorOf = (location: string) => new URL(location, PUBLIC_URL).searchParams.get('error');

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
 * The service with a generic OIDC provider `loop` (discovery on a loopback oidc-provider) and a second one,
 * `loop2` (same provider, same client), for "another provider" cases. Refresh tokens need offline_access and
 * prompt=consent (ECOSYSTEM gotcha 19).
 */
export async function startSocialTest(
  overrides: ConfigOverrides = {},
  providerOverrides: object = {},
): Promise<SocialTest> {
  const redirectUris = ['loop', 'loop2'].map((id) => `${PUBLIC_URL}/api/auth/callback/${id}`);
  const op = await startOidcProvider([
    { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris },
    { clientId: OTHER_CLIENT_ID, clientSecret: 'other-secret-0123456789', redirectUris: ['https://other.example/cb'] },
  ]);
  const provider = {
    type: 'oidc' as const,
    discoveryUrl: op.issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    scopes: ['offline_access'],
    prompt: 'consent',
    ...providerOverrides,
  };
  const t = await startTestApp({
    ...overrides,
    social: { ...overrides.social, providers: { loop: provider, loop2: provider, ...overrides.social?.providers } },
  }).catch(async (error) => {
    await op.close();
    throw error;
  });
  return { t, op, close: async () => void (await Promise.all([t.close(), op.close()])) };
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
  const res = await post(s.t.app, route, { provider: 'loop', callbackURL: '/dashboard', ...body }, { jar });
  if (res.statusCode !== 200) throw new Error(`${route}: ${res.statusCode} ${res.body}`);
  return res.json().url as string;
}

/** The service's callback as the browser reaches it: GET with the browser's cookies. */
export function callback(s: SocialTest, url: URL, jar: CookieJar) {
  return get(s.t.app, `${url.pathname.replace(/^\/api\/auth/, '')}${url.search}`, { jar });
}

/** A whole sign-in: start, log in at the provider as `sub`, come back. Answers the callback's response. */
export async function socialSignIn(s: SocialTest, sub: string, body: object = {}, jar = new CookieJar()) {
  const url = await startFlow(s, jar, { loginHint: sub, ...body });
  const back = await s.op.authorize(url);
  const res = await callback(s, back, jar);
  return { res, jar, location: res.headers.location as string };
}

export const errorOf = (location: string) => new URL(location, PUBLIC_URL).searchParams.get('error');

import type { TestApp } from '../../setup/app';
import { PUBLIC_URL } from '../../setup/app';
import { CookieJar, get, post, type SignedUp, signUp } from '../../setup/fixtures';
import { type CeremonyOverrides, SoftwareAuthenticator } from '../../setup/webauthn';

/** better-auth's challenge cookie: `<prefix>.better-auth-passkey`. */
export const PASSKEY_COOKIE = 'better-auth.better-auth-passkey';

/** A device for the tests' service: pages on PUBLIC_URL, the relying party id `localhost`. */
export const authenticator = (options: Partial<SoftwareAuthenticator['options']> = {}) =>
  new SoftwareAuthenticator({ origin: PUBLIC_URL, ...options });

/** The browser's side of a registration: options, the device's answer, verify. Answers the verify response. */
export async function register(
  t: TestApp,
  jar: CookieJar,
  device: SoftwareAuthenticator,
  options: { name?: string; overrides?: CeremonyOverrides } = {},
) {
  const started = await get(t.app, '/passkey/generate-register-options', { jar });
  if (started.statusCode !== 200) return started;
  const response = device.create(started.json(), options.overrides);
  return post(t.app, '/passkey/verify-registration', { response, name: options.name }, { jar });
}

export interface WithPasskey extends SignedUp {
  device: SoftwareAuthenticator;
  passkeyId: string;
}

/** A new user with one passkey registered from their signed-in browser. */
export async function userWithPasskey(
  t: TestApp,
  fields: Parameters<typeof signUp>[1] = {},
  device = authenticator(),
  name = 'Laptop',
): Promise<WithPasskey> {
  const u = await signUp(t.app, fields);
  const res = await register(t, u.jar, device, { name });
  if (res.statusCode !== 200) throw new Error(`registration failed: ${res.statusCode} ${res.body}`);
  return { ...u, device, passkeyId: res.json().id };
}

/** Starts a passkey sign-in in `jar` (a new browser by default): the options and the jar holding the cookie. */
export async function startSignIn(t: TestApp, jar = new CookieJar()) {
  const res = await get(t.app, '/passkey/generate-authenticate-options', { jar });
  if (res.statusCode !== 200) throw new Error(`options failed: ${res.statusCode} ${res.body}`);
  return {
    options: res.json() as {
      challenge: string;
      rpId: string;
      userVerification?: string;
      allowCredentials?: Array<{ id: string }>;
    },
    jar,
  };
}

/** A whole passkey sign-in: options, the device's assertion, verify. */
export async function signInWithPasskey(
  t: TestApp,
  device: SoftwareAuthenticator,
  overrides: CeremonyOverrides = {},
  jar = new CookieJar(),
) {
  const { options } = await startSignIn(t, jar);
  const response = device.get(options, overrides);
  const res = await post(t.app, '/passkey/verify-authentication', { response }, { jar });
  return { res, jar, response };
}

export const count = async (t: TestApp, sql: string, params: unknown[]) =>
  (await t.ctx.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;

export const passkeysOf = (t: TestApp, userId: string) => count(t, 'passkeys WHERE user_id = $1', [userId]);

export const eventsOf = async (t: TestApp, userId: string, type: string) =>
  t.ctx.sql.query<{ details: Record<string, unknown>; actor_type: string }>(
    'SELECT details, actor_type FROM audit_events WHERE target_id = $1 AND type = $2 ORDER BY seq',
    [userId, type],
  );

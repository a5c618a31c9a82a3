import { generate } from 'otplib';
import type { TestApp } from '../../setup/app';
import { CookieJar, PASSWORD, post, type SignedUp, signUp } from '../../setup/fixtures';

export const TWO_FACTOR_COOKIE = 'better-auth.two_factor';
export const TRUST_COOKIE = 'better-auth.trust_device';

/** The secret an authenticator app reads from the otpauth:// URI. */
export const secretOf = (totpURI: string): string => new URL(totpURI).searchParams.get('secret')!;

/**
 * The code an authenticator app shows at the test clock's time (plus `steps` time steps), computed by otplib as an
 * app would: SHA-1, 6 digits, 30 s.
 */
export function codeAt(t: TestApp, secret: string, steps = 0): Promise<string> {
  return generate({
    secret,
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    epoch: Math.floor(t.clock.now() / 1000) + steps * 30,
  });
}

/** Moves the test clock to the next time step, so a new code is shown (a code is accepted once). */
export const nextStep = (t: TestApp): void => t.clock.advance(30);

export interface Enrolled extends SignedUp {
  secret: string;
  backupCodes: string[];
}

/** A new user with TOTP confirmed (enable, then a first code), and the clock moved past that code's step. */
export async function enrolledUser(t: TestApp, fields: Parameters<typeof signUp>[1] = {}): Promise<Enrolled> {
  const u = await signUp(t.app, fields);
  const enabled = await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar });
  if (enabled.statusCode !== 200) throw new Error(`enable failed: ${enabled.statusCode} ${enabled.body}`);
  const { totpURI, backupCodes } = enabled.json();
  const secret = secretOf(totpURI);
  const verified = await post(t.app, '/two-factor/verify-totp', { code: await codeAt(t, secret) }, { jar: u.jar });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.statusCode} ${verified.body}`);
  nextStep(t);
  return { ...u, secret, backupCodes };
}

/** A password sign-in of a user with a second factor: the answer and the browser holding the pending cookie. */
export async function pendingSignIn(t: TestApp, email: string, extra: object = {}, jar = new CookieJar()) {
  const res = await post(t.app, '/sign-in/email', { email, password: PASSWORD, ...extra }, { jar });
  return { res, jar };
}

export const count = async (t: TestApp, sql: string, params: unknown[]) =>
  (await t.ctx.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;

export const sessionsOf = (t: TestApp, userId: string) => count(t, 'sessions WHERE user_id = $1', [userId]);

export const eventsOf = async (t: TestApp, userId: string, type: string) =>
  t.ctx.sql.query<{ details: Record<string, unknown>; actor_type: string }>(
    'SELECT details, actor_type FROM audit_events WHERE target_id = $1 AND type = $2 ORDER BY seq',
    [userId, type],
  );

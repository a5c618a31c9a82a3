import { randomBytes } from 'node:crypto';
import { PUBLIC_URL } from '../../setup/app';
import { PASSWORD, post, signUp } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { signUpAdmin } from '../admin/helpers';

/**
 * The per-account failure counter (docs/security.md) is no lockout of the owner. Setting a new password (a
 * completed reset, an operator's set-user-password, the server-only set-password) clears it, so the new password
 * works at once, while the window would still refuse every other attempt.
 */
const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnop';
const NEW_PASSWORD = 'a brand new passphrase';
const MAX_FAILURES = 3;

let t: MailStack;
beforeAll(async () => {
  t = await startMailStack(
    {
      serviceApiKey: SERVICE_KEY,
      rateLimit: {
        accountFailures: { windowSec: 3600, max: MAX_FAILURES },
        rules: { '/sign-in/email': { windowSec: 60, max: 1000 }, '/sign-up/email': { windowSec: 60, max: 1000 } },
      },
    },
    { RATE_LIMIT_ENABLED: 'true' },
  );
}, 60_000);
afterAll(() => t.close());

let lastOctet = 0;
/** A client address of its own per request: the per-address limits never fire, only the per-account counter. */
const newIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${++lastOctet % 250}`;

const signInFrom = (email: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress: newIp(),
    headers: { origin: PUBLIC_URL },
    payload: { email, password },
  });

/** Wrong passwords from many addresses until the account answers 429, even to the right password. */
async function lockOut(email: string, rightPassword: string): Promise<void> {
  const codes = [];
  for (let i = 0; i <= MAX_FAILURES; i++) codes.push((await signInFrom(email, `wrong guess ${i}`)).statusCode);
  expect(codes).toEqual([...Array(MAX_FAILURES).fill(401), 429]);
  expect((await signInFrom(email, rightPassword)).statusCode).toBe(429);
}

describe('a new password lifts the per-account sign-in throttle', () => {
  it('after a completed password reset the owner signs in at once; other guesses start from zero', async () => {
    const u = await signUp(t.app);
    await lockOut(u.email, PASSWORD);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      remoteAddress: newIp(),
      headers: { origin: PUBLIC_URL },
      payload: { email: u.email, redirectTo: '/reset' },
    });
    expect(asked.statusCode).toBe(200);
    const token = t
      .linkIn(await t.mailTo(u.email))
      .pathname.split('/')
      .pop()!;
    const reset = await post(t.app, '/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(reset.json()).toEqual({ status: true });
    expect((await signInFrom(u.email, NEW_PASSWORD)).statusCode).toBe(200);
    // The counter counts again from zero: a new burst throttles the account again.
    await lockOut(u.email, NEW_PASSWORD);
  });

  it("after an admin's set-user-password the owner signs in at once", async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    await lockOut(u.email, PASSWORD);
    const set = await post(
      t.app,
      '/admin/set-user-password',
      { userId: u.userId, newPassword: NEW_PASSWORD },
      {
        jar: admin.jar,
      },
    );
    expect(set.json()).toEqual({ status: true });
    expect((await signInFrom(u.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('after the server-only set-password gives a first password, the owner signs in at once', async () => {
    const u = await signUp(t.app);
    await t.ctx.sql.query("DELETE FROM accounts WHERE user_id = $1 AND provider_id = 'credential'", [u.userId]);
    await lockOut(u.email, PASSWORD);
    const set = await post(
      t.app,
      '/set-password',
      { newPassword: NEW_PASSWORD },
      { origin: null, bearer: u.token, headers: { 'x-api-key': SERVICE_KEY } },
    );
    expect(set.json()).toEqual({ status: true });
    expect((await signInFrom(u.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a failed reset (unknown token) changes nothing: the account stays throttled', async () => {
    const u = await signUp(t.app);
    await lockOut(u.email, PASSWORD);
    const refused = await post(t.app, '/reset-password', { token: 'A'.repeat(24), newPassword: NEW_PASSWORD });
    expect(refused.statusCode).toBe(400);
    expect((await signInFrom(u.email, PASSWORD)).statusCode).toBe(429);
  });
});

import { listenOnLoopback, PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { type CookieJar, post, signUp } from '../../setup/fixtures';
import { codeAt, count, enrolledUser, eventsOf, nextStep, pendingSignIn, sessionsOf } from './helpers';

/**
 * The account's budget of wrong second-factor codes (docs/two-factor.md "Limits") under parallel guesses: an
 * attacker who knows the password opens many pending sign-ins of one account and sends all their codes at once.
 * Each code must take its attempt from the account's budget before it is checked, atomically, so exactly
 * TWO_FACTOR_LOCKOUT_FAILURES codes are ever checked, whatever the number of pending sign-ins or requests in flight.
 * Over real HTTP, against the run's PostgreSQL.
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp();
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t?.close();
});

const PENDING = 8;
const PER_PENDING = 5; // TWO_FACTOR_MAX_ATTEMPTS: every request passes its pending sign-in's own limit

/** A POST from a same-origin page over HTTP: the status and the error code (or null for a 200). */
async function send(path: string, body: object, jar: CookieJar): Promise<{ status: number; code: string | null }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL, cookie: jar.header() },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { code?: string };
  return { status: res.status, code: res.status === 200 ? null : (answer.code ?? null) };
}

/** A six-digit code that is none of the user's codes around now. */
async function wrongCodes(secret: string, n: number): Promise<string[]> {
  const right = new Set([await codeAt(t, secret, -1), await codeAt(t, secret), await codeAt(t, secret, 1)]);
  const codes: string[] = [];
  for (let c = 200000; codes.length < n; c += 7) if (!right.has(String(c))) codes.push(String(c));
  return codes;
}

const tally = (answers: Array<{ status: number; code: string | null }>) => {
  const by: Record<string, number> = {};
  for (const a of answers) by[`${a.status} ${a.code}`] = (by[`${a.status} ${a.code}`] ?? 0) + 1;
  return by;
};

describe('parallel wrong codes from many pending sign-ins of one account', () => {
  it.each([
    ['TOTP codes', () => 'totp' as const],
    ['backup codes', () => 'backup-code' as const],
    ['both kinds', (i: number) => (i % 2 === 0 ? ('totp' as const) : ('backup-code' as const))],
  ])(
    '%s: exactly the lockout limit is checked, the rest answer ACCOUNT_TEMPORARILY_LOCKED; the lock holds and is audited once',
    async (_kind, kindOf) => {
      const limit = t.config.twoFactor.lockoutFailures;
      expect(limit).toBe(10);
      expect(t.config.twoFactor.maxAttemptsPerSignIn).toBe(PER_PENDING);
      const u = await enrolledUser(t);
      const pendings = await Promise.all(
        Array.from({ length: PENDING }, async () => (await pendingSignIn(t, u.email)).jar),
      );
      expect(await count(t, 'two_factor_challenges WHERE user_id = $1', [u.userId])).toBe(PENDING);
      const totp = await wrongCodes(u.secret, PENDING * PER_PENDING);

      const answers = await Promise.all(
        Array.from({ length: PENDING * PER_PENDING }, (_, i) => {
          const jar = pendings[i % PENDING].clone();
          return kindOf(i) === 'totp'
            ? send('/two-factor/verify-totp', { code: totp[i] }, jar)
            : send('/two-factor/verify-backup-code', { code: `zzzzz-${String(i).padStart(5, '0')}` }, jar);
        }),
      );

      const checked = answers.filter((a) => a.code === 'INVALID_CODE' || a.code === 'INVALID_BACKUP_CODE');
      const refused = answers.filter((a) => a.status === 429 && a.code === 'ACCOUNT_TEMPORARILY_LOCKED');
      expect({ checked: checked.length, refused: refused.length, answers: tally(answers) }).toEqual({
        checked: limit,
        refused: PENDING * PER_PENDING - limit,
        answers: expect.any(Object),
      });
      expect(checked.every((a) => a.status === 401)).toBe(true);

      // each checked code left one user.sign_in_failed; the lock one user.two_factor_locked
      expect(await eventsOf(t, u.userId, 'user.sign_in_failed')).toHaveLength(limit);
      const locked = await eventsOf(t, u.userId, 'user.two_factor_locked');
      expect(locked).toHaveLength(1);
      expect(locked[0]).toMatchObject({ actor_type: 'anonymous', details: { failures: limit } });
      expect(
        await count(t, 'two_factors WHERE user_id = $1 AND failed_count = $2 AND locked_until IS NOT NULL', [
          u.userId,
          limit,
        ]),
      ).toBe(1);

      // the lock holds: a right TOTP code and a right backup code from a new pending sign-in are refused, unspent
      const { jar } = await pendingSignIn(t, u.email);
      const right = await send('/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, jar);
      expect(right).toEqual({ status: 429, code: 'ACCOUNT_TEMPORARILY_LOCKED' });
      const backup = await send('/two-factor/verify-backup-code', { code: u.backupCodes[0] }, jar);
      expect(backup).toEqual({ status: 429, code: 'ACCOUNT_TEMPORARILY_LOCKED' });
      expect(await count(t, 'two_factors WHERE user_id = $1 AND cardinality(backup_codes) = 10', [u.userId])).toBe(1);
      expect(await sessionsOf(t, u.userId)).toBe(1); // the enrolment's only
      expect(await eventsOf(t, u.userId, 'user.two_factor_locked')).toHaveLength(1);

      // once the lock lapses a right code signs in and the count starts again
      t.clock.advance(t.config.twoFactor.lockoutSec + 1);
      nextStep(t);
      const after = await pendingSignIn(t, u.email);
      expect((await send('/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, after.jar)).status).toBe(200);
      expect(
        await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 0 AND locked_until IS NULL', [u.userId]),
      ).toBe(1);
    },
  );
});

describe('the budget is the account’s, not a pending sign-in’s nor a route’s', () => {
  it('signed-in code checks of a confirmed factor take from it too: parallel wrong codes check exactly the limit, then sign-in is locked', async () => {
    const limit = t.config.twoFactor.lockoutFailures;
    const u = await enrolledUser(t);
    const totp = await wrongCodes(u.secret, 12);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2 === 0
          ? send('/two-factor/verify-totp', { code: totp[i / 2] }, u.jar.clone())
          : send('/two-factor/verify-backup-code', { code: 'qqqqq-qqqqq' }, u.jar.clone()),
      ),
    );
    const checked = answers.filter((a) => a.code === 'INVALID_CODE' || a.code === 'INVALID_BACKUP_CODE');
    expect([checked.length, answers.length - checked.length]).toEqual([limit, 24 - limit]);
    expect(answers.filter((a) => a.code === 'ACCOUNT_TEMPORARILY_LOCKED')).toHaveLength(24 - limit);
    // the lock is recorded once, the signed-in user as its actor; a wrong code while signed in is no failed sign-in
    const locked = await eventsOf(t, u.userId, 'user.two_factor_locked');
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({ actor_type: 'user', details: { failures: limit } });
    expect(await eventsOf(t, u.userId, 'user.sign_in_failed')).toHaveLength(0);
    // and the password sign-in's second step is locked with it
    const { jar } = await pendingSignIn(t, u.email);
    const right = await send('/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, jar);
    expect(right).toEqual({ status: 429, code: 'ACCOUNT_TEMPORARILY_LOCKED' });
  });

  it('a right code resets the count; codes checked while enrolling (a secret not yet confirmed) are not counted', async () => {
    const u = await enrolledUser(t);
    const [wrong] = await wrongCodes(u.secret, 1);
    // nine wrong codes, then a right one: the attempt that would have started the lock passes and lifts it
    const first = await pendingSignIn(t, u.email);
    const second = await pendingSignIn(t, u.email);
    for (let i = 0; i < 9; i++)
      expect((await send('/two-factor/verify-totp', { code: wrong }, i < 5 ? first.jar : second.jar)).code).toBe(
        'INVALID_CODE',
      );
    expect(await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 9', [u.userId])).toBe(1);
    expect((await send('/two-factor/verify-totp', { code: await codeAt(t, u.secret) }, second.jar)).status).toBe(200);
    expect(
      await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 0 AND locked_until IS NULL', [u.userId]),
    ).toBe(1);
    expect(await eventsOf(t, u.userId, 'user.two_factor_locked')).toHaveLength(0);

    // enrolment: the caller was just shown the secret; a wrong first code tests no factor that guards anything
    const fresh = await signUp(t.app);
    const enabled = await post(t.app, '/two-factor/enable', { password: fresh.password }, { jar: fresh.jar });
    const secret = new URL(enabled.json().totpURI).searchParams.get('secret')!;
    const enrolWrong = await wrongCodes(secret, 12);
    const tries = await Promise.all(enrolWrong.map((code) => send('/two-factor/verify-totp', { code }, fresh.jar)));
    expect(tries.every((a) => a.code === 'INVALID_CODE')).toBe(true);
    expect(
      await count(t, 'two_factors WHERE user_id = $1 AND failed_count = 0 AND locked_until IS NULL', [fresh.userId]),
    ).toBe(1);
    expect((await send('/two-factor/verify-totp', { code: await codeAt(t, secret) }, fresh.jar)).status).toBe(200);
  });
});

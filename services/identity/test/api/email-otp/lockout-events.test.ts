import type { TestApp } from '../../setup/app';
import { post, type SignedUp, signUp, uniqueEmail } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { signUpAdmin } from '../admin/helpers';
import { enrolledUser } from '../two-factor/helpers';
import { createEndpoint, Receiver, webhookApp } from '../webhook/helpers';
import { ON } from './helpers';

/**
 * The account lockout that wrong email codes start is recorded once, when it starts (docs/audit.md), as the second
 * factor's lockout is: `user.two_factor_locked` for a user with a second factor (the lock is that factor's own),
 * `user.email_otp_locked` for any other address. Both reach webhooks like every event. A database of this file's
 * own, so only its events reach its endpoint; no Redis (the budget and the deliveries in process, on the test
 * clock).
 */
const db = migratedScratchDatabase('email_otp_lockout');
const start = webhookApp(db.url, { redis: false, env: ON });
let t: TestApp;
let receiver: Receiver;
let admin: SignedUp;

beforeAll(async () => {
  t = await start();
  receiver = await Receiver.start();
  admin = await signUpAdmin(t);
  const { secret } = await createEndpoint(t, admin.jar, {
    url: receiver.url('/locks'),
    eventTypes: ['user.email_otp_locked', 'user.two_factor_locked'],
  });
  receiver.secrets = [secret];
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const send = (email: string) => post(t.app, '/email-otp/send-verification-otp', { email, type: 'sign-in' });
/** Three parallel wrong sign-in codes at a new code (no code is 000000 +… all three: the odds are negligible). */
async function wrongRound(email: string, from: number) {
  expect((await send(email)).statusCode).toBe(200);
  await t.ctx.background.drain(); // the code is stored after the answer
  return Promise.all(
    [0, 1, 2].map((i) => post(t.app, '/sign-in/email-otp', { email, otp: String(from + i).padStart(6, '0') })),
  );
}
const lockEvents = (type: string, targetId: string) =>
  t.ctx.sql.query<{
    actor_type: string;
    target_type: string;
    details: { failures: number; lockedUntil: string; method?: string; type?: string };
  }>('SELECT actor_type, target_type, details FROM audit_events WHERE type = $1 AND target_id = $2 ORDER BY seq', [
    type,
    targetId,
  ]);

describe('the email-code lockout in the audit trail', () => {
  it('a user with a second factor: user.two_factor_locked (that factor’s lock), naming the code, and its signed webhook', async () => {
    const u = await enrolledUser(t);
    for (let round = 0; round < 4; round++) await wrongRound(u.email, round * 3);
    const events = await lockEvents('user.two_factor_locked', u.userId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_type: 'anonymous', target_type: 'user' });
    expect(events[0].details).toMatchObject({ failures: 10, method: 'email-otp', type: 'sign-in' });
    expect(Date.parse(events[0].details.lockedUntil)).toBe(t.clock.now() + t.config.twoFactor.lockoutSec * 1000);
    const [event] = await t.ctx.sql.query<{ id: string }>(
      "SELECT id FROM audit_events WHERE type = 'user.two_factor_locked' AND target_id = $1",
      [u.userId],
    );
    await receiver.waitFor(() => receiver.about(event.id).length === 1, 'the lock event at the endpoint');
    const [got] = receiver.about(event.id);
    expect(got.verifiedWith).toEqual([0]);
    expect(got.json).toMatchObject({
      type: 'user.two_factor_locked',
      data: { target: { type: 'user', id: u.userId } },
    });
  });

  it('an address without a second factor: user.email_otp_locked once, when the lock starts, and its webhook', async () => {
    const lockSec = t.config.twoFactor.lockoutSec;
    expect(t.config.twoFactor.lockoutFailures).toBe(10);
    const email = uniqueEmail('guessed');
    const digest = t.ctx.features.audit.events.emailTarget(email).id;
    await wrongRound(email, 0);
    // later rounds: the lock lasts TWO_FACTOR_LOCKOUT_SEC from the try that started it, not from the first try
    t.clock.advance(600);
    for (let round = 1; round < 5; round++) await wrongRound(email, round * 3);
    const started = t.clock.now();
    const events = await lockEvents('user.email_otp_locked', digest);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_type: 'anonymous', target_type: 'email' });
    expect(events[0].details).toEqual({
      failures: 10,
      lockedUntil: new Date(started + lockSec * 1000).toISOString(),
      method: 'email-otp',
      type: 'sign-in',
    });
    t.clock.advance(lockSec - 60);
    const still = await wrongRound(email, 100);
    expect(still.map((r) => r.json().code)).toEqual(Array(3).fill('ACCOUNT_TEMPORARILY_LOCKED'));
    expect(await lockEvents('user.email_otp_locked', digest)).toHaveLength(1);

    const [event] = await t.ctx.sql.query<{ id: string }>(
      "SELECT id FROM audit_events WHERE type = 'user.email_otp_locked' AND target_id = $1",
      [digest],
    );
    await receiver.waitFor(() => receiver.about(event.id).length === 1, 'the lock event at the endpoint');
    // (its signature's timestamp is the test clock's, moved on here: the first test checks one)
    const [got] = receiver.about(event.id);
    expect(got.json).toMatchObject({
      type: 'user.email_otp_locked',
      data: { target: { type: 'email', id: digest }, details: { failures: 10, method: 'email-otp' } },
    });
  });

  it('a known user without a second factor: the same event, under the address’s digest', async () => {
    const u = await signUp(t.app);
    for (let round = 0; round < 4; round++) await wrongRound(u.email, round * 3);
    const events = await lockEvents('user.email_otp_locked', t.ctx.features.audit.events.emailTarget(u.email).id);
    expect(events.map((e) => e.details.failures)).toEqual([10]);
  });
});

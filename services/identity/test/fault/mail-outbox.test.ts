import { until } from '../mail/helpers';
import type { ApiProcess } from '../setup/api-process';
import { PUBLIC_URL } from '../setup/app';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type SinkMessage, type SmtpSink, startSmtpSink } from '../setup/smtp-sink';
import type { RunningWorker } from '../setup/worker-process';
import { startRedisServer } from './harness/redis-server';
import { type FaultStack, startFaultStack } from './harness/stack';

/**
 * The transactional outbox (docs/decisions/0003-transactional-outbox.md): a mail is written to PostgreSQL in the
 * transaction of the token it carries, and relayed to the queue from there. Whatever happens to Redis or to an API
 * process after that commit, the mail is only delayed: it arrives once, and its link works.
 */
const RESET_MESSAGE = 'If this email exists in our system, check your email for the reset link.';
const NEW_PASSWORD = 'a brand new passphrase 42';

let stack: FaultStack;
let sink: SmtpSink;
let api: ApiProcess;
let worker: RunningWorker;

// Fast polls and a short lease, so that the recoveries below take seconds, not the production defaults' minutes.
const apiEnv = () => ({ SMTP_URL: sink.url, OUTBOX_POLL_MS: '200', OUTBOX_LEASE_MS: '2000', MAIL_BACKOFF_MS: '100' });
const startWorker = () => stack.worker({ SMTP_URL: sink.url, MAIL_BACKOFF_MS: '100' });

beforeAll(async () => {
  [stack, sink] = await Promise.all([startFaultStack(), startSmtpSink()]);
  api = await stack.api(apiEnv());
  worker = startWorker();
  await until(() => worker.output().includes('mail worker started'), 20_000, 'the worker to start');
}, 60_000);
afterAll(async () => {
  await stack?.destroy();
  await sink?.stop();
});

const call = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    body: JSON.stringify(body),
  });

async function newUser(): Promise<string> {
  const email = uniqueEmail('outbox');
  const res = await call(api.base, '/sign-up/email', { email, password: PASSWORD, name: 'Outbox Test' });
  expect(res.status).toBe(200);
  return email;
}

async function requestReset(email: string, base = api.base): Promise<void> {
  const res = await call(base, '/request-password-reset', { email, redirectTo: '/reset' });
  expect([res.status, await res.json()]).toEqual([200, { status: true, message: RESET_MESSAGE }]);
}

interface Row {
  attempts: number;
  relayed: boolean;
  relayed_to: string | null;
  outcome: string | null;
  done: boolean;
}
const rowsFor = (email: string) =>
  stack.pg.query<Row>(
    `SELECT attempts, relayed_at IS NOT NULL AS relayed, relayed_to, outcome, done_at IS NOT NULL AS done
       FROM outbox WHERE topic = 'mail' AND payload->>'to' = $1`,
    [email],
  );
const mailsTo = (email: string) => sink.messages.filter((m) => m.to.includes(email));

/** The reset link of `mail` works on the running API: it leads to a reset that takes the new password. */
async function resetWith(mail: SinkMessage, email: string): Promise<void> {
  const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
  expect(link.origin).toBe(PUBLIC_URL);
  const token = link.pathname.split('/').pop()!;
  const base = new URL(api.base);
  const page = await fetch(`${base.origin}${link.pathname}${link.search}`, { redirect: 'manual' });
  expect([page.status, page.headers.get('location')]).toEqual([302, `/reset?token=${token}`]);
  expect((await call(api.base, '/reset-password', { token, newPassword: NEW_PASSWORD })).status).toBe(200);
  expect((await call(api.base, '/sign-in/email', { email, password: NEW_PASSWORD })).status).toBe(200);
}

/** Exactly one mail to `email` arrived, and none follows within a few relay passes. */
async function exactlyOneMailTo(email: string): Promise<SinkMessage> {
  const mail = await sink.waitFor((m) => m.to.includes(email), 20_000);
  await new Promise((r) => setTimeout(r, 1500));
  expect(mailsTo(email)).toHaveLength(1);
  return mail;
}

async function metrics(base = api.base): Promise<string> {
  return (await fetch(`${new URL(base).origin}/metrics`)).text();
}
const sample = (text: string, line: RegExp) =>
  Number(
    text
      .split('\n')
      .find((l) => line.test(l))
      ?.split(' ')
      .pop(),
  );

async function liveWorker(): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) return;
  worker = startWorker();
  await until(() => worker.output().includes('mail worker started'), 20_000, 'the worker to start');
}

describe('mail through the outbox, whatever happens to Redis after the commit', () => {
  it('Redis flushed after the reset token is committed: the mail still arrives, once, and its link works', async () => {
    const email = await newUser();
    worker.child.kill('SIGTERM');
    await worker.exited;
    await requestReset(email);
    // Handed over to the queue, which nobody drains now: relayed, not done.
    await until(async () => (await rowsFor(email))[0]?.relayed, 10_000, 'the row to be relayed');
    expect(await rowsFor(email)).toEqual([expect.objectContaining({ relayed_to: 'redis:fault:bull', done: false })]);
    const text = await metrics();
    expect(sample(text, /^identity_outbox_pending\{topic="mail",state="relayed"\}/)).toBeGreaterThanOrEqual(1);
    expect(sample(text, /^identity_outbox_oldest_pending_seconds\{topic="mail"\}/)).toBeGreaterThan(0);

    await stack.redis.flushAll(); // the job is gone; PostgreSQL still holds the row
    worker = startWorker();

    const mail = await exactlyOneMailTo(email);
    await until(async () => (await rowsFor(email))[0]?.done, 10_000, 'the row to be done');
    const [row] = await rowsFor(email);
    expect(row).toMatchObject({ outcome: 'sent', relayed_to: 'redis:fault:bull' });
    expect(row.attempts).toBeGreaterThanOrEqual(2); // handed over again after the flush
    expect(sample(await metrics(), /^identity_outbox_relayed_total\{topic="mail",delivery="again"\}/)).toBeGreaterThan(
      0,
    );
    await resetWith(mail, email);
  }, 60_000);

  it('Redis down when the reset is requested: the request answers as always and the mail arrives, once', async () => {
    await liveWorker();
    const email = await newUser();
    await stack.redis.stop();
    try {
      await requestReset(email);
      await sink.waitFor((m) => m.to.includes(email), 20_000);
    } finally {
      await stack.redis.start();
    }
    // Back, and empty: nothing sends it a second time.
    const mail = await exactlyOneMailTo(email);
    await until(async () => (await rowsFor(email))[0]?.done, 10_000, 'the row to be done');
    expect(await rowsFor(email)).toEqual([
      expect.objectContaining({ outcome: 'sent', relayed_to: expect.stringMatching(/^process:/) }),
    ]);
    await liveWorker();
    await resetWith(mail, email);
  }, 60_000);

  it('an API killed while it hands the mail over: another instance relays it after the lease, once', async () => {
    await liveWorker();
    const email = await newUser();
    stack.redis.pause(); // the hand-over hangs, the commit is done
    try {
      await requestReset(email);
      await until(async () => (await rowsFor(email)).length === 1, 10_000, 'the row to be written');
      await new Promise((r) => setTimeout(r, 500));
      expect(await rowsFor(email)).toEqual([expect.objectContaining({ relayed: false, done: false })]);
      api.child.kill('SIGKILL');
      await api.exited;
    } finally {
      stack.redis.resume();
    }
    api = await stack.api(apiEnv());
    const mail = await exactlyOneMailTo(email);
    await until(async () => (await rowsFor(email))[0]?.done, 10_000, 'the row to be done');
    expect(await rowsFor(email)).toEqual([expect.objectContaining({ outcome: 'sent', relayed: true })]);
    await resetWith(mail, email);
  }, 60_000);
});

describe('Redis eviction policy', () => {
  it('the API and the worker warn at start when Redis may evict keys (allkeys-lru); the API shows it in a metric', async () => {
    expect(api.output()).not.toContain('maxmemory-policy');
    expect(await metrics()).toMatch(/^identity_redis_maxmemory_policy\{policy="noeviction"\} 1$/m);

    const lru = await startRedisServer(['--maxmemory-policy', 'allkeys-lru']);
    try {
      const evicting = await stack.api({ ...apiEnv(), REDIS_URL: lru.url });
      const lruWorker = stack.worker({ SMTP_URL: sink.url, REDIS_URL: lru.url });
      await until(() => lruWorker.output().includes('mail worker started'), 20_000, 'the worker to start');
      for (const output of [evicting.output(), lruWorker.output()]) {
        const line = output.split('\n').find((l) => l.includes('maxmemory-policy'));
        expect(line && JSON.parse(line)).toMatchObject({ level: 40, maxmemoryPolicy: 'allkeys-lru' });
      }
      expect(await metrics(evicting.base)).toMatch(/^identity_redis_maxmemory_policy\{policy="allkeys-lru"\} 1$/m);
      evicting.child.kill('SIGKILL');
      lruWorker.child.kill('SIGKILL');
    } finally {
      await lru.stop();
    }
  }, 60_000);
});

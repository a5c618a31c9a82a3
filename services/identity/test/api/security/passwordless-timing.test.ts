import { startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, post, signUp, uniqueEmail } from '../../setup/fixtures';
import { startTcpProxy, type TcpProxy } from '../../setup/tcp-proxy';

/**
 * Enumeration by timing (docs/passwordless.md "Unknown addresses"): asking for a code or a link takes as long for an
 * address with an account as for one without. The answers are the same already (magic-link.test.ts,
 * email-otp.test.ts); here, the time. What a known address costs more (its code or link stored with its mail, the
 * mail cap counted, the outbox written and relayed) is done after the answer, so the request does the same work
 * for both: one lookup.
 *
 * Measured as an attacker across a network would: PostgreSQL and Redis are reached through a loopback relay that
 * adds 2 ms each way, as a database on another host may (on loopback a round trip costs a tenth of a millisecond,
 * and noise hides a difference of a few of them). So every statement or Redis call one kind of address makes and the
 * other does not adds 4 ms to its median, far above the noise of a median of 30; the tolerance is one round trip.
 * (Measured when the known address's code or link and mail were still made inside the request: the medians were
 * about 10 ms apart here, 0.7 to 2 ms on loopback; made after the answer, under 1.1 ms here, also with other test
 * files running.)
 * Known and unknown calls alternate in pairs whose order alternates too, so neither kind always follows the other
 * (work done after one answer falls on both kinds alike).
 */
const ONE_WAY_MS = 2;
const ROUNDS = 30;

let t: TestApp;
let db: TcpProxy;
let redis: TcpProxy;
beforeAll(async () => {
  const dbUrl = new URL(process.env.TEST_DATABASE_URL!);
  db = await startTcpProxy(Number(dbUrl.port || 5432));
  dbUrl.host = `127.0.0.1:${db.port}`;
  redis = await startTcpProxy(Number(new URL(process.env.TEST_REDIS_URL!).port || 6379));
  t = await startTestApp(
    {},
    {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:${redis.port}/0`,
      MAGIC_LINK_ENABLED: 'true',
      EMAIL_OTP_ENABLED: 'true',
    },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await db?.close();
  await redis?.close();
});

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

async function timed(call: () => Promise<{ statusCode: number }>): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await call();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  expect(res.statusCode).toBe(200);
  return ms;
}

/** Medians of ROUNDS calls for known addresses (a new one each time: below every mail cap) and unknown ones. */
async function medians(call: (email: string) => Promise<{ statusCode: number }>) {
  const known: string[] = [];
  for (let i = 0; i < ROUNDS + 4; i++) known.push((await signUp(t.app)).email);
  db.delay(ONE_WAY_MS);
  redis.delay(ONE_WAY_MS);
  try {
    for (let i = 0; i < 4; i++) {
      await call(known.pop()!);
      await call(uniqueEmail('warm-up'));
    }
    const k: number[] = [];
    const n: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const pair = [
        async () => k.push(await timed(() => call(known[i]))),
        async () => n.push(await timed(() => call(uniqueEmail('timing')))),
      ];
      for (const step of i % 2 ? pair : pair.reverse()) await step();
    }
    await t.ctx.background.drain();
    return { known: median(k), unknown: median(n) };
  } finally {
    db.delay(0);
    redis.delay(0);
  }
}

/** One round trip to PostgreSQL or Redis through the relay. */
const TOLERANCE_MS = 2 * ONE_WAY_MS;
/** The medians and whether they are within the tolerance (a failure shows both). */
const alike = (m: { known: number; unknown: number }) => ({
  ...m,
  alike: Math.abs(m.known - m.unknown) < TOLERANCE_MS,
});

describe('asking for a code or a link takes as long for an unknown address as for a known one', () => {
  it('POST /email-otp/send-verification-otp', async () => {
    const m = await medians((email) => post(t.app, '/email-otp/send-verification-otp', { email, type: 'sign-in' }));
    expect(alike(m)).toEqual({ ...m, alike: true });
  }, 60_000);

  it('POST /sign-in/magic-link', async () => {
    const m = await medians((email) => post(t.app, '/sign-in/magic-link', { email }, { jar: new CookieJar() }));
    expect(alike(m)).toEqual({ ...m, alike: true });
  }, 60_000);
});

import { Agent, request } from 'node:http';
import { until } from '../mail/helpers';
import type { ApiProcess } from '../setup/api-process';
import { PUBLIC_URL } from '../setup/app';
import { CookieJar, PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type SmtpSink, startSmtpSink } from '../setup/smtp-sink';
import { type FaultStack, startFaultStack } from './harness/stack';

/**
 * SIGTERM under keep-alive load. While the instance drains, every answer says `Connection: close` (clients move
 * to other instances), requests in flight finish, idle connections are closed between requests, and no request
 * is reset: a request that reached the instance, or whose connection the instance's kernel accepted while the
 * listener was open, is answered. A connection attempt the instance never accepted is refused (ECONNREFUSED),
 * which a client knows it may retry elsewhere; refusals are counted apart. The mail worker finishes the mail it is
 * sending before it exits.
 *
 * The load: 64 keep-alive clients sending one request after another, so every answer of the drain sends its client
 * to open a new connection at once, up to and across the moment the listener closes: the end of the drain is when
 * connections the kernel has completed but the process not yet accepted are most numerous. A 1.5 s drain shows it
 * as well as the 5 s default: what matters is the load at its end, not its length.
 */
const DRAIN_MS = 1500;
const CLIENTS = 64;
/** Users to sign in as, shared by the clients (each sign-up hashes a password: a few are enough). */
const USERS = 8;

let stack: FaultStack;
let sink: SmtpSink;
beforeAll(async () => {
  [stack, sink] = await Promise.all([startFaultStack(), startSmtpSink()]);
}, 60_000);
afterAll(async () => {
  await stack?.destroy();
  await sink?.stop();
});

interface Outcome {
  /** get-session by token (Fastify), by its cookies (the cache cookie's fast path until the drain), or sign-in. */
  kind: 'get-session' | 'cookie get-session' | 'sign-in';
  /** Sent as `x-request-id`: the server's request log names it once the request reached the server. */
  id: string;
  /** Sent after readiness said "draining". */
  duringDrain: boolean;
  /** Sent on a connection an earlier answer had left open. */
  reused: boolean;
  /** When the request was handed to the client (`Date.now()`, the clock of the server's log lines too). */
  sentAt: number;
  /** When it failed. */
  failedAt?: number;
  status?: number;
  connection?: string;
  /** The whole body arrived and parsed as JSON. */
  complete?: boolean;
  error?: string;
}

let sent = 0;

/** One request on the keep-alive agent; never rejects. */
function send(
  agent: Agent,
  api: ApiProcess,
  kind: Outcome['kind'],
  user: User,
  duringDrain: boolean,
): Promise<Outcome> {
  const url = new URL(api.base);
  const signIn = kind === 'sign-in';
  const body = signIn ? JSON.stringify({ email: user.email, password: PASSWORD }) : undefined;
  return new Promise((resolve) => {
    const outcome: Outcome = { kind, id: `drain-${++sent}`, duringDrain, reused: false, sentAt: Date.now() };
    const fail = (e: NodeJS.ErrnoException) => {
      outcome.error = e.code ?? e.message;
      outcome.failedAt = Date.now();
      resolve(outcome);
    };
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: signIn ? 'POST' : 'GET',
        path: `${url.pathname}/${signIn ? 'sign-in/email' : kind === 'get-session' ? 'get-session?disableCookieCache=true' : 'get-session'}`,
        headers: {
          'x-request-id': outcome.id,
          ...(signIn
            ? { 'content-type': 'application/json', origin: PUBLIC_URL, 'content-length': Buffer.byteLength(body!) }
            : kind === 'get-session'
              ? { authorization: `Bearer ${user.token}` }
              : { cookie: user.cookies }),
        },
      },
      (res) => {
        outcome.status = res.statusCode;
        outcome.connection = String(res.headers.connection ?? '');
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          let parsed = false;
          try {
            JSON.parse(Buffer.concat(chunks).toString());
            parsed = true;
          } catch {}
          outcome.complete = res.complete && parsed;
          resolve(outcome);
        });
      },
    );
    req.on('socket', () => {
      outcome.reused = req.reusedSocket;
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** How many outcomes of each shape: short failure messages under load. */
function tally(list: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of list) {
    const key = [
      o.kind,
      o.duringDrain ? 'draining' : 'serving',
      o.reused ? 'reused' : 'new',
      o.error ?? `${o.status}${o.complete ? '' : ' incomplete'} connection:${o.connection || '-'}`,
    ].join(' ');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

interface User {
  email: string;
  token: string;
  /** The session cookies, the cache cookie included, as a Cookie header. */
  cookies: string;
}

async function signUp(api: ApiProcess): Promise<User> {
  const email = uniqueEmail('drain');
  const res = await fetch(`${api.base}/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    body: JSON.stringify({ email, password: PASSWORD, name: 'Drain' }),
  });
  expect(res.status).toBe(200);
  const jar = new CookieJar().store(res);
  return { email, token: (await res.json()).token, cookies: jar.header() };
}

/** The `time` of the server's log line with this message (pino: milliseconds since the epoch). */
function loggedAt(output: string, msg: string): number | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes(`"msg":"${msg}"`)) continue;
    try {
      return JSON.parse(line).time;
    } catch {}
  }
  return undefined;
}

it('SIGTERM under keep-alive load of 64 connections: answers during the drain close their connection, none is reset up to and across the listener closing, exit 0', async () => {
  // Every answered request leaves its line, successful lookups too: the test finds each by its request id.
  const api = await stack.api({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS), LOG_LOOKUPS: 'true' });
  const users = await Promise.all(Array.from({ length: USERS }, () => signUp(api)));
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const outcomes: Outcome[] = [];
  let draining = false;
  let exited = false;
  const client = async (i: number) => {
    for (let n = 0; !exited; n++) {
      // Mostly get-session, by token and by cookies; now and then a sign-in (argon2: a request that takes a while,
      // few enough that the hashing leaves the two cores to the rest).
      const kind = (n + i) % 64 === 0 ? 'sign-in' : n % 2 ? 'get-session' : 'cookie get-session';
      const outcome = await send(agent, api, kind, users[i % USERS], draining);
      outcomes.push(outcome);
      if (outcome.error) await new Promise((r) => setTimeout(r, 5));
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const beforeSignal = outcomes.length;
    expect(outcomes.filter((o) => o.reused).length).toBeGreaterThan(0);
    api.child.kill('SIGTERM');
    await until(
      async () =>
        (await fetch(`${api.base}/health/ready`).then(
          (r) => r.status,
          () => 0,
        )) === 503,
      5000,
      'readiness to answer 503',
    );
    draining = true;
    const code = await api.exited;
    exited = true;
    await Promise.all(clients);
    expect(code).toBe(0);

    const output = api.output();
    const closedAt = loggedAt(output, 'listener closed');
    expect(closedAt).toBeDefined();
    const answered = outcomes.filter((o) => o.status !== undefined);
    /** The server's request log names the request: it reached the service. */
    const reached = (o: Outcome) => output.includes(`"reqId":"${o.id}"`);
    expect(answered.filter((o) => !reached(o)).map((o) => o.id)).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(beforeSignal);
    // Every answer is whole, and a success: the drain serves what reaches it.
    expect(tally(answered.filter((o) => !o.complete || o.status !== 200))).toEqual({});
    const drained = answered.filter((o) => o.duringDrain);
    expect(drained.length).toBeGreaterThan(CLIENTS / 2);
    expect(tally(drained.filter((o) => o.connection !== 'close'))).toEqual({});
    // The load ran up to the listener closing: requests were still being sent in its last quarter second.
    expect(outcomes.filter((o) => o.sentAt <= closedAt! && o.sentAt > closedAt! - 250).length).toBeGreaterThan(0);
    // No request sent while the listener was open, nor one the service saw, fails but by a refusal: the
    // connection was never accepted. Refusals (connection attempts the instance dropped, then refused once its
    // listener had closed) are counted apart, as are failures of attempts made after the listener closed.
    const failed = outcomes.filter((o) => o.error);
    const reset = failed
      .filter((o) => o.error !== 'ECONNREFUSED' && (o.sentAt <= closedAt! || reached(o)))
      .map(
        (o) =>
          `${o.kind} ${o.reused ? 'reused' : 'new'} ${o.error}${reached(o) ? ' reached' : ''}: sent ${o.sentAt - closedAt!} ms, ` +
          `failed ${o.failedAt! - closedAt!} ms from the listener closing`,
      );
    expect(reset).toEqual([]);
    expect(failed.every((o) => o.duringDrain)).toBe(true);
    expect(output).not.toContain('sent no request during the drain');
  } finally {
    exited = true;
    agent.destroy();
    await Promise.all(clients);
  }
}, 60_000);

it('the mail worker finishes the mail it is sending on SIGTERM, then exits 0', async () => {
  const api = await stack.api();
  const worker = stack.worker({ SMTP_URL: sink.url, MAIL_BACKOFF_MS: '100' });
  await until(() => worker.output().includes('mail worker started') || worker.child.exitCode !== null, 20_000);
  sink.clear();
  sink.hold(2000);
  const user = await signUp(api);
  const asked = await fetch(`${api.base}/request-password-reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    body: JSON.stringify({ email: user.email, redirectTo: '/done' }),
  });
  expect(asked.status).toBe(200);
  await until(() => sink.attempts === 1, 15_000, 'the send to start');
  worker.child.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
  expect(sink.messages.map((m) => m.to[0])).toEqual([user.email]);
  expect(worker.output()).toContain('mail worker stopped');
}, 60_000);

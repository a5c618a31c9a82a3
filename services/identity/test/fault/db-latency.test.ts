import type { ApiProcess } from '../setup/api-process';
import { PUBLIC_URL } from '../setup/app';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { startTcpProxy, type TcpProxy } from '../setup/tcp-proxy';
import { type FaultStack, startFaultStack } from './harness/stack';

/**
 * A slow network to PostgreSQL (docs/operations.md, "What happens when a dependency fails"): with 200 ms added to
 * every round trip, a burst of sign-ins beside organization creations and session lookups makes them slower, never
 * failed. The API runs with the shipped pool and deadline settings; what keeps it within them is how little each
 * request holds a connection (round trips in a transaction, none while a password is hashed).
 */
const ROUND_TRIP_MS = 200;
const SIGN_INS = 24;
const ROUNDS = 3;

let stack: FaultStack;
let proxy: TcpProxy;
let api: ApiProcess;

beforeAll(async () => {
  stack = await startFaultStack();
  proxy = await startTcpProxy(stack.pg.port);
  api = await stack.api({ DATABASE_URL: stack.pg.url.replace(`:${stack.pg.port}/`, `:${proxy.port}/`) });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await stack?.destroy();
});

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  ms: number;
}

async function call(path: string, body?: object, bearer?: string): Promise<Answer> {
  const started = performance.now();
  const headers: Record<string, string> = { origin: PUBLIC_URL };
  if (body) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`${api.base}${path}`, {
    method: body ? 'POST' : 'GET',
    headers,
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, ms: performance.now() - started };
}

const summary = (answers: Answer[]) => {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  return { n: ms.length, p50: Math.round(ms[Math.floor(ms.length / 2)]), max: Math.round(ms.at(-1)!) };
};

it(`with ${ROUND_TRIP_MS} ms more per round trip, ${SIGN_INS} sign-ins at once beside organization creations and lookups all succeed`, async () => {
  // Made a few at a time, before the delay: sign-ups hash passwords too.
  const people: Array<{ email: string; token: string }> = [];
  for (let i = 0; i < SIGN_INS; i += 4)
    people.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(4, SIGN_INS - i) }, async (_, j) => {
          const email = uniqueEmail(`slow-${i + j}`);
          const up = await call('/sign-up/email', { email, password: PASSWORD, name: 'Slow' });
          expect(up.status).toBe(200);
          return { email, token: up.body!.token as string };
        }),
      )),
    );
  proxy.delay(ROUND_TRIP_MS / 2);
  const alone = await call('/sign-in/email', { email: people[0].email, password: PASSWORD });
  expect(alone.status).toBe(200);
  const report: Record<string, unknown> = { signInAloneMs: Math.round(alone.ms) };
  const statuses: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    const [signIns, organizations, lookups] = await Promise.all([
      Promise.all(people.map((p) => call('/sign-in/email', { email: p.email, password: PASSWORD }))),
      Promise.all(
        people
          .slice(0, 5)
          .map((p, i) =>
            call('/organization/create', { name: 'Slow', slug: `slow-${round}-${i}-${Date.now()}` }, p.token),
          ),
      ),
      Promise.all(people.slice(0, 10).map((p) => call('/get-session?disableCookieCache=true', undefined, p.token))),
    ]);
    report[`round ${round}`] = {
      signIns: summary(signIns),
      organizations: summary(organizations),
      lookups: summary(lookups),
    };
    for (const [kind, answers] of Object.entries({ signIns, organizations, lookups }))
      statuses[kind] = [...(statuses[kind] ?? []), ...answers.map((a) => a.status)];
  }
  // The figures, for docs/operations.md.
  console.log(JSON.stringify(report));
  for (const [kind, list] of Object.entries(statuses))
    expect({ kind, statuses: [...new Set(list)] }).toEqual({ kind, statuses: [200] });
}, 180_000);

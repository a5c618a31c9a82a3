/**
 * The ways an internal service validates a session (docs/sessions.md), on the
 * identity server of the get-session rows: `POST /introspect` over HTTP, and a `/token` JWT verified in the
 * caller's process with jose against keys fetched once from `/jwks` (no call to the service per check).
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import { cpuWindow } from './cpu';
import type { Identity } from './identity';
import { type LoadSettings, measure } from './load';
import type { ReportRow } from './report';

export const INTROSPECT = 'POST introspect (token)';
export const JWT_VERIFY = 'JWT verify in caller (jose)';

/** Each connection introspects its own session token (one per connection, as the get-session rows use). */
export async function introspectRow(server: Identity, settings: LoadSettings, tokens: string[], serviceKey: string) {
  const scenario = {
    name: INTROSPECT,
    url: `${server.base}/introspect`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-api-key': serviceKey },
    bodies: tokens.map((token) => JSON.stringify({ token })),
    verifyBody: (body: string) => body.startsWith('{"active":true'),
  };
  return measure(scenario, settings, server.child.pid);
}

/** Verifies one JWT in a loop on this (the load generator's) core for the run's duration: checks per second. */
export async function jwtVerifyRow(server: Identity, settings: LoadSettings, token: string): Promise<ReportRow> {
  const response = await fetch(`${server.base}/token`, { headers: { authorization: `Bearer ${token}` } });
  const jwt = ((await response.json()) as { token: string }).token;
  const keys = createLocalJWKSet((await (await fetch(`${server.base}/jwks`)).json()) as { keys: [] });
  const options = { issuer: server.origin, audience: server.origin };
  const run = async (seconds: number) => {
    let count = 0;
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      await jwtVerify(jwt, keys, options);
      count++;
    }
    return count;
  };
  await run(settings.warmupSec);
  const end = cpuWindow(undefined, true); // the loop is this process: its CPU shows as gen
  const count = await run(settings.durationSec);
  const cpu = end();
  const rss = Math.round((process.memoryUsage().rss / 1048576) * 10) / 10;
  return { name: JWT_VERIFY, rps: Math.round(count / settings.durationSec), p50: null, p99: null, rssMb: rss, cpu };
}

import autocannon from 'autocannon';
import { type CpuShares, cpuWindow } from './cpu';
import { rssMb } from './proc';

export interface LoadSettings {
  durationSec: number;
  warmupSec: number;
  connections: number;
}

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /**
   * Cookie headers handed out in turn, one per connection: concurrent requests then name distinct sessions, as a
   * service's many users do, instead of 64 copies of one.
   */
  cookies?: string[];
  body?: string;
  /** Request bodies handed out in turn, one per connection (like `cookies`; introspection's distinct tokens). */
  bodies?: string[];
  /** Every response body must pass (counted as autocannon mismatches, which fail the run). */
  verifyBody?: (body: string) => boolean;
  /** Report non-2xx answers and errors in the notes instead of failing (sign-in). */
  tolerateFailures?: boolean;
  timeoutSec?: number;
}

/** One row of the report; latencies are null where they do not apply (the argon2 loop). */
export interface Row {
  name: string;
  rps: number;
  p50: number | null;
  p99: number | null;
  rssMb: number;
  /** CPU during the measured run (absent for the argon2 loop when it cannot tell). */
  cpu?: CpuShares;
  note?: string;
}

function describeFailures(result: autocannon.Result): string {
  const codes = Object.entries(result.statusCodeStats)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${code}×${count}`);
  const parts = [
    result.non2xx ? `non2xx=${result.non2xx} (${codes.join(', ')})` : '',
    result.errors ? `errors=${result.errors}` : '',
    result.timeouts ? `timeouts=${result.timeouts}` : '',
    result.mismatches ? `bad bodies=${result.mismatches}` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

/** autocannon's per-connection hook: each connection takes the next cookie and body of the lists for all its requests. */
function perConnection(scenario: Scenario): ((client: autocannon.Client) => void) | undefined {
  const { cookies, bodies } = scenario;
  if (!cookies?.length && !bodies?.length) return undefined;
  let next = 0;
  return (client) => {
    const i = next++;
    const headers = cookies?.length ? { ...scenario.headers, cookie: cookies[i % cookies.length] } : scenario.headers;
    client.setHeadersAndBody(headers ?? {}, bodies?.length ? bodies[i % bodies.length] : scenario.body);
  };
}

function run(scenario: Scenario, connections: number, duration: number): Promise<autocannon.Result> {
  return autocannon({
    setupClient: perConnection(scenario),
    url: scenario.url,
    method: scenario.method ?? 'GET',
    headers: scenario.headers,
    body: scenario.body,
    verifyBody: scenario.verifyBody,
    connections,
    duration,
    pipelining: 1,
    timeout: scenario.timeoutSec ?? 10,
  });
}

/**
 * One request after the warm-up: it queues behind whatever the warm-up left in flight (argon2 work cannot be
 * cancelled), so the measured run starts on an idle server.
 */
async function drain(scenario: Scenario): Promise<void> {
  const timeout = AbortSignal.timeout((scenario.timeoutSec ?? 10) * 1000);
  const headers = scenario.cookies ? { ...scenario.headers, cookie: scenario.cookies[0] } : scenario.headers;
  const body = scenario.bodies ? scenario.bodies[0] : scenario.body;
  const init = { method: scenario.method ?? 'GET', headers, body, signal: timeout };
  await (await fetch(scenario.url, init)).arrayBuffer();
}

/**
 * A discarded warm-up, then the measured run; the server's RSS is read right after it. Fails on any error,
 * timeout, non-2xx answer or rejected body unless the scenario tolerates them.
 */
export async function measure(scenario: Scenario, settings: LoadSettings, serverPid: number | undefined): Promise<Row> {
  process.stderr.write(`  ${scenario.name}: warm-up ${settings.warmupSec}s, run ${settings.durationSec}s\n`);
  await run(scenario, settings.connections, settings.warmupSec);
  await drain(scenario);
  const endWindow = cpuWindow(serverPid, true);
  const result = await run(scenario, settings.connections, settings.durationSec);
  const rss = rssMb(serverPid);
  const cpu = endWindow();
  const failures = describeFailures(result);
  if (failures && !scenario.tolerateFailures) throw new Error(`${scenario.name}: ${failures}`);
  if (result.requests.total === 0) throw new Error(`${scenario.name}: no request completed`);
  return {
    name: scenario.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rssMb: rss,
    cpu,
    note: failures || undefined,
  };
}

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { ConfigOverrides } from '../../../src/config';
import { deriveKeys } from '../../../src/crypto/keys';
import { Sealer } from '../../../src/crypto/sealed';
import { until } from '../../mail/helpers';
import { startTestApp, type TestApp } from '../../setup/app';
import type { CookieJar } from '../../setup/fixtures';
import { adminGet, adminPost } from '../admin/helpers';

export { until };

/** One request the receiver got: its headers and body as sent, and which of its secrets verified it. */
export interface Received {
  webhookId: string;
  timestamp: number;
  signature: string;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  /** Indexes (in `secrets`) of the secrets whose signature checked out with the standardwebhooks package. */
  verifiedWith: number[];
  status: number;
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * A real HTTP endpoint on loopback standing for a customer's webhook receiver. Every request is verified with the
 * `standardwebhooks` package (independent of the service's signing code) against each secret it was given;
 * `answer` decides the status of each request (the first `failFirst` get 500 by default).
 */
export class Receiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  /** Status for the request number `n` (1-based) at this path; 200 by default. */
  answer: (n: number, path: string) => number = () => 200;
  /** Milliseconds to wait before answering (timeouts). */
  delayMs = 0;
  private count = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<Receiver> {
    let self: Receiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    self = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  url(path = '/hook'): string {
    return `${this.origin}${path}`;
  }

  /** Requests about an event (its id in the body), in arrival order. */
  about(eventId: string): Received[] {
    return this.received.filter((r) => r.json.data?.id === eventId);
  }

  waitFor(check: (all: Received[]) => boolean, what: string, timeoutMs = 15_000): Promise<true> {
    return until(() => check(this.received) || null, timeoutMs, what) as Promise<true>;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }

  private handle(
    path: string,
    headers: IncomingHttpHeaders,
    body: string,
    res: { writeHead(s: number, h?: object): void; end(b?: string): void },
  ): void {
    this.count++;
    const status = this.answer(this.count, path);
    const plain = {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    };
    const verifiedWith = this.secrets.flatMap((secret, i) => {
      try {
        new Webhook(secret).verify(body, plain);
        return [i];
      } catch {
        return [];
      }
    });
    let json: Received['json'];
    try {
      json = JSON.parse(body);
    } catch {
      json = { type: '?', timestamp: '', data: {} };
    }
    this.received.push({
      webhookId: plain['webhook-id'],
      timestamp: Number(plain['webhook-timestamp']),
      signature: plain['webhook-signature'],
      body,
      json,
      verifiedWith,
      status,
      path,
      headers,
    });
    const reply = () => {
      if (status >= 300 && status < 400) res.writeHead(status, { location: 'http://127.0.0.1:1/elsewhere' });
      else res.writeHead(status);
      res.end('ok');
    };
    if (this.delayMs) setTimeout(reply, this.delayMs);
    else reply();
  }
}

/**
 * The service on a database of this file's own (another file's endpoints must not receive this file's events, nor
 * the reverse), with short webhook retries; `redis` false runs it without Redis (deliveries in process).
 */
export function webhookApp(
  databaseUrl: () => string,
  options: { redis: boolean; redisPrefix?: string; overrides?: ConfigOverrides; env?: Record<string, string> },
): () => Promise<TestApp> {
  return () =>
    startTestApp(
      {
        ...options.overrides,
        webhook: {
          retryScheduleMs: [100, 200],
          timeoutMs: 2000,
          endpointRefreshMs: 500,
          ...options.overrides?.webhook,
        },
        outbox: { pollMs: 100, ...options.overrides?.outbox },
      },
      {
        DATABASE_URL: databaseUrl(),
        REDIS_URL: options.redis ? process.env.TEST_REDIS_URL! : '',
        ...(options.redisPrefix ? { REDIS_PREFIX: options.redisPrefix } : {}),
        ...options.env,
      },
    );
}

export async function createEndpoint(
  t: TestApp,
  jar: CookieJar,
  body: { url: string; eventTypes: string[]; enabled?: boolean; description?: string },
): Promise<{ id: string; secret: string }> {
  const res = await adminPost(t, 'create-webhook-endpoint', body, jar);
  if (res.statusCode !== 200) throw new Error(`create-webhook-endpoint: ${res.statusCode} ${res.body}`);
  const answer = res.json();
  return { id: answer.endpoint.id, secret: answer.secret };
}

export interface LoggedDelivery {
  eventId: string | null;
  webhookId: string;
  attempt: number;
  status: string;
  responseCode: number | null;
  error: string | null;
}

export async function deliveriesOf(t: TestApp, jar: CookieJar, endpointId: string): Promise<LoggedDelivery[]> {
  const res = await adminGet(t, `list-webhook-deliveries?endpointId=${endpointId}&limit=200`, jar);
  if (res.statusCode !== 200) throw new Error(`list-webhook-deliveries: ${res.statusCode} ${res.body}`);
  return res.json().deliveries;
}

/** Opens a stored (sealed) endpoint secret with the service's key: what the database holds is not the secret. */
export function openSecret(t: TestApp, endpointId: string, sealed: string): string | null {
  return new Sealer(deriveKeys(t.config, 'webhook-secrets')).open(sealed, `webhook-secret:${endpointId}`);
}

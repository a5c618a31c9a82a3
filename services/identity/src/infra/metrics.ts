import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { RouteHistogram } from './route-histogram';

export type SessionPath = 'cookie' | 'redis' | 'database' | 'none';

/**
 * What SREs watch: HTTP latency by route and status, sign-in outcomes, get-session by cache path,
 * password-hash time, pool usage, mail queue depth, outbox backlog and hand-overs, webhook deliveries, rate-limit
 * rejections, and
 * whether Redis may evict keys. One registry per app instance, so
 * several apps in one process (tests) never share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  /** Labels method, route (pattern), status; observed on every request (route-histogram.ts). */
  readonly http = new RouteHistogram(
    'identity_http_request_duration_seconds',
    'HTTP request duration by route pattern, method and status',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    this.registry,
  );
  readonly signIns = new Counter({
    name: 'identity_sign_in_total',
    help: 'Sign-in attempts by method and outcome (success, or the error code in lower case)',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly getSession = new Counter({
    name: 'identity_get_session_total',
    help: 'get-session answers by the path that answered: cookie cache, Redis, PostgreSQL, or none (no session)',
    labelNames: ['path'] as const,
    registers: [this.registry],
  });
  readonly passwordHash = new Histogram({
    name: 'identity_password_hash_seconds',
    help: 'argon2id time by operation (hash, verify)',
    labelNames: ['op'] as const,
    buckets: [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1],
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'identity_rate_limited_total',
    help: 'Requests refused by a rate limit, by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  /** Outbox rows handed to their queue: `first` hand-overs, and `again` for work a queue had lost (src/outbox). */
  readonly outboxRelayed = new Counter({
    name: 'identity_outbox_relayed_total',
    help: 'Outbox rows handed over to their queue, by topic; delivery="again" when the queue had lost the work',
    labelNames: ['topic', 'delivery'] as const,
    registers: [this.registry],
  });
  /** Webhook delivery attempts (docs/webhooks.md), made by this process: by outcome, and how long each took. */
  readonly webhookDeliveries = new Counter({
    name: 'identity_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (succeeded: a 2xx answer; failed: anything else, retried on schedule)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookDuration = new Histogram({
    name: 'identity_webhook_delivery_duration_seconds',
    help: 'Webhook delivery attempt duration (connect, send, answer) by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  /**
   * 1 for Redis's maxmemory-policy, read at start. Anything but noeviction lets Redis drop queued mail jobs,
   * rate-limit counts and cached sessions under memory pressure (BullMQ's production guide requires noeviction).
   */
  readonly redisMaxmemoryPolicy = new Gauge({
    name: 'identity_redis_maxmemory_policy',
    help: "Redis's maxmemory-policy at start (1 for the policy in force); anything but noeviction may evict queue keys",
    labelNames: ['policy'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'identity_' });
  }

  /** A gauge read at scrape time; a reader that throws (a dependency away) leaves the sample out. */
  gauge(
    name: string,
    help: string,
    labelNames: string[],
    read: () => Promise<Array<[Record<string, string>, number]>>,
  ) {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const [labels, value] of await read()) this.set(labels, value);
        } catch {}
      },
    });
  }

  /**
   * The database clock's state at scrape time (docs/operations.md, Clocks): the database's clock minus this
   * machine's, as measured at the last sync, and how long ago that sync succeeded (a growing age: the database
   * could not be read and the clock goes on from its last reading).
   */
  watchClock(clock: { readonly offsetMs: number; readonly syncAgeMs: number | null }): void {
    this.gauge(
      'identity_clock_offset_seconds',
      "The database's clock minus this instance's, at the last clock sync (expiries follow the database)",
      [],
      async () => [[{}, clock.offsetMs / 1000]],
    );
    this.gauge('identity_clock_sync_age_seconds', 'Seconds since the last successful clock sync', [], async () => {
      const age = clock.syncAgeMs;
      return age === null ? [] : [[{}, age / 1000]];
    });
  }

  /** One webhook delivery attempt: its outcome and duration. */
  observeWebhook(outcome: 'succeeded' | 'failed', seconds: number): void {
    this.webhookDeliveries.inc({ outcome });
    this.webhookDuration.observe({ outcome }, seconds);
  }

  /** Counts the outcome of a sign-in attempt, passing its result or error through. */
  async countSignIn<T>(method: string, attempt: () => Promise<T>): Promise<T> {
    try {
      const result = await attempt();
      this.signIns.inc({ method, outcome: 'success' });
      return result;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      this.signIns.inc({ method, outcome: typeof code === 'string' ? code.toLowerCase() : 'error' });
      throw error;
    }
  }
}

import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { Config } from './config';
import { deriveKeys } from './crypto/keys';
import { PasswordHasher } from './crypto/password';
import type { Acquirer } from './db/acquire';
import { openEmbeddedPostgres } from './db/embedded';
import { runMigrations } from './db/migrate';
import { createPool } from './db/pool';
import { WEBHOOK_TOPIC } from './features/webhook';
import type { Lifecycle } from './http/drain';
import { TrustedOrigins } from './http/origins';
import { SessionCookies } from './http/session-cookies';
import { createWeb, type Web } from './http/web';
import { DatabaseClock } from './infra/database-clock';
import { createLogger } from './infra/logger';
import { Metrics } from './infra/metrics';
import { checkEvictionPolicy } from './infra/redis-policy';
import { MailCap } from './mail/cap';
import type { MailQueue } from './mail/jobs';
import type { MailLogger } from './mail/log';
import { MAIL_TOPIC, MailOutbox, mailHandler } from './mail/mail-outbox';
import { createMailQueue } from './mail/queue';
import { Outbox } from './outbox/outbox';
import { BackgroundTasks } from './shared/background';
import type { Clock } from './shared/clock';
import { drainBatches } from './shared/drain-batches';
import { acquirerFor, type Sql, sqlFor } from './shared/sql';
import { type KeyValueStore, MemoryStore, RedisStore } from './store';
import { createFeatures, type Features } from './wiring';

/** pino's shape (a message, or fields and a message): the process's pino logger fits as is. */
export interface Logger {
  info(msg: string): void;
  info(fields: object, msg: string): void;
  warn(msg: string): void;
  warn(fields: object, msg: string): void;
  error(msg: string): void;
  error(fields: object, msg: string): void;
  /** Optional: what only someone looking for it needs (a test's quiet logger may leave it out). */
  debug?(fields: object, msg: string): void;
}

/**
 * The running service: its infrastructure (connected here), the features (built by wiring.ts), and the shared web
 * parts the route tables are registered with (app.ts). Built once by plain wiring, no dependency-injection
 * container; no feature imports this module.
 */
export interface AppContext {
  config: Config;
  /** The time every expiry follows: the database's clock (infra/database-clock.ts), or a test's. */
  clock: Clock;
  /** The process's one PostgreSQL pool (db/pool.ts); `sql` queries through it. */
  pool: Pool;
  sql: Sql;
  redis: Redis | null;
  store: KeyValueStore;
  hasher: PasswordHasher;
  metrics: Metrics;
  /** Cookies, trusted origins and the session and service-credential guards every route table gets. */
  web: Web;
  features: Features;
  /** The queue the outbox hands mail to: BullMQ (the workers send), or this process when Redis is away or unset. */
  mail: MailQueue;
  /** Where the flows write their mails, in the transaction of the token or invitation they carry. */
  mailOutbox: MailOutbox;
  /** The transactional outbox and its relay (docs/decisions/0003-transactional-outbox.md); `start` polls. */
  outbox: Outbox;
  /** Work started by requests and not awaited by them (mail for known addresses); drained at close. */
  background: BackgroundTasks;
  /**
   * Set on SIGTERM: readiness answers 503 so load balancers stop sending, and every answer carries
   * `Connection: close` (http/drain.ts) while requests in flight finish.
   */
  lifecycle: Lifecycle;
  /**
   * Deletes expired rows nobody will present again (sessions, verification tokens, pending second-factor sign-ins
   * and trusted devices, passkey challenges) and webhook delivery log rows past WEBHOOK_DELIVERY_RETENTION_DAYS;
   * run periodically.
   */
  sweepExpired(): Promise<{
    sessions: number;
    verifications: number;
    twoFactor: number;
    passkeyChallenges: number;
    webhookDeliveries: number;
    /** The OpenID provider's expired grants and refresh tokens (0 when it is off). */
    oidcRecords: number;
  }>;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  logger?: Logger;
  /** Wire everything without connecting (OpenAPI generation): no query may run. */
  offline?: boolean;
  /** Run pending migrations at start (the embedded default and development). */
  migrate?: boolean;
  /**
   * What to warn when REDIS_URL is unset: the serving process's note by default; a one-off command's own line, or
   * null for one that needs no Redis (its in-process stores die with it).
   */
  redisUnsetWarning?: string | null;
}

const SERVING_WITHOUT_REDIS =
  'REDIS_URL is not set: in-process session cache, state and rate-limit stores (single instance only)';

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  // Without a logger (the CLI): JSON lines on stderr, so stdout holds only the command's answer.
  const log = options.logger ?? createLogger(config, { fd: 2 });
  const closers: Array<() => Promise<unknown>> = [];
  const lifecycle: Lifecycle = { draining: false };
  try {
    const { pool, redis } = await connect(config, options, log, closers, lifecycle);
    const acquirer = acquirerFor(pool);
    const sql = sqlFor(pool, acquirer);
    const metrics = new Metrics({ defaultMetrics: config.metricsEnabled });
    const clock = options.clock ?? (await databaseClock(config, options, pool, metrics, log, closers));
    const store: KeyValueStore = redis ? new RedisStore(redis, config.redisPrefix) : new MemoryStore(clock.now);
    const hasher = new PasswordHasher(config.argon2, (op, seconds) => metrics.passwordHash.observe({ op }, seconds));
    if (redis) {
      const policy = await checkEvictionPolicy(redis, (fields, message) => log.warn(fields, message));
      if (policy) metrics.redisMaxmemoryPolicy.set({ policy }, 1);
    }
    // Mail this process sends itself reports back at once, so its outbox row is done before the next check.
    const onSettled = (id: string, state: 'sent' | 'failed') => outbox.confirm(MAIL_TOPIC, id, state);
    const mail = options.offline ? offlineMail : createMailQueue(config, redis, mailLogger(log), { onSettled });
    const outbox = new Outbox(
      sql,
      { [MAIL_TOPIC]: mailHandler(mail) },
      { ...config.outbox, takeoverMs: takeoverMs(config) },
      quietWhileStopping(mailLogger(log), lifecycle),
      (topic, again) => metrics.outboxRelayed.inc({ topic, delivery: again ? 'again' : 'first' }),
    );
    // Closing: the relay stops, then the queue sends what it holds, then the outbox records what was sent.
    // Webhooks register their queue once the features are built; it closes with the mail queue.
    let closeWebhooks = async () => {};
    closers.unshift(() => outbox.settle());
    closers.unshift(async () => {
      await closeWebhooks();
      await mail.close();
    });
    closers.unshift(() => outbox.close());
    // Every mail of the API goes through this one cap (account mails and invitations alike), at write time.
    const cap = new MailCap(store, config.mail.maxPerAddressPerHour, clock.now, (m) => log.warn(m));
    const mailOutbox = new MailOutbox(outbox, cap);
    watchDependencies(metrics, pool, acquirer, mail, outbox);
    const background = new BackgroundTasks((error, label) =>
      log.error({ error: (error as Error).message }, `${label} failed`),
    );
    closers.unshift(() => background.drain());
    const features = createFeatures({
      config,
      clock,
      sql,
      redis,
      store,
      hasher,
      mailOutbox,
      background,
      lifecycle,
      warn: (m) => log.warn(m),
      outbox,
      log: mailLogger(log),
      observeWebhook: (outcome, seconds) => metrics.observeWebhook(outcome, seconds),
    });
    outbox.register(WEBHOOK_TOPIC, features.webhook.handler);
    closeWebhooks = () => features.webhook.close();
    if (!options.offline) features.webhook.start();
    metrics.gauge(
      'identity_webhook_jobs',
      'Webhook messages by state (waiting, active, delayed, failed)',
      ['state'],
      async () => Object.entries(await features.webhook.queue.counts()).map(([state, n]) => [{ state }, n]),
    );
    closers.unshift(() => features.jwt.keys.stop());
    const web = createWeb({
      config,
      clock,
      metrics,
      cookies: new SessionCookies(config, deriveKeys(config, 'cookie')),
      trusted: new TrustedOrigins([config.publicUrl, ...config.trustedOrigins]),
      sessions: features.session.sessions,
      apiKeys: features.apiKey.apiKeys,
      signIn: features.signIn.signIn,
    });
    return {
      config,
      clock,
      pool,
      sql,
      redis,
      store,
      hasher,
      metrics,
      web,
      features,
      mail,
      mailOutbox,
      outbox,
      background,
      lifecycle,
      sweepExpired: async () => ({
        sessions: await features.session.sessions.sweepExpired(),
        verifications: await drainBatches((batch) => features.account.sweepExpiredTokens(batch)),
        twoFactor: await drainBatches((batch) => features.twoFactor.sweepExpired(batch)),
        passkeyChallenges: await drainBatches((batch) => features.passkey.sweepExpired(batch)),
        webhookDeliveries: await features.webhook.deliveries.prune(),
        oidcRecords: features.oidcProvider
          ? await drainBatches((batch) => features.oidcProvider!.sweepExpired(batch))
          : 0,
      }),
      close: () => closeAll(closers),
    };
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

/**
 * The clock every expiry follows: the database's (docs/operations.md, Clocks), read at start and every
 * `clockSyncIntervalSec`, with its offset from this machine's clock on /metrics. Offline (no query may run):
 * this machine's clock.
 */
async function databaseClock(
  config: Config,
  options: ContextOptions,
  pool: Pool,
  metrics: Metrics,
  log: Logger,
  closers: Array<() => Promise<unknown>>,
): Promise<Clock> {
  if (options.offline) return { now: () => Date.now() };
  const clock = new DatabaseClock({
    connect: () => pool.connect(),
    intervalMs: config.clockSyncIntervalSec * 1000,
    log,
  });
  closers.unshift(() => clock.stop());
  await clock.start();
  metrics.watchClock(clock);
  return clock;
}

/**
 * A row the outbox handed to this process's own queue (Redis away, or unset) is taken over by another process when
 * not confirmed within the lease plus twice the queue's own retries (`mail.attempts` with backoff): that process
 * may be gone, and its queue with it.
 */
function takeoverMs(config: Config): number {
  return config.outbox.leaseMs + config.mail.backoffMs * 2 ** config.mail.attempts;
}

/** Gauges read at scrape time: the PostgreSQL pool, the mail queue and the outbox. */
function watchDependencies(metrics: Metrics, pool: Pool, acquirer: Acquirer, mail: MailQueue, outbox: Outbox): void {
  metrics.gauge('identity_db_pool_connections', 'PostgreSQL pool connections by state', ['state'], async () => {
    const { totalCount, idleCount, waitingCount } = pool;
    return [
      [{ state: 'total' }, totalCount],
      [{ state: 'idle' }, idleCount],
      // Requests waiting for a connection (db/acquire.ts), and any waiting in pg-pool behind the clock's.
      [{ state: 'waiting_clients' }, waitingCount + acquirer.waiting()],
    ];
  });
  metrics.gauge('identity_mail_jobs', 'Mail jobs by state (waiting, active, delayed, failed)', ['state'], async () =>
    Object.entries(await mail.counts()).map(([state, n]) => [{ state }, n]),
  );
  // One query serves both outbox gauges of a scrape.
  let read: { at: number; rows: ReturnType<Outbox['pending']> } | null = null;
  const pending = () => {
    if (!read || Date.now() - read.at > 1000) read = { at: Date.now(), rows: outbox.pending() };
    return read.rows;
  };
  metrics.gauge(
    'identity_outbox_pending',
    'Outbox rows not done, by topic and state (unrelayed: not handed over yet; relayed: waiting for the queue)',
    ['topic', 'state'],
    async () => (await pending()).map((r) => [{ topic: r.topic, state: r.relayed ? 'relayed' : 'unrelayed' }, r.count]),
  );
  metrics.gauge(
    'identity_outbox_oldest_pending_seconds',
    'Age of the oldest outbox row not done, by topic',
    ['topic'],
    async () => {
      const oldest = new Map<string, number>();
      for (const r of await pending()) oldest.set(r.topic, Math.max(oldest.get(r.topic) ?? 0, r.oldestSec));
      return [...oldest].map(([topic, seconds]) => [{ topic }, seconds]);
    },
  );
}

/** The mail module's `(fields, message)` logger over the context's (bound: pino's methods need their `this`). */
function mailLogger(log: Logger): MailLogger {
  return {
    info: (fields, message) => log.info(fields, message),
    warn: (fields, message) => log.warn(fields, message),
    error: (fields, message) => log.error(fields, message),
  };
}

/** OpenAPI generation wires the app without connecting: nothing may be sent. */
const offlineMail: MailQueue = {
  enqueue: () => Promise.reject(new Error('offline: no mail')),
  state: async () => 'unknown',
  routes: () => [],
  counts: async () => ({}),
  close: async () => {},
};

async function connect(
  config: Config,
  options: ContextOptions,
  log: Logger,
  closers: Array<() => Promise<unknown>>,
  lifecycle: Lifecycle,
) {
  if (options.offline) {
    // pg connects on demand: a pool no query uses opens no connection.
    return { pool: createPool({ url: 'postgres://offline.invalid/none' }), redis: null };
  }
  let url = config.databaseUrl;
  if (!url) {
    const embedded = await openEmbeddedPostgres(config.dataDir, (m) => log.info(m));
    closers.unshift(() => embedded.stop());
    url = embedded.url;
  }
  const pool = createPool({
    url,
    ...config.database,
    onPoolError: poolErrorLog(log, lifecycle),
  });
  closers.unshift(() => pool.end());
  // TypeORM only runs the migrations, on a connection of its own closed once they ran: the API keeps one pool.
  if (options.migrate) await runMigrations({ url, ...config.database });
  let redis: Redis | null = null;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 5000, lazyConnect: true });
    closers.unshift(() => redis!.quit().catch(() => redis!.disconnect()));
    await redis.connect();
    // A hung Redis (accepting, not answering) fails a command after 1 s and PostgreSQL answers instead. Set only
    // once connected: the ready check's INFO reply can wait behind start-up work (schema compilation) on a busy
    // event loop, and a timeout there closes the connection and fails the start ("Connection is closed").
    redis.options.commandTimeout = 1000;
  } else {
    const warning = options.redisUnsetWarning === undefined ? SERVING_WITHOUT_REDIS : options.redisUnsetWarning;
    if (warning) log.warn(warning);
  }
  return { pool, redis };
}

/** PostgreSQL's code for "terminating connection due to administrator command": the server is shutting down. */
const ADMIN_SHUTDOWN = '57P01';
/** How long such an error waits for the stop signal that may have shut the server down too. */
const STOP_SIGNAL_GRACE_MS = 250;

/**
 * A connection the server ended while idle in the pool: a warning, unless the service itself is stopping. A Ctrl-C
 * in a terminal reaches the service and its embedded PostgreSQL together (one process group); the server, shutting
 * down at once, can end a connection before the service has handled the same signal, so a shutdown's error waits a
 * moment for it.
 */
function poolErrorLog(log: Logger, lifecycle: Lifecycle): (error: Error) => void {
  const report = (error: Error) =>
    lifecycle.draining
      ? log.debug?.({ error: error.message }, 'PostgreSQL ended a connection while the service stops')
      : log.warn({ error: error.message }, 'PostgreSQL connection lost; the pool opens another');
  return (error) => {
    if ((error as { code?: string }).code === ADMIN_SHUTDOWN && !lifecycle.draining)
      setTimeout(() => report(error), STOP_SIGNAL_GRACE_MS).unref();
    else report(error);
  };
}

/**
 * The outbox relay's log: a relay pass that fails while the service stops (the database it relays from may be
 * going down with it, as the embedded PostgreSQL does on a Ctrl-C) is not a warning. Its warning waits a moment for
 * the stop signal that may have caused it, as the pool's does.
 */
function quietWhileStopping(log: MailLogger, lifecycle: Lifecycle): MailLogger {
  return {
    ...log,
    warn: (fields, message) =>
      setTimeout(() => {
        if (!lifecycle.draining) log.warn(fields, message);
      }, STOP_SIGNAL_GRACE_MS).unref(),
  };
}

async function closeAll(closers: Array<() => Promise<unknown>>): Promise<void> {
  for (const close of closers.splice(0)) await close().catch(() => {});
}

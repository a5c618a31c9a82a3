import { createServer, type Server } from 'node:http';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { type Config, ConfigError, loadConfig } from './config';
import { deriveKeys } from './crypto/keys';
import { Sealer } from './crypto/sealed';
import { createPool } from './db/pool';
import { createAuditFeature } from './features/audit';
import { createWebhookDelivery, createWebhookRouting, startWebhookWorker } from './features/webhook';
import { DatabaseClock } from './infra/database-clock';
import { createLogger, logStartFailure, routeProcessOutput } from './infra/logger';
import { Metrics } from './infra/metrics';
import { checkEvictionPolicy } from './infra/redis-policy';
import type { MailJob } from './mail/jobs';
import { type MailLogger, recipientDomain } from './mail/log';
import { failureFields, isPermanentFailure, safeErrorMessage, sendMail } from './mail/processor';
import { bullConnection, bullPrefix, closeConnection, MAIL_QUEUE_NAME } from './mail/queue';
import { createTransport, describeTransport, type MailTransport } from './mail/transport';
import { Outbox } from './outbox/outbox';
import type { Clock } from './shared/clock';
import { sqlFor } from './shared/sql';

/** How long a stop waits for the mails being sent (Kubernetes' default grace period is 30 s). */
const CLOSE_TIMEOUT_MS = 25_000;

export interface MailWorker {
  /** Stops taking jobs, finishes the ones being sent, then closes the transport and the Redis connection. */
  close(): Promise<void>;
}

export interface StartWorkerOptions {
  /** Send through this transport (closed by its owner) instead of one built from the config. */
  transport?: MailTransport;
}

/**
 * The mail worker (docs/mail.md): drains the BullMQ `mail` queue, `mail.concurrency` mails at once. Any number of
 * workers may share the queue. BullMQ retries failed sends with exponential backoff; a job that can never be
 * sent fails at once. Logs never contain a job's link (it carries a token).
 */
export async function startWorker(
  config: Config,
  logger: MailLogger,
  options: StartWorkerOptions = {},
): Promise<MailWorker> {
  const transport = options.transport ?? createTransport(config, logger);
  const connection = bullConnection(config);
  const worker = new Worker<MailJob>(MAIL_QUEUE_NAME, (job) => processJob(job, transport, config), {
    connection,
    prefix: bullPrefix(config),
    concurrency: config.mail.concurrency,
  });
  worker.on('completed', (job) => logger.info(doneFields(job), 'mail sent'));
  worker.on('failed', (job, error) => {
    if (!job) return;
    const attempts = job.opts.attempts ?? 1;
    const fields = failureFields(job.data, error, job.attemptsMade, attempts, job.id);
    const final = job.attemptsMade >= attempts || error instanceof UnrecoverableError;
    if (final) logger.error(fields, 'mail send failed for good');
    else logger.warn(fields, 'mail send failed; will retry');
  });
  worker.on('error', (error) => logger.error({ error: safeErrorMessage(error, { url: '' }) }, 'mail worker error'));
  try {
    await worker.waitUntilReady();
  } catch (error) {
    await worker.close(true).catch(() => {});
    await closeConnection(connection);
    throw error;
  }
  await checkEvictionPolicy(connection, (fields, message) => logger.warn(fields, message));
  return {
    async close() {
      await worker.close();
      if (!options.transport) await transport.close();
      await closeConnection(connection);
    },
  };
}

export interface WebhookWorkerOptions {
  /** The clock deliveries are timed and endpoints' failing days counted by (default: the database's). */
  clock?: Clock;
  /** Counts each attempt (default: none; main() passes the registry it serves on WORKER_METRICS_PORT). */
  metrics?: Metrics;
}

/**
 * The webhook side of the worker (docs/webhooks.md): drains the BullMQ `webhooks` queue. Unlike mail it needs
 * PostgreSQL (DATABASE_URL): each attempt reads its endpoint as it is now and writes the delivery log, and an
 * endpoint failing for days is disabled there, with its audit event (whose own webhook messages the API instances
 * relay, as for any event).
 */
export async function startWebhooks(
  config: Config,
  logger: MailLogger,
  options: WebhookWorkerOptions = {},
): Promise<MailWorker> {
  const pool = createPool({
    url: config.databaseUrl!,
    ...config.database,
    onPoolError: (error) => logger.warn({ error: error.message }, 'PostgreSQL connection lost; the pool opens another'),
  });
  const sql = sqlFor(pool);
  const closers: Array<() => Promise<unknown>> = [() => pool.end()];
  const closeAll = async () => {
    for (const close of closers.splice(0)) await close().catch(() => {});
  };
  try {
    let clock = options.clock;
    if (!clock) {
      const dbClock = new DatabaseClock({
        connect: () => pool.connect(),
        intervalMs: config.clockSyncIntervalSec * 1000,
        log: logger,
      });
      closers.unshift(() => dbClock.stop());
      await dbClock.start();
      clock = dbClock;
    }
    // Writes only: the rows it adds are relayed by the API instances once their lease ends.
    const outbox = new Outbox(sql, {}, { ...config.outbox, takeoverMs: config.outbox.leaseMs }, logger);
    closers.unshift(() => outbox.close());
    // The worker's own events (an endpoint disabled for failing) reach the endpoints that want them like any other.
    const routing = createWebhookRouting({ sql, outbox, config });
    const audit = createAuditFeature({ sql, clock, config, followers: [routing.follow] });
    routing.start();
    closers.unshift(async () => routing.stop());
    const delivery = createWebhookDelivery({
      sql,
      sealer: new Sealer(deriveKeys(config, 'webhook-secrets')),
      clock,
      audit: audit.events,
      config: config.webhook,
      log: logger,
      production: config.env === 'production',
      observe: options.metrics ? (outcome, seconds) => options.metrics!.observeWebhook(outcome, seconds) : undefined,
    });
    const worker = await startWebhookWorker(config, delivery, logger);
    closers.unshift(() => worker.close());
    return { close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function processJob(job: Job<MailJob>, transport: MailTransport, config: Config): Promise<void> {
  try {
    await sendMail(job.data, transport, config);
  } catch (error) {
    if (!isPermanentFailure(error)) throw error;
    // BullMQ stores the reason in Redis: the safe message only, and no retries for what cannot succeed.
    const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
    throw Object.assign(new UnrecoverableError(safeErrorMessage(error, job.data)), { code, responseCode });
  }
}

function doneFields(job: Job<MailJob>) {
  return {
    kind: job.data.kind,
    recipientDomain: recipientDomain(job.data.to),
    jobId: job.id,
    attempt: job.attemptsMade,
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  // JSON lines with the API's redaction; synchronous, so a line logged just before process.exit is kept.
  const logger = createLogger(config, { base: { service: 'mail-worker' } });
  routeProcessOutput(logger);
  let stopping = false;
  let stop: () => Promise<void> = async () => {};
  const onSignal = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'mail worker: second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'mail worker stopping: finishing the mails being sent');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs: CLOSE_TIMEOUT_MS }, 'mail worker did not stop in time');
      process.exit(1);
    }, CLOSE_TIMEOUT_MS);
    stop().then(
      () => {
        clearTimeout(timer);
        logger.info({}, 'mail worker stopped');
        process.exit(0);
      },
      (error) => {
        logger.error({ error: (error as Error).message }, 'mail worker stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  if (!config.redisUrl) {
    // Nothing is queued in Redis: the API sends mail itself (in-process queue). Stay up so deployments can run us.
    logger.info({}, 'REDIS_URL is not set: the API sends mail in-process; this worker is idle');
    const idle = setInterval(() => {}, 1 << 30);
    stop = async () => clearInterval(idle);
    return;
  }
  const worker = await startWorker(config, logger);
  const metrics = new Metrics({ defaultMetrics: config.workerMetricsPort > 0 });
  const metricsServer = config.workerMetricsPort > 0 ? await serveMetrics(metrics, config.workerMetricsPort) : null;
  let webhooks: MailWorker | null = null;
  if (config.databaseUrl) webhooks = await startWebhooks(config, logger, { metrics });
  else
    logger.warn(
      {},
      'DATABASE_URL is not set: this worker delivers no webhooks (the API delivers them only without Redis)',
    );
  stop = async () => {
    metricsServer?.close();
    await worker.close();
    await webhooks?.close();
  };
  logger.info(
    {
      queue: MAIL_QUEUE_NAME,
      prefix: bullPrefix(config),
      concurrency: config.mail.concurrency,
      transport: describeTransport(config),
    },
    'mail worker started',
  );
}

/** GET /metrics on `port` (all interfaces, like the API's): the worker's registry in Prometheus text. */
async function serveMetrics(metrics: Metrics, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((done) => server.listen(port, done));
  return server;
}

if (require.main === module) {
  main().catch((error) => {
    logStartFailure(error, { base: { service: 'mail-worker' }, configError: error instanceof ConfigError });
    process.exit(1);
  });
}

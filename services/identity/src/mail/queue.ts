import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type JobsOptions, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import { withTimeout } from '../shared/with-timeout';
import { InProcessMailQueue } from './in-process-queue';
import type { MailJob, MailKind, MailQueue, MailState } from './jobs';
import type { MailLogger } from './log';
import { checkJob } from './processor';
import { createTransport, type MailTransport } from './transport';

/** The BullMQ queue the API fills and the workers (src/worker.ts) drain. */
export const MAIL_QUEUE_NAME = 'mail';

export type MailQueueConfig = Pick<Config, 'redisUrl' | 'redisPrefix' | 'smtpUrl' | 'mailFrom' | 'mail'>;

/** BullMQ's key prefix under REDIS_PREFIX, so two deployments (or test runs) sharing a Redis never mix jobs. */
export function bullPrefix(config: Pick<Config, 'redisPrefix'>): string {
  return `${config.redisPrefix}bull`;
}

/** The route (MailQueue.routes) of the BullMQ queue: every instance of a deployment shares it. */
export function redisRoute(config: Pick<Config, 'redisPrefix'>): string {
  return `redis:${bullPrefix(config)}`;
}

/** The route of the mail this process sends itself: host, process id and a random part (a restart is another). */
function processRoute(): string {
  return `process:${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * A stable job id for a mail carrying `secret` (a token), without revealing it: BullMQ keeps ids in Redis and
 * in logs. The same token gives the same id, so a double enqueue sends once. (No `:`: BullMQ refuses it.)
 */
export function idFor(kind: MailKind, secret: string): string {
  return `${kind}.${createHash('sha256').update(secret).digest('base64url')}`;
}

/**
 * A connection of BullMQ's own: workers and blocking commands need `maxRetriesPerRequest: null` (BullMQ
 * refuses others), which the API's client (1 retry) must not have.
 */
export function bullConnection(config: Pick<Config, 'redisUrl'>, fallback?: Redis | null): Redis {
  if (config.redisUrl) return new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  if (fallback) return fallback.duplicate({ maxRetriesPerRequest: null, lazyConnect: false });
  throw new Error('BullMQ needs REDIS_URL');
}

export interface MailQueueOptions {
  /** In-process queue only: send through this transport instead of one built from the config. */
  transport?: MailTransport;
  /** BullMQ only: how long enqueue waits for Redis before failing the caller (default 10 s). */
  enqueueTimeoutMs?: number;
  /** Mail this process sends itself: called when one is sent or given up on (the outbox marks its row done). */
  onSettled?: (id: string, state: 'sent' | 'failed') => void;
}

/**
 * With Redis (the API's client, passed only to say Redis is there: BullMQ gets its own connection): a BullMQ
 * producer, and the worker processes send. Without (null): the in-process queue, which sends from this process
 * through SMTP_URL or the dev outbox.
 */
export function createMailQueue(
  config: MailQueueConfig,
  redis: Redis | null,
  logger: MailLogger,
  options: MailQueueOptions = {},
): MailQueue {
  const local = { route: processRoute(), onSettled: options.onSettled };
  if (!redis) return inProcessMailQueue(config, logger, local, options.transport);
  const connection = bullConnection(config, redis);
  const bull = bullMailQueue(config, connection, logger, options.enqueueTimeoutMs ?? 10_000);
  let fallback: MailQueue | null = null;
  return {
    // Redis away: this process sends the mail itself rather than leaving it waiting (docs/operations.md faults).
    // The job id's dedupe then holds within this process only; the outbox hands a mail that this process did not
    // send (it died) to the queue again.
    async enqueue(id, job) {
      checkJob(job);
      if (connection.status === 'ready') {
        try {
          return await bull.enqueue(id, job);
        } catch (error) {
          logger.warn(
            { kind: job.kind, error: (error as Error).message },
            'mail queue unavailable: sending in-process',
          );
        }
      } else logger.warn({ kind: job.kind, redis: connection.status }, 'mail queue unavailable: sending in-process');
      fallback ??= inProcessMailQueue(config, logger, local, options.transport);
      return fallback.enqueue(id, job);
    },
    async state(id, route) {
      if (route === local.route) return fallback ? fallback.state(id, route) : 'unknown';
      return bull.state(id, route);
    },
    routes: () => [...bull.routes(), local.route],
    async counts() {
      const [remote, here] = await Promise.all([bull.counts(), fallback?.counts() ?? Promise.resolve({})]);
      const sum: Record<string, number> = { ...remote };
      for (const [state, n] of Object.entries(here as Record<string, number>)) sum[state] = (sum[state] ?? 0) + n;
      return sum;
    },
    async close() {
      await fallback?.close();
      await bull.close();
    },
  };
}

function inProcessMailQueue(
  config: MailQueueConfig,
  logger: MailLogger,
  options: { route: string; onSettled?: MailQueueOptions['onSettled'] },
  given?: MailTransport,
): MailQueue {
  const transport = given ?? createTransport(config, logger);
  const queue = new InProcessMailQueue(config, transport, logger, options);
  return {
    enqueue: (id, job) => queue.enqueue(id, job),
    state: (id) => queue.state(id),
    routes: () => queue.routes(),
    counts: () => queue.counts(),
    close: async () => {
      await queue.close();
      if (!given) await transport.close();
    },
  };
}

/** BullMQ's job states as the outbox reads them: done, given up, lost (flushed or evicted), or still to do. */
const BULL_STATES: Record<string, MailState> = { completed: 'sent', failed: 'failed', unknown: 'unknown' };

function bullMailQueue(config: MailQueueConfig, connection: Redis, logger: MailLogger, timeoutMs: number): MailQueue {
  const queue = new Queue<MailJob>(MAIL_QUEUE_NAME, { connection, prefix: bullPrefix(config) });
  queue.on('error', (error) => logger.warn({ error: error.message }, 'mail queue: Redis error'));
  const route = redisRoute(config);
  const jobOptions: JobsOptions = {
    attempts: config.mail.attempts,
    backoff: { type: 'exponential', delay: config.mail.backoffMs },
    // A completed id stays an hour (a repeat within it is dropped), a failed one a day for inspection. The outbox
    // asks about each job within a minute of its completion; an id removed before that would be sent again, so the
    // count bound (memory) keeps well over a minute of mail at 100 mails a second.
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86400 },
  };
  const ready = () => {
    if (connection.status !== 'ready') throw new Error('mail queue: Redis is not connected');
  };
  return {
    async enqueue(id, job) {
      checkJob(job); // fail in the caller, not in the worker, when a job can never be sent
      // BullMQ ignores an add whose jobId exists: the duplicate is not sent.
      const added = queue.add(job.kind, job, { ...jobOptions, jobId: id.replaceAll(':', '.') });
      // The connection waits out a Redis outage (maxRetriesPerRequest: null); a request must not wait with it.
      // If the add lands later, the mail is sent once all the same, and a retry by the caller is a duplicate.
      await withTimeout(added, timeoutMs, 'mail queue: Redis did not answer in time');
      return route;
    },
    async state(id) {
      ready();
      const state = await withTimeout(queue.getJobState(id.replaceAll(':', '.')), timeoutMs, 'no answer from Redis');
      return BULL_STATES[state] ?? 'queued';
    },
    routes: () => [route],
    async counts() {
      ready();
      return queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    },
    async close() {
      await queue.close();
      await closeConnection(connection);
    },
  };
}

/** QUIT when connected; a client still trying to reach Redis would queue QUIT forever, so disconnect it. */
export async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
  else connection.disconnect();
}

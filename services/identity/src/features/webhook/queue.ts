import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../config';
import { bullConnection, bullPrefix, closeConnection } from '../../mail/queue';
import type { OutboxHandler, WorkState } from '../../outbox/outbox';
import { withTimeout } from '../../shared/with-timeout';
import type { DeliveryLogger, WebhookDelivery } from './delivery';
import { InProcessWebhookQueue } from './in-process-queue';
import type { WebhookJob } from './message';
import type { WebhookQueue } from './types';

export type { WebhookQueue } from './types';

/** The BullMQ queue the API fills (through the outbox) and the workers drain. */
export const WEBHOOK_QUEUE_NAME = 'webhooks';

type QueueConfig = Pick<Config, 'redisUrl' | 'redisPrefix' | 'webhook'>;

/** BullMQ job ids may not hold `:`. */
const jobId = (key: string) => key.replaceAll(':', '.');

/** BullMQ's states as the outbox reads them. */
const BULL_STATES: Record<string, WorkState> = { completed: 'sent', failed: 'failed', unknown: 'unknown' };

/**
 * With Redis: a BullMQ producer (the workers deliver, src/worker.ts). Without: the API's own queue. Unlike mail,
 * a webhook is not delivered in-process when a configured Redis is away: the outbox keeps the row and hands it over
 * again with backoff (nobody waits for a webhook, and one delivery path keeps the retry schedule in one place).
 */
export function createWebhookQueue(
  config: QueueConfig,
  redis: Redis | null,
  delivery: WebhookDelivery,
  log: DeliveryLogger,
  onSettled?: (key: string, state: 'sent' | 'failed') => void,
): WebhookQueue {
  if (!redis)
    return new InProcessWebhookQueue(
      delivery,
      {
        route: `process:${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}:webhooks`,
        scheduleMs: config.webhook.retryScheduleMs,
        concurrency: config.webhook.concurrency,
        onSettled,
      },
      log,
    );
  return bullWebhookQueue(config, bullConnection(config, redis), log);
}

function bullWebhookQueue(config: QueueConfig, connection: Redis, log: DeliveryLogger): WebhookQueue {
  const queue = new Queue<WebhookJob>(WEBHOOK_QUEUE_NAME, { connection, prefix: bullPrefix(config) });
  queue.on('error', (error) => log.warn({ error: error.message }, 'webhook queue: Redis error'));
  const route = `redis:${bullPrefix(config)}:${WEBHOOK_QUEUE_NAME}`;
  const ready = () => {
    if (connection.status !== 'ready') throw new Error('webhook queue: Redis is not connected');
  };
  return {
    async enqueue(key, job) {
      ready();
      const added = queue.add(job.type, job, {
        jobId: jobId(key),
        attempts: config.webhook.retryScheduleMs.length + 1,
        backoff: { type: 'schedule' },
        // The outbox asks within minutes of the end; a day of completed ids keeps a second hand-over a no-op.
        removeOnComplete: { age: 86_400, count: 100_000 },
        removeOnFail: { age: 7 * 86_400 },
      });
      await withTimeout(added, 10_000, 'webhook queue: Redis did not answer in time');
      return route;
    },
    async state(key) {
      ready();
      const state = await withTimeout(queue.getJobState(jobId(key)), 10_000, 'no answer from Redis');
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

/**
 * The relay's side: outbox rows of the webhook topic go to the webhook queue. A message can be retried for a day
 * and more, so its row is asked about less often than mail's, and expires only after the whole schedule.
 */
export function webhookHandler(queue: WebhookQueue, config: Pick<Config, 'webhook' | 'outbox'>): OutboxHandler {
  const scheduleMs = config.webhook.retryScheduleMs.reduce((a, b) => a + b, 0);
  const attemptsMs = (config.webhook.retryScheduleMs.length + 1) * config.webhook.timeoutMs;
  return {
    deliver: (key, payload) => queue.enqueue(key, payload as WebhookJob),
    state: (key, route) => queue.state(key, route),
    routes: () => queue.routes(),
    retentionSec: Math.max(config.outbox.retentionSec, Math.ceil((scheduleMs + attemptsMs) / 1000) + 3600),
    maxCheckMs: 5 * 60_000,
  };
}

export interface WebhookWorker {
  close(): Promise<void>;
}

/**
 * The BullMQ side (src/worker.ts): drains the `webhooks` queue, `concurrency` at once. A failed attempt throws, and
 * BullMQ retries it after the schedule's next wait (`backoffStrategy`); a message that cannot be delivered any more
 * (endpoint deleted or disabled) completes without retries.
 */
export async function startWebhookWorker(
  config: QueueConfig,
  delivery: WebhookDelivery,
  log: DeliveryLogger,
): Promise<WebhookWorker> {
  const connection = bullConnection(config);
  const schedule = config.webhook.retryScheduleMs;
  const worker = new Worker<WebhookJob>(
    WEBHOOK_QUEUE_NAME,
    async (job: Job<WebhookJob>) => {
      const outcome = await delivery.attempt(job.data, job.attemptsMade + 1);
      if (outcome === 'failed') {
        if (job.attemptsMade + 1 >= schedule.length + 1) throw new UnrecoverableError('delivery failed');
        throw new Error('delivery failed');
      }
    },
    {
      connection,
      prefix: bullPrefix(config),
      concurrency: config.webhook.concurrency,
      settings: {
        backoffStrategy: (attemptsMade: number) => schedule[Math.min(attemptsMade, schedule.length) - 1] ?? 0,
      },
    },
  );
  worker.on('failed', (job, error) => {
    if (job && (error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1)))
      log.error({ key: job.id, attempts: job.attemptsMade }, 'webhook: delivery given up after its retries');
  });
  worker.on('error', (error) => log.error({ error: error.message }, 'webhook worker error'));
  try {
    await worker.waitUntilReady();
  } catch (error) {
    await worker.close(true).catch(() => {});
    await closeConnection(connection);
    throw error;
  }
  return {
    async close() {
      await worker.close();
      await closeConnection(connection);
    },
  };
}

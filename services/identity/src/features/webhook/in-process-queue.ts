import type { WorkState } from '../../outbox/outbox';
import type { DeliveryLogger, WebhookDelivery } from './delivery';
import type { WebhookJob } from './message';
import type { WebhookQueue } from './types';

interface Entry {
  key: string;
  job: WebhookJob;
  attempt: number;
}

export interface InProcessWebhookOptions {
  /** This queue's route (`process:<instance>`). */
  route: string;
  /** The waits before each retry (WEBHOOK_RETRY_SCHEDULE_MS). */
  scheduleMs: readonly number[];
  concurrency: number;
  /** A message delivered, dropped or given up: the outbox marks its row done at once. */
  onSettled?: (key: string, state: 'sent' | 'failed') => void;
  /** How long a key is remembered to drop a second hand-over of it. */
  dedupeMs?: number;
}

/**
 * Without Redis the API delivers webhooks itself, with the worker's semantics: `concurrency` at once, each failed
 * attempt retried after the schedule's next wait, the same message (and `webhook-id`) every time, a key handed over
 * twice delivered once. Retries waiting when the process stops are lost with it; their outbox rows are not done, so
 * the relay hands them over again (to this process's successor) once the take-over delay has passed.
 */
export class InProcessWebhookQueue implements WebhookQueue {
  private readonly seen = new Map<string, { until: number; state: WorkState }>();
  private readonly ready: Entry[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly idle = new Set<() => void>();
  private active = 0;
  private closed = false;

  constructor(
    private readonly delivery: WebhookDelivery,
    private readonly options: InProcessWebhookOptions,
    private readonly log: DeliveryLogger,
  ) {}

  async enqueue(key: string, job: WebhookJob): Promise<string> {
    if (this.closed) throw new Error('the webhook queue is closed');
    const now = Date.now();
    for (const [k, { until }] of this.seen) {
      if (until > now) break;
      this.seen.delete(k);
    }
    if (this.seen.has(key)) return this.options.route;
    this.seen.set(key, { until: now + (this.options.dedupeMs ?? 3 * 86_400_000), state: 'queued' });
    this.ready.push({ key, job, attempt: 1 });
    this.pump();
    return this.options.route;
  }

  async state(key: string): Promise<WorkState> {
    return this.seen.get(key)?.state ?? 'unknown';
  }

  routes(): string[] {
    return [this.options.route];
  }

  async counts(): Promise<Record<string, number>> {
    return { waiting: this.ready.length, active: this.active, delayed: this.timers.size };
  }

  /** Stops: retries waiting are dropped (their rows stay pending), attempts under way are awaited. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.ready.length = 0;
    if (this.active > 0) await new Promise<void>((done) => this.idle.add(done));
  }

  private pump(): void {
    while (!this.closed && this.active < this.options.concurrency && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      this.active++;
      void this.run(entry).finally(() => {
        this.active--;
        this.pump();
        if (this.active === 0) for (const wake of this.idle) wake();
      });
    }
  }

  private async run(entry: Entry): Promise<void> {
    let outcome: string;
    try {
      outcome = await this.delivery.attempt(entry.job, entry.attempt);
    } catch (error) {
      // The log or the endpoint could not be read (PostgreSQL away): an attempt like any failed one.
      this.log.warn({ key: entry.key, error: (error as Error).message }, 'webhook: attempt could not run');
      outcome = 'failed';
    }
    if (outcome !== 'failed') return this.settle(entry.key, 'sent');
    const wait = this.options.scheduleMs[entry.attempt - 1];
    if (wait === undefined) {
      this.log.error({ key: entry.key, attempts: entry.attempt }, 'webhook: delivery given up after its retries');
      return this.settle(entry.key, 'failed');
    }
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.ready.push({ ...entry, attempt: entry.attempt + 1 });
      this.pump();
    }, wait);
    this.timers.add(timer);
  }

  private settle(key: string, state: 'sent' | 'failed'): void {
    const entry = this.seen.get(key);
    if (entry) entry.state = state;
    this.options.onSettled?.(key, state);
  }
}

import type { Config } from '../config';
import type { MailJob, MailQueue, MailState } from './jobs';
import { type MailLogger, recipientDomain } from './log';
import { checkJob, failureFields, isPermanentFailure, sendMail } from './processor';
import type { MailTransport } from './transport';

interface Entry {
  id: string;
  job: MailJob;
  attempt: number;
}

export interface InProcessOptions {
  /** How long an id is remembered to drop duplicates (BullMQ keeps failed jobs a day: the same here). */
  dedupeMs?: number;
  /** Ids remembered at most; the oldest is forgotten first. */
  dedupeLimit?: number;
  /** How long close() waits for mail being sent. */
  closeTimeoutMs?: number;
  /** This queue's route (`process:<instance>`, see MailQueue.routes). */
  route?: string;
  /** Called when a mail is sent, or given up on for good: the outbox marks its row done at once. */
  onSettled?: (id: string, state: 'sent' | 'failed') => void;
}

/**
 * Without Redis (the embedded default, one instance) the API sends mail itself, in the background, with the
 * worker's semantics: `mail.attempts` tries with exponential backoff from `mail.backoffMs`, `mail.concurrency`
 * at once, and a job id enqueued twice sends once. Jobs waiting for a retry are dropped if the process stops;
 * the outbox row of such a mail is not done, so another process sends it again (src/outbox).
 */
export class InProcessMailQueue implements MailQueue {
  /** Job ids remembered (dedupe) until `until`, with what became of them. */
  private readonly seen = new Map<string, { until: number; state: MailState }>();
  private readonly ready: Entry[] = [];
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly idleWaiters = new Set<() => void>();
  private active = 0;
  /** Mails given up on since start (metrics). */
  private failed = 0;
  private closed = false;

  constructor(
    private readonly config: Pick<Config, 'mailFrom' | 'mail'>,
    private readonly transport: MailTransport,
    private readonly logger: MailLogger,
    private readonly options: InProcessOptions = {},
  ) {}

  get route(): string {
    return this.options.route ?? 'process:local';
  }

  async enqueue(id: string, job: MailJob): Promise<string> {
    if (this.closed) throw new Error('the mail queue is closed');
    checkJob(job); // a job that can never be sent is the caller's bug: say so now, not in a log later
    const now = Date.now();
    for (const [key, { until }] of this.seen) {
      if (until > now && this.seen.size < (this.options.dedupeLimit ?? 10_000)) break;
      this.seen.delete(key); // insertion order = expiry order: drop from the oldest end
    }
    if (this.seen.has(id)) return this.route;
    this.seen.set(id, { until: now + (this.options.dedupeMs ?? 24 * 3600_000), state: 'queued' });
    this.ready.push({ id, job, attempt: 1 });
    this.pump();
    return this.route;
  }

  async state(id: string): Promise<MailState> {
    return this.seen.get(id)?.state ?? 'unknown';
  }

  routes(): string[] {
    return [this.route];
  }

  async counts(): Promise<Record<string, number>> {
    return { waiting: this.ready.length, active: this.active, delayed: this.retries.size, failed: this.failed };
  }

  async close(): Promise<void> {
    this.closed = true;
    const dropped = this.retries.size;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    if (dropped) this.logger.warn({ dropped }, 'mail queue closed: mails waiting for a retry are dropped');
    if (this.active > 0 || this.ready.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      let done: () => void = () => {};
      const idle = new Promise<void>((resolve) => {
        done = resolve;
        this.idleWaiters.add(done);
      });
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.closeTimeoutMs ?? 10_000);
      });
      await Promise.race([idle, limit]);
      clearTimeout(timer);
      this.idleWaiters.delete(done);
      if (this.active > 0 || this.ready.length > 0)
        this.logger.warn(
          { active: this.active, queued: this.ready.length },
          'mail queue closed before all mail was sent',
        );
    }
  }

  private pump(): void {
    while (this.active < this.config.mail.concurrency && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      this.active++;
      void this.attempt(entry).finally(() => {
        this.active--;
        this.pump();
        if (this.active === 0 && this.ready.length === 0) for (const wake of this.idleWaiters) wake();
      });
    }
  }

  private async attempt(entry: Entry): Promise<void> {
    const { id, job, attempt } = entry;
    const attempts = this.config.mail.attempts;
    try {
      await sendMail(job, this.transport, this.config);
      this.logger.info({ kind: job.kind, recipientDomain: recipientDomain(job.to), jobId: id, attempt }, 'mail sent');
      this.settle(id, 'sent');
    } catch (error) {
      const final = attempt >= attempts || isPermanentFailure(error);
      const fields = failureFields(job, error, attempt, attempts, id);
      if (final) {
        this.failed++;
        this.settle(id, 'failed');
        return this.logger.error(fields, 'mail send failed for good');
      }
      if (this.closed) return this.logger.error(fields, 'mail send failed; the queue is closed: no retry');
      this.logger.warn(fields, 'mail send failed; will retry');
      // BullMQ's exponential backoff: backoffMs × 2^(attempt − 1).
      const timer = setTimeout(
        () => {
          this.retries.delete(timer);
          this.ready.push({ id, job, attempt: attempt + 1 });
          this.pump();
        },
        this.config.mail.backoffMs * 2 ** (attempt - 1),
      );
      this.retries.add(timer);
    }
  }

  private settle(id: string, state: 'sent' | 'failed'): void {
    const entry = this.seen.get(id);
    if (entry) entry.state = state;
    this.options.onSettled?.(id, state);
  }
}

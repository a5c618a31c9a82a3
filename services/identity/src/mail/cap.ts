import { createHash } from 'node:crypto';
import { withTimeout } from '../shared/with-timeout';
import { type KeyValueStore, MemoryStore } from '../store';
import type { MailJob } from './jobs';

const WINDOW_SEC = 3600;
/** How long a mail waits for the shared store to count it before it is counted in this process instead. */
const STORE_TIMEOUT_MS = 250;
/** Addresses this process remembers while the shared store is away. */
const LOCAL_CAPACITY = 50_000;

/**
 * A rate limit on mail (docs/security.md, mail flooding): at most `maxPerHour` mails of one kind to one
 * address per hour, whoever asks and from whichever client addresses. Every mail the API sends is written to the
 * outbox through it (reset, verification, change of email, deletion, invitation: src/mail/mail-outbox.ts), so the
 * cap holds for all of them. A mail past the cap is not written, without a trace in the answer: the caller answers
 * exactly as when it is written, so the cap tells nothing about the address.
 *
 * Counted with one atomic INCR in the shared store (Redis across instances, or in process without it). When the
 * store fails or hangs, the count goes on in this process, as the rate limits do (infra/rate-limit-store.ts): the
 * request is never held or refused for it, and the outage is logged once until the store answers again.
 */
export class MailCap {
  private readonly local: MemoryStore;
  private storeFailing = false;

  constructor(
    private readonly store: KeyValueStore,
    private readonly maxPerHour: number,
    now: () => number,
    private readonly warn: (message: string) => void,
  ) {
    this.local = new MemoryStore(now, LOCAL_CAPACITY);
  }

  /** Counts `job` against its address and kind; false when it is past the cap (and so must not be sent). */
  async allow(job: MailJob): Promise<boolean> {
    if (this.maxPerHour > 0 && (await this.count(job)) > this.maxPerHour) {
      // The kind only: the address and the link stay out of the logs.
      this.warn(`mail cap: a ${job.kind} mail was not sent (${this.maxPerHour} to that address this hour)`);
      return false;
    }
    return true;
  }

  private async count(job: MailJob): Promise<number> {
    const address = createHash('sha256').update(job.to.trim().toLowerCase()).digest('base64url');
    const key = `mail-cap:${job.kind}:${address}`;
    try {
      const count = await withTimeout(this.store.incr(key, WINDOW_SEC), STORE_TIMEOUT_MS, 'no answer');
      this.storeFailing = false;
      return count;
    } catch (error) {
      if (!this.storeFailing)
        this.warn(`mail cap: the store is unavailable (${(error as Error).message}); counting in this process`);
      this.storeFailing = true;
      return this.local.incr(key, WINDOW_SEC);
    }
  }
}

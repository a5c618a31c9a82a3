import type { Outbox, OutboxHandler } from '../outbox/outbox';
import { Undeliverable } from '../outbox/outbox';
import type { Sql } from '../shared/sql';
import type { MailCap } from './cap';
import type { MailJob, MailQueue } from './jobs';
import { checkJob } from './processor';
import { MailRenderError } from './render';

/** The outbox topic of mail. */
export const MAIL_TOPIC = 'mail';

/**
 * How the API sends mail: it writes the job to the outbox in the transaction of the token or invitation it
 * carries (docs/decisions/0003-transactional-outbox.md), and the outbox hands it to the mail queue once that
 * commits. A mail past the per-address cap is not written (decided here, at write time: the caller answers the
 * same either way).
 */
export class MailOutbox {
  constructor(
    private readonly outbox: Pick<Outbox, 'add'>,
    private readonly cap: MailCap,
  ) {}

  /**
   * Writes mail `id` (a stable job id, `idFor`) in `tx`, the transaction of what the mail carries (without one,
   * by itself). A job that can never be sent throws here, in the caller, not later in a log.
   */
  async write(id: string, job: MailJob, tx?: Sql): Promise<void> {
    checkJob(job);
    if (!(await this.cap.allow(job))) return;
    await this.outbox.add(MAIL_TOPIC, id, job, tx);
  }
}

/** The relay's side of mail: outbox rows go to the mail queue (BullMQ, or this process), which reports on them. */
export function mailHandler(queue: MailQueue): OutboxHandler {
  return {
    async deliver(key, payload) {
      try {
        return await queue.enqueue(key, payload as MailJob);
      } catch (error) {
        if (error instanceof MailRenderError) throw new Undeliverable(error.message);
        throw error;
      }
    },
    state: (key, route) => queue.state(key, route),
    routes: () => queue.routes(),
  };
}

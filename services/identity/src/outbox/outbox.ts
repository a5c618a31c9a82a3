import type { Sql } from '../shared/sql';
import { type ClaimedRow, OutboxRepository, type PendingCount } from './repository';

/** Where a handler's queue says a piece of work stands (a mail: MailState). */
export type WorkState = 'queued' | 'sent' | 'failed' | 'unknown';

/** What relays one topic's rows: hands the work to its queue, and asks the queue what became of it. */
export interface OutboxHandler {
  /** Hands the work over; resolves with where it went (one of `routes()`). Same key, same work: sent once. */
  deliver(key: string, payload: unknown): Promise<string>;
  /** What became of work `key` handed over to `route`; `unknown` hands it over again. Throws: cannot tell now. */
  state(key: string, route: string): Promise<WorkState>;
  /** The routes this process's queues answer `state` for. */
  routes(): string[];
  /** Rows of this topic no queue confirmed this long after writing expire (default: the outbox's retentionSec). */
  retentionSec?: number;
  /** The longest wait between two questions about a row of this topic (default a minute). */
  maxCheckMs?: number;
}

/** Thrown by `deliver` for work that can never be done (a mail that cannot render): the row ends `failed`. */
export class Undeliverable extends Error {}

export interface OutboxOptions {
  /** How often this process looks for due rows (to relay, to check, to take over). */
  pollMs: number;
  /** How long a row written or claimed by this process is left to it before another process may take it. */
  leaseMs: number;
  /** Done rows are deleted this long after; rows no queue confirmed this long after writing expire. */
  retentionSec: number;
  /** A row handed to another process's own queue is taken over when that process has not confirmed it this long. */
  takeoverMs: number;
}

export interface OutboxLogger {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The longest a row waits between two looks: a queue that lost it, or came back, is noticed within it. */
const MAX_WAIT_MS = 60_000;
/** Rows one pass claims. */
const BATCH = 100;
/** How often expired rows are given up and old done rows deleted. */
const MAINTENANCE_MS = 60_000;

/**
 * The transactional outbox (docs/decisions/0003-transactional-outbox.md): the service's one way to do something
 * after a commit. `add` writes the work in the caller's transaction; the relay hands it to its topic's queue right
 * after that commit, and then asks the queue about it until the queue reports it done. Work the queue loses (Redis
 * flushed, a process killed before or after the hand-over) is handed over again: a loss only delays it, and the
 * work's own key makes a second hand-over harmless.
 *
 * Runs in every API instance (the writers). Several instances share the rows through `FOR UPDATE SKIP LOCKED`
 * claims with a lease; each polls every `pollMs` for rows due: ones whose writer died before relaying them (after
 * the lease), hand-overs that failed (with backoff), and rows waiting for their queue's answer.
 */
export class Outbox {
  private readonly repo: OutboxRepository;
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private passing = false;
  private closed = false;
  private lastMaintenance = 0;

  constructor(
    private readonly sql: Sql,
    private readonly handlers: Record<string, OutboxHandler>,
    private readonly options: OutboxOptions,
    private readonly log: OutboxLogger,
    private readonly onRelayed: (topic: string, again: boolean) => void = () => {},
  ) {
    this.repo = new OutboxRepository(sql);
  }

  /**
   * Writes work for `topic` in `tx` (the transaction whose commit it must follow; without one, by itself), and
   * relays it once that commits. False when work with this key was written before (within the
   * retention period): it is not written or done twice.
   */
  async add(topic: string, key: string, payload: unknown, tx: Sql = this.sql): Promise<boolean> {
    const id = await this.repo.insert(tx, topic, key, payload, this.options.leaseMs);
    if (id) tx.afterCommit(() => this.kick([id]));
    return id !== null;
  }

  /** Relays `topic` with `handler` from now on (a feature built after the outbox: webhooks). */
  register(topic: string, handler: OutboxHandler): void {
    this.handlers[topic] = handler;
  }

  /** Polls every `pollMs` from now on (the API's entry point and the test app start it). */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.track(this.pass()), this.options.pollMs);
    this.timer.unref();
  }

  /** Relays rows `ids` now (just committed by this process). */
  kick(ids: string[]): void {
    if (!this.closed) this.track(this.relayIds(ids));
  }

  /** A queue in this process reports work done: its row is done at once, without waiting for the next check. */
  confirm(topic: string, key: string, state: 'sent' | 'failed'): void {
    this.track(this.repo.doneByKey(topic, key, state));
  }

  /** One pass over the rows due (and, every minute, the expiry and pruning of old rows). */
  async pass(): Promise<void> {
    if (this.passing || this.closed) return;
    this.passing = true;
    try {
      const routes = [...new Set(Object.values(this.handlers).flatMap((h) => h.routes()))];
      const { takeoverMs, leaseMs } = this.options;
      const rows = await this.repo.claimDue(routes, takeoverMs, leaseMs, BATCH);
      await Promise.all(rows.map((row) => this.process(row)));
      if (Date.now() - this.lastMaintenance >= MAINTENANCE_MS) {
        this.lastMaintenance = Date.now();
        await this.maintain();
      }
    } finally {
      this.passing = false;
    }
  }

  /** Rows not done, for the gauges. */
  pending(): Promise<PendingCount[]> {
    return this.repo.pending();
  }

  /** Stops polling and relaying, and waits for the work under way (call before closing the queues). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.settle();
  }

  /** Waits for the writes under way, confirmations included (call after closing the queues, before the pool). */
  async settle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  private track(work: Promise<unknown>): void {
    const task: Promise<void> = work
      .then(() => undefined)
      .catch((error) => this.log.warn({ error: (error as Error).message }, 'outbox: relay pass failed'))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  private async relayIds(ids: string[]): Promise<void> {
    const rows = await this.repo.claimIds(ids, this.options.leaseMs);
    await Promise.all(rows.map((row) => this.process(row)));
  }

  private async process(row: ClaimedRow): Promise<void> {
    const handler = this.handlers[row.topic];
    if (!handler) return this.repo.later(row.id, this.options.leaseMs); // a topic another version relays
    if (row.relayedTo && handler.routes().includes(row.relayedTo)) {
      let state: WorkState;
      try {
        state = await handler.state(row.dedupeKey, row.relayedTo);
      } catch {
        return this.repo.later(row.id, this.wait(row, handler)); // its queue is away: ask again later
      }
      if (state === 'sent' || state === 'failed') return this.repo.done(row.id, state);
      if (state === 'queued') return this.repo.later(row.id, this.wait(row, handler));
    }
    await this.deliver(row, handler);
  }

  private async deliver(row: ClaimedRow, handler: OutboxHandler): Promise<void> {
    const again = row.relayedTo !== null;
    const fields = { topic: row.topic, key: row.dedupeKey, attempts: row.attempts + 1 };
    let route: string;
    try {
      route = await handler.deliver(row.dedupeKey, row.payload);
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof Undeliverable) {
        this.log.error({ ...fields, error: message }, 'outbox: work can never be done; given up');
        return this.repo.done(row.id, 'failed');
      }
      this.log.warn({ ...fields, error: message }, 'outbox: hand-over failed; will retry');
      return this.repo.failed(row.id, message, Math.min(this.options.pollMs * 2 ** row.attempts, MAX_WAIT_MS));
    }
    await this.repo.relayed(row.id, route, this.wait(row, handler));
    this.onRelayed(row.topic, again);
    if (again) this.log.warn({ ...fields, route }, 'outbox: handed over again (its queue had lost it)');
  }

  /**
   * Next look at a row: as long as it is old, between one poll and a minute, or the topic's own longest wait (a fresh
   * row is asked about soon).
   */
  private wait(row: ClaimedRow, handler?: OutboxHandler): number {
    return Math.min(Math.max(row.ageMs, this.options.pollMs), handler?.maxCheckMs ?? MAX_WAIT_MS);
  }

  private async maintain(): Promise<void> {
    const longer: Record<string, number> = {};
    for (const [topic, handler] of Object.entries(this.handlers))
      if (handler.retentionSec !== undefined) longer[topic] = handler.retentionSec;
    const expired = await this.repo.expire(this.options.retentionSec, 1000, longer);
    for (const { topic, dedupeKey } of expired)
      this.log.error(
        { topic, key: dedupeKey, retentionSec: this.options.retentionSec },
        'outbox: no queue confirmed this work within the retention period; given up',
      );
    await this.repo.prune(this.options.retentionSec);
  }
}

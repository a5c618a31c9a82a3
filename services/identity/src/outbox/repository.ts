import { newId } from '../crypto/random';
import type { Sql } from '../shared/sql';

/** A row a relay has claimed: what it needs to hand it over or to ask its queue about it. */
export interface ClaimedRow {
  id: string;
  topic: string;
  dedupeKey: string;
  payload: unknown;
  /** Null until the first hand-over. */
  relayedTo: string | null;
  attempts: number;
  /** Since the row was written (PostgreSQL's clock). */
  ageMs: number;
}

/** A row not done long after it was written (`stuckOutboxRows`): no payload, which may hold a link. */
export interface StuckRow {
  id: string;
  topic: string;
  dedupeKey: string;
  createdAt: Date;
  attempts: number;
  relayedAt: Date | null;
  relayedTo: string | null;
  lastError: string | null;
}

export interface PendingCount {
  topic: string;
  /** Handed over at least once (waiting for its queue to confirm), or never. */
  relayed: boolean;
  count: number;
  oldestSec: number;
}

const ms = (n: number) => Math.max(0, Math.round(n));

const RETURNING = `RETURNING o.id, o.topic, o.dedupe_key, o.payload, o.relayed_to, o.attempts,
  extract(epoch FROM now() - o.created_at) * 1000 AS age_ms`;

interface RawRow {
  id: string;
  topic: string;
  dedupe_key: string;
  payload: unknown;
  relayed_to: string | null;
  attempts: number;
  age_ms: string | number;
}

const claimed = (rows: RawRow[]): ClaimedRow[] =>
  rows.map((r) => ({
    id: r.id,
    topic: r.topic,
    dedupeKey: r.dedupe_key,
    payload: r.payload,
    relayedTo: r.relayed_to,
    attempts: r.attempts,
    ageMs: Number(r.age_ms),
  }));

/**
 * The outbox table (docs/decisions/0003-transactional-outbox.md). Every time is PostgreSQL's `now()`, so that
 * instances with skewed clocks agree on leases. Claims lock with `FOR UPDATE SKIP LOCKED` and push `available_at`
 * a lease ahead: several API instances share the rows without waiting on each other, and a row claimed by an
 * instance that dies is claimable again when the lease ends.
 */
export class OutboxRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Writes a row in `sql` (the caller's transaction), leased to the writer: it relays the row itself right after
   * its commit, and others take it only when the lease ends. Null when a row with the same key exists.
   */
  async insert(sql: Sql, topic: string, dedupeKey: string, payload: unknown, leaseMs: number): Promise<string | null> {
    const rows = await sql.query<{ id: string }>(
      `INSERT INTO outbox (id, topic, dedupe_key, payload, available_at)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
       ON CONFLICT (topic, dedupe_key) DO NOTHING RETURNING id`,
      [newId(), topic, dedupeKey, JSON.stringify(payload), ms(leaseMs)],
    );
    return rows[0]?.id ?? null;
  }

  /** The rows `ids`, if not yet handed over and not claimed by another relay: the writer's own, after its commit. */
  async claimIds(ids: string[], leaseMs: number): Promise<ClaimedRow[]> {
    const rows = await this.sql.query<RawRow>(
      `WITH mine AS (
         SELECT id FROM outbox WHERE id = ANY($1::uuid[]) AND done_at IS NULL AND relayed_at IS NULL
         FOR UPDATE SKIP LOCKED)
       UPDATE outbox o SET available_at = now() + $2 * interval '1 millisecond' FROM mine WHERE o.id = mine.id
       ${RETURNING}`,
      [ids, ms(leaseMs)],
    );
    return claimed(rows);
  }

  /**
   * Up to `limit` rows due (`available_at` passed) that this relay may act on: never handed over, handed to one of
   * `routes` (its queues), or handed to another process's in-process queue more than `takeoverMs` ago (that
   * process may be gone, and its queue with it). Rows handed to another deployment's queue are left alone.
   */
  async claimDue(routes: string[], takeoverMs: number, leaseMs: number, limit: number): Promise<ClaimedRow[]> {
    const rows = await this.sql.query<RawRow>(
      `WITH due AS (
         SELECT id FROM outbox
          WHERE done_at IS NULL AND available_at <= now()
            AND (relayed_to IS NULL OR relayed_to = ANY($1::text[])
                 OR (relayed_to LIKE 'process:%' AND relayed_at <= now() - $2 * interval '1 millisecond'))
          ORDER BY available_at LIMIT $4
          FOR UPDATE SKIP LOCKED)
       UPDATE outbox o SET available_at = now() + $3 * interval '1 millisecond' FROM due WHERE o.id = due.id
       ${RETURNING}`,
      [routes, ms(takeoverMs), ms(leaseMs), limit],
    );
    return claimed(rows);
  }

  /** Handed over to `route`; its queue is asked about it in `checkMs`. */
  async relayed(id: string, route: string, checkMs: number): Promise<void> {
    await this.sql.query(
      `UPDATE outbox SET relayed_at = now(), relayed_to = $2, attempts = attempts + 1, last_error = NULL,
         available_at = now() + $3 * interval '1 millisecond' WHERE id = $1`,
      [id, route, ms(checkMs)],
    );
  }

  /** The hand-over failed: tried again in `retryMs`. */
  async failed(id: string, error: string, retryMs: number): Promise<void> {
    await this.sql.query(
      `UPDATE outbox SET attempts = attempts + 1, last_error = $2,
         available_at = now() + $3 * interval '1 millisecond' WHERE id = $1`,
      [id, error.slice(0, 500), ms(retryMs)],
    );
  }

  /** Still queued (or its queue could not tell): asked again in `checkMs`. */
  async later(id: string, checkMs: number): Promise<void> {
    await this.sql.query(`UPDATE outbox SET available_at = now() + $2 * interval '1 millisecond' WHERE id = $1`, [
      id,
      ms(checkMs),
    ]);
  }

  async done(id: string, outcome: 'sent' | 'failed'): Promise<void> {
    await this.sql.query('UPDATE outbox SET done_at = now(), outcome = $2 WHERE id = $1 AND done_at IS NULL', [
      id,
      outcome,
    ]);
  }

  /** Done, found by its key: a queue in this process reports a mail sent or given up on. */
  async doneByKey(topic: string, dedupeKey: string, outcome: 'sent' | 'failed'): Promise<void> {
    await this.sql.query(
      'UPDATE outbox SET done_at = now(), outcome = $3 WHERE topic = $1 AND dedupe_key = $2 AND done_at IS NULL',
      [topic, dedupeKey, outcome],
    );
  }

  /**
   * Rows no queue confirmed within `retentionSec` of their writing (or their topic's own time, `byTopic`) are given
   * up (`expired`); returns them.
   */
  async expire(
    retentionSec: number,
    limit = 1000,
    byTopic: Record<string, number> = {},
  ): Promise<Array<{ topic: string; dedupeKey: string }>> {
    const rows = await this.sql.query<{ topic: string; dedupe_key: string }>(
      `WITH old AS (
         SELECT id FROM outbox WHERE done_at IS NULL AND created_at < now() - $1 * interval '1 second'
            AND created_at < now() - COALESCE(
              (SELECT t.sec FROM unnest($3::text[], $4::int[]) AS t(topic, sec) WHERE t.topic = outbox.topic), $1)
              * interval '1 second'
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE outbox o SET done_at = now(), outcome = 'expired' FROM old WHERE o.id = old.id
       RETURNING o.topic, o.dedupe_key`,
      [retentionSec, limit, Object.keys(byTopic), Object.values(byTopic)],
    );
    return rows.map((r) => ({ topic: r.topic, dedupeKey: r.dedupe_key }));
  }

  /** Deletes up to `limit` rows done more than `retentionSec` ago; returns how many went. */
  async prune(retentionSec: number, limit = 1000): Promise<number> {
    const rows = await this.sql.query<{ id: string }>(
      `DELETE FROM outbox WHERE id IN (
         SELECT id FROM outbox WHERE done_at < now() - $1 * interval '1 second' LIMIT $2) RETURNING id`,
      [retentionSec, limit],
    );
    return rows.length;
  }

  /** Rows not done, by topic and whether they were handed over, with the age of the oldest (metrics). */
  async pending(): Promise<PendingCount[]> {
    const rows = await this.sql.query<{ topic: string; relayed: boolean; count: string; oldest: string }>(
      `SELECT topic, relayed_at IS NOT NULL AS relayed, count(*) AS count,
              extract(epoch FROM now() - min(created_at)) AS oldest
         FROM outbox WHERE done_at IS NULL GROUP BY 1, 2`,
    );
    return rows.map((r) => ({
      topic: r.topic,
      relayed: r.relayed,
      count: Number(r.count),
      oldestSec: Number(r.oldest),
    }));
  }
}

/** The condition of a stuck row: not done `$1` milliseconds after it was written (the database's clock). */
export const STUCK_OUTBOX_ROWS = "done_at IS NULL AND created_at < now() - $1 * interval '1 millisecond'";

/**
 * Outbox rows not done `olderThanMs` after they were written, oldest first (at most `limit`): work that no queue
 * has confirmed. A few seconds' worth is normal (mail being sent); older ones mean the relay or the queue is stuck
 * (no API instance running, Redis away with no in-process fallback, a queue with no worker). For consistency checks.
 */
export async function stuckOutboxRows(sql: Sql, olderThanMs: number, limit = 100): Promise<StuckRow[]> {
  const rows = await sql.query<{
    id: string;
    topic: string;
    dedupe_key: string;
    created_at: Date;
    attempts: number;
    relayed_at: Date | null;
    relayed_to: string | null;
    last_error: string | null;
  }>(
    `SELECT id, topic, dedupe_key, created_at, attempts, relayed_at, relayed_to, last_error FROM outbox
      WHERE ${STUCK_OUTBOX_ROWS} ORDER BY created_at LIMIT $2`,
    [ms(olderThanMs), limit],
  );
  return rows.map((r) => ({
    id: r.id,
    topic: r.topic,
    dedupeKey: r.dedupe_key,
    createdAt: r.created_at,
    attempts: r.attempts,
    relayedAt: r.relayed_at,
    relayedTo: r.relayed_to,
    lastError: r.last_error,
  }));
}

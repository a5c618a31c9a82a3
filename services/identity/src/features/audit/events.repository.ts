import { isoFromPg } from '../../shared/pg-time';
import type { Sql } from '../../shared/sql';
import type { EventData } from './schemas';

/** A row as written (the writer fills every column). */
export interface EventRow {
  id: string;
  occurredAt: Date;
  type: string;
  actorType: string;
  actorId: string | null;
  impersonatorId: string | null;
  targetType: string | null;
  targetId: string | null;
  organizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
  details: Record<string, unknown>;
}

/** Where a page ends: the last event's time (PostgreSQL's text, exact to the microsecond) and write order. */
export interface Position {
  at: string;
  seq: string;
}

/** list-events' filters, checked (events.service.ts): every one optional, all of them ANDed. */
export interface EventFilter {
  actorId?: string;
  targetType?: string;
  targetId?: string;
  /** The known types the given type prefix matches (at least one); absent: any type. */
  types?: readonly string[];
  organizationId?: string;
  from?: Date;
  to?: Date;
  after?: Position;
  limit: number;
}

const INSERT = `INSERT INTO audit_events (id, occurred_at, type, actor_type, actor_id, impersonator_id, target_type,
  target_id, organization_id, ip_address, user_agent, request_id, details)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;

const COLUMNS = `seq, id, occurred_at, type, actor_type, actor_id, impersonator_id, target_type, target_id, organization_id,
  ip_address, user_agent, request_id, details`;

/** Monthly partitions are named `audit_events_YYYY_MM` (migration 1796000000100). */
const MONTHLY = /^audit_events_(\d{4})_(\d{2})$/;

/** How many months of partitions exist ahead of the current one after each maintenance run. */
export const MONTHS_AHEAD = 12;

/**
 * The audit_events table: one insert per event (a prepared statement, in the caller's transaction), pages of
 * events newest first, and the partition upkeep that retention needs.
 */
export class EventRepository {
  constructor(private readonly sql: Sql) {}

  async insert(tx: Sql, row: EventRow): Promise<void> {
    await tx.prepared('audit-event-insert', INSERT, [
      row.id,
      row.occurredAt,
      row.type,
      row.actorType,
      row.actorId,
      row.impersonatorId,
      row.targetType,
      row.targetId,
      row.organizationId,
      row.ipAddress,
      row.userAgent,
      row.requestId,
      row.details,
    ]);
  }

  /**
   * One page, newest first, `limit + 1` rows (the extra one says whether another page follows). Every filter is a
   * condition on an indexed column; a type prefix that matches several types runs one branch per type, each walking
   * the (type, time) index and stopping at the page's end, merged: a rare type is found without reading the others.
   */
  async list(filter: EventFilter): Promise<{ view: EventData; position: Position }[]> {
    const { text, params } = listEventsSql(filter);
    const rows = await this.sql.query<Record<string, unknown>>(text, params, { timestamptzAsText: true });
    return rows.map((row) => ({
      view: toView(row),
      position: { at: row.occurred_at as string, seq: String(row.seq) },
    }));
  }

  /**
   * The event `id`, written at or before `before` (a time known to follow it: its first webhook delivery). The
   * table has no index on the id alone: the walk goes back from `before` along the (time, seq) key and stops at
   * the event, which is normally a few rows back.
   */
  async findBefore(id: string, before: Date): Promise<EventData | null> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM audit_events WHERE occurred_at <= $2 AND id = $1 ORDER BY occurred_at DESC, seq DESC LIMIT 1`,
      [id, before],
      { timestamptzAsText: true },
    );
    return rows[0] ? toView(rows[0]) : null;
  }

  /**
   * The email and name of the users among `ids` (one statement for a whole page, by primary key); ids that are not
   * user ids, or name a deleted user, are absent from the answer.
   */
  async usersByIds(ids: readonly string[]): Promise<Map<string, { email: string; name: string }>> {
    const users = new Map<string, { email: string; name: string }>();
    if (ids.length === 0) return users;
    const rows = await this.sql.query<{ id: string; email: string; name: string }>(
      'SELECT id, email, name FROM users WHERE id = ANY($1::uuid[])',
      [ids],
    );
    for (const row of rows) users.set(row.id, { email: row.email, name: row.name });
    return users;
  }

  /** Creates the monthly partitions from `now`'s month through MONTHS_AHEAD ahead; answers how many were added. */
  async addPartitions(now: Date, months = MONTHS_AHEAD + 1): Promise<number> {
    const rows = await this.sql.query<{ added: number }>('SELECT audit_events_add_partitions($1, $2) AS added', [
      now,
      months,
    ]);
    return Number(rows[0].added);
  }

  /** The monthly partitions with their first and end instants (UTC months), oldest first. */
  async partitions(): Promise<Array<{ name: string; from: Date; to: Date }>> {
    const rows = await this.sql.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'audit_events'::regclass ORDER BY c.relname`,
    );
    return rows.flatMap(({ name }) => {
      const m = MONTHLY.exec(name);
      if (!m) return [];
      const year = Number(m[1]);
      const month = Number(m[2]) - 1;
      return [{ name, from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) }];
    });
  }

  /** Drops a whole partition (DDL: no row trigger runs, nothing is rewritten). */
  async dropPartition(name: string): Promise<void> {
    if (!MONTHLY.test(name)) throw new Error(`not an audit partition: ${name}`);
    await this.sql.query(`DROP TABLE "${name}"`);
  }

  /**
   * Deletes the events older than `cutoff` that dropping partitions left (the month the cutoff falls in, and the
   * default partition). The only DELETE the trigger lets through: the setting is local to this transaction.
   */
  deleteBefore(cutoff: Date): Promise<number> {
    return this.sql.transaction(async (tx) => {
      await tx.query("SET LOCAL identity.events_prune = 'on'");
      const rows = await tx.query<{ n: string }>(
        'WITH gone AS (DELETE FROM audit_events WHERE occurred_at < $1 RETURNING 1) SELECT count(*) AS n FROM gone',
        [cutoff],
      );
      return Number(rows[0].n);
    });
  }
}

/** The statement of one list-events page (exported for the benchmark's EXPLAIN ANALYZE). */
export function listEventsSql(filter: EventFilter): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (filter.actorId !== undefined) where.push(`actor_id = ${p(filter.actorId)}`);
  if (filter.targetId !== undefined) where.push(`target_id = ${p(filter.targetId)}`);
  if (filter.targetType !== undefined) where.push(`target_type = ${p(filter.targetType)}`);
  if (filter.organizationId !== undefined) where.push(`organization_id = ${p(filter.organizationId)}::uuid`);
  if (filter.from) where.push(`occurred_at >= ${p(filter.from)}`);
  if (filter.to) where.push(`occurred_at < ${p(filter.to)}`);
  if (filter.after) {
    // The plain bound lets PostgreSQL skip the newer partitions; the row comparison is the exact position.
    const at = p(filter.after.at);
    const seq = p(filter.after.seq);
    where.push(`occurred_at <= ${at}::timestamptz`, `(occurred_at, seq) < (${at}::timestamptz, ${seq}::bigint)`);
  }
  const limit = p(filter.limit + 1);
  const order = 'ORDER BY occurred_at DESC, seq DESC';
  const branch = (condition: string[]) =>
    `SELECT ${COLUMNS} FROM audit_events${condition.length ? ` WHERE ${condition.join(' AND ')}` : ''} ${order} LIMIT ${limit}`;
  const types = filter.types;
  if (!types) return { text: branch(where), params };
  if (types.length === 1) return { text: branch([`type = ${p(types[0])}`, ...where]), params };
  // One branch planned once and run per type (LATERAL), not one branch per type: with a year of monthly partitions
  // the planning of 13 branches took longer than running them.
  const each = branch(['type = t.type', ...where]);
  const text = `SELECT e.* FROM unnest(${p(types)}::text[]) AS t(type) CROSS JOIN LATERAL (${each}) e ${order} LIMIT ${limit}`;
  return { text, params };
}

function toView(row: Record<string, unknown>): EventData {
  const targetType = row.target_type as string | null;
  return {
    id: row.id as string,
    occurredAt: isoFromPg(row.occurred_at as string),
    type: row.type as string,
    actor: {
      type: row.actor_type as string,
      id: (row.actor_id as string | null) ?? null,
      impersonatorId: (row.impersonator_id as string | null) ?? null,
    },
    target: targetType ? { type: targetType, id: row.target_id as string } : null,
    organizationId: (row.organization_id as string | null) ?? null,
    ipAddress: (row.ip_address as string | null) ?? null,
    userAgent: (row.user_agent as string | null) ?? null,
    requestId: (row.request_id as string | null) ?? null,
    details: (row.details as Record<string, unknown>) ?? {},
  };
}

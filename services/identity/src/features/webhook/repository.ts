import { newId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';
import type { UpdateEndpointBody } from './schemas';

/** An endpoint as stored (secrets sealed). */
export interface EndpointRow {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  description: string | null;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the follower matches events against: the enabled endpoints and the types they want. */
export interface Route {
  id: string;
  eventTypes: string[];
}

export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventId: string | null;
  webhookId: string;
  eventType: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  attemptedAt: Date;
}

/** Where a page of deliveries ends: the last row's time and id. */
export interface DeliveryPosition {
  at: Date;
  id: string;
}

const ENDPOINT_COLUMNS = `id, url, event_types, enabled, description, secret_sealed, previous_secret_sealed,
  previous_secret_expires_at, failing_since, disabled_reason, created_at, updated_at`;

const DELIVERY_COLUMNS = `id, endpoint_id, event_id, webhook_id, event_type, attempt, status, response_code, duration_ms,
  error, attempted_at`;

/** The fields update-webhook-endpoint may change (absent: unchanged): its body but the endpoint's id. */
export type EndpointChanges = Omit<UpdateEndpointBody, 'id'>;

/** webhook_endpoints and webhook_deliveries (migration 1796100000200). */
export class WebhookRepository {
  constructor(private readonly sql: Sql) {}

  async insert(tx: Sql, row: EndpointRow): Promise<void> {
    await tx.query(
      `INSERT INTO webhook_endpoints (id, url, event_types, enabled, description, secret_sealed, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [row.id, row.url, row.eventTypes, row.enabled, row.description, row.secretSealed, row.createdAt],
    );
  }

  async get(id: string, sql: Sql = this.sql): Promise<EndpointRow | null> {
    const rows = await sql.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]);
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async list(): Promise<EndpointRow[]> {
    const rows = await this.sql.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`);
    return rows.map(toEndpoint);
  }

  /** Applies the changes; enabling clears the failure record. Null when there is no such endpoint. */
  async update(tx: Sql, id: string, changes: EndpointChanges, now: Date): Promise<EndpointRow | null> {
    const rows = await tx.query(
      `UPDATE webhook_endpoints SET
         url = COALESCE($2, url),
         event_types = COALESCE($3, event_types),
         enabled = COALESCE($4, enabled),
         description = CASE WHEN $5 THEN $6 ELSE description END,
         failing_since = CASE WHEN $4 THEN NULL ELSE failing_since END,
         disabled_reason = CASE WHEN $4 IS NOT NULL THEN NULL ELSE disabled_reason END,
         updated_at = $7
       WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [
        id,
        changes.url ?? null,
        changes.eventTypes ?? null,
        changes.enabled ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        now,
      ],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async delete(tx: Sql, id: string): Promise<EndpointRow | null> {
    const rows = await tx.query(`DELETE FROM webhook_endpoints WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`, [id]);
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  /** A new secret; the current one becomes the previous one, used to sign as well until `previousUntil`. */
  async rotate(
    tx: Sql,
    id: string,
    secretSealed: string,
    previousSealed: string,
    previousUntil: Date,
    now: Date,
  ): Promise<EndpointRow | null> {
    const rows = await tx.query(
      `UPDATE webhook_endpoints SET secret_sealed = $2, previous_secret_sealed = $3, previous_secret_expires_at = $4,
         updated_at = $5 WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, secretSealed, previousSealed, previousUntil, now],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  /** The current secret, for sealing the previous one in a rotation (locked until the transaction ends). */
  async lockSecret(tx: Sql, id: string): Promise<string | null> {
    const rows = await tx.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM webhook_endpoints WHERE id = $1 FOR UPDATE',
      [id],
    );
    return rows[0]?.secret_sealed ?? null;
  }

  /** The enabled endpoints and their event types (`sql`: the caller's transaction when it has one). */
  async routes(sql: Sql = this.sql): Promise<Route[]> {
    const rows = await sql.query<{ id: string; event_types: string[] }>(
      'SELECT id, event_types FROM webhook_endpoints WHERE enabled',
    );
    return rows.map((r) => ({ id: r.id, eventTypes: r.event_types }));
  }

  /** A delivery succeeded: the endpoint is not failing (one write only when it was). */
  async succeeded(id: string): Promise<void> {
    await this.sql.query(
      'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
      [id],
    );
  }

  /** A delivery failed: the endpoint has been failing since then, unless it already was. Answers since when. */
  async failed(id: string, now: Date): Promise<Date | null> {
    const rows = await this.sql.query<{ failing_since: Date }>(
      `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE id = $1
       RETURNING failing_since`,
      [id, now],
    );
    return rows[0]?.failing_since ?? null;
  }

  /** Disables an enabled endpoint failing since `failingBefore` or earlier; the row when this call disabled it. */
  async disableFailing(tx: Sql, id: string, failingBefore: Date, now: Date): Promise<EndpointRow | null> {
    const rows = await tx.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing', updated_at = $3
       WHERE id = $1 AND enabled AND failing_since <= $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, failingBefore, now],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async insertDelivery(row: Omit<DeliveryRow, 'id'>): Promise<void> {
    await this.sql.query(
      `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        newId(),
        row.endpointId,
        row.eventId,
        row.webhookId,
        row.eventType,
        row.attempt,
        row.status,
        row.responseCode,
        row.durationMs,
        row.error,
        row.attemptedAt,
      ],
    );
  }

  /** One endpoint's attempts, newest first, `limit + 1` rows (the extra one says whether more follow). */
  async deliveries(
    endpointId: string,
    filter: { eventId?: string; after?: DeliveryPosition },
    limit: number,
  ): Promise<DeliveryRow[]> {
    const params: unknown[] = [endpointId, limit + 1];
    const where = ['endpoint_id = $1'];
    if (filter.eventId) {
      params.push(filter.eventId);
      where.push(`event_id = $${params.length}`);
    }
    if (filter.after) {
      params.push(filter.after.at, filter.after.id);
      where.push(`(attempted_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    const rows = await this.sql.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE ${where.join(' AND ')}
       ORDER BY attempted_at DESC, id DESC LIMIT $2`,
      params,
    );
    return rows.map(toDelivery);
  }

  /** When the endpoint was first sent this event (the event was written before), or null when never. */
  async firstAttempt(endpointId: string, eventId: string): Promise<Date | null> {
    const rows = await this.sql.query<{ first: Date | null }>(
      'SELECT min(attempted_at) AS first FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2',
      [endpointId, eventId],
    );
    return rows[0]?.first ?? null;
  }

  /** Deletes up to `limit` log rows attempted before `cutoff`; answers how many went. */
  async pruneDeliveries(cutoff: Date, limit: number): Promise<number> {
    const rows = await this.sql.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE attempted_at < $1 LIMIT $2) RETURNING id`,
      [cutoff, limit],
    );
    return rows.length;
  }
}

function toEndpoint(r: Record<string, unknown>): EndpointRow {
  return {
    id: r.id as string,
    url: r.url as string,
    eventTypes: r.event_types as string[],
    enabled: r.enabled as boolean,
    description: (r.description as string | null) ?? null,
    secretSealed: r.secret_sealed as string,
    previousSecretSealed: (r.previous_secret_sealed as string | null) ?? null,
    previousSecretExpiresAt: (r.previous_secret_expires_at as Date | null) ?? null,
    failingSince: (r.failing_since as Date | null) ?? null,
    disabledReason: (r.disabled_reason as string | null) ?? null,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

function toDelivery(r: Record<string, unknown>): DeliveryRow {
  return {
    id: r.id as string,
    endpointId: r.endpoint_id as string,
    eventId: (r.event_id as string | null) ?? null,
    webhookId: r.webhook_id as string,
    eventType: r.event_type as string,
    attempt: r.attempt as number,
    status: r.status as DeliveryRow['status'],
    responseCode: (r.response_code as number | null) ?? null,
    durationMs: r.duration_ms as number,
    error: (r.error as string | null) ?? null,
    attemptedAt: r.attempted_at as Date,
  };
}

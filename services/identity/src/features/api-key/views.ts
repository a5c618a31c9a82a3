import { isoOf, isoOrNull } from '../../shared/pg-time';
import type { ApiKeyView } from '../../shared/views';

export type { ApiKeyView };

const json = <T>(v: unknown): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : null);

export function toApiKey(row: Record<string, unknown>): ApiKeyView {
  return {
    id: row.id as string,
    name: (row.name as string | null) ?? null,
    start: (row.start as string | null) ?? null,
    prefix: (row.prefix as string | null) ?? null,
    userId: (row.user_id as string | null) ?? null,
    organizationId: (row.organization_id as string | null) ?? null,
    refillInterval: (row.refill_interval as number | null) ?? null,
    refillAmount: (row.refill_amount as number | null) ?? null,
    lastRefillAt: isoOrNull(row.last_refill_at as Date | null),
    enabled: row.enabled as boolean,
    rateLimitEnabled: row.rate_limit_enabled as boolean,
    rateLimitTimeWindow: (row.rate_limit_time_window as number | null) ?? null,
    rateLimitMax: (row.rate_limit_max as number | null) ?? null,
    requestCount: row.request_count as number,
    remaining: (row.remaining as number | null) ?? null,
    lastRequest: isoOrNull(row.last_request as Date | null),
    expiresAt: isoOrNull(row.expires_at as Date | null),
    createdAt: isoOf(row.created_at as Date),
    updatedAt: isoOf(row.updated_at as Date),
    metadata: json(row.metadata),
    permissions: json(row.permissions),
  };
}

import type { Permissions } from '../../access';

/** An API key as every route answers it (better-auth's fields; `organizationId` is our addition). Never the key. */
export interface ApiKeyView {
  id: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  userId: string | null;
  organizationId: string | null;
  refillInterval: number | null;
  refillAmount: number | null;
  lastRefillAt: string | null;
  enabled: boolean;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  requestCount: number;
  remaining: number | null;
  lastRequest: string | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  metadata: Record<string, unknown> | null;
  permissions: Permissions | null;
}

const iso = (v: unknown): string | null => (v ? new Date(v as string).toISOString() : null);
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
    lastRefillAt: iso(row.last_refill_at),
    enabled: row.enabled as boolean,
    rateLimitEnabled: row.rate_limit_enabled as boolean,
    rateLimitTimeWindow: (row.rate_limit_time_window as number | null) ?? null,
    rateLimitMax: (row.rate_limit_max as number | null) ?? null,
    requestCount: row.request_count as number,
    remaining: (row.remaining as number | null) ?? null,
    lastRequest: iso(row.last_request),
    expiresAt: iso(row.expires_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    metadata: json(row.metadata),
    permissions: json(row.permissions),
  };
}

import { newId } from '../../../src/crypto/random';
import type { AuditEvent, AuditSource } from '../../../src/shared/audit';
import type { TestApp } from '../../setup/app';

export interface StoredEvent {
  type: string;
  actor_type: string;
  actor_id: string | null;
  impersonator_id: string | null;
  target_type: string | null;
  target_id: string | null;
  organization_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
  occurred_at: Date;
}

/** The events stored about `id` (as target, actor or organization), oldest first: what a change wrote. */
export async function eventsAbout(t: TestApp, id: string): Promise<StoredEvent[]> {
  return t.ctx.sql.query<StoredEvent>(
    `SELECT * FROM audit_events WHERE target_id = $1 OR actor_id = $1 OR organization_id::text = $1
     ORDER BY occurred_at, seq`,
    [id],
  );
}

/** The types of those events, oldest first. */
export const typesAbout = async (t: TestApp, id: string): Promise<string[]> =>
  (await eventsAbout(t, id)).map((e) => e.type);

/** A source for events written by a test directly. */
export const testSource = (actorId = newId()): AuditSource => ({
  actor: { type: 'user', id: actorId },
  ipAddress: '192.0.2.1',
  userAgent: 'jest',
  requestId: 'req-test',
});

/** Writes `event` through the service's writer, in a transaction of its own. */
export async function record(t: TestApp, event: AuditEvent): Promise<void> {
  await t.ctx.sql.transaction((tx) => t.ctx.features.audit.events.record(tx, event));
}

/** Every key, at any depth, of a details object (to assert no secret field is there). */
export function keysOf(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

import { useMemo } from 'react';
import { useRecordContext } from 'react-admin';
import type { AuditFilter } from './auditEvents';
import { EventTable } from './EventTable';
import { useEventFeed } from './useEventFeed';

/**
 * A user's activity: list-events filters by actor or by target, not by either, so this makes both calls (as actor;
 * as target, which also holds their session events) and merges them newest first, each paged by its own cursor.
 */
export function UserActivity() {
  const record = useRecordContext<{ id: string }>();
  const id = record?.id ? String(record.id) : '';
  const filters = useMemo<AuditFilter[]>(() => [{ actorId: id }, { targetId: id }], [id]);
  const feed = useEventFeed(['user', id], filters, !!id);
  if (!id) return null;
  return <EventTable feed={feed} testId="user-activity" />;
}

/** An organization's events (list-events with its organization id). */
export function OrganizationActivity() {
  const record = useRecordContext<{ id: string }>();
  const id = record?.id ? String(record.id) : '';
  const filters = useMemo<AuditFilter[]>(() => [{ organizationId: id }], [id]);
  const feed = useEventFeed(['organization', id], filters, !!id);
  if (!id) return null;
  return <EventTable feed={feed} testId="organization-activity" />;
}

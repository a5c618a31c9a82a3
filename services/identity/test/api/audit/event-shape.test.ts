import { randomBytes } from 'node:crypto';
import { Value } from 'typebox/value';
import { newId } from '../../../src/crypto/random';
import { eventData, type RecordedEvent } from '../../../src/features/audit';
import { EventRepository } from '../../../src/features/audit/events.repository';
import { AuditEvents } from '../../../src/features/audit/events.service';
import { AuditEventSchema } from '../../../src/features/audit/schemas';
import { eventJob } from '../../../src/features/webhook/message';
import { type AuditEvent, SYSTEM_SOURCE, userTarget } from '../../../src/shared/audit';
import { migratedScratchDatabase } from '../../setup/scratch-database';

/**
 * An audit event has one shape (docs/audit.md, docs/webhooks.md): what list-events answers for it, what a webhook
 * message carries as its `data`, and the AuditEvent schema of the OpenAPI document.
 */
const db = migratedScratchDatabase('audit_event_shape');

const request = { ipAddress: '192.0.2.7', userAgent: 'jest', requestId: 'req-shape' };

/** One event of each kind of actor, with and without a target, an organization and details. */
const events: AuditEvent[] = [
  {
    type: 'admin.user.banned',
    source: { ...request, actor: { type: 'user', id: newId(), impersonatorId: newId() } },
    target: userTarget(newId()),
    details: { reason: 'spam', expiresInSec: 60, wasBanned: false },
  },
  {
    type: 'api_key.created',
    source: { ...request, actor: { type: 'api_key', id: newId(), userId: newId() } },
    target: { type: 'api_key', id: newId() },
    organizationId: newId(),
  },
  { type: 'signing_key.rotated', source: { ...request, actor: { type: 'service', id: 'static' } } },
  { type: 'user.ban_lapsed', source: SYSTEM_SOURCE, target: userTarget(newId()) },
  {
    type: 'user.sign_in_failed',
    source: { actor: { type: 'anonymous' }, ipAddress: null, userAgent: null, requestId: null },
    target: { type: 'email', id: 'digest-of-an-address' },
    details: { method: 'email' },
  },
  {
    type: 'webhook.endpoint_updated',
    source: { ...request, actor: { type: 'user', id: newId() } },
    target: { type: 'webhook_endpoint', id: newId() },
    details: { fields: ['url', 'eventTypes'] },
  },
];

it('is the same in list-events, in a webhook message and in the AuditEvent schema', async () => {
  const recorded: RecordedEvent[] = [];
  const follower = async (_tx: unknown, event: RecordedEvent) => {
    recorded.push(event);
  };
  const audit = new AuditEvents(new EventRepository(db.sql()), { now: () => Date.now() }, randomBytes(32), [follower]);
  for (const event of events) await db.sql().transaction((tx) => audit.record(tx, event));
  expect(recorded.map((e) => e.type)).toEqual(events.map((e) => e.type));

  for (const event of recorded) {
    const listed = await audit.findBefore(event.id, new Date(Date.now() + 60_000));
    expect(listed).not.toBeNull();
    expect([...Value.Errors(AuditEventSchema, listed)]).toEqual([]);
    const data = eventData(event);
    expect(data).toEqual(listed);
    expect(JSON.parse(eventJob(newId(), data).body).data).toEqual(listed);
  }
});

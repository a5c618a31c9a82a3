import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_EVENT_TYPES,
  type AuditEvent,
  actorLabel,
  eventsQuery,
  instant,
  mergeFeeds,
  targetLink,
  typeChoices,
  typeSegments,
} from '../src/audit/auditEvents';
import { canAccessWithRole } from '../src/providers/access';
import { makeDataProvider } from '../src/providers/dataProvider';
import { fakeApi } from './fakeFetch';

const event = (id: string, occurredAt: string, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  id,
  occurredAt,
  type: 'admin.user.banned',
  actor: { type: 'user', id: 'admin-1', impersonatorId: null },
  target: { type: 'user', id: 'u-1' },
  organizationId: null,
  ipAddress: '127.0.0.1',
  userAgent: 'ua',
  requestId: 'r-1',
  details: {},
  ...extra,
});

describe('audit event types', () => {
  it("are the service's list (src/shared/audit.ts), in its order", () => {
    const source = readFileSync(join(import.meta.dirname, '../../services/identity/src/shared/audit.ts'), 'utf8');
    const block = source.match(/AUDIT_EVENT_TYPES = \[([\s\S]*?)\] as const/)?.[1] ?? '';
    const service = [...block.matchAll(/'([a-z_.]+)'/g)].map((m) => m[1]);
    expect(service.length).toBeGreaterThan(40);
    expect([...AUDIT_EVENT_TYPES]).toEqual(service);
  });

  it('the picker offers each shared prefix first, then every type', () => {
    const choices = typeChoices(['admin.user.banned', 'admin.user.unbanned', 'user.signed_in', 'signing_key.rotated']);
    expect(choices).toEqual([
      'admin',
      'admin.user',
      'admin.user.banned',
      'admin.user.unbanned',
      'user.signed_in',
      'signing_key.rotated',
    ]);
    expect(typeChoices()).toContain('organization.member');
  });
});

describe('eventsQuery', () => {
  it('sends every filter set, trimmed, with the times as instants and the cursor', () => {
    const from = '2026-05-01T09:30';
    expect(
      eventsQuery(
        { actorId: ' a1 ', targetId: 't1', type: 'admin.user', organizationId: 'o1', from, to: '2026-05-02T00:00' },
        'c1',
        20,
      ),
    ).toEqual({
      limit: 20,
      actorId: 'a1',
      targetId: 't1',
      type: 'admin.user',
      organizationId: 'o1',
      from: new Date(from).toISOString(),
      to: new Date('2026-05-02T00:00').toISOString(),
      cursor: 'c1',
    });
  });

  it('leaves out empty filters, an unreadable time and a missing cursor', () => {
    expect(eventsQuery({ actorId: '  ', type: '', from: 'yesterday' }, null)).toEqual({ limit: 50 });
    expect(instant('')).toBeUndefined();
  });
});

describe('labels', () => {
  it('a user actor links; others read as system, service, API key or anonymous', () => {
    expect(
      actorLabel({ type: 'user', id: 'u1', impersonatorId: 'a1', email: 'ada@example.com', name: 'Ada Lovelace' }),
    ).toEqual({ kind: 'user', id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' });
    // A user since deleted (or an answer without emails): the id is all there is.
    expect(actorLabel({ type: 'user', id: 'u1', impersonatorId: null, email: null, name: null })).toEqual({
      kind: 'user',
      id: 'u1',
      email: null,
      name: null,
    });
    expect(actorLabel({ type: 'user', id: 'u1', impersonatorId: null })).toEqual({
      kind: 'user',
      id: 'u1',
      email: null,
      name: null,
    });
    expect(actorLabel({ type: 'system', id: null, impersonatorId: null })).toEqual({ kind: 'text', text: 'system' });
    expect(actorLabel({ type: 'service', id: 'static', impersonatorId: null })).toEqual({
      kind: 'text',
      text: 'service (SERVICE_API_KEY)',
    });
    expect(actorLabel({ type: 'service', id: 'k9', impersonatorId: null })).toEqual({
      kind: 'text',
      text: 'service k9',
    });
    expect(actorLabel({ type: 'api_key', id: 'k1', impersonatorId: null })).toEqual({
      kind: 'text',
      text: 'API key k1',
    });
    expect(actorLabel({ type: 'anonymous', id: null, impersonatorId: null })).toEqual({
      kind: 'text',
      text: 'anonymous',
    });
  });

  it('an event type is cut into pieces that end at its separators, where a line may wrap', () => {
    expect(typeSegments('admin.user.impersonation_started')).toEqual(['admin.', 'user.', 'impersonation_', 'started']);
    expect(typeSegments('user.signed_in')).toEqual(['user.', 'signed_', 'in']);
    expect(typeSegments('plain')).toEqual(['plain']);
    expect(typeSegments('a..b_')).toEqual(['a.', '.', 'b_']);
    for (const type of AUDIT_EVENT_TYPES) expect(typeSegments(type).join('')).toBe(type);
    expect(typeSegments('root@console-e2e.test', '@.')).toEqual(['root@', 'console-e2e.', 'test']);
  });

  it('a user, organization or OAuth client target links to its page; other targets do not', () => {
    expect(targetLink({ type: 'user', id: 'u1' })).toBe('/users/u1/show');
    expect(targetLink({ type: 'organization', id: 'o1' })).toBe('/organizations/o1/show');
    expect(targetLink({ type: 'oauth_client', id: 'c1' })).toBe('/applications/c1/show');
    expect(targetLink({ type: 'team', id: 't1' })).toBeNull();
    expect(targetLink(null)).toBeNull();
  });
});

describe('mergeFeeds', () => {
  it('merges newest first without repeats', () => {
    const both = event('b', '2026-01-02T00:00:00Z');
    const merged = mergeFeeds([
      { events: [both, event('a', '2026-01-01T00:00:00Z')], more: false },
      { events: [event('c', '2026-01-03T00:00:00Z'), both], more: false },
    ]);
    expect(merged.map((e) => e.id)).toEqual(['c', 'b', 'a']);
  });

  it('holds back what is older than the last event of a feed with more pages', () => {
    const merged = mergeFeeds([
      { events: [event('new', '2026-01-05T00:00:00Z'), event('mid', '2026-01-03T00:00:00Z')], more: true },
      { events: [event('x', '2026-01-04T00:00:00Z'), event('old', '2026-01-01T00:00:00Z')], more: false },
    ]);
    expect(merged.map((e) => e.id)).toEqual(['new', 'x', 'mid']);
  });
});

describe('access and data provider', () => {
  it('the Audit page needs audit: read', () => {
    expect(canAccessWithRole('admin', 'events', 'list')).toBe(true);
    expect(canAccessWithRole('user', 'events', 'list')).toBe(false);
  });

  it('listEvents calls admin/list-events with the query and returns the page', async () => {
    const page = { events: [event('a', '2026-01-01T00:00:00Z')], nextCursor: 'next' };
    const api = fakeApi({ 'GET /admin/list-events': { body: page } });
    const result = await makeDataProvider(api.client).listEvents({ type: 'admin.user', cursor: 'c1', limit: 5 });
    expect(api.last()).toMatchObject({
      method: 'GET',
      path: '/admin/list-events',
      query: { type: 'admin.user', cursor: 'c1', limit: '5' },
    });
    expect(result).toEqual(page);
  });
});

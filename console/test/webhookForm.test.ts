import { describe, expect, it } from 'vitest';
import { refusedField } from '../src/common/refusal';
import { canAccessWithRole } from '../src/providers/access';
import {
  asEndpointValues,
  createBody,
  endpointChanges,
  endpointState,
  endpointValues,
  NEW_ENDPOINT,
  parseEventTypes,
  type WebhookEndpoint,
  watchSettled,
} from '../src/webhooks/webhookForm';

const anEndpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'e1',
  url: 'https://hooks.example.com/in',
  eventTypes: ['admin.user.', 'user.signed_in'],
  enabled: true,
  description: 'CRM sync',
  disabledReason: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

describe('webhook endpoint form', () => {
  it('event types: commas, spaces and new lines separate; empty entries and repeats go; the order stays', () => {
    expect(parseEventTypes(' admin.user. , user.signed_in\nwebhook.  user.signed_in,, ')).toEqual([
      'admin.user.',
      'user.signed_in',
      'webhook.',
    ]);
    expect(parseEventTypes('  ')).toEqual([]);
  });

  it('create: the URL trimmed, the types, enabled from the choice, a description only when typed', () => {
    expect(
      createBody({ url: ' http://127.0.0.1:9/h ', eventTypes: 'admin.user.', description: ' ', enabled: 'yes' }),
    ).toEqual({ url: 'http://127.0.0.1:9/h', eventTypes: ['admin.user.'], enabled: true });
    expect(
      createBody({ ...NEW_ENDPOINT, url: 'https://a.test', eventTypes: 'x', description: 'Ops', enabled: 'no' }),
    ).toEqual({ url: 'https://a.test', eventTypes: ['x'], enabled: false, description: 'Ops' });
  });

  it('edit opens with the stored values, and unchanged values send nothing', () => {
    const endpoint = anEndpoint();
    const values = endpointValues(endpoint);
    expect(values).toEqual({
      url: 'https://hooks.example.com/in',
      eventTypes: 'admin.user., user.signed_in',
      description: 'CRM sync',
      enabled: 'yes',
    });
    expect(endpointChanges(values, endpoint)).toEqual({});
    expect(endpointValues(anEndpoint({ description: null, enabled: false }))).toMatchObject({
      description: '',
      enabled: 'no',
    });
  });

  it('edit sends only what changed; an emptied description is null (clears it)', () => {
    const endpoint = anEndpoint();
    const values = endpointValues(endpoint);
    expect(endpointChanges({ ...values, url: 'https://other.test/h' }, endpoint)).toEqual({
      url: 'https://other.test/h',
    });
    expect(endpointChanges({ ...values, eventTypes: 'user.signed_in, admin.user.' }, endpoint)).toEqual({
      eventTypes: ['user.signed_in', 'admin.user.'],
    });
    expect(endpointChanges({ ...values, description: '  ' }, endpoint)).toEqual({ description: null });
    expect(endpointChanges({ ...values, enabled: 'no' }, endpoint)).toEqual({ enabled: false });
    expect(endpointChanges({ ...values, description: 'New' }, anEndpoint({ description: null }))).toEqual({
      description: 'New',
    });
  });

  it('a dialog value missing reads as empty', () => {
    expect(asEndpointValues({ url: 'u' })).toEqual({ url: 'u', eventTypes: '', description: '', enabled: '' });
  });

  it('state: enabled, failing, disabled by an operator, disabled by the service', () => {
    expect(endpointState(anEndpoint())).toBe('enabled');
    expect(endpointState(anEndpoint({ failingSince: '2026-11-02T00:00:00Z' }))).toBe('failing');
    expect(endpointState(anEndpoint({ enabled: false }))).toBe('disabled');
    expect(
      endpointState(anEndpoint({ enabled: false, disabledReason: 'failing', failingSince: '2026-11-02T00:00:00Z' })),
    ).toBe('disabled_failing');
  });

  it('the log stops asking again once a newer attempt shows, or when the wait is over', () => {
    expect(watchSettled(null, 'd1', 0)).toBe(true);
    expect(watchSettled({ newest: 'd1', until: 100 }, 'd1', 50)).toBe(false);
    expect(watchSettled({ newest: 'd1', until: 100 }, 'd2', 50)).toBe(true);
    expect(watchSettled({ newest: null, until: 100 }, null, 50)).toBe(false);
    expect(watchSettled({ newest: null, until: 100 }, 'd1', 50)).toBe(true);
    expect(watchSettled({ newest: 'd1', until: 100 }, 'd1', 100)).toBe(true);
  });
});

describe('an API refusal in a form', () => {
  it('names the field from the details (service checks and schema checks), else the whole form', () => {
    const fields = ['url', 'eventTypes', 'description'];
    expect(
      refusedField({ code: 'INVALID_WEBHOOK_URL', details: [{ field: 'url', problem: 'is not a URL' }] }, fields),
    ).toEqual({ field: 'url', problem: 'is not a URL' });
    expect(refusedField({ details: [{ field: 'eventTypes/1', problem: 'names no event type' }] }, fields)).toEqual({
      field: 'eventTypes',
      problem: 'names no event type',
    });
    expect(refusedField({ details: [{ field: 'body.description', problem: 'too long' }] }, fields)).toEqual({
      field: 'description',
      problem: 'too long',
    });
    expect(refusedField({ details: [{ field: 'id', problem: 'x' }] }, fields)).toEqual({ problem: 'x' });
    expect(refusedField({ code: 'NO_DATA_TO_UPDATE', message: 'No data to update' }, fields)).toEqual({});
    expect(refusedField(undefined, fields)).toEqual({});
  });
});

describe('who sees the Webhooks page', () => {
  it('the admin role (webhook: create, read, update, delete); a plain user nothing', () => {
    for (const action of ['list', 'show', 'create', 'edit', 'delete'])
      expect(canAccessWithRole('admin', 'webhooks', action)).toBe(true);
    for (const action of ['list', 'show', 'create', 'edit', 'delete'])
      expect(canAccessWithRole('user', 'webhooks', action)).toBe(false);
    expect(canAccessWithRole('admin', 'webhooks', 'nope')).toBe(false);
  });
});

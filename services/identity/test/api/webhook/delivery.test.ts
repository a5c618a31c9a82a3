import { Webhook } from 'standardwebhooks';
import { SYSTEM_SOURCE } from '../../../src/shared/audit';
import type { TestApp } from '../../setup/app';
import { signUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { adminGet, adminPost, expectError, signUpAdmin } from '../admin/helpers';
import { record } from '../audit/helpers';
import { createEndpoint, deliveriesOf, Receiver, until, webhookApp } from './helpers';

/**
 * Webhook delivery without Redis: the API's own queue POSTs each message to a real receiver on loopback, which
 * verifies every request with the standardwebhooks package.
 */
const db = migratedScratchDatabase('webhook_delivery');
const start = webhookApp(db.url, { redis: false });
let t: TestApp;
let receiver: Receiver;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;

beforeAll(async () => {
  t = await start();
  receiver = await Receiver.start();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});
beforeEach(async () => {
  // An operator of its own per test: a test that moves the clock a month on and sweeps ends the sessions before.
  admin = await signUpAdmin(t);
  // One endpoint at a time: each test registers its own.
  await t.ctx.sql.query('UPDATE webhook_endpoints SET enabled = false');
  await t.ctx.features.webhook.deliveries.prune(); // nothing old yet: a no-op that must not fail
  receiver.answer = () => 200;
  receiver.delayMs = 0;
});

/** Writes an event through the service's writer (as any change does), answering its id. */
async function emit(type: 'user.updated' | 'admin.user.banned' = 'user.updated'): Promise<string> {
  const before = await t.ctx.sql.query<{ id: string }>('SELECT id FROM audit_events');
  await record(t, { type, source: SYSTEM_SOURCE, target: { type: 'user', id: admin.userId } });
  const after = await t.ctx.sql.query<{ id: string }>('SELECT id FROM audit_events');
  const known = new Set(before.map((r) => r.id));
  return after.find((r) => !known.has(r.id))!.id;
}

describe('webhook delivery (in process, no Redis)', () => {
  it('POSTs the event signed (Standard Webhooks), verified by the standardwebhooks package', async () => {
    const { id, secret } = await createEndpoint(t, admin.jar, { url: receiver.url('/a'), eventTypes: ['user.'] });
    receiver.secrets = [secret];
    const eventId = await emit();
    await receiver.waitFor(() => receiver.about(eventId).length === 1, 'the delivery');
    const [got] = receiver.about(eventId);
    expect(got.verifiedWith).toEqual([0]);
    expect(got.webhookId).toBe(`msg_${eventId}`);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Math.abs(got.timestamp - Math.floor(t.clock.now() / 1000))).toBeLessThan(5);
    expect(got.json.type).toBe('user.updated');
    expect(got.json.data).toMatchObject({ id: eventId, type: 'user.updated', actor: { type: 'system' } });
    expect(Date.parse(got.json.timestamp)).not.toBeNaN();
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 1, 5000, 'the log row');
    const [logged] = await deliveriesOf(t, admin.jar, id);
    expect(logged).toMatchObject({ eventId, attempt: 1, status: 'succeeded', responseCode: 200, error: null });
  });

  it('retries a failing endpoint on the schedule with the same webhook-id and body, logging every attempt', async () => {
    const { id, secret } = await createEndpoint(t, admin.jar, {
      url: receiver.url('/retry'),
      eventTypes: ['user.updated'],
    });
    receiver.secrets = [secret];
    let n = 0;
    receiver.answer = (_count, path) => (path === '/retry' && ++n <= 2 ? 500 : 200);
    const eventId = await emit();
    await receiver.waitFor(() => receiver.about(eventId).length === 3, 'three attempts');
    const attempts = receiver.about(eventId);
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(new Set(attempts.map((a) => a.webhookId))).toEqual(new Set([`msg_${eventId}`]));
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    for (const a of attempts) expect(a.verifiedWith).toEqual([0]);
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 3, 5000, 'three log rows');
    // The test clock stands still: every attempt has the same time, so the log is read in attempt order.
    const log = (await deliveriesOf(t, admin.jar, id)).sort((a, b) => a.attempt - b.attempt);
    expect(log.map((d) => [d.attempt, d.status, d.responseCode])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'succeeded', 200],
    ]);
    expect(log[0].error).toBe('answered 500');
    // The outbox row is done once the queue settled it.
    await until(
      async () => {
        const rows = await t.ctx.sql.query<{ outcome: string | null }>(
          "SELECT outcome FROM outbox WHERE topic = 'webhook' AND dedupe_key = $1",
          [`${eventId}.${id}`],
        );
        return rows[0]?.outcome === 'sent';
      },
      5000,
      'the outbox row done',
    );
  });

  it('gives up after the schedule: a redirect is a failure and is not followed', async () => {
    const { id } = await createEndpoint(t, admin.jar, { url: receiver.url('/moved'), eventTypes: ['user.updated'] });
    receiver.answer = (_n, path) => (path === '/moved' ? 302 : 200);
    const eventId = await emit();
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 3, 8000, 'three attempts');
    await new Promise((r) => setTimeout(r, 500));
    const log = await deliveriesOf(t, admin.jar, id);
    expect(log).toHaveLength(3);
    expect(log.every((d) => d.status === 'failed' && d.responseCode === 302)).toBe(true);
    expect(log[0].error).toBe('redirect (302) not followed');
    // Only the endpoint was asked: the Location was never followed.
    expect(receiver.received.filter((r) => r.webhookId === `msg_${eventId}`)).toHaveLength(3);
    await until(
      async () => {
        const rows = await t.ctx.sql.query<{ outcome: string | null }>(
          "SELECT outcome FROM outbox WHERE topic = 'webhook' AND dedupe_key = $1",
          [`${eventId}.${id}`],
        );
        return rows[0]?.outcome === 'failed';
      },
      5000,
      'the outbox row given up',
    );
  });

  it('an attempt that outlasts WEBHOOK_TIMEOUT_MS is a failure', async () => {
    const { id } = await createEndpoint(t, admin.jar, { url: receiver.url('/slow'), eventTypes: ['user.updated'] });
    receiver.delayMs = 3000; // timeoutMs is 2000 here
    await emit();
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length >= 1, 8000, 'a timed-out attempt');
    const [first] = (await deliveriesOf(t, admin.jar, id)).sort((a, b) => a.attempt - b.attempt);
    expect(first).toMatchObject({ status: 'failed', responseCode: null, error: 'timed out after 2000 ms' });
    await t.ctx.sql.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [id]);
  });

  it('delivers nothing for an event whose transaction rolls back', async () => {
    const { id } = await createEndpoint(t, admin.jar, { url: receiver.url('/rollback'), eventTypes: ['user.'] });
    const before = receiver.received.length;
    await expect(
      t.ctx.sql.transaction(async (tx) => {
        await t.ctx.features.audit.events.record(tx, {
          type: 'user.updated',
          source: SYSTEM_SOURCE,
          target: { type: 'user', id: admin.userId },
        });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    const rows = await t.ctx.sql.query("SELECT 1 FROM outbox WHERE topic = 'webhook' AND dedupe_key LIKE $1", [
      `%.${id}`,
    ]);
    expect(rows).toEqual([]);
    // A committed event right after is delivered: the rolled-back one would have come first.
    const eventId = await emit();
    await receiver.waitFor(() => receiver.about(eventId).length === 1, 'the committed event');
    expect(
      receiver.received
        .slice(before)
        .filter((r) => r.path === '/rollback')
        .map((r) => r.json.data.id),
    ).toEqual([eventId]);
  });

  it('sends only what an endpoint asked for: exact types and prefixes', async () => {
    await createEndpoint(t, admin.jar, { url: receiver.url('/admin-only'), eventTypes: ['admin.user.'] });
    const skipped = await emit('user.updated');
    const wanted = await emit('admin.user.banned');
    await receiver.waitFor(() => receiver.about(wanted).length === 1, 'the admin event');
    expect(receiver.about(skipped).filter((r) => r.path === '/admin-only')).toEqual([]);
  });

  it('a real change (sign-up) reaches an endpoint that wants it', async () => {
    await createEndpoint(t, admin.jar, { url: receiver.url('/signups'), eventTypes: ['user.signed_up'] });
    const u = await signUp(t.app);
    await receiver.waitFor(
      (all) =>
        all.some((r) => r.json.type === 'user.signed_up' && (r.json.data.target as { id: string })?.id === u.userId),
      'the sign-up event',
    );
  });

  it('after a rotation, messages carry both signatures for the overlap: old and new secrets verify', async () => {
    const { id, secret: old } = await createEndpoint(t, admin.jar, {
      url: receiver.url('/rotate'),
      eventTypes: ['user.'],
    });
    const res = await adminPost(t, 'rotate-webhook-secret', { id }, admin.jar);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().secret as string;
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(fresh).not.toBe(old);
    expect(Date.parse(res.json().endpoint.previousSecretExpiresAt)).toBeGreaterThan(t.clock.now());
    receiver.secrets = [old, fresh];
    const eventId = await emit();
    await receiver.waitFor(() => receiver.about(eventId).length === 1, 'the delivery');
    const [got] = receiver.about(eventId);
    expect(got.signature.split(' ')).toHaveLength(2);
    expect(got.verifiedWith).toEqual([0, 1]);
    // Past the overlap only the new secret signs.
    t.clock.advance(t.config.webhook.secretOverlapSec + 1);
    try {
      const later = await emit();
      await receiver.waitFor(() => receiver.about(later).length === 1, 'the later delivery');
      const [after] = receiver.about(later);
      expect(after.signature.split(' ')).toHaveLength(1);
      // The package's verify checks the timestamp against the real clock, which did not move: its own signing
      // with the new secret at the message's timestamp gives the one signature sent.
      expect(after.signature).toBe(
        new Webhook(fresh).sign(after.webhookId, new Date(after.timestamp * 1000), after.body),
      );
    } finally {
      t.clock.advance(-(t.config.webhook.secretOverlapSec + 1));
    }
  });

  it('send-test-webhook sends a webhook.test message, even to a disabled endpoint', async () => {
    const { id, secret } = await createEndpoint(t, admin.jar, {
      url: receiver.url('/test'),
      eventTypes: ['user.'],
      enabled: false,
    });
    receiver.secrets = [secret];
    const res = await adminPost(t, 'send-test-webhook', { id }, admin.jar);
    expect(res.statusCode).toBe(200);
    const { webhookId } = res.json();
    expect(webhookId).toMatch(/^msg_[0-9a-f-]{36}$/);
    await receiver.waitFor((all) => all.some((r) => r.webhookId === webhookId), 'the test message');
    const got = receiver.received.find((r) => r.webhookId === webhookId)!;
    expect(got.json).toMatchObject({ type: 'webhook.test', data: { endpointId: id, test: true } });
    expect(got.verifiedWith).toEqual([0]);
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 1, 5000, 'its log row');
    expect((await deliveriesOf(t, admin.jar, id))[0]).toMatchObject({ eventId: null, webhookId, status: 'succeeded' });
  });

  it('redeliver-webhook sends an event again under the same webhook-id', async () => {
    const { id, secret } = await createEndpoint(t, admin.jar, { url: receiver.url('/again'), eventTypes: ['user.'] });
    receiver.secrets = [secret];
    const eventId = await emit();
    await receiver.waitFor(() => receiver.about(eventId).length === 1, 'the first delivery');
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 1, 5000, 'its log row');
    const res = await adminPost(t, 'redeliver-webhook', { id, eventId }, admin.jar);
    expect(res.statusCode).toBe(200);
    expect(res.json().webhookId).toBe(`msg_${eventId}`);
    await receiver.waitFor(() => receiver.about(eventId).length === 2, 'the redelivery');
    const [first, second] = receiver.about(eventId);
    expect(second.webhookId).toBe(first.webhookId);
    expect(second.json).toEqual(first.json);
    expect(second.verifiedWith).toEqual([0]);
    // An event this endpoint was never sent, and one that is no event, are refused and queue nothing.
    const other = await emit('admin.user.banned'); // this endpoint wants user. only: it was never sent this one
    const outboxBefore = await t.ctx.sql.query("SELECT count(*)::int AS n FROM outbox WHERE topic = 'webhook'");
    expectError(
      await adminPost(t, 'redeliver-webhook', { id, eventId: other }, admin.jar),
      404,
      'WEBHOOK_EVENT_NOT_FOUND',
    );
    expectError(
      await adminPost(t, 'redeliver-webhook', { id, eventId: 'nope' }, admin.jar),
      404,
      'WEBHOOK_EVENT_NOT_FOUND',
    );
    expectError(
      await adminPost(t, 'redeliver-webhook', { id: '00000000-0000-4000-8000-000000000000', eventId }, admin.jar),
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    );
    expect(await t.ctx.sql.query("SELECT count(*)::int AS n FROM outbox WHERE topic = 'webhook'")).toEqual(
      outboxBefore,
    );
  });

  it('deletes delivery log rows past WEBHOOK_DELIVERY_RETENTION_DAYS in the expiry sweep', async () => {
    const { id } = await createEndpoint(t, admin.jar, { url: receiver.url('/retention'), eventTypes: ['user.'] });
    await emit();
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 1, 5000, 'a log row');
    // Read in SQL: a month on, the admin's session has expired.
    const logged = async () =>
      (await t.ctx.sql.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [id])).length;
    const days = t.config.webhook.deliveryRetentionDays;
    let moved = 0;
    const advance = (seconds: number) => {
      t.clock.advance(seconds);
      moved += seconds;
    };
    try {
      advance(days * 86_400 - 60);
      expect((await t.ctx.sweepExpired()).webhookDeliveries).toBe(0);
      expect(await logged()).toBe(1);
      advance(120);
      expect((await t.ctx.sweepExpired()).webhookDeliveries).toBeGreaterThanOrEqual(1);
      expect(await logged()).toBe(0);
    } finally {
      t.clock.advance(-moved);
    }
  });

  it('disables an endpoint whose deliveries failed for WEBHOOK_DISABLE_AFTER_FAILING_DAYS, as a system audit event', async () => {
    const { id } = await createEndpoint(t, admin.jar, { url: receiver.url('/down'), eventTypes: ['user.updated'] });
    receiver.answer = (_n, path) => (path === '/down' ? 503 : 200);
    const attemptsOf = async () => (await deliveriesOf(t, admin.jar, id)).length;
    await emit();
    await until(async () => (await attemptsOf()) === 3, 8000, 'the first day failing');
    const days = t.config.webhook.disableAfterFailingDays;
    const advanced = days * 86_400 - 3600;
    t.clock.advance(advanced); // not yet: failing for less than the days
    try {
      await emit();
      await until(async () => (await attemptsOf()) === 6, 8000, 'still failing');
      let row = (
        await t.ctx.sql.query<{ enabled: boolean }>('SELECT enabled FROM webhook_endpoints WHERE id = $1', [id])
      )[0];
      expect(row.enabled).toBe(true);
      t.clock.advance(7200); // now past the days since the first failure
      await emit();
      await until(
        async () => {
          row = (
            await t.ctx.sql.query<{ enabled: boolean }>('SELECT enabled FROM webhook_endpoints WHERE id = $1', [id])
          )[0];
          return !row.enabled;
        },
        8000,
        'the endpoint disabled',
      );
      const endpoint = (await adminGet(t, 'list-webhook-endpoints', admin.jar))
        .json()
        .endpoints.find((e: { id: string }) => e.id === id);
      expect(endpoint).toMatchObject({ enabled: false, disabledReason: 'failing' });
      const events = await t.ctx.sql.query<{ actor_type: string; details: Record<string, unknown> }>(
        "SELECT actor_type, details FROM audit_events WHERE type = 'webhook.endpoint_disabled' AND target_id = $1",
        [id],
      );
      expect(events).toEqual([{ actor_type: 'system', details: expect.objectContaining({ reason: 'failing', days }) }]);
      // Disabled: the next event is not delivered, nor are the retries still waiting.
      const attempts = await attemptsOf();
      await emit();
      await new Promise((r) => setTimeout(r, 1000));
      expect(await attemptsOf()).toBe(attempts);
      // Enabling it again clears the failure record.
      const res = await adminPost(t, 'update-webhook-endpoint', { id, enabled: true }, admin.jar);
      expect(res.json().endpoint).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
      await adminPost(t, 'update-webhook-endpoint', { id, enabled: false }, admin.jar);
    } finally {
      t.clock.advance(-(advanced + 7200));
    }
  });

  it('counts attempts by outcome, with their duration, in the metrics', async () => {
    const text = await t.ctx.metrics.registry.metrics();
    const value = (line: RegExp) => Number(line.exec(text)?.[1] ?? 0);
    expect(value(/^identity_webhook_deliveries_total\{outcome="succeeded"\} (\d+)$/m)).toBeGreaterThan(0);
    expect(value(/^identity_webhook_deliveries_total\{outcome="failed"\} (\d+)$/m)).toBeGreaterThan(0);
    expect(value(/^identity_webhook_delivery_duration_seconds_count\{outcome="succeeded"\} (\d+)$/m)).toBe(
      value(/^identity_webhook_deliveries_total\{outcome="succeeded"\} (\d+)$/m),
    );
    expect(text).toMatch(/^identity_webhook_jobs\{state="waiting"\} \d+$/m);
  });
});

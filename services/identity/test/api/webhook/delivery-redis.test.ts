import { SYSTEM_SOURCE } from '../../../src/shared/audit';
import { type MailWorker, startWebhooks } from '../../../src/worker';
import { CaptureLogger, uniquePrefix } from '../../mail/helpers';
import type { TestApp } from '../../setup/app';
import type { SignedUp } from '../../setup/fixtures';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { signUpAdmin } from '../admin/helpers';
import { createEndpoint, deliveriesOf, Receiver, until, webhookApp } from './helpers';

/**
 * Webhook delivery with Redis: the outbox relays each message to the BullMQ `webhooks` queue, and the worker's
 * webhook side (as `node dist/worker.js` starts it, here in this process) POSTs it and retries it on the schedule.
 */
const db = migratedScratchDatabase('webhook_redis');
const start = webhookApp(db.url, { redis: true, redisPrefix: uniquePrefix('webhooks') });
let t: TestApp;
let worker: MailWorker;
let receiver: Receiver;
let admin: SignedUp;
const log = new CaptureLogger();

beforeAll(async () => {
  t = await start();
  expect(t.config.redisUrl).toBeTruthy();
  worker = await startWebhooks(t.config, log, { clock: t.clock });
  receiver = await Receiver.start();
  admin = await signUpAdmin(t);
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
  await receiver?.close();
});

async function emit(): Promise<string> {
  const rows = await t.ctx.sql.transaction(async (tx) => {
    await t.ctx.features.audit.events.record(tx, {
      type: 'user.updated',
      source: SYSTEM_SOURCE,
      target: { type: 'user', id: admin.userId },
    });
    return tx.query<{ id: string }>(
      "SELECT id FROM audit_events WHERE type = 'user.updated' ORDER BY seq DESC LIMIT 1",
    );
  });
  return rows[0].id;
}

describe('webhook delivery (Redis: BullMQ and the worker)', () => {
  it('retries a failing endpoint with the same webhook-id until it answers 2xx; the outbox row ends sent', async () => {
    const { id, secret } = await createEndpoint(t, admin.jar, { url: receiver.url('/bull'), eventTypes: ['user.'] });
    receiver.secrets = [secret];
    let n = 0;
    receiver.answer = () => (++n <= 2 ? 500 : 204);
    const eventId = await emit();
    await receiver.waitFor(() => receiver.about(eventId).length === 3, 'three attempts');
    const attempts = receiver.about(eventId);
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 204]);
    expect(attempts.map((a) => a.webhookId)).toEqual(Array(3).fill(`msg_${eventId}`));
    for (const a of attempts) expect(a.verifiedWith).toEqual([0]);
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 3, 5000, 'three log rows');
    const log = (await deliveriesOf(t, admin.jar, id)).sort((a, b) => a.attempt - b.attempt);
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'succeeded'],
    ]);
    await until(
      async () => {
        const rows = await t.ctx.sql.query<{ outcome: string | null; relayed_to: string }>(
          "SELECT outcome, relayed_to FROM outbox WHERE topic = 'webhook' AND dedupe_key = $1",
          [`${eventId}.${id}`],
        );
        return rows[0]?.outcome === 'sent' && rows[0].relayed_to.startsWith('redis:');
      },
      15_000,
      'the outbox row confirmed by BullMQ',
    );
  });

  it('delivers nothing for an event whose transaction rolls back', async () => {
    const { id } = await createEndpoint(t, admin.jar, { url: receiver.url('/bull-rollback'), eventTypes: ['user.'] });
    receiver.answer = () => 200;
    await expect(
      t.ctx.sql.transaction(async (tx) => {
        await t.ctx.features.audit.events.record(tx, {
          type: 'user.updated',
          source: SYSTEM_SOURCE,
          target: { type: 'user', id: admin.userId },
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const committed = await emit();
    await receiver.waitFor(
      (all) => all.some((r) => r.path === '/bull-rollback' && r.json.data.id === committed),
      'the committed event',
    );
    expect(receiver.received.filter((r) => r.path === '/bull-rollback').map((r) => r.json.data.id)).toEqual([
      committed,
    ]);
    // The log row is written once the answer is in: wait for it, then make sure no second one follows.
    await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 1, 5000, 'its log row');
    await new Promise((r) => setTimeout(r, 500));
    expect(await deliveriesOf(t, admin.jar, id)).toHaveLength(1);
  });
});

import { SYSTEM_SOURCE } from '../../../src/shared/audit';
import { uniquePrefix } from '../../mail/helpers';
import type { TestApp } from '../../setup/app';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { type RunningWorker, spawnWorker } from '../../setup/worker-process';
import { signUpAdmin } from '../admin/helpers';
import { createEndpoint, deliveriesOf, Receiver, until, webhookApp } from './helpers';

/**
 * The real `node dist/worker.js` (built by global-setup) with Redis and DATABASE_URL: it delivers what the API
 * relays to the webhooks queue, signed, retried under the same webhook-id, on its own clock (the database's).
 */
const db = migratedScratchDatabase('webhook_worker');
const prefix = uniquePrefix('webhookproc');
const start = webhookApp(db.url, { redis: true, redisPrefix: prefix });
let t: TestApp;
let receiver: Receiver;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  t = await start();
  receiver = await Receiver.start();
});
afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill('SIGKILL');
    await worker.exited;
  }
  await t?.close();
  await receiver?.close();
});

it('delivers and retries through the worker process, and stops on SIGTERM', async () => {
  worker = spawnWorker({
    REDIS_URL: process.env.TEST_REDIS_URL!,
    REDIS_PREFIX: prefix,
    DATABASE_URL: db.url(),
    WEBHOOK_RETRY_SCHEDULE_MS: '100,100',
  });
  await until(() => worker!.output().includes('mail worker started') || worker!.child.exitCode !== null, 20_000);
  expect(worker.output()).toContain('mail worker started');
  expect(worker.output()).not.toContain('delivers no webhooks');

  const admin = await signUpAdmin(t);
  const { id, secret } = await createEndpoint(t, admin.jar, { url: receiver.url('/proc'), eventTypes: ['user.'] });
  receiver.secrets = [secret];
  let n = 0;
  receiver.answer = () => (++n === 1 ? 500 : 200);
  const eventId = await t.ctx.sql.transaction(async (tx) => {
    await t.ctx.features.audit.events.record(tx, {
      type: 'user.updated',
      source: SYSTEM_SOURCE,
      target: { type: 'user', id: admin.userId },
    });
    const rows = await tx.query<{ id: string }>(
      "SELECT id FROM audit_events WHERE type = 'user.updated' ORDER BY seq DESC LIMIT 1",
    );
    return rows[0].id;
  });
  await receiver.waitFor(() => receiver.about(eventId).length === 2, 'an attempt and its retry', 20_000);
  const [first, second] = receiver.about(eventId);
  expect([first.status, second.status]).toEqual([500, 200]);
  expect(second.webhookId).toBe(first.webhookId);
  // The worker's clock is the database's, as the receiver's is the machine's: the package verifies both.
  expect(first.verifiedWith).toEqual([0]);
  expect(second.verifiedWith).toEqual([0]);
  await until(async () => (await deliveriesOf(t, admin.jar, id)).length === 2, 5000, 'the worker logged both');

  worker.child.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
}, 60_000);

import { randomBytes } from 'node:crypto';
import { Outbox, type OutboxHandler, type OutboxOptions, Undeliverable, type WorkState } from '../../src/outbox/outbox';
import { OutboxRepository, stuckOutboxRows } from '../../src/outbox/repository';
import type { Sql } from '../../src/shared/sql';
import { until } from '../mail/helpers';
import { migratedScratchDatabase } from '../setup/scratch-database';

/**
 * The outbox and its relay on a real PostgreSQL (a database of this file's own: the relay claims every row of its
 * table), with a queue double standing for BullMQ: what it was handed, what it answers when asked.
 */
const db = migratedScratchDatabase('outbox');
let sql: Sql;

beforeAll(() => {
  sql = db.sql();
});
beforeEach(() => sql.query('DELETE FROM outbox'));

const ROUTE = 'redis:test:bull';

/** A queue: records each hand-over; `states` answers `state` (default queued); `failing` refuses hand-overs. */
class QueueDouble implements OutboxHandler {
  readonly delivered: Array<{ key: string; payload: unknown }> = [];
  readonly states = new Map<string, WorkState>();
  failing: Error | null = null;
  readonly asked: string[] = [];
  async deliver(key: string, payload: unknown) {
    if (this.failing) throw this.failing;
    this.delivered.push({ key, payload });
    return ROUTE;
  }
  async state(key: string) {
    this.asked.push(key);
    return this.states.get(key) ?? 'queued';
  }
  routes() {
    return [ROUTE];
  }
}

const options = (extra: Partial<OutboxOptions> = {}): OutboxOptions => ({
  pollMs: 50,
  leaseMs: 200,
  retentionSec: 3600,
  takeoverMs: 500,
  ...extra,
});
const quiet = { warn() {}, error() {} };
const outboxes: Outbox[] = [];
function outbox(queue: QueueDouble, extra: Partial<OutboxOptions> = {}, onRelayed?: (t: string, a: boolean) => void) {
  const o = new Outbox(sql, { mail: queue }, options(extra), quiet, onRelayed);
  outboxes.push(o);
  return o;
}
afterEach(async () => {
  for (const o of outboxes.splice(0)) await o.close();
});

const key = () => `reset-password.${randomBytes(8).toString('hex')}`;
interface Row {
  dedupe_key: string;
  attempts: number;
  relayed_to: string | null;
  outcome: string | null;
  last_error: string | null;
  done: boolean;
}
const rows = () =>
  sql.query<Row>(
    'SELECT dedupe_key, attempts, relayed_to, outcome, last_error, done_at IS NOT NULL AS done FROM outbox ORDER BY created_at',
  );

describe('outbox', () => {
  it('hands work over right after its transaction commits, and writes nothing when it rolls back', async () => {
    const queue = new QueueDouble();
    const o = outbox(queue);
    const [kept, dropped] = [key(), key()];
    await sql.transaction(async (tx) => {
      await o.add('mail', kept, { to: 'ann@example.test' }, tx);
      await new Promise((r) => setTimeout(r, 100));
      expect(queue.delivered).toEqual([]); // not before the commit
    });
    await until(() => queue.delivered.length === 1, 2000, 'the hand-over');
    expect(queue.delivered).toEqual([{ key: kept, payload: { to: 'ann@example.test' } }]);
    await expect(
      sql.transaction(async (tx) => {
        await o.add('mail', dropped, {}, tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await o.close();
    expect(queue.delivered).toHaveLength(1);
    expect(await rows()).toEqual([expect.objectContaining({ dedupe_key: kept, attempts: 1, relayed_to: ROUTE })]);
  });

  it('writes work with the same key once', async () => {
    const queue = new QueueDouble();
    const o = outbox(queue);
    const k = key();
    expect(await o.add('mail', k, { n: 1 })).toBe(true);
    expect(await o.add('mail', k, { n: 2 })).toBe(false);
    await o.close();
    expect(queue.delivered).toEqual([{ key: k, payload: { n: 1 } }]);
  });

  it('asks the queue until it reports the work done; hands it over again when the queue lost it', async () => {
    const queue = new QueueDouble();
    const relayed: string[] = [];
    const o = outbox(queue, {}, (topic, again) => relayed.push(`${topic}:${again ? 'again' : 'first'}`));
    const [sent, lost, failed] = [key(), key(), key()];
    for (const k of [sent, lost, failed]) await o.add('mail', k, {});
    await until(() => queue.delivered.length === 3, 2000, 'the hand-overs');
    o.start();
    await until(() => queue.asked.length >= 3, 2000, 'the queue to be asked');
    expect((await rows()).map((r) => r.done)).toEqual([false, false, false]); // queued: asked again later
    queue.states.set(sent, 'sent');
    queue.states.set(lost, 'unknown'); // Redis flushed
    queue.states.set(failed, 'failed');
    await until(async () => (await rows()).filter((r) => r.done).length === 2, 3000, 'two rows done');
    await until(() => queue.delivered.length === 4, 3000, 'the lost one handed over again');
    const keys = queue.delivered.map((d) => d.key);
    expect([keys.slice(0, 3).sort(), keys[3]]).toEqual([[sent, lost, failed].sort(), lost]);
    queue.states.set(lost, 'sent');
    await until(async () => (await rows()).every((r) => r.done), 3000, 'every row done');
    expect((await rows()).map((r) => [r.dedupe_key, r.outcome, r.attempts])).toEqual([
      [sent, 'sent', 1],
      [lost, 'sent', 2],
      [failed, 'failed', 1],
    ]);
    expect(relayed.sort()).toEqual(['mail:again', 'mail:first', 'mail:first', 'mail:first']);
  });

  it('a hand-over that fails leaves the row pending and is retried with backoff', async () => {
    const queue = new QueueDouble();
    queue.failing = new Error('Redis is away');
    const o = outbox(queue);
    await o.add('mail', key(), {});
    await until(async () => (await rows())[0]?.attempts === 1, 2000, 'the failed hand-over');
    expect(await rows()).toEqual([
      expect.objectContaining({ relayed_to: null, last_error: 'Redis is away', done: false }),
    ]);
    const due = await sql.query<{ wait: number }>(
      'SELECT extract(epoch FROM available_at - now()) * 1000 AS wait FROM outbox',
    );
    expect(Number(due[0].wait)).toBeGreaterThan(0); // not before its backoff
    o.start();
    await until(async () => (await rows())[0]?.attempts >= 3, 5000, 'two retries');
    queue.failing = null;
    await until(() => queue.delivered.length === 1, 5000, 'the hand-over once the queue is back');
    // The row records the hand-over just after the queue took the job.
    await until(async () => (await rows())[0]?.relayed_to === ROUTE, 2000, 'the hand-over recorded');
    expect(await rows()).toEqual([expect.objectContaining({ relayed_to: ROUTE, last_error: null })]);
    expect(queue.delivered).toHaveLength(1);
  });

  it('work that can never be done ends failed at once', async () => {
    const queue = new QueueDouble();
    queue.failing = new Undeliverable('mail link is not an absolute URL');
    const o = outbox(queue);
    await o.add('mail', key(), {});
    await until(async () => (await rows())[0]?.done, 2000, 'the row to be done');
    expect(await rows()).toEqual([expect.objectContaining({ outcome: 'failed' })]);
  });

  it('several relays share the rows: each is handed over once (FOR UPDATE SKIP LOCKED)', async () => {
    const queue = new QueueDouble();
    // Written by a writer that never relayed them (it died): due once their lease is over.
    const repo = new OutboxRepository(sql);
    for (let i = 0; i < 60; i++) await repo.insert(sql, 'mail', `k${i}`, {}, 0);
    const relays = [outbox(queue), outbox(queue), outbox(queue)];
    await Promise.all(relays.flatMap((r) => [r.pass(), r.pass()]));
    await Promise.all(relays.map((r) => r.pass()));
    expect(queue.delivered.map((d) => d.key).sort()).toEqual(Array.from({ length: 60 }, (_, i) => `k${i}`).sort());
  });

  it("takes over a dead writer's row after its lease, and another process's own mail after the takeover time", async () => {
    const queue = new QueueDouble();
    const repo = new OutboxRepository(sql);
    await repo.insert(sql, 'mail', 'leased', {}, 300);
    for (const [k, route] of [
      ['elsewhere', 'process:gone:1:abc'],
      ['other-deployment', 'redis:other:bull'],
    ]) {
      const id = (await repo.insert(sql, 'mail', k, {}, 0))!;
      await repo.relayed(id, route, 0);
    }
    const o = outbox(queue, { takeoverMs: 700 });
    await o.pass();
    expect(queue.delivered).toEqual([]); // the writer's lease and the other process's time are not over
    await new Promise((r) => setTimeout(r, 350));
    await o.pass();
    expect(queue.delivered.map((d) => d.key)).toEqual(['leased']);
    await new Promise((r) => setTimeout(r, 400));
    await o.pass();
    expect(queue.delivered.map((d) => d.key)).toEqual(['leased', 'elsewhere']);
    expect(queue.asked).not.toContain('other-deployment'); // another deployment's queue is not ours to ask
    const left = await sql.query<{ relayed_to: string }>(
      "SELECT relayed_to FROM outbox WHERE dedupe_key = 'other-deployment'",
    );
    expect(left).toEqual([{ relayed_to: 'redis:other:bull' }]);
  });

  it('confirm marks work done at once; done rows go after the retention period, unconfirmed ones expire', async () => {
    const queue = new QueueDouble();
    const o = outbox(queue, { retentionSec: 1 });
    const [done, never] = [key(), key()];
    await o.add('mail', done, {});
    await o.add('mail', never, {});
    await until(() => queue.delivered.length === 2, 2000, 'the hand-overs');
    o.confirm('mail', done, 'sent');
    await o.settle();
    expect((await rows()).map((r) => [r.dedupe_key, r.outcome])).toEqual([
      [done, 'sent'],
      [never, null],
    ]);
    expect((await stuckOutboxRows(sql, 0)).map((r) => [r.dedupeKey, r.attempts, r.relayedTo])).toEqual([
      [never, 1, ROUTE],
    ]);
    expect(await stuckOutboxRows(sql, 60_000)).toEqual([]);

    await new Promise((r) => setTimeout(r, 1100));
    const repo = new OutboxRepository(sql);
    expect(await repo.expire(1)).toEqual([{ topic: 'mail', dedupeKey: never }]);
    expect((await rows()).map((r) => r.outcome)).toEqual(['sent', 'expired']);
    expect(await repo.prune(1)).toBe(1); // the sent one, done over a second ago
    await new Promise((r) => setTimeout(r, 1100));
    expect(await repo.prune(1)).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('counts rows not done, by topic and state, with the oldest age (the gauges)', async () => {
    const queue = new QueueDouble();
    queue.failing = new Error('away');
    const o = outbox(queue);
    await o.add('mail', key(), {});
    await until(async () => (await rows())[0]?.attempts === 1, 2000, 'the failed hand-over');
    queue.failing = null;
    await o.add('mail', key(), {});
    await until(() => queue.delivered.length === 1, 2000, 'the hand-over');
    const pending = await o.pending();
    expect(pending.map((p) => [p.topic, p.relayed, p.count]).sort()).toEqual([
      ['mail', false, 1],
      ['mail', true, 1],
    ]);
    for (const p of pending) expect(p.oldestSec).toBeGreaterThanOrEqual(0);
  });
});

import { randomBytes } from 'node:crypto';
import { newId } from '../../../src/crypto/random';
import { EventRepository } from '../../../src/features/audit/events.repository';
import { AuditEvents } from '../../../src/features/audit/events.service';
import { runCliWith } from '../../setup/cli-process';
import { migratedScratchDatabase } from '../../setup/scratch-database';
import { testSource } from './helpers';

/**
 * The audit_events table on a database of its own (pruning drops partitions, which other test files' events live
 * in): append-only, partitioned by month, pruned only by the events:prune command.
 */
const db = migratedScratchDatabase('audit_storage');

const insertAt = (at: string, type = 'user.signed_in') =>
  db
    .sql()
    .query(
      `INSERT INTO audit_events (id, occurred_at, type, actor_type) VALUES ($1, ${at}, $2, 'system') RETURNING id`,
      [newId(), type],
    )
    .then((rows) => rows[0].id as string);

const partitions = async () =>
  (
    await db.sql().query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'audit_events'::regclass ORDER BY 1`,
    )
  ).map((r) => r.name);

const monthName = (offset: number) => {
  const d = new Date();
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
  return `audit_events_${m.getUTCFullYear()}_${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
};

describe('audit_events storage', () => {
  it('has the current month and the next 12 as partitions, and a default one for anything else', async () => {
    const names = await partitions();
    for (let i = 0; i <= 12; i++) expect(names).toContain(monthName(i));
    expect(names).toContain('audit_events_default');
    const far = await insertAt("now() + interval '20 years'");
    const [row] = await db
      .sql()
      .query('SELECT tableoid::regclass::text AS part FROM audit_events WHERE id = $1', [far]);
    expect(row.part).toBe('audit_events_default');
  });

  it('refuses UPDATE, DELETE and TRUNCATE from a normal session; the prune setting lets only DELETE through', async () => {
    const id = await insertAt('now()');
    const refused = async (statement: string) => {
      await expect(db.sql().query(statement, statement.includes('$1') ? [id] : [])).rejects.toThrow(/append-only/);
    };
    await refused("UPDATE audit_events SET type = 'user.deleted' WHERE id = $1");
    await refused('DELETE FROM audit_events WHERE id = $1');
    await refused('TRUNCATE audit_events');
    await refused(`DELETE FROM ${monthName(0)} WHERE id = $1`); // a partition directly: the same trigger
    await expect(
      db.sql().transaction(async (tx) => {
        await tx.query("SET LOCAL identity.events_prune = 'on'");
        await tx.query("UPDATE audit_events SET type = 'user.deleted' WHERE id = $1", [id]);
      }),
    ).rejects.toThrow(/append-only/);
    // the setting is local: a later transaction on any connection is refused again
    await refused('DELETE FROM audit_events WHERE id = $1');
    expect(await db.sql().query('SELECT type FROM audit_events WHERE id = $1', [id])).toEqual([
      { type: 'user.signed_in' },
    ]);
    await db.sql().transaction(async (tx) => {
      await tx.query("SET LOCAL identity.events_prune = 'on'");
      await tx.query('DELETE FROM audit_events WHERE id = $1', [id]);
    });
    expect(await db.sql().query('SELECT 1 FROM audit_events WHERE id = $1', [id])).toEqual([]);
  });

  it('the writer refuses details that could hold a secret, and writes nothing', async () => {
    const events = new AuditEvents(new EventRepository(db.sql()), { now: () => Date.now() }, randomBytes(32), []);
    const target = { type: 'user' as const, id: newId() };
    for (const key of ['password', 'newPassword', 'token', 'sessionToken', 'passwordHash', 'secret', 'key']) {
      await expect(
        db
          .sql()
          .transaction((tx) =>
            events.record(tx, { type: 'user.password_changed', source: testSource(), target, details: { [key]: 'x' } }),
          ),
      ).rejects.toThrow(/may hold a secret/);
    }
    expect(await db.sql().query('SELECT 1 FROM audit_events WHERE target_id = $1', [target.id])).toEqual([]);
  });

  it('events:prune drops the months past the retention age, deletes the older rest, and makes the months ahead', async () => {
    // Rows waiting in the default partition for months that get a partition later are moved into it.
    const waiting = await insertAt("now() - interval '200 days'");
    await db.sql().query("SELECT audit_events_add_partitions(now() - interval '14 months', 14)");
    const [moved] = await db
      .sql()
      .query('SELECT tableoid::regclass::text AS part FROM audit_events WHERE id = $1', [waiting]);
    expect(moved.part).toMatch(/^audit_events_\d{4}_\d{2}$/);
    const old = await insertAt("now() - interval '13 months'");
    const ancient = await insertAt("now() - interval '30 years'"); // the default partition
    const justPast = await insertAt("now() - interval '31 days'");
    const recent = await insertAt("now() - interval '29 days'");
    const now = await insertAt('now()');
    // a month ahead disappears (dropped by hand) and the command makes it again
    await db.sql().query(`DROP TABLE ${monthName(12)}`);
    const oldMonth = monthName(-13);
    expect(await partitions()).toContain(oldMonth);

    const res = await runCliWith({ DATABASE_URL: db.url(), AUDIT_RETENTION_DAYS: '30' }, 'events:prune');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toContain(oldMonth);
    expect(res.stdout).toMatch(/1 partitions added ahead/);
    const left = await db
      .sql()
      .query<{ id: string }>('SELECT id FROM audit_events WHERE id = ANY($1)', [
        [waiting, old, ancient, justPast, recent, now],
      ]);
    expect(left.map((r) => r.id).sort()).toEqual([recent, now].sort());
    const names = await partitions();
    expect(names).not.toContain(oldMonth);
    for (let i = 0; i <= 12; i++) expect(names).toContain(monthName(i));

    // the next run finds nothing to do
    const again = await runCliWith({ DATABASE_URL: db.url(), AUDIT_RETENTION_DAYS: '30' }, 'events:prune');
    expect(again.stdout).toMatch(/0 partitions dropped, 0 events deleted; 0 partitions added ahead/);
  }, 90_000); // two CLI processes, slow on a busy machine
});

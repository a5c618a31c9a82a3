import { randomUUID } from 'node:crypto';
import { CONSISTENCY_CHECKS, runConsistencyChecks } from '../../../src/features/system/consistency.service';
import type { Sql } from '../../../src/shared/sql';
import { runCliWith } from '../../setup/cli-process';
import { migratedScratchDatabase } from '../../setup/scratch-database';

/**
 * The consistency check (`cli check`) on a database of its own: a clean one reports nothing, and each partial state
 * a multi-step operation could leave is made by hand and reported, by the service and by the command.
 */
const db = migratedScratchDatabase('consistency');
const databaseUrl = db.url;
let sql: Sql;
const settings = { creatorRole: 'owner' };

beforeAll(() => {
  sql = db.sql();
});

async function user(fields: { banned?: boolean; banExpires?: string | null } = {}): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO users (id, email, name, banned, ban_expires) VALUES ($1, $2, 'U', $3, $4::timestamptz)`,
    [id, `${id}@example.com`, fields.banned ?? false, fields.banExpires ?? null],
  );
  return id;
}

async function sessionOf(userId: string): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO sessions (id, token, user_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
    [id, randomUUID().replace(/-/g, ''), userId],
  );
  return id;
}

async function organization(members: Array<[string, string]>): Promise<string> {
  const id = randomUUID();
  await sql.query(`INSERT INTO organizations (id, name, slug) VALUES ($1, 'O', $2)`, [id, `o-${id}`]);
  for (const [userId, role] of members)
    await sql.query('INSERT INTO members (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)', [
      randomUUID(),
      id,
      userId,
      role,
    ]);
  return id;
}

async function acceptedInvitation(organizationId: string, acceptedBy: string | null, inviterId: string) {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO invitations (id, organization_id, email, role, status, inviter_id, expires_at, accepted_by)
     VALUES ($1, $2, $3, 'member', 'accepted', $4, now() + interval '1 day', $5)`,
    [id, organizationId, `${id}@example.com`, inviterId, acceptedBy],
  );
  return id;
}

async function outboxRow(minutesAgo: number, done: boolean): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO outbox (id, topic, dedupe_key, payload, created_at, available_at, attempts, done_at, outcome)
     VALUES ($1, 'mail', $2, '{}', now() - $3 * interval '1 minute', now(), 2, $4, $5)`,
    [id, `key-${id}`, minutesAgo, done ? new Date() : null, done ? 'sent' : null],
  );
  return id;
}

const found = async () =>
  Object.fromEntries((await runConsistencyChecks(sql, settings)).map((c) => [c.name, c.rows.map((r) => r.id)]));

describe('consistency checks', () => {
  it('lists each check once, by name', () => {
    expect(CONSISTENCY_CHECKS.map((c) => c.name)).toEqual([
      'organization-without-owner',
      'session-of-banned-user',
      'accepted-invitation-without-member',
      'outbox-row-stuck',
    ]);
  });

  it('a clean database reports nothing, by the service and by `cli check` (exit 0)', async () => {
    const owner = await user();
    const org = await organization([[owner, 'owner']]);
    await sessionOf(owner);
    await sessionOf(await user({ banned: true, banExpires: new Date(Date.now() - 60_000).toISOString() }));
    const member = await user();
    await sql.query('INSERT INTO members (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)', [
      randomUUID(),
      org,
      member,
      'member',
    ]);
    await acceptedInvitation(org, member, owner);
    await acceptedInvitation(org, null, owner); // its member left: the link was cleared
    await outboxRow(1, false); // being sent
    await outboxRow(60, true); // sent long ago
    expect(await found()).toEqual({
      'organization-without-owner': [],
      'session-of-banned-user': [],
      'accepted-invitation-without-member': [],
      'outbox-row-stuck': [],
    });
    const human = await runCliWith({ DATABASE_URL: databaseUrl() }, 'check');
    expect([human.code, human.stdout.trim()]).toEqual([0, 'no partial state found']);
    const json = await runCliWith({ DATABASE_URL: databaseUrl() }, 'check', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      found: 0,
      checks: CONSISTENCY_CHECKS.map((c) => ({ name: c.name, description: c.description, found: [] })),
    });
  });

  it('reports each partial state, and `cli check` lists them and exits 3', async () => {
    const owner = await user();
    const member = await user();
    const ownerless = await organization([[member, 'admin,member']]);
    const empty = await organization([]);
    await organization([[owner, 'member, owner']]); // several roles, spaces around the comma: has an owner
    const banned = await sessionOf(await user({ banned: true }));
    const timed = await sessionOf(
      await user({ banned: true, banExpires: new Date(Date.now() + 60_000).toISOString() }),
    );
    const claimed = await acceptedInvitation(ownerless, owner, member);
    const stuck = await outboxRow(20, false);

    const now = await found();
    expect(now['organization-without-owner'].sort()).toEqual([ownerless, empty].sort());
    expect(now['session-of-banned-user'].sort()).toEqual([banned, timed].sort());
    expect(now['accepted-invitation-without-member']).toEqual([claimed]);
    expect(now['outbox-row-stuck']).toEqual([stuck]);

    const human = await runCliWith({ DATABASE_URL: databaseUrl() }, 'check');
    expect(human.code).toBe(3);
    const lines = human.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('organization-without-owner: '))).toHaveLength(2);
    expect(lines.find((l) => l.includes(banned))).toMatch(/^session-of-banned-user: session .* of user /);
    expect(lines.find((l) => l.includes(claimed))).toMatch(/^accepted-invitation-without-member: invitation /);
    expect(lines.find((l) => l.includes(stuck))).toMatch(
      /^outbox-row-stuck: outbox row .* \(mail\) written .*, not done after 2 attempts$/,
    );
    expect(lines.at(-1)).toBe('6 partial states found');
    // A session's token is a credential: never printed.
    const tokens = await sql.query<{ token: string }>('SELECT token FROM sessions WHERE id = ANY($1)', [
      [banned, timed],
    ]);
    for (const { token } of tokens) expect(human.stdout).not.toContain(token);

    const json = await runCliWith({ DATABASE_URL: databaseUrl() }, 'check', '--json');
    expect(json.code).toBe(3);
    const report = JSON.parse(json.stdout);
    expect(report.found).toBe(6);
    expect(report.checks[1].found.map((r: { id: string }) => r.id).sort()).toEqual([banned, timed].sort());
    for (const { token } of tokens) expect(json.stdout).not.toContain(token);

    // Repaired, nothing is left to report.
    await sql.query('DELETE FROM organizations WHERE id = ANY($1)', [[ownerless, empty]]);
    await sql.query('DELETE FROM sessions WHERE id = ANY($1)', [[banned, timed]]);
    await sql.query('DELETE FROM outbox WHERE id = $1', [stuck]);
    expect(Object.values(await found()).flat()).toEqual([]);
  });

  it('refuses unknown options (exit 2)', async () => {
    const res = await runCliWith({ DATABASE_URL: databaseUrl() }, 'check', '--yaml');
    expect([res.code, res.stderr.trim()]).toEqual([2, 'check: unknown option --yaml (only --json)']);
  });
});

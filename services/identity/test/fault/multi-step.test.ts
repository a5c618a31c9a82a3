import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import type { ApiProcess } from '../setup/api-process';
import { PUBLIC_URL } from '../setup/app';
import { runCliWith } from '../setup/cli-process';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';
import { type FaultStack, startFaultStack } from './harness/stack';

/**
 * Operations of several steps are all or nothing when the API process dies (SIGKILL) in the middle of them.
 *
 * Two places to die, for every operation:
 * - **mid-transaction**: the test holds a row lock (`BEGIN; SELECT … FOR UPDATE`) on a row the operation writes at a
 *   later step, waits until the API's statement is blocked on it (pg_blocking_pids), kills the API, then releases
 *   the lock. Nothing of the operation may remain.
 * - **at the commit**: the cluster is made to wait for a synchronous standby that does not exist, so the API's
 *   COMMIT is written but its answer never comes (wait event SyncRep); the API is killed there, before anything it
 *   does after the commit (the Redis cache eviction). All of the operation must show, also to sessions whose
 *   answer was in the Redis cache before.
 * After each, a new API on the same PostgreSQL and Redis answers over HTTP, and `cli check` reports nothing.
 */

type Outcome = 'none' | 'all';

interface Api {
  base: string;
}

async function call(api: Api, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { origin: PUBLIC_URL };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${api.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const must = async (api: Api, path: string, body: unknown, token?: string) => {
  const res = await call(api, path, body, token);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
};

interface Person {
  id: string;
  email: string;
  /** The sign-up session and a second one from a sign-in. */
  tokens: [string, string];
}

/** A signed-up user with two sessions, both answered once by get-session so they sit in the Redis cache. */
async function person(api: Api, stack: FaultStack, tag: string, verified = false): Promise<Person> {
  const email = uniqueEmail(tag);
  const up = await must(api, '/sign-up/email', { email, password: PASSWORD, name: tag });
  if (verified) await stack.pg.query('UPDATE users SET email_verified = true WHERE id = $1', [up.user.id]);
  const second = await must(api, '/sign-in/email', { email, password: PASSWORD });
  for (const token of [up.token, second.token]) await cached(api, token);
  return { id: up.user.id, email, tokens: [up.token, second.token] };
}

/** get-session by Bearer (never the cookie cache): Redis, else PostgreSQL. */
const session = async (api: Api, token: string) => (await call(api, '/get-session', undefined, token)).json;
async function cached(api: Api, token: string) {
  for (let i = 0; i < 2; i++) if (!(await session(api, token))) throw new Error('no session to cache');
}

/** 'none' or 'all' when every step agrees, else the steps as they are (a partial state). */
function outcome(steps: Record<string, boolean>): Outcome | string {
  const values = Object.values(steps);
  if (values.every(Boolean)) return 'all';
  if (!values.some(Boolean)) return 'none';
  return `partial: ${JSON.stringify(steps)}`;
}

const count = async (stack: FaultStack, sql: string, params: unknown[]) =>
  Number((await stack.pg.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) q`, params))[0].n);

interface Scenario<S> {
  name: string;
  /** Users and rows through the API; sessions in the Redis cache. Returns what the other steps need. */
  prepare(api: Api, stack: FaultStack, admin: Person): Promise<S>;
  /** The row to lock so that the operation stops at a later step (mid-transaction). */
  lock(s: S): [string, unknown[]];
  run(api: Api, s: S, admin: Person): Promise<unknown>;
  /** Each step of the operation as stored, true when done. */
  steps(stack: FaultStack, s: S): Promise<Record<string, boolean>>;
  /** What a new API answers, given the outcome. */
  seen(api: Api, s: S, outcome: Outcome): Promise<void>;
}

/** A scenario with its own prepared state, in the list of all. */
const scenario = <S>(s: Scenario<S>) => s as unknown as Scenario<unknown>;

const validates = async (api: Api, token: string) => (await session(api, token)) !== null;
const signsIn = async (api: Api, email: string, password: string) =>
  (await call(api, '/sign-in/email', { email, password })).status;
const NEW_PASSWORD = 'a brand new password 123';

const SCENARIOS = [
  scenario({
    name: 'admin ban-user (flag, reason, sessions ended)',
    prepare: async (api, stack) => ({ victim: await person(api, stack, 'banned') }),
    lock: ({ victim }) => ['SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE', [victim.id]],
    run: (api, { victim }, admin) =>
      call(api, '/admin/ban-user', { userId: victim.id, banReason: 'fault' }, admin.tokens[0]),
    steps: async (stack, { victim }) => {
      const [u] = await stack.pg.query<{ banned: boolean; ban_reason: string | null }>(
        'SELECT banned, ban_reason FROM users WHERE id = $1',
        [victim.id],
      );
      return {
        banned: u.banned,
        reason: u.ban_reason === 'fault',
        sessionsEnded: (await count(stack, 'SELECT 1 FROM sessions WHERE user_id = $1', [victim.id])) === 0,
      };
    },
    seen: async (api, { victim }, o) => {
      for (const token of victim.tokens) expect(await validates(api, token)).toBe(o === 'none');
      expect(await signsIn(api, victim.email, PASSWORD)).toBe(o === 'none' ? 200 : 403);
    },
  }),
  scenario({
    name: 'change-password with revokeOtherSessions (hash, other sessions ended, new session)',
    prepare: async (api, stack) => ({ victim: await person(api, stack, 'changer') }),
    lock: ({ victim }) => ['SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE', [victim.id]],
    run: (api, { victim }) =>
      call(
        api,
        '/change-password',
        { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true },
        victim.tokens[0],
      ),
    steps: async (stack, { victim }) => {
      const tokens = (
        await stack.pg.query<{ token: string }>('SELECT token FROM sessions WHERE user_id = $1', [victim.id])
      ).map((r) => r.token);
      const [account] = await stack.pg.query<{ updated_at: Date; created_at: Date }>(
        "SELECT updated_at, created_at FROM accounts WHERE user_id = $1 AND provider_id = 'credential'",
        [victim.id],
      );
      return {
        hashChanged: account.updated_at.getTime() !== account.created_at.getTime(),
        oldSessionsEnded: !tokens.some((t) => victim.tokens.includes(t)),
        newSession: tokens.length === 1,
      };
    },
    seen: async (api, { victim }, o) => {
      for (const token of victim.tokens) expect(await validates(api, token)).toBe(o === 'none');
      expect(await signsIn(api, victim.email, PASSWORD)).toBe(o === 'none' ? 200 : 401);
      expect(await signsIn(api, victim.email, NEW_PASSWORD)).toBe(o === 'none' ? 401 : 200);
    },
  }),
  scenario({
    name: 'reset-password with REVOKE_SESSIONS_ON_PASSWORD_RESET (token used, hash, sessions ended)',
    prepare: async (api, stack) => {
      const victim = await person(api, stack, 'resetter');
      const token = randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24);
      await stack.pg.query(
        `INSERT INTO verifications (id, identifier, value, expires_at, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, $2, now() + interval '1 hour', now(), now())`,
        [`reset-password:${token}`, victim.id],
      );
      return { victim, token };
    },
    lock: ({ victim }) => ['SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE', [victim.id]],
    run: (api, { token }) => call(api, '/reset-password', { newPassword: NEW_PASSWORD, token }),
    steps: async (stack, { victim, token }) => {
      const [account] = await stack.pg.query<{ updated_at: Date; created_at: Date }>(
        "SELECT updated_at, created_at FROM accounts WHERE user_id = $1 AND provider_id = 'credential'",
        [victim.id],
      );
      return {
        tokenUsed:
          (await count(stack, 'SELECT 1 FROM verifications WHERE identifier = $1', [`reset-password:${token}`])) === 0,
        hashChanged: account.updated_at.getTime() !== account.created_at.getTime(),
        sessionsEnded: (await count(stack, 'SELECT 1 FROM sessions WHERE user_id = $1', [victim.id])) === 0,
      };
    },
    seen: async (api, { victim }, o) => {
      for (const token of victim.tokens) expect(await validates(api, token)).toBe(o === 'none');
      expect(await signsIn(api, victim.email, NEW_PASSWORD)).toBe(o === 'none' ? 401 : 200);
    },
  }),
  scenario({
    name: 'organization accept-invitation (claimed, member, team place, active organization of the session)',
    prepare: async (api, stack) => {
      const owner = await person(api, stack, 'inviter', true);
      const invitee = await person(api, stack, 'invitee', true);
      const org = await must(api, '/organization/create', { name: 'Fault', slug: uniqueSlug() }, owner.tokens[0]);
      const teamId = org.members[0].teamId;
      const invitation = await must(
        api,
        '/organization/invite-member',
        { email: invitee.email, role: 'member', organizationId: org.id, teamId },
        owner.tokens[0],
      );
      return { invitee, org, teamId, invitationId: invitation.id };
    },
    lock: ({ invitee }) => ['SELECT 1 FROM sessions WHERE token = $1 FOR UPDATE', [invitee.tokens[0]]],
    run: (api, { invitee, invitationId }) =>
      call(api, '/organization/accept-invitation', { invitationId }, invitee.tokens[0]),
    steps: async (stack, { invitee, org, teamId, invitationId }) => {
      const [inv] = await stack.pg.query<{ status: string }>('SELECT status FROM invitations WHERE id = $1', [
        invitationId,
      ]);
      const [s] = await stack.pg.query<{ active_organization_id: string | null }>(
        'SELECT active_organization_id FROM sessions WHERE token = $1',
        [invitee.tokens[0]],
      );
      const q = 'SELECT 1 FROM members WHERE organization_id = $1 AND user_id = $2';
      return {
        claimed: inv.status === 'accepted',
        member: (await count(stack, q, [org.id, invitee.id])) === 1,
        teamPlace:
          (await count(stack, 'SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2', [
            teamId,
            invitee.id,
          ])) === 1,
        activeOrganization: s.active_organization_id === org.id,
      };
    },
    seen: async (api, { invitee, org }, o) => {
      const answer = await session(api, invitee.tokens[0]);
      expect(answer.session.activeOrganizationId).toBe(o === 'none' ? null : org.id);
    },
  }),
  scenario({
    name: 'organization delete (active organizations cleared, invitations, members, organization)',
    prepare: async (api, stack) => {
      const owner = await person(api, stack, 'deleter', true);
      const org = await must(api, '/organization/create', { name: 'Gone', slug: uniqueSlug() }, owner.tokens[0]);
      await must(
        api,
        '/organization/invite-member',
        { email: uniqueEmail('never'), role: 'member', organizationId: org.id },
        owner.tokens[0],
      );
      await cached(api, owner.tokens[0]); // the active organization changed: cache the new answer
      return { owner, org };
    },
    lock: ({ org }) => ['SELECT 1 FROM members WHERE organization_id = $1 FOR UPDATE', [org.id]],
    run: (api, { owner, org }) => call(api, '/organization/delete', { organizationId: org.id }, owner.tokens[0]),
    steps: async (stack, { owner, org }) => ({
      activeCleared:
        (await count(stack, 'SELECT 1 FROM sessions WHERE token = $1 AND active_organization_id IS NULL', [
          owner.tokens[0],
        ])) === 1,
      invitations: (await count(stack, 'SELECT 1 FROM invitations WHERE organization_id = $1', [org.id])) === 0,
      members: (await count(stack, 'SELECT 1 FROM members WHERE organization_id = $1', [org.id])) === 0,
      organization: (await count(stack, 'SELECT 1 FROM organizations WHERE id = $1', [org.id])) === 0,
    }),
    seen: async (api, { owner, org }, o) => {
      const answer = await session(api, owner.tokens[0]);
      expect(answer.session.activeOrganizationId).toBe(o === 'none' ? org.id : null);
    },
  }),
  scenario({
    name: 'organization remove-member (membership, team places, active organization of their sessions)',
    prepare: async (api, stack) => {
      const owner = await person(api, stack, 'remover', true);
      const member = await person(api, stack, 'removed', true);
      const org = await must(api, '/organization/create', { name: 'Keep', slug: uniqueSlug() }, owner.tokens[0]);
      const teamId = org.members[0].teamId;
      const invitation = await must(
        api,
        '/organization/invite-member',
        { email: member.email, role: 'member', organizationId: org.id, teamId },
        owner.tokens[0],
      );
      await must(api, '/organization/accept-invitation', { invitationId: invitation.id }, member.tokens[0]);
      await cached(api, member.tokens[0]);
      return { owner, member, org, teamId };
    },
    lock: ({ member }) => ['SELECT 1 FROM sessions WHERE token = $1 FOR UPDATE', [member.tokens[0]]],
    run: (api, { owner, member, org }) =>
      call(
        api,
        '/organization/remove-member',
        { memberIdOrEmail: member.email, organizationId: org.id },
        owner.tokens[0],
      ),
    steps: async (stack, { member, org, teamId }) => ({
      membership:
        (await count(stack, 'SELECT 1 FROM members WHERE organization_id = $1 AND user_id = $2', [
          org.id,
          member.id,
        ])) === 0,
      teamPlace:
        (await count(stack, 'SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, member.id])) ===
        0,
      activeCleared:
        (await count(stack, 'SELECT 1 FROM sessions WHERE token = $1 AND active_organization_id IS NULL', [
          member.tokens[0],
        ])) === 1,
    }),
    seen: async (api, { member, org }, o) => {
      const answer = await session(api, member.tokens[0]);
      expect(answer.session.activeOrganizationId).toBe(o === 'none' ? org.id : null);
    },
  }),
  scenario({
    name: 'admin remove-user (tokens, sessions, user)',
    prepare: async (api, stack) => {
      const victim = await person(api, stack, 'removed-user');
      await stack.pg.query(
        `INSERT INTO verifications (id, identifier, value, expires_at, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, $2, now() + interval '1 hour', now(), now())`,
        [`reset-password:${randomBytes(12).toString('hex').slice(0, 24)}`, victim.id],
      );
      return { victim };
    },
    lock: ({ victim }) => ['SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE', [victim.id]],
    run: (api, { victim }, admin) => call(api, '/admin/remove-user', { userId: victim.id }, admin.tokens[0]),
    steps: async (stack, { victim }) => ({
      tokens: (await count(stack, 'SELECT 1 FROM verifications WHERE value = $1', [victim.id])) === 0,
      sessions: (await count(stack, 'SELECT 1 FROM sessions WHERE user_id = $1', [victim.id])) === 0,
      user: (await count(stack, 'SELECT 1 FROM users WHERE id = $1', [victim.id])) === 0,
    }),
    seen: async (api, { victim }, o) => {
      for (const token of victim.tokens) expect(await validates(api, token)).toBe(o === 'none');
    },
  }),
  scenario({
    name: 'change-email of an unverified user (address, cached sessions)',
    prepare: async (api, stack) => ({ victim: await person(api, stack, 'mover'), newEmail: uniqueEmail('moved') }),
    lock: ({ victim }) => ['SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [victim.id]],
    run: (api, { victim, newEmail }) => call(api, '/change-email', { newEmail }, victim.tokens[0]),
    steps: async (stack, { victim, newEmail }) => ({
      moved: (await count(stack, 'SELECT 1 FROM users WHERE id = $1 AND email = $2', [victim.id, newEmail])) === 1,
    }),
    seen: async (api, { victim, newEmail }, o) => {
      for (const token of victim.tokens)
        expect((await session(api, token)).user.email).toBe(o === 'none' ? victim.email : newEmail);
    },
  }),
];

function uniqueSlug(): string {
  return `fault-${randomBytes(5).toString('hex')}`;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

let stack: FaultStack;
/** The API process of the moment: each phase prepares on it, kills it and starts the next. */
let api: ApiProcess;
const API_ENV = { REVOKE_SESSIONS_ON_PASSWORD_RESET: 'true' };

beforeAll(async () => {
  stack = await startFaultStack();
  api = await stack.api(API_ENV);
}, 60_000);
afterAll(() => stack?.destroy());

/** Kills the API with SIGKILL and waits for it to be gone. */
async function kill(api: ApiProcess): Promise<void> {
  api.child.kill('SIGKILL');
  await api.exited;
}

/** No backend of a killed API still works on something (its transactions ended, one way or the other). */
const settledBackends = () =>
  until('the killed API’s backends to finish', async () => {
    const rows = await stack.pg.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'identity' AND backend_type = 'client backend'
       AND pid <> pg_backend_pid() AND state <> 'idle'`,
    );
    return rows[0].n === '0';
  });

async function adminOf(api: Api): Promise<Person> {
  const admin = await person(api, stack, 'admin');
  await stack.pg.query("UPDATE users SET role = 'admin' WHERE id = $1", [admin.id]);
  return admin;
}

async function checkReportsNothing(): Promise<void> {
  const res = await runCliWith(stack.storeEnv, 'check', '--json');
  expect([res.code, JSON.parse(res.stdout).found]).toEqual([0, 0]);
}

describe('killed mid-transaction: nothing of the operation remains', () => {
  const results = new Map<string, { s: unknown; state: string }>();

  beforeAll(async () => {
    const admin = await adminOf(api);
    const prepared: unknown[] = [];
    for (const scenario of SCENARIOS) prepared.push(await scenario.prepare(api, stack, admin));
    const locks: Client[] = [];
    const answered: string[] = [];
    for (const [i, scenario] of SCENARIOS.entries()) {
      const c = await stack.pg.client();
      await c.query('BEGIN');
      const [text, params] = scenario.lock(prepared[i]);
      await c.query(text, params);
      locks.push(c);
      scenario.run(api, prepared[i], admin).then(
        (res) => answered.push(`${scenario.name}: ${JSON.stringify(res)}`),
        () => undefined, // killed
      );
    }
    const pids = await Promise.all(
      locks.map(async (c) => (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid),
    );
    await until('every operation to block on its row lock', async () => {
      if (answered.length) throw new Error(`answered instead of blocking: ${answered.join('; ')}`);
      const rows = await stack.pg.query<{ n: string }>(
        'SELECT count(DISTINCT l) AS n FROM pg_stat_activity a, unnest(pg_blocking_pids(a.pid)) l WHERE l = ANY($1)',
        [pids],
      );
      return Number(rows[0].n) === pids.length;
    });
    await kill(api);
    for (const c of locks) {
      await c.query('ROLLBACK');
      await c.end();
    }
    await settledBackends();
    for (const [i, scenario] of SCENARIOS.entries())
      results.set(scenario.name, { s: prepared[i], state: outcome(await scenario.steps(stack, prepared[i])) });
    api = await stack.api(API_ENV);
  }, 90_000);

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_, scenario) => {
    const { s, state } = results.get(scenario.name)!;
    // No partial state; and since each operation is one transaction that never committed, none of it.
    expect(state).toBe('none');
    await scenario.seen(api, s, 'none');
  });

  it('cli check reports no partial state', checkReportsNothing);
});

describe('killed while its commit is made, before anything after it (the cache eviction)', () => {
  const results = new Map<string, { s: unknown; state: string }>();

  beforeAll(async () => {
    const admin = await adminOf(api);
    const prepared: unknown[] = [];
    for (const scenario of SCENARIOS) prepared.push(await scenario.prepare(api, stack, admin));
    // Every commit now waits for a synchronous standby that never comes: written, but not yet answered.
    await stack.pg.query("ALTER SYSTEM SET synchronous_standby_names = 'absent_standby'");
    await stack.pg.query('SELECT pg_reload_conf()');
    const answered: string[] = [];
    try {
      for (const [i, scenario] of SCENARIOS.entries())
        scenario.run(api, prepared[i], admin).then(
          (res) => answered.push(`${scenario.name}: ${JSON.stringify(res)}`),
          () => undefined,
        );
      await until('every operation to wait at its commit', async () => {
        if (answered.length) throw new Error(`answered instead of committing: ${answered.join('; ')}`);
        const rows = await stack.pg.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event = 'SyncRep'",
        );
        return Number(rows[0].n) === SCENARIOS.length;
      });
      await kill(api);
    } finally {
      await stack.pg.query('ALTER SYSTEM RESET synchronous_standby_names');
      await stack.pg.query('SELECT pg_reload_conf()');
    }
    await settledBackends();
    for (const [i, scenario] of SCENARIOS.entries())
      results.set(scenario.name, { s: prepared[i], state: outcome(await scenario.steps(stack, prepared[i])) });
    api = await stack.api(API_ENV);
  }, 90_000);

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_, scenario) => {
    const { s, state } = results.get(scenario.name)!;
    expect(state).toBe('all');
    await scenario.seen(api, s, 'all');
  });

  it('cli check reports no partial state', checkReportsNothing);
});

import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { ConfigOverrides } from '../../../src/config';
import type { MailJob } from '../../../src/mail/jobs';
import { startTestApp, type TestApp } from '../../setup/app';
import { type CookieJar, get, post, type SignedUp, signUp } from '../../setup/fixtures';

export { get, post };

export interface OrgApp extends TestApp {
  /** Mail jobs enqueued since the last `mails.length = 0`. */
  mails: MailJob[];
}

/** The real service with its mail observed (jobs are recorded as the flows write them; none is sent). */
export async function startOrgApp(overrides: ConfigOverrides = {}, env: Record<string, string> = {}): Promise<OrgApp> {
  const t = await startTestApp(overrides, env);
  const mails: MailJob[] = [];
  t.ctx.mailOutbox.write = async (_id, job) => {
    mails.push(job);
  };
  return { ...t, mails };
}

/**
 * This test file's organization app: started before its tests and closed after them. The object is filled in when
 * the app has started, so use it inside tests and hooks only.
 */
export function orgAppForThisFile(overrides: ConfigOverrides = {}, env: Record<string, string> = {}): OrgApp {
  const t = {} as OrgApp;
  beforeAll(async () => {
    Object.assign(t, await startOrgApp(overrides, env));
  });
  afterAll(() => t.close?.());
  return t;
}

export const uniqueSlug = (tag = 'org') => `${tag}-${randomBytes(5).toString('hex')}`;

export interface User extends SignedUp {
  name: string;
}

/** A signed-up user whose email is verified (accepting needs it by default). */
export async function user(t: TestApp, fields: { verified?: boolean; language?: string; name?: string } = {}) {
  const name = fields.name ?? `User ${randomBytes(3).toString('hex')}`;
  const u = await signUp(t.app, { name, language: fields.language });
  if (fields.verified !== false)
    await t.ctx.sql.query('UPDATE users SET email_verified = true WHERE id = $1', [u.userId]);
  return { ...u, name } as User;
}

export const as = (jar: CookieJar) => ({ jar });

export async function createOrg(t: TestApp, owner: User, extra: Record<string, unknown> = {}) {
  const slug = uniqueSlug();
  const res = await post(t.app, '/organization/create', { name: `Org ${slug}`, slug, ...extra }, as(owner.jar));
  if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; slug: string; name: string; members: Array<{ id: string }> };
}

/** A new verified user invited with `role` (and `teamId`) by `inviter` and accepted; returns the user and member id. */
export async function join(
  t: OrgApp,
  inviter: User,
  organizationId: string,
  role = 'member',
  teamId?: string,
): Promise<User & { memberId: string }> {
  const u = await user(t);
  const inv = await post(
    t.app,
    '/organization/invite-member',
    { email: u.email, role, organizationId, ...(teamId ? { teamId } : {}) },
    as(inviter.jar),
  );
  if (inv.statusCode !== 200) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
  const acc = await post(t.app, '/organization/accept-invitation', { invitationId: inv.json().id }, as(u.jar));
  if (acc.statusCode !== 200) throw new Error(`accept failed: ${acc.statusCode} ${acc.body}`);
  return { ...u, memberId: acc.json().member.id };
}

/** Everything stored for an organization (and the sessions' active organizations), to assert "nothing changed". */
export async function snapshot(t: TestApp, organizationId: string) {
  const q = (text: string) => t.ctx.sql.query(text, [organizationId]);
  return {
    organization: await q('SELECT * FROM organizations WHERE id = $1'),
    members: await q('SELECT * FROM members WHERE organization_id = $1 ORDER BY id'),
    invitations: await q('SELECT * FROM invitations WHERE organization_id = $1 ORDER BY id'),
    teams: await q('SELECT * FROM teams WHERE organization_id = $1 ORDER BY id'),
    teamMembers: await q(
      'SELECT tm.* FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.organization_id = $1 ORDER BY tm.id',
    ),
    activeSessions: await q('SELECT id FROM sessions WHERE active_organization_id = $1 ORDER BY id'),
  };
}

/** Asserts the catalogue answer: status, code and the message (spec §8 text). */
export function expectError(res: LightMyRequestResponse, status: number, code: string, message?: string) {
  const body = res.json();
  expect([res.statusCode, body.code]).toEqual([status, code]);
  if (message) expect(body.message).toBe(message);
}

/** Runs `act` and asserts it answered the error and left the organization and the mail queue untouched. */
export async function refusedWithoutChange(
  t: OrgApp,
  organizationId: string,
  act: () => Promise<LightMyRequestResponse>,
  status: number,
  code: string,
  message?: string,
) {
  const before = await snapshot(t, organizationId);
  t.mails.length = 0;
  const res = await act();
  expectError(res, status, code, message);
  expect(await snapshot(t, organizationId)).toEqual(before);
  expect(t.mails).toEqual([]);
  return res;
}

export async function activeOrganizationOf(t: TestApp, u: SignedUp): Promise<string | null> {
  const res = await get(t.app, '/get-session', { jar: u.jar });
  return res.json().session.activeOrganizationId;
}

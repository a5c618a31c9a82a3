import { type CookieJar, get, post } from '../../setup/fixtures';
import { as, createOrg, expectError, join, type OrgApp, startOrgApp, uniqueSlug, user } from '../organization/helpers';
import { signUpAdmin } from './helpers';

/**
 * An operator edits and deletes any organization (admin/organization/update and delete), with the organization
 * feature's own rules (a taken slug, deletion switched off), and searches and sorts the list of organizations.
 */
let t: OrgApp;
beforeAll(async () => {
  t = await startOrgApp({ admin: { roles: { viewer: { organization: ['list'] } } } });
});
afterAll(() => t?.close());

const op = (path: string, body: unknown, jar: CookieJar) => post(t.app, `/admin/organization/${path}`, body, as(jar));
const orgRow = async (id: string) =>
  (await t.ctx.sql.query('SELECT name, slug, logo, metadata FROM organizations WHERE id = $1', [id]))[0] ?? null;

describe('admin/organization/update', () => {
  it('changes name, slug, logo and metadata of an organization the operator is not a member of', async () => {
    const admin = await signUpAdmin(t);
    const org = await createOrg(t, await user(t));
    const slug = uniqueSlug('renamed');
    const res = await op(
      'update',
      {
        organizationId: org.id,
        data: { name: 'Renamed', slug, logo: 'https://cdn.example/logo.png', metadata: { tier: 'gold' } },
      },
      admin.jar,
    );
    expect([res.statusCode, res.json()]).toEqual([200, expect.objectContaining({ id: org.id, name: 'Renamed', slug })]);
    expect(await orgRow(org.id)).toEqual({
      name: 'Renamed',
      slug,
      logo: 'https://cdn.example/logo.png',
      metadata: JSON.stringify({ tier: 'gold' }),
    });
  });

  it("refuses another organization's slug, a viewer, and an unknown organization; nothing changes", async () => {
    const admin = await signUpAdmin(t);
    const viewer = await signUpAdmin(t, 'viewer');
    const owner = await user(t);
    const [a, b] = [await createOrg(t, owner), await createOrg(t, owner)];
    const before = await orgRow(a.id);
    expectError(
      await op('update', { organizationId: a.id, data: { slug: b.slug } }, admin.jar),
      400,
      'ORGANIZATION_ALREADY_EXISTS',
    );
    expectError(
      await op('update', { organizationId: a.id, data: { name: 'Viewer was here' } }, viewer.jar),
      403,
      'NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS',
    );
    expectError(
      await op('update', { organizationId: '00000000-0000-4000-8000-000000000000', data: { name: 'X' } }, admin.jar),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expect(await orgRow(a.id)).toEqual(before);
  });
});

describe('admin/organization/delete', () => {
  it('deletes an organization with its members, and a viewer may not', async () => {
    const admin = await signUpAdmin(t);
    const viewer = await signUpAdmin(t, 'viewer');
    const org = await createOrg(t, await user(t));
    expectError(await op('delete', { organizationId: org.id }, viewer.jar), 403, 'NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS');
    expect(await orgRow(org.id)).not.toBeNull();
    const res = await op('delete', { organizationId: org.id }, admin.jar);
    expect([res.statusCode, res.json().id]).toEqual([200, org.id]);
    expect(await orgRow(org.id)).toBeNull();
    const members = await t.ctx.sql.query('SELECT 1 FROM members WHERE organization_id = $1', [org.id]);
    expect(members).toEqual([]);
  });
});

describe('admin/list-organizations search and sort', () => {
  it('finds organizations by part of their name or slug, ignoring case, and sorts by name or member count', async () => {
    const admin = await signUpAdmin(t);
    const tag = uniqueSlug('zq').slice(3);
    const owner = await user(t);
    const names = [`Zeta ${tag}`, `alpha ${tag}`, `Mu ${tag}`];
    const ids: string[] = [];
    for (const name of names) ids.push((await createOrg(t, owner, { name, slug: uniqueSlug(`s-${tag}`) })).id);
    const list = async (query: string) =>
      (await get(t.app, `/admin/list-organizations?${query}`, as(admin.jar))).json();
    const byName = await list(`searchValue=${tag.toUpperCase()}&sortBy=name&sortDirection=asc`);
    expect(byName.organizations.map((o: { name: string }) => o.name)).toEqual([names[1], names[2], names[0]]);
    expect(byName.total).toBe(3);
    const bySlug = await list(`searchValue=s-${tag}&sortBy=name&sortDirection=desc`);
    expect(bySlug.organizations.map((o: { name: string }) => o.name)).toEqual([names[0], names[2], names[1]]);
    await join(t, owner, ids[2], 'member');
    const byMembers = await list(`searchValue=${tag}&sortBy=memberCount&sortDirection=desc`);
    expect(byMembers.organizations.map((o: { memberCount: number }) => o.memberCount)).toEqual([2, 1, 1]);
    expect(byMembers.organizations[0].id).toBe(ids[2]);
    expectError(await get(t.app, '/admin/list-organizations?sortBy=password', as(admin.jar)), 400, 'VALIDATION_ERROR');
  });
});

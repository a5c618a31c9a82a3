import { randomBytes, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../setup/app';
import { signUp } from '../../setup/fixtures';
import { adminGet, signUpAdmin } from './helpers';

/** admin list-organizations: the organization feature's operator listing, behind the admin permission. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('admin list-organizations', () => {
  it('lists organizations, newest first, with member counts and paging', async () => {
    const admin = await signUpAdmin(t);
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const tag = randomBytes(4).toString('hex');
    const future = Date.parse('2100-01-01T00:00:00Z');
    const orgs = [randomUUID(), randomUUID()];
    for (const [i, id] of orgs.entries())
      await t.ctx.sql.query('INSERT INTO organizations (id, name, slug, created_at) VALUES ($1, $2, $3, $4)', [
        id,
        `Org ${i} ${tag}`,
        `org-${i}-${tag}`,
        new Date(future + i * 1000),
      ]);
    for (const [org, user] of [
      [orgs[0], a.userId],
      [orgs[0], b.userId],
      [orgs[1], a.userId],
    ])
      await t.ctx.sql.query("INSERT INTO members (id, organization_id, user_id, role) VALUES ($1, $2, $3, 'member')", [
        randomUUID(),
        org,
        user,
      ]);
    const res = await adminGet(t, 'list-organizations?limit=2', admin.jar);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.organizations.map((o: { slug: string; memberCount: number }) => [o.slug, o.memberCount])).toEqual([
      [`org-1-${tag}`, 1],
      [`org-0-${tag}`, 2],
    ]);
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect([body.limit, body.offset]).toEqual([2, 0]);
    const next = await adminGet(t, 'list-organizations?limit=1&offset=1', admin.jar);
    expect(next.json().organizations[0].slug).toBe(`org-0-${tag}`);
  });

  it('answers each organization as the Organization model does: metadata an object, not its stored text', async () => {
    // spec §3: Organization metadata is an object stored as text.
    const admin = await signUpAdmin(t);
    const tag = randomBytes(4).toString('hex');
    const id = randomUUID();
    await t.ctx.sql.query(
      'INSERT INTO organizations (id, name, slug, logo, metadata, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [
        id,
        `Meta ${tag}`,
        `meta-${tag}`,
        'https://logo.test/a.png',
        '{"plan":"pro","seats":5}',
        new Date('2101-01-01T00:00:00Z'),
      ],
    );
    const res = await adminGet(t, 'list-organizations?limit=1', admin.jar);
    expect(res.statusCode).toBe(200);
    expect(res.json().organizations[0]).toEqual({
      id,
      name: `Meta ${tag}`,
      slug: `meta-${tag}`,
      logo: 'https://logo.test/a.png',
      metadata: { plan: 'pro', seats: 5 },
      requireTwoFactor: false,
      createdAt: '2101-01-01T00:00:00.000Z',
      memberCount: 0,
    });
  });
});

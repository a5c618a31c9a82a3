import {
  activeOrganizationOf,
  as,
  createOrg,
  expectError,
  get,
  join,
  orgAppForThisFile,
  post,
  refusedWithoutChange,
  snapshot,
  startOrgApp,
  uniqueSlug,
  user,
} from './helpers';

const t = orgAppForThisFile();

describe('create (spec §7)', () => {
  it('creates the organization, an owner membership and a default team, and makes it active', async () => {
    const owner = await user(t);
    const slug = uniqueSlug();
    const res = await post(
      t.app,
      '/organization/create',
      { name: 'Acme', slug, logo: 'https://img.example/a.png', metadata: { plan: 'pro' } },
      as(owner.jar),
    );
    expect(res.statusCode).toBe(200);
    const org = res.json();
    expect(org).toEqual({
      id: expect.any(String),
      name: 'Acme',
      slug,
      logo: 'https://img.example/a.png',
      metadata: { plan: 'pro' },
      requireTwoFactor: false,
      createdAt: expect.any(String),
      members: [
        {
          id: expect.any(String),
          organizationId: org.id,
          userId: owner.userId,
          role: 'owner',
          teamId: expect.any(String),
          createdAt: expect.any(String),
        },
      ],
    });
    const teams = await t.ctx.sql.query('SELECT id, name FROM teams WHERE organization_id = $1', [org.id]);
    // The owner's membership carries the default team it was placed in.
    expect(teams).toEqual([{ id: org.members[0].teamId, name: 'Acme' }]);
    // The session-cache cookie was re-issued: get-session (cookie cache first) sees the new active organization.
    expect(await activeOrganizationOf(t, owner)).toBe(org.id);
  });

  it('keeps the current active organization with keepCurrentActiveOrganization', async () => {
    const owner = await user(t);
    const first = await createOrg(t, owner);
    await createOrg(t, owner, { keepCurrentActiveOrganization: true });
    expect(await activeOrganizationOf(t, owner)).toBe(first.id);
  });

  it('refuses a taken slug with "Organization already exists" and creates nothing', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const before = await t.ctx.sql.query('SELECT count(*)::int AS n FROM organizations');
    const res = await post(t.app, '/organization/create', { name: 'Other', slug: org.slug }, as(owner.jar));
    expectError(res, 400, 'ORGANIZATION_ALREADY_EXISTS', 'Organization already exists');
    expect(await t.ctx.sql.query('SELECT count(*)::int AS n FROM organizations')).toEqual(before);
  });

  it('two concurrent creates of one slug: exactly one wins', async () => {
    const a = await user(t);
    const b = await user(t);
    const slug = uniqueSlug();
    const answers = await Promise.all(
      [a, b].map((u) => post(t.app, '/organization/create', { name: 'Race', slug }, as(u.jar))),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await t.ctx.sql.query('SELECT count(*)::int AS n FROM organizations WHERE slug = $1', [slug])).toEqual([
      { n: 1 },
    ]);
  });

  it('refuses a userId naming someone else, and callers without a session', async () => {
    const owner = await user(t);
    const other = await user(t);
    const res = await post(
      t.app,
      '/organization/create',
      { name: 'X', slug: uniqueSlug(), userId: other.userId },
      as(owner.jar),
    );
    expectError(res, 400, 'FIELD_NOT_ALLOWED');
    expectError(await post(t.app, '/organization/create', { name: 'X', slug: uniqueSlug() }), 401, 'NOT_AUTHENTICATED');
  });

  it('refuses when creation is disabled, or over the per-user limit', async () => {
    const off = await startOrgApp({ organization: { allowUserToCreateOrganization: false } });
    const limited = await startOrgApp({ organization: { organizationLimit: 1 } });
    try {
      const u = await user(off);
      const res = await post(off.app, '/organization/create', { name: 'X', slug: uniqueSlug() }, as(u.jar));
      expectError(res, 403, 'NOT_ALLOWED_TO_CREATE_ORGANIZATION', 'You are not allowed to create a new organization');
      const v = await user(limited);
      await createOrg(limited, v);
      const again = await post(limited.app, '/organization/create', { name: 'Y', slug: uniqueSlug() }, as(v.jar));
      expectError(again, 403, 'ORGANIZATION_LIMIT_REACHED', 'You have reached the maximum number of organizations');
      expect(
        await limited.ctx.sql.query('SELECT count(*)::int AS n FROM members WHERE user_id = $1', [v.userId]),
      ).toEqual([{ n: 1 }]);
    } finally {
      await off.close();
      await limited.close();
    }
  });
});

describe('check-slug', () => {
  it('answers status true for a free slug and "slug is taken" for a used one', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const free = await post(t.app, '/organization/check-slug', { slug: uniqueSlug() }, as(owner.jar));
    expect([free.statusCode, free.json()]).toEqual([200, { status: true }]);
    const taken = await post(t.app, '/organization/check-slug', { slug: org.slug }, as(owner.jar));
    expectError(taken, 400, 'SLUG_IS_TAKEN', 'slug is taken');
  });
});

describe('update', () => {
  it('updates name, slug, logo and metadata (organization update)', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const slug = uniqueSlug('renamed');
    const res = await post(
      t.app,
      '/organization/update',
      { organizationId: org.id, data: { name: 'Renamed', slug, logo: null, metadata: { a: 1 } } },
      as(owner.jar),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: org.id, name: 'Renamed', slug, logo: null, metadata: { a: 1 } });
  });

  it('uses the active organization by default', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const res = await post(t.app, '/organization/update', { data: { name: 'Active' } }, as(owner.jar));
    expect(res.json()).toMatchObject({ id: org.id, name: 'Active' });
  });

  it('refuses a member without organization update, a non-member, a taken slug; nothing changes', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const other = await createOrg(t, owner, { keepCurrentActiveOrganization: true });
    const member = await join(t, owner, org.id, 'member');
    const stranger = await user(t);
    const body = { organizationId: org.id, data: { name: 'Hijack' } };
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/update', body, as(member.jar)),
      403,
      'NOT_ALLOWED_TO_UPDATE_ORGANIZATION',
      'You are not allowed to update this organization',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/update', body, as(stranger.jar)),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
      'User is not a member of the organization',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/update', { organizationId: org.id, data: { slug: other.slug } }, as(owner.jar)),
      400,
      'ORGANIZATION_ALREADY_EXISTS',
      'Organization already exists',
    );
    const none = await user(t);
    expectError(
      await post(t.app, '/organization/update', { data: { name: 'x' } }, as(none.jar)),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
  });
});

describe('slugs are normalized: Unicode NFKC, lower case, trimmed', () => {
  const fullwidth = (text: string) =>
    text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x21 + 0xff01));

  it('stores the normalized slug, so look-alikes collide on create, update and check-slug', async () => {
    const owner = await user(t);
    const base = uniqueSlug('acme');
    const created = await post(
      t.app,
      '/organization/create',
      { name: 'Acme', slug: ` ${base.toUpperCase()} ` },
      as(owner.jar),
    );
    expect([created.statusCode, created.json().slug]).toEqual([200, base]);
    expect(await t.ctx.sql.query('SELECT slug FROM organizations WHERE id = $1', [created.json().id])).toEqual([
      { slug: base },
    ]);
    const other = await createOrg(t, owner, { keepCurrentActiveOrganization: true });
    for (const lookAlike of [base.toUpperCase(), fullwidth(base), `\u3000${fullwidth(base.toUpperCase())}\t`]) {
      await refusedWithoutChange(
        t,
        created.json().id,
        () => post(t.app, '/organization/create', { name: 'Twin', slug: lookAlike }, as(owner.jar)),
        400,
        'ORGANIZATION_ALREADY_EXISTS',
        'Organization already exists',
      );
      await refusedWithoutChange(
        t,
        other.id,
        () =>
          post(t.app, '/organization/update', { organizationId: other.id, data: { slug: lookAlike } }, as(owner.jar)),
        400,
        'ORGANIZATION_ALREADY_EXISTS',
        'Organization already exists',
      );
      expectError(
        await post(t.app, '/organization/check-slug', { slug: lookAlike }, as(owner.jar)),
        400,
        'SLUG_IS_TAKEN',
        'slug is taken',
      );
    }
    expect(await t.ctx.sql.query('SELECT count(*)::int AS n FROM organizations WHERE slug = $1', [base])).toEqual([
      { n: 1 },
    ]);
    // Its own slug in another form is no conflict: the update stores the normalized form.
    const same = await post(
      t.app,
      '/organization/update',
      { organizationId: created.json().id, data: { slug: fullwidth(base.toUpperCase()) } },
      as(owner.jar),
    );
    expect([same.statusCode, same.json().slug]).toEqual([200, base]);
    const renamed = uniqueSlug('renamed');
    const moved = await post(
      t.app,
      '/organization/update',
      { organizationId: other.id, data: { slug: fullwidth(renamed.toUpperCase()) } },
      as(owner.jar),
    );
    expect([moved.statusCode, moved.json().slug]).toEqual([200, renamed]);
    // Lookups by slug normalize too.
    const active = await post(
      t.app,
      '/organization/set-active',
      { organizationSlug: base.toUpperCase() },
      as(owner.jar),
    );
    expect(active.json()).toMatchObject({ id: created.json().id, slug: base });
  });

  it('refuses a slug that is empty once normalized, and changes nothing', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    for (const slug of ['   ', '\u3000\t']) {
      const res = await post(t.app, '/organization/create', { name: 'Blank', slug }, as(owner.jar));
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.json().details).toEqual([{ field: 'body.slug', problem: expect.any(String) }]);
      expectError(await post(t.app, '/organization/check-slug', { slug }, as(owner.jar)), 400, 'VALIDATION_ERROR');
      await refusedWithoutChange(
        t,
        org.id,
        () => post(t.app, '/organization/update', { organizationId: org.id, data: { slug } }, as(owner.jar)),
        400,
        'VALIDATION_ERROR',
      );
    }
    expect(await t.ctx.sql.query("SELECT 1 FROM organizations WHERE slug = ''")).toEqual([]);
  });
});

describe('delete', () => {
  it('deletes members, invitations and teams, returns the organization and clears it wherever it was active', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const member = await join(t, owner, org.id, 'member');
    await post(t.app, '/organization/invite-member', { email: 'pending@example.com', role: 'member' }, as(owner.jar));
    expect(await activeOrganizationOf(t, member)).toBe(org.id);
    const res = await post(t.app, '/organization/delete', { organizationId: org.id }, as(owner.jar));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: org.id, slug: org.slug });
    const after = await snapshot(t, org.id);
    expect(after).toEqual({
      organization: [],
      members: [],
      invitations: [],
      teams: [],
      teamMembers: [],
      activeSessions: [],
    });
    expect(await activeOrganizationOf(t, owner)).toBeNull();
    // The other member's Redis cache entry was evicted: get-session with the cache bypassed for the cookie.
    const session = await get(t.app, '/get-session?disableCookieCache=true', { jar: member.jar });
    expect(session.json().session.activeOrganizationId).toBeNull();
  });

  it('refuses an admin (no organization delete), a stranger, and when deletion is disabled', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    const admin = await join(t, owner, org.id, 'admin');
    const stranger = await user(t);
    const body = { organizationId: org.id };
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/delete', body, as(admin.jar)),
      403,
      'NOT_ALLOWED_TO_DELETE_ORGANIZATION',
      'You are not allowed to delete this organization',
    );
    await refusedWithoutChange(
      t,
      org.id,
      () => post(t.app, '/organization/delete', body, as(stranger.jar)),
      403,
      'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
    );
    const off = await startOrgApp({ organization: { disableOrganizationDeletion: true } });
    try {
      const o = await user(off);
      const kept = await createOrg(off, o);
      await refusedWithoutChange(
        off,
        kept.id,
        () => post(off.app, '/organization/delete', { organizationId: kept.id }, as(o.jar)),
        404,
        'ORGANIZATION_DELETION_DISABLED',
      );
    } finally {
      await off.close();
    }
  });
});

describe('list and get-full-organization', () => {
  it("lists only the caller's organizations", async () => {
    const owner = await user(t);
    const a = await createOrg(t, owner);
    const b = await createOrg(t, owner);
    await createOrg(t, await user(t));
    const res = await get(t.app, '/organization/list', as(owner.jar));
    expect(
      res
        .json()
        .map((o: { id: string }) => o.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
  });

  it('returns the active organization with members (with users), invitations and teams', async () => {
    const owner = await user(t);
    const org = await createOrg(t, owner);
    await post(t.app, '/organization/invite-member', { email: 'full@example.com', role: 'admin' }, as(owner.jar));
    const res = await get(t.app, '/organization/get-full-organization', as(owner.jar));
    expect(res.statusCode).toBe(200);
    const full = res.json();
    expect(full).toMatchObject({ id: org.id, slug: org.slug });
    expect(full.members).toEqual([
      expect.objectContaining({
        userId: owner.userId,
        role: 'owner',
        user: expect.objectContaining({ email: owner.email }),
      }),
    ]);
    expect(full.invitations).toEqual([expect.objectContaining({ email: 'full@example.com', status: 'pending' })]);
    expect(full.teams).toEqual([expect.objectContaining({ name: org.name })]);
    const bySlug = await get(
      t.app,
      `/organization/get-full-organization?organizationSlug=${org.slug}&membersLimit=1`,
      as(owner.jar),
    );
    expect(bySlug.json().id).toBe(org.id);
  });

  it('answers null without an active organization; refuses a foreign organization; unknown is not found', async () => {
    const loner = await user(t);
    const res = await get(t.app, '/organization/get-full-organization', as(loner.jar));
    expect([res.statusCode, res.body]).toEqual([200, 'null']);
    const foreign = await createOrg(t, await user(t));
    const refused = await get(t.app, `/organization/get-full-organization?organizationId=${foreign.id}`, as(loner.jar));
    expectError(refused, 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    const unknown = await get(
      t.app,
      '/organization/get-full-organization?organizationId=00000000-0000-4000-8000-000000000000',
      as(loner.jar),
    );
    expectError(unknown, 404, 'ORGANIZATION_NOT_FOUND', 'Organization not found');
  });
});

describe('set-active', () => {
  it('sets by id or slug, clears with null, and get-session follows at once', async () => {
    const owner = await user(t);
    const a = await createOrg(t, owner);
    const b = await createOrg(t, owner);
    expect(await activeOrganizationOf(t, owner)).toBe(b.id);
    const byId = await post(t.app, '/organization/set-active', { organizationId: a.id }, as(owner.jar));
    expect(byId.json()).toMatchObject({ id: a.id });
    expect(await activeOrganizationOf(t, owner)).toBe(a.id);
    await post(t.app, '/organization/set-active', { organizationSlug: b.slug }, as(owner.jar));
    expect(await activeOrganizationOf(t, owner)).toBe(b.id);
    const cleared = await post(t.app, '/organization/set-active', { organizationId: null }, as(owner.jar));
    expect([cleared.statusCode, cleared.body]).toEqual([200, 'null']);
    expect(await activeOrganizationOf(t, owner)).toBeNull();
    // The Redis entry was evicted too (bearer calls skip the cookie cache and read Redis first).
    const bearer = await get(t.app, '/get-session', { bearer: owner.token });
    expect(bearer.json().session.activeOrganizationId).toBeNull();
  });

  it('refuses an organization the caller is not a member of, leaving the active one unchanged', async () => {
    const u = await user(t);
    const mine = await createOrg(t, u);
    const foreign = await createOrg(t, await user(t));
    const res = await post(t.app, '/organization/set-active', { organizationId: foreign.id }, as(u.jar));
    expectError(res, 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
    expect(await activeOrganizationOf(t, u)).toBe(mine.id);
    const junk = await post(t.app, '/organization/set-active', { organizationId: 'not-a-uuid' }, as(u.jar));
    expectError(junk, 403, 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION');
  });
});

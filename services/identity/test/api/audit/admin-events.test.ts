import { randomBytes } from 'node:crypto';
import { createAuditFeature, type EventFollower } from '../../../src/features/audit';
import { startTestApp, type TestApp } from '../../setup/app';
import { get, PASSWORD, post, sessionOf, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { adminPost, signUpAdmin, userRow } from '../admin/helpers';
import { eventsAbout, keysOf, typesAbout } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const last = async (id: string) => (await eventsAbout(t, id)).at(-1)!;
const adminActor = (id: string) => ({ actor_type: 'user', actor_id: id, impersonator_id: null });

describe('admin events (docs/audit.md): every admin action with its change, the operator as actor', () => {
  it('create-user, update-user, set-role, set-user-password and remove-user', async () => {
    const admin = await signUpAdmin(t);
    const email = uniqueEmail('made');
    const created = await adminPost(
      t,
      'create-user',
      { email, password: PASSWORD, name: 'Made', role: 'user' },
      admin.jar,
    );
    expect(created.statusCode).toBe(200);
    const userId = created.json().user.id;
    expect(await last(userId)).toMatchObject({
      type: 'admin.user.created',
      ...adminActor(admin.userId),
      target_type: 'user',
      target_id: userId,
      details: { role: 'user' },
    });
    expect((await adminPost(t, 'update-user', { userId, data: { name: 'Renamed' } }, admin.jar)).statusCode).toBe(200);
    expect(await last(userId)).toMatchObject({ type: 'admin.user.updated', details: { fields: ['name'] } });
    expect((await adminPost(t, 'set-role', { userId, role: 'admin' }, admin.jar)).statusCode).toBe(200);
    expect(await last(userId)).toMatchObject({
      type: 'admin.user.role_set',
      ...adminActor(admin.userId),
      details: { role: 'admin' },
    });
    const newPassword = `new-${randomBytes(8).toString('hex')}`;
    expect((await adminPost(t, 'set-user-password', { userId, newPassword }, admin.jar)).statusCode).toBe(200);
    expect(await last(userId)).toMatchObject({ type: 'admin.user.password_set', ...adminActor(admin.userId) });
    expect((await adminPost(t, 'remove-user', { userId }, admin.jar)).statusCode).toBe(200);
    expect(await last(userId)).toMatchObject({ type: 'admin.user.removed', ...adminActor(admin.userId) });
    const events = await eventsAbout(t, userId);
    expect(events.map((e) => e.type)).toEqual([
      'admin.user.created',
      'admin.user.updated',
      'admin.user.role_set',
      'admin.user.password_set',
      'admin.user.removed',
    ]);
    for (const e of events) {
      expect(keysOf(e.details).filter((k) => /pass|token|secret|hash/i.test(k))).toEqual([]);
      expect(JSON.stringify(e)).not.toContain(newPassword);
      expect(JSON.stringify(e)).not.toContain(PASSWORD);
    }
  });

  it('ban-user records the reason and expiry; unban-user clears the row but both stay in the trail', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const ban = await adminPost(t, 'ban-user', { userId: u.userId, banReason: 'spam', banExpiresIn: 3600 }, admin.jar);
    expect(ban.statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'admin.user.banned',
      ...adminActor(admin.userId),
      details: { reason: 'spam', expiresAt: ban.json().user.banExpires },
    });
    expect((await adminPost(t, 'unban-user', { userId: u.userId }, admin.jar)).statusCode).toBe(200);
    expect(await userRow(t, u.userId)).toMatchObject({ banned: false, ban_reason: null, ban_expires: null });
    const types = await typesAbout(t, u.userId);
    expect(types.slice(-2)).toEqual(['admin.user.banned', 'admin.user.unbanned']);
  });

  it('a ban whose event cannot be written is not made: the change and its event commit together', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const reason = `fail-${randomBytes(6).toString('hex')}`;
    // A real failure inside the ban's transaction, at its last statement (the event), for this reason only.
    await t.ctx.sql.query(`CREATE FUNCTION fail_${reason.replace('-', '_')}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.details->>'reason' = '${reason}' THEN RAISE EXCEPTION 'forced failure'; END IF; RETURN NEW; END $$`);
    await t.ctx.sql.query(
      `CREATE TRIGGER fail_${reason.replace('-', '_')} BEFORE INSERT ON audit_events FOR EACH ROW
       EXECUTE FUNCTION fail_${reason.replace('-', '_')}()`,
    );
    try {
      const res = await adminPost(t, 'ban-user', { userId: u.userId, banReason: reason }, admin.jar);
      expect(res.statusCode).toBe(500);
    } finally {
      await t.ctx.sql.query(`DROP TRIGGER fail_${reason.replace('-', '_')} ON audit_events`);
      await t.ctx.sql.query(`DROP FUNCTION fail_${reason.replace('-', '_')}()`);
    }
    expect(await userRow(t, u.userId)).toMatchObject({ banned: false, ban_reason: null });
    expect(await sessionOf(t.app, { bearer: u.token })).not.toBeNull(); // the sessions were not ended either
    expect(await typesAbout(t, u.userId)).not.toContain('admin.user.banned');
  });

  it('a change that rolls back after its event leaves no event (a password change whose new session is refused)', async () => {
    const u = await signUp(t.app);
    const fn = `refuse_session_${u.userId.replace(/-/g, '_')}`;
    // A real failure inside the change's transaction, at the new session's INSERT, after the change's event.
    await t.ctx.sql.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.user_id = '${u.userId}' THEN RAISE EXCEPTION 'refused session'; END IF; RETURN NEW; END $$`);
    await t.ctx.sql.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const res = await post(
        t.app,
        '/change-password',
        { currentPassword: PASSWORD, newPassword: 'a different passphrase', revokeOtherSessions: true },
        { jar: u.jar },
      );
      expect(res.statusCode).toBe(500);
    } finally {
      await t.ctx.sql.query(`DROP TRIGGER ${fn} ON sessions`);
      await t.ctx.sql.query(`DROP FUNCTION ${fn}()`);
    }
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200); // the old password still works
    expect(await typesAbout(t, u.userId)).not.toContain('user.password_changed');
  });

  it('revoke-user-session and revoke-user-sessions name the operator', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    expect((await adminPost(t, 'revoke-user-session', { sessionToken: other.token }, admin.jar)).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({ type: 'admin.user.session_revoked', ...adminActor(admin.userId) });
    // By id (consoles): the same event, for the session named.
    const third = await signIn(t.app, u.email);
    const thirdId = (
      await t.ctx.sql.query<{ id: string }>('SELECT id FROM sessions WHERE token = $1', [third.token])
    )[0].id;
    const before = (await eventsAbout(t, u.userId)).length;
    expect((await adminPost(t, 'revoke-user-session', { sessionId: thirdId }, admin.jar)).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({ type: 'admin.user.session_revoked', ...adminActor(admin.userId) });
    expect((await eventsAbout(t, u.userId)).length).toBe(before + 1);
    expect((await adminPost(t, 'revoke-user-sessions', { userId: u.userId }, admin.jar)).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({ type: 'admin.user.sessions_revoked', ...adminActor(admin.userId) });
    expect(JSON.stringify(await eventsAbout(t, u.userId))).not.toContain(other.token);
  });

  it('impersonation: started by the admin; what happens in it names the admin too; stopped', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    const started = await adminPost(t, 'impersonate-user', { userId: u.userId }, admin.jar);
    expect(started.statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'admin.user.impersonation_started',
      ...adminActor(admin.userId),
      target_id: u.userId,
      details: { sessionId: started.json().session.id },
    });
    // admin.jar now holds the impersonation session (and the admin's own in the admin cookie)
    expect((await post(t.app, '/update-user', { name: 'Set while impersonated' }, { jar: admin.jar })).statusCode).toBe(
      200,
    );
    expect(await last(u.userId)).toMatchObject({
      type: 'user.updated',
      actor_type: 'user',
      actor_id: u.userId,
      impersonator_id: admin.userId,
    });
    expect((await adminPost(t, 'stop-impersonating', {}, admin.jar)).statusCode).toBe(200);
    expect(await last(u.userId)).toMatchObject({
      type: 'admin.user.impersonation_stopped',
      actor_id: u.userId,
      impersonator_id: admin.userId,
      details: { sessionId: started.json().session.id },
    });
  });

  it('the operations CLI (no session) acts as the system', async () => {
    const u = await signUp(t.app);
    await t.ctx.features.admin!.users.setRole(null, u.userId, 'admin');
    expect(await last(u.userId)).toMatchObject({ type: 'admin.user.role_set', actor_type: 'system', actor_id: null });
  });

  it('a lapsed ban lifted at sign-in records user.ban_lapsed by the system', async () => {
    const admin = await signUpAdmin(t);
    const u = await signUp(t.app);
    await adminPost(t, 'ban-user', { userId: u.userId, banReason: 'cool off', banExpiresIn: 60 }, admin.jar);
    t.clock.advance(61);
    expect((await signIn(t.app, u.email)).res.statusCode).toBe(200);
    const types = await typesAbout(t, u.userId);
    expect(types.slice(-3)).toEqual(['admin.user.banned', 'user.ban_lapsed', 'user.signed_in']);
    expect((await eventsAbout(t, u.userId)).at(-2)).toMatchObject({
      actor_type: 'system',
      details: { reason: 'cool off' },
    });
  });

  it('get-session writes nothing, however often it is called and from wherever it answers', async () => {
    const u = await signUp(t.app);
    const other = await signIn(t.app, u.email);
    const before = await eventsAbout(t, u.userId);
    const [{ total }] = await t.ctx.sql.query<{ total: string }>(
      'SELECT count(*) AS total FROM audit_events WHERE actor_id = $1 OR target_id = $1',
      [u.userId],
    );
    for (let i = 0; i < 50; i++) {
      expect((await get(t.app, '/get-session', { jar: u.jar })).statusCode).toBe(200);
      expect((await get(t.app, '/get-session?disableCookieCache=true', { bearer: other.token })).statusCode).toBe(200);
    }
    t.clock.advance(2 * 86400); // past the update age: get-session renews, still without an event
    expect((await get(t.app, '/get-session?disableCookieCache=true', { bearer: other.token })).json()).not.toBeNull();
    expect(await eventsAbout(t, u.userId)).toEqual(before);
    expect(Number(total)).toBe(before.length);
  });
});

describe('work that follows an event (the webhooks)', () => {
  it("runs in the event's transaction: it sees the event, and its failure rolls back the change and the event", async () => {
    const u = await signUp(t.app);
    const seen: Array<{ type: string; id: string }> = [];
    const follower: EventFollower = async (tx, event) => {
      // the event's row is visible in the transaction the follower gets
      const rows = await tx.query('SELECT type FROM audit_events WHERE id = $1', [event.id]);
      seen.push({ type: String(rows[0]?.type), id: event.id });
      if (event.type === 'admin.user.banned') throw new Error('delivery could not be written');
    };
    // a writer made with this follower, as wiring.ts makes the service's with the webhooks' routing
    const { events } = createAuditFeature({ sql: t.ctx.sql, clock: t.clock, config: t.config, followers: [follower] });
    const source = { actor: { type: 'system' as const }, ipAddress: null, userAgent: null, requestId: null };
    const target = { type: 'user' as const, id: u.userId };
    await t.ctx.sql.transaction(async (tx) => {
      await tx.query("UPDATE users SET role = 'admin' WHERE id = $1", [u.userId]);
      await events.record(tx, { type: 'admin.user.role_set', source, target, details: { role: 'admin' } });
    });
    await expect(
      t.ctx.sql.transaction(async (tx) => {
        await tx.query('UPDATE users SET banned = true WHERE id = $1', [u.userId]);
        await events.record(tx, { type: 'admin.user.banned', source, target });
      }),
    ).rejects.toThrow('delivery could not be written');
    expect(seen.map((s) => s.type)).toEqual(['admin.user.role_set', 'admin.user.banned']);
    expect(await userRow(t, u.userId)).toMatchObject({ role: 'admin', banned: false });
    const stored = await eventsAbout(t, u.userId);
    expect(stored.map((e) => e.type)).toContain('admin.user.role_set');
    expect(stored.map((e) => e.type)).not.toContain('admin.user.banned');
  });
});

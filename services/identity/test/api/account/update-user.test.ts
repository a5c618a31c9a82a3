import { startTestApp, type TestApp } from '../../setup/app';
import { post, sessionOf, signUp } from '../../setup/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const userRow = async (id: string) =>
  (await t.ctx.sql.query<Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [id]))[0];

describe('POST /update-user', () => {
  it('changes name and image; the change is visible at once through every session path', async () => {
    const u = await signUp(t.app);
    await sessionOf(t.app, { bearer: u.token }); // fill the Redis cache
    const res = await post(
      t.app,
      '/update-user',
      { name: 'New Name', image: 'https://img.example/a.png' },
      { jar: u.jar },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true });
    expect((await sessionOf(t.app, { jar: u.jar })).user).toMatchObject({
      name: 'New Name',
      image: 'https://img.example/a.png',
    });
    expect((await sessionOf(t.app, { bearer: u.token })).user.name).toBe('New Name');
    const cleared = await post(t.app, '/update-user', { image: null }, { jar: u.jar });
    expect(cleared.statusCode).toBe(200);
    expect((await userRow(u.userId)).image).toBeNull();
  });

  it.each([
    ['role', 'admin'],
    ['email', 'other@example.com'],
    ['emailVerified', true],
    ['banned', true],
    ['banReason', 'x'],
    ['id', '00000000-0000-0000-0000-000000000000'],
    ['createdAt', '2000-01-01T00:00:00.000Z'],
  ])('refuses the field %s with 400 FIELD_NOT_ALLOWED and changes nothing', async (field, value) => {
    const u = await signUp(t.app);
    const before = await userRow(u.userId);
    const res = await post(t.app, '/update-user', { name: 'Changed', [field]: value }, { jar: u.jar });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'FIELD_NOT_ALLOWED', message: 'Field not allowed' });
    expect(await userRow(u.userId)).toEqual(before);
  });

  it('needs a session: 401 UNAUTHORIZED', async () => {
    const res = await post(t.app, '/update-user', { name: 'x' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
  });

  it('refuses an empty or oversized name with 400 VALIDATION_ERROR', async () => {
    const u = await signUp(t.app);
    for (const name of ['', 'x'.repeat(257)]) {
      const res = await post(t.app, '/update-user', { name }, { jar: u.jar });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await userRow(u.userId)).name).toBe('Test User');
  });
});

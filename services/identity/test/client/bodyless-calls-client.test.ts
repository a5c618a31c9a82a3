import { createAuthClient } from 'better-auth/client';
import { adminClient, organizationClient } from 'better-auth/client/plugins';
import { listenOnLoopback, startTestApp, type TestApp } from '../setup/app';
import { browserFetch } from '../setup/browser-client';
import { PASSWORD, uniqueEmail } from '../setup/fixtures';

/**
 * spec §7 through the published client: a call without a body goes out as GET, and gets the route's own rule,
 * never 404; a GET that would act is refused and changes nothing.
 */
let t: TestApp;
let baseURL: string;

beforeAll(async () => {
  t = await startTestApp();
  baseURL = await listenOnLoopback(t.app);
});
afterAll(() => t?.close());

async function signedUp() {
  const { fetchOptions, sent } = browserFetch();
  const client = createAuthClient({ baseURL, fetchOptions, plugins: [adminClient(), organizationClient()] });
  const { data, error } = await client.signUp.email({
    name: 'Bodyless',
    email: uniqueEmail('bodyless'),
    password: PASSWORD,
  });
  expect(error).toBeNull();
  return { client, sent, userId: data!.user.id };
}

const lastSent = (sent: Array<{ method: string; path: string }>) => {
  const { method, path } = sent[sent.length - 1];
  return `${method} ${path}`;
};

describe('calls the client sends without a body', () => {
  it('admin.hasPermission({}) and organization.hasPermission({}) get the permission rule', async () => {
    const { client, sent } = await signedUp();
    const admin = await client.admin.hasPermission({} as never);
    expect(lastSent(sent)).toBe('GET /api/auth/admin/has-permission');
    expect(admin.error).toMatchObject({
      status: 400,
      code: 'INVALID_PERMISSION_CHECK',
      message: 'invalid permission check. no permission(s) were passed.',
    });
    const org = await client.organization.hasPermission({} as never);
    expect(lastSent(sent)).toBe('GET /api/auth/organization/has-permission');
    expect(org.error).toMatchObject({ status: 400, code: 'INVALID_PERMISSION_CHECK' });
  });

  it('calls with required fields get their validation error', async () => {
    const { client, sent } = await signedUp();
    const checks = [
      ['GET /api/auth/organization/check-slug', () => client.organization.checkSlug({} as never)],
      ['GET /api/auth/change-password', () => client.changePassword({} as never)],
      ['GET /api/auth/admin/list-user-sessions', () => client.admin.listUserSessions({} as never)],
    ] as const;
    for (const [call, send] of checks) {
      const { error } = await send();
      expect([lastSent(sent), error?.status, error?.code]).toEqual([call, 400, 'VALIDATION_ERROR']);
    }
  });

  it('a call that would act is refused with 405 and changes nothing', async () => {
    const { client, sent, userId } = await signedUp();
    const row = async () =>
      (await t.ctx.sql.query('SELECT name, updated_at FROM users WHERE id = $1', [userId]))[0] as object;
    const before = await row();
    const { error } = await client.updateUser({});
    expect(lastSent(sent)).toBe('GET /api/auth/update-user');
    expect(error).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(await row()).toEqual(before);
    // The same call with a body is a POST, and acts.
    expect((await client.updateUser({ name: 'Renamed' })).error).toBeNull();
    expect(lastSent(sent)).toBe('POST /api/auth/update-user');
  });
});

import { randomUUID } from 'node:crypto';
import { CookieJar } from '../../setup/fixtures';
import { expectError, get, orgAppForThisFile, post } from './helpers';

/**
 * spec §8: an organization call without a session answers 401 "Not authenticated", on every organization route.
 * Each request is otherwise well formed, so it is the missing session that is refused (a malformed body is
 * refused at validation first, as better-auth does).
 */
const ID = randomUUID();
const REQUESTS: Record<string, { query?: string; body?: Record<string, unknown> }> = {
  'POST /organization/create': { body: { name: 'Acme', slug: 'acme-unauthenticated' } },
  'POST /organization/check-slug': { body: { slug: 'acme-unauthenticated' } },
  'POST /organization/update': { body: { data: { name: 'New' }, organizationId: ID } },
  'POST /organization/delete': { body: { organizationId: ID } },
  'GET /organization/list': {},
  'GET /organization/list-events': { query: `organizationId=${ID}` },
  'GET /organization/get-full-organization': { query: `organizationId=${ID}` },
  'POST /organization/set-active': { body: { organizationId: ID } },
  'GET /organization/list-members': { query: `organizationId=${ID}` },
  'GET /organization/get-active-member': {},
  'GET /organization/get-active-member-role': { query: `organizationId=${ID}` },
  'POST /organization/remove-member': { body: { memberIdOrEmail: ID, organizationId: ID } },
  'POST /organization/update-member-role': { body: { role: 'member', memberId: ID, organizationId: ID } },
  'POST /organization/leave': { body: { organizationId: ID } },
  'POST /organization/has-permission': { body: { organizationId: ID, permissions: { member: ['create'] } } },
  'POST /organization/invite-member': { body: { email: 'x@example.com', role: 'member', organizationId: ID } },
  'POST /organization/accept-invitation': { body: { invitationId: ID } },
  'POST /organization/reject-invitation': { body: { invitationId: ID } },
  'POST /organization/cancel-invitation': { body: { invitationId: ID } },
  'GET /organization/get-invitation': { query: `id=${ID}` },
  'GET /organization/list-invitations': { query: `organizationId=${ID}` },
  'GET /organization/list-user-invitations': {},
  'POST /organization/create-team': { body: { name: 'Red', organizationId: ID } },
  'POST /organization/update-team': { body: { teamId: ID, data: { name: 'Blue', organizationId: ID } } },
  'POST /organization/remove-team': { body: { teamId: ID, organizationId: ID } },
  'GET /organization/list-teams': { query: `organizationId=${ID}` },
  'GET /organization/list-user-teams': {},
  'POST /organization/add-team-member': { body: { teamId: ID, userId: ID, organizationId: ID } },
  'POST /organization/remove-team-member': { body: { teamId: ID, userId: ID, organizationId: ID } },
};

const t = orgAppForThisFile();

/** Every organization route the service serves, read from its own OpenAPI document. */
function organizationRoutes(): string[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/organization/'))
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

function send(route: string, jar?: CookieJar) {
  const [method, path] = route.split(' ');
  const { query, body } = REQUESTS[route];
  return method === 'GET'
    ? get(t.app, query ? `${path}?${query}` : path, { jar })
    : post(t.app, path, body ?? {}, { jar });
}

it('the table names every organization route', () => {
  expect(organizationRoutes()).toEqual(Object.keys(REQUESTS).sort());
});

it('every organization route answers 401 "Not authenticated" without a session', async () => {
  const answers: string[] = [];
  for (const route of Object.keys(REQUESTS)) {
    const res = await send(route);
    answers.push(`${route} → ${res.statusCode} ${res.json().code} ${res.json().message}`);
  }
  expect(answers).toEqual(Object.keys(REQUESTS).map((route) => `${route} → 401 NOT_AUTHENTICATED Not authenticated`));
});

it('a session cookie that names no session is no session', async () => {
  const jar = new CookieJar();
  jar.cookies.set('better-auth.session_token', 'not-a-session.signature');
  expectError(await send('GET /organization/list', jar), 401, 'NOT_AUTHENTICATED', 'Not authenticated');
  expectError(await send('POST /organization/create', jar), 401, 'NOT_AUTHENTICATED', 'Not authenticated');
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HTTPMethods } from 'fastify';
import { ORGANIZATION_ERRORS } from '../../src/errors/catalogue';
import { startTestApp, type TestApp } from '../setup/app';
import { readSpec, section } from '../setup/spec';

/** Every organization call of spec §7 is registered under organization/, plus the calls it marks "not shown". */
const NOT_SHOWN = [
  'POST invite-member',
  'POST set-active',
  'POST create-team',
  'POST add-team-member',
  // better-auth's names for the routes the spec does not show
  'POST update-member-role',
  'GET list-members',
  'GET get-full-organization',
  'POST remove-team-member',
  'POST has-permission',
  'GET get-active-member-role',
  'GET list-user-invitations',
  'GET list-user-teams',
];

function specCalls(): string[] {
  const text = section(readSpec(), '### Organization calls');
  return [...text.matchAll(/\*\*(GET|POST) ([a-z-]+)\*\*/g)].map((m) => `${m[1]} ${m[2]}`);
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('registers every organization call (spec §7) and the not-shown ones with better-auth names', () => {
  const calls = [...specCalls(), ...NOT_SHOWN];
  expect(specCalls()).toHaveLength(16);
  for (const call of calls) {
    const [method, name] = call.split(' ');
    const url = `/api/auth/organization/${name}`;
    expect([call, t.app.hasRoute({ method: method as HTTPMethods, url })]).toEqual([call, true]);
  }
});

/**
 * Every spec §8 organization message a request can trigger is asserted by an API test.
 * Two are never raised here: the reason is given for each.
 */
const NEVER_RAISED: Record<string, string> = {
  FAILED_TO_RETRIEVE_INVITATION:
    'better-auth raises it when its adapter returns no row after a write; a RETURNING row here',
  USER_NOT_FOUND: 'a userId that names no user is first "not a member of the organization" (nothing about users leaks)',
};

it('every organization message is asserted by an organization API test (or named above with its reason)', () => {
  const dir = join(__dirname, '../api/organization');
  const tests = readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  for (const code of Object.keys(ORGANIZATION_ERRORS)) {
    const asserted = tests.includes(`'${code}'`);
    expect([code, asserted || code in NEVER_RAISED]).toEqual([code, true]);
    if (code in NEVER_RAISED) expect([code, asserted]).toEqual([code, false]);
  }
});

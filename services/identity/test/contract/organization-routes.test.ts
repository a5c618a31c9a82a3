import type { HTTPMethods } from 'fastify';
import { startTestApp, type TestApp } from '../setup/app';
import { readSpec, section } from '../setup/spec';

/** Every organization call of spec §7 is registered under organization/, plus the calls it marks "not shown". */
const NOT_SHOWN = [
  'POST invite-member',
  'POST set-active',
  'POST create-team',
  'POST add-team-member',
  // better-auth's names for the rest of issue 5 §2
  'POST update-member-role',
  'GET list-members',
  'GET get-full-organization',
  'POST remove-team-member',
  'POST has-permission',
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

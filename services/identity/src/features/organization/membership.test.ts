import { loadConfig } from '../../config';
import { teamMemberLimit } from './invitation.service';
import { OrganizationAccess, type OrganizationDeps } from './membership';
import type { MemberView } from './views';

const config = loadConfig(
  { NODE_ENV: 'test', AUTH_SECRET: 'unit-secret-0123456789-abcdefghijklmnopqrstuvwxyz', LOG_LEVEL: 'silent' },
  { organization: { roles: { billing: { organization: ['update'] }, auditor: {} } } },
);
const access = new OrganizationAccess({ config } as OrganizationDeps);
const as = (role: string): MemberView => ({ id: 'm', organizationId: 'o', userId: 'u', role, createdAt: '' });

describe('OrganizationAccess', () => {
  it('normalizes role lists and refuses unknown names', () => {
    expect(access.normalizeRoles(' admin , member,admin')).toBe('admin,member');
    expect(access.normalizeRoles(['billing', 'member'])).toBe('billing,member');
    expect(() => access.normalizeRoles('root')).toThrow('Role not found');
    expect(() => access.normalizeRoles(['', ' '])).toThrow('Role not found');
    expect(() => access.normalizeRoles('__proto__')).toThrow('Role not found');
  });

  it('grants only roles within the granter permissions; the owner role only by an owner', () => {
    expect(access.mayGrant(as('owner'), 'owner')).toBe(true);
    expect(access.mayGrant(as('admin'), 'owner')).toBe(false);
    expect(access.mayGrant(as('admin'), 'admin,member')).toBe(true);
    expect(access.mayGrant(as('admin'), 'billing')).toBe(true);
    expect(access.mayGrant(as('billing'), 'admin')).toBe(false);
    expect(access.mayGrant(as('member'), 'auditor')).toBe(true); // a role granting nothing exceeds nobody
    expect(access.mayGrant(as('member, admin'), 'admin')).toBe(true);
  });

  it('a team limit is its override, else the general maximum (0: none)', () => {
    const teams = { maximumMembersPerTeam: 5, memberLimitOverrides: { t1: 1, t2: 0 } };
    expect([teamMemberLimit(teams, 't1'), teamMemberLimit(teams, 't2'), teamMemberLimit(teams, 't3')]).toEqual([
      1, 0, 5,
    ]);
  });
});

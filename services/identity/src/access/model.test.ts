import { ADMIN_DEFAULT_ROLES, ADMIN_STATEMENTS } from './admin-roles';
import { AccessConfigError, authorizeRoles, buildRoles, hasAnyPermission, Role, roleNames } from './model';
import { ORGANIZATION_DEFAULT_ROLES, ORGANIZATION_STATEMENTS } from './organization-roles';

const org = buildRoles(ORGANIZATION_STATEMENTS, ORGANIZATION_DEFAULT_ROLES);

describe('Role.authorize', () => {
  const role = new Role({ team: ['create', 'update'], member: ['delete'] });

  it('AND needs every action on every resource', () => {
    expect(role.authorize({ team: ['create', 'update'], member: ['delete'] })).toEqual({ success: true });
    expect(role.authorize({ team: ['create', 'delete'] })).toMatchObject({
      success: false,
      reason: 'unauthorized',
      resource: 'team',
      error: 'unauthorized to access resource "team"',
    });
  });

  it('OR needs any one action on any one resource', () => {
    expect(role.authorize({ team: ['delete', 'update'] }, 'OR')).toEqual({ success: true });
    expect(role.authorize({ invitation: ['create'], member: ['delete'] }, 'OR')).toEqual({ success: true });
    expect(role.authorize({ team: ['delete'], member: ['create'] }, 'OR')).toMatchObject({ reason: 'unauthorized' });
  });

  it('says "resource not allowed" for a resource the role does not hold', () => {
    expect(role.authorize({ invitation: ['create'] })).toMatchObject({
      success: false,
      reason: 'resource-not-allowed',
      error: 'You are not allowed to access resource: invitation',
    });
  });

  it('an empty action list grants nothing', () => {
    expect(role.authorize({ team: [] })).toMatchObject({ success: false, reason: 'unauthorized' });
  });
});

describe('spec §6 organization table', () => {
  const can = (roleText: string, resource: string, action: string) =>
    authorizeRoles(roleText, org, { [resource]: [action] }).success;

  it.each(Object.entries(ORGANIZATION_STATEMENTS).flatMap(([r, actions]) => actions.map((a) => [r, a])))(
    'owner may %s %s; admin likewise except organization delete; member never',
    (resource, action) => {
      expect(can('owner', resource, action)).toBe(true);
      expect(can('admin', resource, action)).toBe(!(resource === 'organization' && action === 'delete'));
      expect(can('member', resource, action)).toBe(false);
    },
  );

  it('a comma-separated role grants when any of its roles does', () => {
    expect(can('member, admin', 'team', 'delete')).toBe(true);
    expect(can('member,owner', 'organization', 'delete')).toBe(true);
    expect(can('member, admin', 'organization', 'delete')).toBe(false);
  });

  it('unknown role names grant nothing and cannot reach the prototype', () => {
    expect(can('toString', 'team', 'create')).toBe(false);
    expect(can('__proto__', 'team', 'create')).toBe(false);
    expect(can('', 'team', 'create')).toBe(false);
  });
});

describe('spec §6 admin table', () => {
  const admin = buildRoles(ADMIN_STATEMENTS, ADMIN_DEFAULT_ROLES);
  it('admin holds every statement, user none', () => {
    for (const [resource, actions] of Object.entries(ADMIN_STATEMENTS)) {
      expect(authorizeRoles('admin', admin, { [resource]: actions }).success).toBe(true);
      expect(authorizeRoles('user', admin, { [resource]: [actions[0]] }).success).toBe(false);
    }
  });
});

describe('buildRoles', () => {
  it('adds custom roles and lets one replace a default', () => {
    const roles = buildRoles(ORGANIZATION_STATEMENTS, ORGANIZATION_DEFAULT_ROLES, {
      billing: { organization: ['update'] },
      member: { team: ['create'] },
    });
    expect(authorizeRoles('billing', roles, { organization: ['update'] }).success).toBe(true);
    expect(authorizeRoles('member', roles, { team: ['create'] }).success).toBe(true);
  });

  it('refuses a custom role with an unknown resource or action, naming the setting', () => {
    expect(() => buildRoles(ORGANIZATION_STATEMENTS, {}, { x: { project: ['create'] } }, 'organization.roles')).toThrow(
      new AccessConfigError('organization.roles.x: unknown resource "project"'),
    );
    expect(() => buildRoles(ORGANIZATION_STATEMENTS, {}, { x: { team: ['fly'] } })).toThrow('unknown action "fly"');
  });
});

describe('helpers', () => {
  it('roleNames splits and trims', () => {
    expect(roleNames(' owner , admin,,')).toEqual(['owner', 'admin']);
    expect(roleNames(['admin'])).toEqual(['admin']);
  });

  it('hasAnyPermission needs at least one action', () => {
    expect(hasAnyPermission(undefined)).toBe(false);
    expect(hasAnyPermission({})).toBe(false);
    expect(hasAnyPermission({ user: [] })).toBe(false);
    expect(hasAnyPermission({ user: ['list'] })).toBe(true);
  });
});

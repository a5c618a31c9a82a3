import { describe, expect, it } from 'vitest';
import { dashboardIntro } from '../src/dashboard/intro';
import { canAccessWithRole } from '../src/providers/access';

const withRole = (role: string | null) => (resource: string, action: string) =>
  canAccessWithRole(role, resource, action);

describe("the dashboard's intro", () => {
  it('an admin: every area of the menu, as the access table grants it', () => {
    expect(dashboardIntro(false, withRole('admin'))).toEqual({
      key: 'console.dashboard.intro',
      phrases: [
        'console.dashboard.can.manage_users',
        'console.dashboard.can.manage_organizations',
        'console.dashboard.can.read_audit',
        'console.dashboard.can.manage_webhooks',
      ],
    });
  });

  it('an impersonation session is told it acts as the user, whatever the role', () => {
    for (const role of ['user', 'admin'])
      expect(dashboardIntro(true, withRole(role))).toEqual({
        key: 'console.dashboard.intro_impersonating',
        phrases: [],
      });
  });

  it('a role that opens nothing says so; a role that may only read says read', () => {
    expect(dashboardIntro(false, withRole('user'))).toEqual({ key: 'console.dashboard.intro_nothing', phrases: [] });
    const readOnly = (_resource: string, action: string) => action === 'list';
    expect(dashboardIntro(false, readOnly).phrases).toEqual([
      'console.dashboard.can.see_users',
      'console.dashboard.can.see_organizations',
      'console.dashboard.can.read_audit',
      'console.dashboard.can.see_webhooks',
    ]);
  });
});

describe('its words', () => {
  it('every key the intro answers is in the English catalogue', async () => {
    const { en } = await import('../src/i18n/en');
    const has = (key: string) =>
      typeof key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part], en) === 'string';
    const keys = [
      ...dashboardIntro(false, () => true).phrases,
      ...dashboardIntro(false, (_r, action) => action === 'list').phrases,
      'console.dashboard.intro',
      'console.dashboard.intro_nothing',
      'console.dashboard.intro_impersonating',
    ];
    expect(keys.filter((key) => !has(key))).toEqual([]);
  });
});

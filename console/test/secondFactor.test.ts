import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { i18nProvider } from '../src/i18n/i18nProvider';
import { canAccessWithRole } from '../src/providers/access';
import { hasSecondFactor, passkeyKind, resetConfirmation, secondFactorsOf } from '../src/users/secondFactor';

const user = (twoFactorEnabled: boolean, passkeyCount: number) => ({ twoFactorEnabled, passkeyCount });
const say = (c: ReturnType<typeof resetConfirmation>) => (c ? i18nProvider.translate(c.key, c.params) : null);
const inCatalogue = (key: string) =>
  typeof key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part], en) === 'string';

describe("a user's second factors", () => {
  it('the app or a passkey counts, as the service counts them for its policies', () => {
    expect(hasSecondFactor(secondFactorsOf(user(false, 0)))).toBe(false);
    expect(hasSecondFactor(secondFactorsOf(user(true, 0)))).toBe(true);
    expect(hasSecondFactor(secondFactorsOf(user(false, 1)))).toBe(true);
    expect(hasSecondFactor(secondFactorsOf(user(true, 3)))).toBe(true);
    expect(secondFactorsOf(user(true, 2))).toEqual({ app: true, passkeys: 2 });
  });

  it('a passkey reads as synced or kept on one device, from the device type the API answers', () => {
    expect(passkeyKind({ deviceType: 'multiDevice' })).toBe('resources.users.second_factor.kinds.synced');
    expect(passkeyKind({ deviceType: 'singleDevice' })).toBe('resources.users.second_factor.kinds.single_device');
    expect(passkeyKind({ deviceType: 'something new' })).toBe('resources.users.second_factor.kinds.unknown');
  });
});

describe('the Reset confirmation', () => {
  const email = 'ada@example.com';

  it('nothing to reset: no confirmation (the action is not offered)', () => {
    expect(resetConfirmation(secondFactorsOf(user(false, 0)), email)).toBeNull();
  });

  it('names the user and what goes: the app with its backup codes, the passkeys counted, or both', () => {
    const app = say(resetConfirmation(secondFactorsOf(user(true, 0)), email));
    expect(app).toMatch(/^Remove from ada@example\.com: the authenticator app, its backup codes and trusted devices\?/);
    expect(app).not.toContain('passkey');

    expect(say(resetConfirmation(secondFactorsOf(user(false, 1)), email))).toMatch(
      /^Remove from ada@example\.com: 1 passkey\? They then sign in without a second factor/,
    );
    const two = say(resetConfirmation(secondFactorsOf(user(false, 2)), email));
    expect(two).toMatch(/^Remove from ada@example\.com: 2 passkeys\?/);
    expect(two).not.toContain('authenticator app');

    expect(say(resetConfirmation(secondFactorsOf(user(true, 3)), email))).toMatch(
      /^Remove from ada@example\.com: the authenticator app, its backup codes and trusted devices, and 3 passkeys\?/,
    );
    expect(say(resetConfirmation(secondFactorsOf(user(true, 1)), email))).toMatch(/trusted devices, and 1 passkey\?/);
  });

  it('every key it and the profile use is in the English catalogue', () => {
    const keys = [
      ...[user(true, 0), user(false, 2), user(true, 2)].map(
        (u) => resetConfirmation(secondFactorsOf(u), 'x')?.key as string,
      ),
      ...['multiDevice', 'singleDevice', ''].map((deviceType) => passkeyKind({ deviceType })),
      ...['app', 'app_on', 'app_off', 'passkeys', 'passkeys_of', 'no_passkeys', 'unnamed', 'yes', 'no'].map(
        (k) => `resources.users.second_factor.${k}`,
      ),
      ...['name', 'added', 'kind', 'backed_up'].map((k) => `resources.users.second_factor.columns.${k}`),
    ];
    expect(keys.filter((key) => !inCatalogue(key))).toEqual([]);
  });
});

describe('who sees it (the service access model)', () => {
  it('the passkeys list needs user: get, as admin/list-user-passkeys; the reset user: set-password, as the route', () => {
    expect(canAccessWithRole('admin', 'users', 'list-passkeys')).toBe(true);
    expect(canAccessWithRole('admin', 'users', 'reset-two-factor')).toBe(true);
    expect(canAccessWithRole('user', 'users', 'list-passkeys')).toBe(false);
    expect(canAccessWithRole('user', 'users', 'reset-two-factor')).toBe(false);
    expect(canAccessWithRole('user,admin', 'users', 'list-passkeys')).toBe(true);
  });
});

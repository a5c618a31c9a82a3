import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { codeRefusal } from '../src/layout/signInSteps';
import { NOT_ADMIN } from '../src/providers/authProvider';

const refused = (code: string, message: string, status = 401) => new HttpError(message, status, { code, message });
const inCatalogue = (key: string) =>
  typeof key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part], en) === 'string';

describe('a refused code at sign-in', () => {
  it('a wrong code keeps the code step and shows the catalogue message', () => {
    expect(codeRefusal(refused('INVALID_CODE', 'Invalid code'))).toEqual({ restart: false, message: 'Invalid code' });
    expect(codeRefusal(refused('INVALID_BACKUP_CODE', 'Invalid backup code'))).toEqual({
      restart: false,
      message: 'Invalid backup code',
    });
    // The rate limit of the route, or the network: try again on the same step.
    expect(codeRefusal(refused('RATE_LIMITED', 'Rate limit exceeded.', 429)).restart).toBe(false);
    expect(codeRefusal(new TypeError('Failed to fetch'))).toEqual({ restart: false, message: 'Failed to fetch' });
  });

  it('a sign-in that cannot go on goes back to the password step, saying why', () => {
    const cases: [string, string, number, string][] = [
      ['INVALID_TWO_FACTOR_COOKIE', 'Invalid two factor cookie', 401, 'console.sign_in.two_factor.expired'],
      ['TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE', 'Too many attempts', 400, 'console.sign_in.two_factor.too_many'],
      ['ACCOUNT_TEMPORARILY_LOCKED', 'Locked', 429, 'console.sign_in.two_factor.locked'],
      ['TOTP_NOT_ENABLED', 'TOTP not enabled', 400, 'console.sign_in.two_factor.gone'],
      ['BACKUP_CODES_NOT_ENABLED', "Backup codes aren't enabled", 400, 'console.sign_in.two_factor.gone'],
    ];
    for (const [code, message, status, key] of cases) {
      expect(codeRefusal(refused(code, message, status))).toEqual({ restart: true, message: key });
      expect(inCatalogue(key), key).toBe(true);
    }
    // A right code of a user who is not an admin: refused as after a password.
    expect(codeRefusal(new Error(NOT_ADMIN))).toEqual({ restart: true, message: NOT_ADMIN });
  });

  it("the code step's words are in the English catalogue", () => {
    const keys = [
      'title',
      'intro_totp',
      'intro_backup',
      'code',
      'backup_code',
      'trust',
      'verify',
      'use_backup',
      'use_totp',
    ];
    expect(keys.map((k) => `console.sign_in.two_factor.${k}`).filter((k) => !inCatalogue(k))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en';
import { i18nProvider } from '../src/i18n/i18nProvider';
import { describeSignIn, signInLabel } from '../src/users/signInMethod';

const say = (signInMethod: string | null, secondFactor: 'totp' | 'backup-code' | 'trusted-device' | null = null) =>
  describeSignIn({ signInMethod, secondFactor }, i18nProvider.translate);
const inCatalogue = (key: string) =>
  typeof key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part], en) === 'string';

describe('how a session was made, in words (docs/sessions.md "How a session was made")', () => {
  it('each method the service records has its own words', () => {
    expect(
      [
        'email',
        'sign-up',
        'social:github',
        'passkey',
        'magic-link',
        'email-otp',
        'email-verification',
        'password-change',
        'impersonation',
      ].map((m) => say(m)),
    ).toEqual([
      'Password',
      'Password, at sign-up',
      'Social sign-in (github)',
      'Passkey',
      'Magic link',
      'Code by email',
      'Email verification link',
      'Password change',
      'Impersonation',
    ]);
  });

  it('the second factor that completed the sign-in follows the method', () => {
    expect(say('email', 'totp')).toBe('Password + authenticator app');
    expect(say('magic-link', 'backup-code')).toBe('Magic link + backup code');
    expect(say('social:google', 'trusted-device')).toBe('Social sign-in (google) + trusted device');
  });

  it('a session made before the method was recorded is unknown; a method this console does not know is shown as it is', () => {
    expect(say(null)).toBe('Unknown');
    expect(say(null, 'totp')).toBe('Unknown');
    expect(say('siwe')).toBe('siwe');
    expect(say('siwe', 'totp')).toBe('siwe + authenticator app');
  });

  it('every label is in the catalogue', () => {
    const sessions = [
      { signInMethod: null, secondFactor: null },
      { signInMethod: 'email', secondFactor: 'totp' },
      { signInMethod: 'social:x', secondFactor: 'backup-code' },
      { signInMethod: 'passkey', secondFactor: 'trusted-device' },
      { signInMethod: 'sign-up', secondFactor: null },
      { signInMethod: 'magic-link', secondFactor: null },
      { signInMethod: 'email-otp', secondFactor: null },
      { signInMethod: 'email-verification', secondFactor: null },
      { signInMethod: 'password-change', secondFactor: null },
      { signInMethod: 'impersonation', secondFactor: null },
    ] as const;
    for (const s of sessions) {
      const { method, factor } = signInLabel(s);
      expect(inCatalogue(method.key), method.key).toBe(true);
      if (factor) expect(inCatalogue(factor), factor).toBe(true);
    }
  });
});

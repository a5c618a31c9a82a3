import { describe, expect, it } from 'vitest';
import { apiErrorKey, LANGUAGES, loadCatalogue, redirectErrorKey, redirectErrorTitle } from '../src/i18n';
import { en } from '../src/i18n/en';
import { ceremonyCancelled, passkeyErrorKey } from '../src/passkeys';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the catalogue', () => {
  it.each(LANGUAGES)(
    '%s has every key of English, no other, each a non-empty text with the same {values}',
    async (l) => {
      const catalogue = await loadCatalogue(l);
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        const translated = catalogue[key as keyof typeof en];
        expect([key, typeof translated, translated.trim().length > 0]).toEqual([key, 'string', true]);
        expect([key, placeholders(translated)]).toEqual([key, placeholders(text)]);
      }
    },
  );

  it('every language but English is translated, not copied', async () => {
    for (const l of LANGUAGES.filter((l) => l !== 'ENG')) {
      const catalogue = await loadCatalogue(l);
      const same = Object.keys(en).filter((k) => catalogue[k as keyof typeof en] === en[k as keyof typeof en]);
      // Product-neutral words may coincide (German "Name"); whole sentences never do.
      expect([l, same.filter((k) => en[k as keyof typeof en].includes(' '))]).toEqual([l, []]);
    }
  });

  it('names the API error codes and the redirect codes of docs/SPEC.md §8 in words', () => {
    expect(apiErrorKey('INVALID_EMAIL_OR_PASSWORD')).toBe('e_INVALID_EMAIL_OR_PASSWORD');
    expect(apiErrorKey('CAPTCHA_VERIFICATION_FAILED')).toBe('e_CAPTCHA');
    expect(apiErrorKey('SOMETHING_NEW')).toBe('e_generic');
    for (const code of ['INVALID_CODE', 'INVALID_BACKUP_CODE', 'ACCOUNT_TEMPORARILY_LOCKED', 'SESSION_NOT_FRESH'])
      expect(apiErrorKey(code)).toBe(`e_${code}`);
    const codes = [
      'token_expired',
      'invalid_token',
      'user_not_found',
      'unauthorized',
      'invalid_callback_request',
      'state_not_found',
      'please_restart_the_process',
      'no_code',
      'oauth_provider_not_found',
      'invalid_code',
      'unable_to_get_user_info',
      'email_not_found',
      'no_callback_url',
      'unable_to_link_account',
      'account_already_linked_to_different_user',
      'internal_server_error',
      'signup_disabled',
      'account_not_linked',
      'INVALID_TOKEN',
      'INVALID_CALLBACK_URL',
      'banned',
    ];
    for (const code of codes) expect([code, redirectErrorKey(code)]).not.toEqual([code, 'x_unknown']);
    expect(redirectErrorKey('<script>')).toBe('x_unknown');
    // The error page's heading fits the code: only a code it does not know reads "Something went wrong".
    for (const code of [...codes, 'access_denied', 'not_found', 'token_expired'])
      expect([code, redirectErrorTitle(code)]).not.toEqual([code, 'errorTitle']);
    expect(redirectErrorTitle('token_expired')).toBe('linkExpiredTitle');
    expect(redirectErrorTitle('INVALID_CALLBACK_URL')).toBe('h_untrusted');
    expect(redirectErrorTitle('not_found')).toBe('h_notFound');
    expect(redirectErrorKey('not_found')).toBe('x_notFound');
    expect(redirectErrorTitle('<script>')).toBe('errorTitle');
  });

  it("names passkey refusals in words, the device's failures apart from the API's, and hears no cancel", () => {
    for (const code of [
      'PASSKEY_NOT_FOUND',
      'AUTHENTICATION_FAILED',
      'CHALLENGE_NOT_FOUND',
      'PREVIOUSLY_REGISTERED',
      'FAILED_TO_VERIFY_REGISTRATION',
      'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY',
    ])
      expect(passkeyErrorKey(code)).toBe(`e_${code}`);
    expect(passkeyErrorKey('SESSION_NOT_FRESH')).toBe('e_SESSION_NOT_FRESH');
    expect(passkeyErrorKey('RATE_LIMITED')).toBe('e_RATE_LIMITED');
    // The browser library's codes (@simplewebauthn/browser), passed on by the published client.
    expect(passkeyErrorKey('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')).toBe('passkeyOnDevice');
    expect(passkeyErrorKey('ERROR_INVALID_RP_ID')).toBe('passkeyDeviceFailed');
    expect(passkeyErrorKey('UNKNOWN_ERROR')).toBe('passkeyDeviceFailed');
    // Dismissed, timed out or replaced by another ceremony: nothing to say.
    for (const code of ['ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', 'ERROR_CEREMONY_ABORTED', 'AUTH_CANCELLED'])
      expect(ceremonyCancelled(code)).toBe(true);
    for (const code of ['PASSKEY_NOT_FOUND', 'ERROR_INVALID_RP_ID', undefined])
      expect(ceremonyCancelled(code)).toBe(false);
  });
});

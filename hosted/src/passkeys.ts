import type { MessageKey } from './i18n';
import { apiErrorKey } from './i18n';

/**
 * Passkeys in the pages (docs/hosted-pages.md): what the browser can do, and how the published client's answers
 * read. `@better-auth/passkey/client` runs the browser's WebAuthn ceremony between its two API calls and answers a
 * ceremony that did not complete as an error too, with the browser library's code (`ERROR_…`) or its own
 * (`AUTH_CANCELLED`, `UNKNOWN_ERROR`) instead of one of the API's.
 */

/** The browser offers WebAuthn (navigator.credentials with public-key credentials). */
export const webAuthnSupported = (): boolean =>
  typeof window !== 'undefined' &&
  typeof window.PublicKeyCredential === 'function' &&
  typeof navigator.credentials?.get === 'function';

/** The browser can offer passkeys among the email field's autofill suggestions (conditional mediation). */
export async function autofillSupported(): Promise<boolean> {
  if (!webAuthnSupported()) return false;
  const check = (PublicKeyCredential as unknown as { isConditionalMediationAvailable?: () => Promise<boolean> })
    .isConditionalMediationAvailable;
  if (typeof check !== 'function') return false;
  try {
    return await check.call(PublicKeyCredential);
  } catch {
    return false;
  }
}

/**
 * The ceremony ended without an answer from the user's device: dismissed, timed out, no passkey chosen, or
 * replaced by another ceremony (the button's replaces the autofill's). Browsers report all of these as
 * `NotAllowedError` on purpose, so they are one case here: nothing to say, the page stays as it was.
 */
const CANCELLED = new Set(['ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', 'ERROR_CEREMONY_ABORTED', 'AUTH_CANCELLED']);
export const ceremonyCancelled = (code: string | undefined): boolean => code !== undefined && CANCELLED.has(code);

/**
 * A failed passkey call's sentence: the API's refusals from the catalogue, the device's own failures (the browser
 * library's codes) in words of their own.
 */
export function passkeyErrorKey(code: string | undefined): MessageKey {
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'passkeyOnDevice';
  if (code === 'UNKNOWN_ERROR' || code?.startsWith('ERROR_')) return 'passkeyDeviceFailed';
  return apiErrorKey(code);
}

import { HttpError } from 'react-admin';
import { NOT_ADMIN } from '../providers/authProvider';

/**
 * The errors after which the pending sign-in cannot go on, and what the password step then says (i18n keys): it
 * expired or was given up (INVALID_TWO_FACTOR_COOKIE), its attempts are spent, the account's second factor is locked
 * for a while, or the second factor was removed meanwhile (an operator's reset). docs/two-factor.md "Limits".
 */
const RESTART: Readonly<Record<string, string>> = {
  INVALID_TWO_FACTOR_COOKIE: 'console.sign_in.two_factor.expired',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'console.sign_in.two_factor.too_many',
  ACCOUNT_TEMPORARILY_LOCKED: 'console.sign_in.two_factor.locked',
  TOTP_NOT_ENABLED: 'console.sign_in.two_factor.gone',
  BACKUP_CODES_NOT_ENABLED: 'console.sign_in.two_factor.gone',
};

/**
 * What the code step does with a refused code: `retry` keeps the step and shows `message` (the catalogue's text,
 * such as "Invalid code") under the field; `restart` goes back to the password step, which shows `message` (an i18n
 * key). A user who is not an admin is refused after the code, as after a password (NOT_ADMIN).
 */
export function codeRefusal(error: unknown): { restart: boolean; message: string } {
  const code = error instanceof HttpError ? (error.body as { code?: unknown } | undefined)?.code : undefined;
  if (typeof code === 'string' && Object.hasOwn(RESTART, code)) return { restart: true, message: RESTART[code] };
  const message = error instanceof Error && error.message ? error.message : 'ra.auth.sign_in_error';
  if (message === NOT_ADMIN) return { restart: true, message };
  return { restart: false, message };
}

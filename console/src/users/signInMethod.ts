import type { TranslateFunction } from 'react-admin';
import type { ListedSession } from '../providers/dataProvider';

type SignIn = Pick<ListedSession, 'signInMethod' | 'secondFactor'>;

const KEYS = 'resources.users.sessions.sign_in';

/** The methods the service records (docs/sessions.md "How a session was made"), each with its words' key. */
const METHODS: Record<string, string> = {
  email: 'password',
  'sign-up': 'sign_up',
  passkey: 'passkey',
  'magic-link': 'magic_link',
  'email-otp': 'email_otp',
  'email-verification': 'email_verification',
  'password-change': 'password_change',
  impersonation: 'impersonation',
};

const FACTORS: Record<NonNullable<SignIn['secondFactor']>, string> = {
  totp: `${KEYS}.factors.totp`,
  'backup-code': `${KEYS}.factors.backup_code`,
  'trusted-device': `${KEYS}.factors.trusted_device`,
};

/**
 * How a session was made, as i18n keys: the method (a provider's sign-in names the provider; a method this console
 * does not know yet is shown as the service names it) and the second factor that completed it, if any. A session
 * made before the service recorded it is unknown.
 */
export function signInLabel(session: SignIn): {
  method: { key: string; params: Record<string, string> };
  factor: string | null;
} {
  const { signInMethod: method, secondFactor } = session;
  if (method === null) return { method: { key: `${KEYS}.unknown`, params: {} }, factor: null };
  const factor = secondFactor ? FACTORS[secondFactor] : null;
  if (method.startsWith('social:'))
    return { method: { key: `${KEYS}.social`, params: { provider: method.slice('social:'.length) } }, factor };
  const known = METHODS[method];
  return {
    method: known ? { key: `${KEYS}.${known}`, params: {} } : { key: `${KEYS}.other`, params: { method } },
    factor,
  };
}

/** How a session was made, in words: "Password", "Password + authenticator app", "Social sign-in (github)", "Unknown". */
export function describeSignIn(session: SignIn, translate: TranslateFunction): string {
  const { method, factor } = signInLabel(session);
  const said = translate(method.key, method.params);
  return factor ? translate(`${KEYS}.with_factor`, { method: said, factor: translate(factor) }) : said;
}

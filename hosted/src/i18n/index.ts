import { type Catalogue, en, type MessageKey } from './en';

export type { Catalogue, MessageKey };

/**
 * The eight languages of docs/SPEC.md §1, by the names the service stores on a user, with their BCP 47 tags (the
 * same as the service's mail: services/identity/src/mail/jobs.ts).
 */
export const LANGUAGE_TAGS = {
  RUS: 'ru',
  UKR: 'uk',
  ENG: 'en',
  SPA: 'es',
  GERMAN: 'de',
  POL: 'pl',
  FRA: 'fr',
  TURKEY: 'tr',
} as const;
export type Language = keyof typeof LANGUAGE_TAGS;
export const LANGUAGES = Object.keys(LANGUAGE_TAGS) as Language[];

/** Each language's own name, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  RUS: 'Русский',
  UKR: 'Українська',
  ENG: 'English',
  SPA: 'Español',
  GERMAN: 'Deutsch',
  POL: 'Polski',
  FRA: 'Français',
  TURKEY: 'Türkçe',
};

/** English is in the first page's bundle; every other catalogue is its own chunk, loaded when chosen. */
const LOADERS: Record<Language, () => Promise<Catalogue>> = {
  ENG: async () => en,
  RUS: () => import('./ru').then((m) => m.ru),
  UKR: () => import('./uk').then((m) => m.uk),
  SPA: () => import('./es').then((m) => m.es),
  GERMAN: () => import('./de').then((m) => m.de),
  POL: () => import('./pl').then((m) => m.pl),
  FRA: () => import('./fr').then((m) => m.fr),
  TURKEY: () => import('./tr').then((m) => m.tr),
};

export const loadCatalogue = (language: Language): Promise<Catalogue> => LOADERS[language]();

const BY_TAG = new Map(LANGUAGES.map((name) => [LANGUAGE_TAGS[name], name]));

/** A language named by its stored name (`GERMAN`) or its tag (`de`, `de-AT`); null when it is none of the eight. */
export function parseLanguage(value: string | null | undefined): Language | null {
  if (!value) return null;
  if ((LANGUAGES as string[]).includes(value)) return value as Language;
  return BY_TAG.get(value.trim().toLowerCase().split('-')[0] as (typeof LANGUAGE_TAGS)[Language]) ?? null;
}

/**
 * The page's language: the signed-in user's stored language, then `?lang=`, then the browser's preferred
 * languages (what it sends as Accept-Language), then the configured default.
 */
export function chooseLanguage(input: {
  stored?: string | null;
  query?: string | null;
  browser?: readonly string[];
  fallback?: string | null;
}): Language {
  return (
    parseLanguage(input.stored) ??
    parseLanguage(input.query) ??
    (input.browser ?? []).map(parseLanguage).find((l) => l !== null) ??
    parseLanguage(input.fallback) ??
    'ENG'
  );
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(catalogue: Catalogue): Translate {
  return (key, values = {}) =>
    catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** An API error code (`{code}` of an error answer) → the catalogue's sentence for it. */
export function apiErrorKey(code: string | undefined): MessageKey {
  switch (code) {
    case 'INVALID_EMAIL_OR_PASSWORD':
    case 'INVALID_EMAIL':
    case 'PASSWORD_TOO_SHORT':
    case 'PASSWORD_TOO_LONG':
    case 'USER_ALREADY_EXISTS':
    case 'EMAIL_NOT_VERIFIED':
    case 'BANNED_USER':
    case 'RATE_LIMITED':
    case 'SIGN_UP_DISABLED':
    case 'INVALID_TOKEN':
    case 'INVALID_CALLBACK_URL':
    case 'INVITATION_NOT_FOUND':
    case 'NOT_THE_RECIPIENT_OF_THE_INVITATION':
    case 'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION':
      return `e_${code}`;
    // The second factor (docs/two-factor.md, errors) and the password asked before changing it.
    case 'INVALID_CODE':
    case 'INVALID_BACKUP_CODE':
    case 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE':
    case 'ACCOUNT_TEMPORARILY_LOCKED':
    case 'INVALID_TWO_FACTOR_COOKIE':
    case 'INVALID_PASSWORD':
    case 'SESSION_NOT_FRESH':
    case 'TOTP_ALREADY_ENABLED':
    case 'TWO_FACTOR_NOT_ENABLED':
      return `e_${code}`;
    // Passkeys (docs/two-factor.md, Passkeys): sign-in, adding, renaming and removing one.
    case 'PASSKEY_NOT_FOUND':
    case 'AUTHENTICATION_FAILED':
    case 'CHALLENGE_NOT_FOUND':
    case 'PREVIOUSLY_REGISTERED':
    case 'FAILED_TO_VERIFY_REGISTRATION':
    case 'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY':
      return `e_${code}`;
    case 'MISSING_CAPTCHA_RESPONSE':
    case 'CAPTCHA_VERIFICATION_FAILED':
    case 'CAPTCHA_UNAVAILABLE':
      return 'e_CAPTCHA';
    // The pages' own: the widget has not handed over a token yet (captcha.tsx).
    case 'CAPTCHA_REQUIRED':
      return 'captchaFirst';
    case 'NETWORK':
      return 'e_network';
    default:
      return 'e_generic';
  }
}

/** A redirect error code (docs/SPEC.md §8, `?error=` of the error page) → the sentence explaining it. */
export function redirectErrorKey(code: string): MessageKey {
  switch (code) {
    case 'token_expired':
      return 'x_linkExpired';
    case 'invalid_token':
    case 'INVALID_TOKEN':
      return 'x_linkInvalid';
    case 'user_not_found':
      return 'x_userNotFound';
    case 'unauthorized':
      return 'x_unauthorized';
    case 'state_not_found':
    case 'please_restart_the_process':
    case 'invalid_callback_request':
    case 'no_code':
      return 'x_restart';
    case 'oauth_provider_not_found':
    case 'invalid_code':
    case 'unable_to_get_user_info':
    case 'internal_server_error':
      return 'x_provider';
    case 'email_not_found':
      return 'x_emailNotFound';
    case 'no_callback_url':
      return 'x_noCallback';
    case 'unable_to_link_account':
    case 'account_not_linked':
      return 'x_notLinked';
    case 'account_already_linked_to_different_user':
      return 'x_linkedElsewhere';
    case 'signup_disabled':
      return 'x_signupDisabled';
    case 'access_denied':
      return 'x_denied';
    case 'INVALID_CALLBACK_URL':
      return 'x_untrusted';
    case 'banned':
    case 'BANNED_USER':
      return 'x_banned';
    default:
      return 'x_unknown';
  }
}

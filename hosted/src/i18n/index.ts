import { API_ERROR_WORDING } from './api-errors';
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

/** An API error code (`{code}` of an error answer) → the pages' sentence for it (api-errors.ts); else a generic one. */
export function apiErrorKey(code: string | undefined): MessageKey {
  return (code !== undefined && Object.hasOwn(API_ERROR_WORDING, code) && API_ERROR_WORDING[code]) || 'e_generic';
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
    // The pages' own: an address under the pages that is no page (main.tsx).
    case 'not_found':
      return 'x_notFound';
    default:
      return 'x_unknown';
  }
}

/** The error page's heading for a code: what happened, in a few words; "Something went wrong" only for the unknown. */
export function redirectErrorTitle(code: string): MessageKey {
  const titles: Partial<Record<MessageKey, MessageKey>> = {
    x_linkExpired: 'linkExpiredTitle',
    x_linkInvalid: 'linkExpiredTitle',
    x_userNotFound: 'h_accountGone',
    x_unauthorized: 'h_signInFirst',
    x_restart: 'h_interrupted',
    x_provider: 'h_provider',
    x_emailNotFound: 'h_provider',
    x_noCallback: 'h_noCallback',
    x_notLinked: 'h_notLinked',
    x_linkedElsewhere: 'h_notLinked',
    x_signupDisabled: 'h_signupClosed',
    x_denied: 'h_cancelled',
    x_untrusted: 'h_untrusted',
    x_banned: 'h_banned',
    x_notFound: 'h_notFound',
  };
  return titles[redirectErrorKey(code)] ?? 'errorTitle';
}

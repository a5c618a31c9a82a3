/**
 * The mail contract between the API and the worker (docs/mail.md): typed jobs whose links are already built
 * from PUBLIC_URL. The worker renders `kind` in `language` and sends it; `id` makes a double enqueue send once.
 */

/** spec §1 language enumeration (name → code). Stored on the user by name. */
export const LANGUAGES = { RUS: 0, UKR: 1, ENG: 3, SPA: 4, GERMAN: 6, POL: 15, FRA: 16, TURKEY: 82 } as const;
export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_NAMES = Object.keys(LANGUAGES) as Language[];
export const DEFAULT_LANGUAGE: Language = 'ENG';

/**
 * BCP 47 tags: `<html lang>` and Content-Language of the mail (screen readers pick their voice from it), and the
 * Accept-Language subtags that choose a language when the user stored none.
 */
export const LANGUAGE_TAGS: Readonly<Record<Language, string>> = {
  RUS: 'ru',
  UKR: 'uk',
  ENG: 'en',
  SPA: 'es',
  GERMAN: 'de',
  POL: 'pl',
  FRA: 'fr',
  TURKEY: 'tr',
};

interface Base {
  /** Recipient address. */
  to: string;
  language: Language;
  /** The recipient's display name (user-supplied: escaped by the templates). */
  name: string;
}

export type MailJob =
  | (Base & { kind: 'reset-password'; url: string })
  | (Base & { kind: 'verify-email'; url: string })
  /** Sent to the OLD address of a verified user; `newEmail` is where the account would move. */
  | (Base & { kind: 'change-email'; url: string; newEmail: string })
  | (Base & { kind: 'delete-account'; url: string })
  /** Notices (docs/two-factor.md): `url` is the product's account page, never a token. */
  | (Base & { kind: 'two-factor-enabled'; url: string })
  | (Base & { kind: 'two-factor-disabled'; url: string })
  /** An operator removed the user's second factor. */
  | (Base & { kind: 'two-factor-reset'; url: string })
  | (Base & { kind: 'backup-codes-regenerated'; url: string })
  /** A passkey added to the account, or removed from it (docs/two-factor.md "Passkeys"). */
  | (Base & { kind: 'passkey-added'; url: string })
  | (Base & { kind: 'passkey-removed'; url: string })
  /** A one-time sign-in link (docs/passwordless.md): `url` opens the sign-in page, which spends it on a click. */
  | (Base & { kind: 'magic-link'; url: string })
  /** A one-time code (docs/passwordless.md): sign-in, verification or reset; `url` is the sign-in page, never a token. */
  | (Base & { kind: 'email-otp'; url: string; code: string })
  /** Sent to the NEW address: the code that moves the account there (docs/passwordless.md); `url` as `email-otp`'s. */
  | (Base & { kind: 'change-email-otp'; url: string; code: string })
  | (Base & {
      kind: 'invitation';
      url: string;
      organizationName: string;
      inviterName: string;
      inviterEmail: string;
      role: string;
    });

export type MailKind = MailJob['kind'];

/**
 * What became of a mail handed to a queue: waiting, being sent or waiting for a retry (`queued`), `sent`, given up
 * (`failed`: the queue's attempts are spent or the mail can never be sent), or `unknown` there (never handed to it,
 * or lost with it: Redis flushed, the sending process gone).
 */
export type MailState = 'queued' | 'sent' | 'failed' | 'unknown';

export interface MailQueue {
  /**
   * Queues one mail. `id` identifies the job (a token's hash, never the token): enqueuing the same id twice
   * sends once. Resolves once the job is stored (Redis) or accepted (in-process), with where it went (a route,
   * one of `routes()`); sending happens later.
   */
  enqueue(id: string, job: MailJob): Promise<string>;
  /** What became of mail `id` handed over to `route`. Throws when that queue cannot tell now (Redis away). */
  state(id: string, route: string): Promise<MailState>;
  /**
   * Where this queue sends mail and can answer `state` for: `redis:<BullMQ prefix>` (the queue the workers drain,
   * the same for every instance of a deployment) and `process:<instance>` (mail this process sends itself).
   */
  routes(): string[];
  /** Jobs by state (waiting, active, delayed, failed), for metrics. */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

import type { Config } from '../../config';
import type { MailJob } from '../../mail/jobs';
import { mailLanguage } from '../../mail/language';
import type { MailOutbox } from '../../mail/mail-outbox';
import { idFor } from '../../mail/queue';
import type { Sql } from '../../shared/sql';

/** The hosted page each mailed link lands on by default (hosted/src/links.ts names the same pages). */
const LANDING_PAGES: Record<string, string> = {
  '/reset-password': 'reset-password',
  '/verify-email': 'email-verified',
  /** The page that asks before deleting (the link then deletes nothing itself: deletion.routes.ts). */
  '/delete-user/callback': 'delete-account',
  /** The change-of-email confirmation (a /verify-email link sent to the old address). */
  'change-email': 'email-changed',
};

/**
 * The hosted page a deletion link leads to when its request named no callback, when the pages are served: it shows
 * what will happen and deletes only when asked (POST /delete-user with the token).
 */
export function deletionConfirmPage(config: Config): string | null {
  const pages = config.hostedPages;
  return pages.enabled ? `${pages.path}/${LANDING_PAGES['/delete-user/callback']}` : null;
}

/** Who a mail goes to: a user's address, name and stored language. */
export interface Recipient {
  email: string;
  name: string;
  language: string | null;
}

/**
 * Builds the links of spec §2 from PUBLIC_URL (never from the request's Host) and writes the mail to the outbox.
 * The job id is derived from the token, so retrying the same request never sends a second, different mail.
 */
export class AccountMailer {
  constructor(
    private readonly outbox: MailOutbox,
    private readonly config: Config,
  ) {}

  link(path: string, query: Record<string, string>): string {
    const url = new URL(`${this.config.basePath}${path}`, this.config.publicUrl);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.toString();
  }

  /**
   * A link answering with `?token&callbackURL` (verify-email, delete-user/callback): spec §2 names both values, so
   * a request without a callbackURL gets a landing page (`landing`), never a link without it.
   */
  tokenLink(path: string, token: string, callbackURL: string | undefined): string {
    return this.link(path, { token, callbackURL: callbackURL || this.landing(path) });
  }

  /**
   * Where a mailed link leads when the request named no callbackURL: the hosted page for it when the hosted pages
   * are served (docs/hosted-pages.md), else "/" (better-auth's default).
   */
  landing(path: string): string {
    const pages = this.config.hostedPages;
    const page = LANDING_PAGES[path.startsWith('/reset-password/') ? '/reset-password' : path];
    return pages.enabled && page ? `${pages.path}/${page}` : '/';
  }

  /**
   * Mails `job` to `to` in their language (stored, else `acceptLanguage`, else ENG): written in `tx`, the
   * transaction that stores the token, so the mail is sent once the token is committed and never without it.
   */
  async send(
    token: string,
    to: Recipient,
    acceptLanguage: string | undefined,
    job: DistributiveOmit<MailJob, 'to' | 'name' | 'language'>,
    tx?: Sql,
  ) {
    const language = mailLanguage(to.language, acceptLanguage);
    const full = { ...job, to: to.email, name: to.name, language } as MailJob;
    await this.outbox.write(idFor(full.kind, token), full, tx);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

import type { Config } from '../../config';
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGE_TAGS, type Language, type MailJob } from '../../mail/jobs';
import type { MailOutbox } from '../../mail/mail-outbox';
import { idFor } from '../../mail/queue';
import type { Sql } from '../../shared/sql';

/** Accept-Language primary subtag → language of the spec §1 enumeration. */
const BY_SUBTAG = new Map(LANGUAGE_NAMES.map((name) => [LANGUAGE_TAGS[name], name]));

/** The user's stored language, else the best Accept-Language match, else ENG. */
export function mailLanguage(stored: string | null | undefined, acceptLanguage?: string): Language {
  if (stored && (LANGUAGE_NAMES as string[]).includes(stored)) return stored as Language;
  const ranked = (acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase().split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0 && BY_SUBTAG.has(entry.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0] ? BY_SUBTAG.get(ranked[0].tag)! : DEFAULT_LANGUAGE;
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
   * a request without a callbackURL gets "/" (better-auth's default), never a link without it.
   */
  tokenLink(path: string, token: string, callbackURL: string | undefined): string {
    return this.link(path, { token, callbackURL: callbackURL || '/' });
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

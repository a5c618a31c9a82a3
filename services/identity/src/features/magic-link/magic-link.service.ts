import type { MagicLinkConfig } from '../../config';
import { randomString } from '../../crypto/random';
import { fail } from '../../errors';
import { mailLanguage } from '../../mail/language';
import { idFor } from '../../mail/queue';
import { type AuditSource } from '../../shared/audit';
import { normalizeEmail } from '../../shared/email';
import type { ProvenIdentity } from '../../shared/sign-in';
import { type Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { MagicLinkFeatureDeps } from './deps';
import type { MagicLinkRepository } from './repository';

/** What a sign-in link is asked with (better-auth's body); the callbacks ride in the mailed link. */
export interface LinkRequest {
  email: string;
  name?: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
}

/** The identity a used link proves, for the sign-in seam, and whether the link registered its user. */
export interface LinkProof {
  identity: ProvenIdentity;
  newUser: boolean;
}

/**
 * Sign-in by a mailed one-time link (docs/passwordless.md). A link is stored as its token's hash with a short life,
 * mailed in the same transaction (through the per-address mail cap), and bound to the browser that asked for it
 * unless configured otherwise. Using it proves the address: the sign-in seam then decides (ban, second factor,
 * session) and spends the link in the session's transaction, so it works exactly once.
 */
export class MagicLinkService {
  constructor(private readonly d: MagicLinkFeatureDeps & { repo: MagicLinkRepository; settings: MagicLinkConfig }) {}

  /**
   * Mails a link to a known address, or to an unknown one when links sign up; otherwise nothing, with the same
   * answer in the same time (the caller cannot tell which): the request looks the address up either way, and the
   * link and its mail are made after the answer. `browser` is the asking browser's binding value.
   */
  async send(input: LinkRequest, browser: string | null, lang: string | undefined): Promise<void> {
    const email = normalizeEmail(input.email);
    const user = await this.d.accounts.getUserByEmail(email);
    if (user === null && !this.d.settings.allowSignUp) return;
    this.d.background.run('magic-link mail', () => this.mailLink(email, user, input, browser, lang));
  }

  /** Stores a new link for `email` and mails it, in one transaction (through the per-address mail cap). */
  private async mailLink(
    email: string,
    user: UserView | null,
    input: LinkRequest,
    browser: string | null,
    lang: string | undefined,
  ): Promise<void> {
    const { settings } = this.d;
    const token = randomString(32);
    const now = this.now();
    const expiresAt = new Date(now.getTime() + settings.ttlSec * 1000);
    const record = { email, name: input.name ?? null, browser: settings.sameBrowser ? browser : null };
    await this.d.sql.transaction(async (tx) => {
      await this.d.repo.put(token, record, expiresAt, now, tx);
      await this.d.mail.write(
        idFor('magic-link', token),
        {
          kind: 'magic-link',
          to: email,
          name: user?.name ?? input.name ?? '',
          language: mailLanguage(user?.language, lang),
          url: this.linkFor(token, input),
        },
        tx,
      );
    });
  }

  /**
   * Checks a link presented by `browser` and answers the identity it proves, without using it up (the seam spends
   * it in the session's transaction). An unknown, used or expired link is INVALID_TOKEN; a bound link from another
   * browser is MAGIC_LINK_OTHER_BROWSER and stays usable where it was asked for.
   */
  async prove(token: string, browser: string | null, source: AuditSource): Promise<LinkProof> {
    const now = this.now();
    const record = await this.d.repo.peek(token, now);
    if (!record) {
      await this.refused(null, source, 'invalid-token');
      fail('INVALID_TOKEN');
    }
    if (record.browser !== null && record.browser !== browser) {
      await this.refused(record.email, source, 'other-browser');
      fail('MAGIC_LINK_OTHER_BROWSER');
    }
    let user = await this.d.accounts.getUserByEmail(record.email);
    let newUser = false;
    if (!user) {
      if (!this.d.settings.allowSignUp) fail('INVALID_TOKEN');
      ({ user, newUser } = await this.d.accounts.registerVerified(
        { email: record.email, name: record.name ?? '', image: null },
        'magic-link',
        source,
      ));
    } else {
      user = await this.d.signIn.checkBan(user);
      if (!user.emailVerified) user = await this.d.accounts.claimAddress(user, 'magic-link', source);
    }
    const { repo } = this.d;
    return {
      newUser,
      identity: {
        user,
        method: 'magic-link',
        rememberMe: true,
        secondFactor: 'ask',
        details: newUser ? { newUser: true } : undefined,
        spend: async (tx: Sql) => {
          if (!(await repo.take(token, now, tx))) fail('INVALID_TOKEN');
        },
      },
    };
  }

  /** A failed link sign-in, recorded against the address when the link named one (docs/audit.md). */
  private async refused(email: string | null, source: AuditSource, reason: string): Promise<void> {
    await this.d.audit.record(this.d.sql, {
      type: 'user.sign_in_failed',
      source: { ...source, actor: { type: 'anonymous' } },
      target: email === null ? null : this.d.audit.emailTarget(email),
      details: { method: 'magic-link', reason },
    });
  }

  /**
   * The link in the mail: the hosted sign-in page when the pages are served (one click there signs in, so a mail
   * scanner that fetches the link spends nothing; it carries where to go after, and where a user the link registers
   * goes, and shows refusals itself), else the API's verify route as better-auth mails it.
   */
  private linkFor(token: string, input: LinkRequest): string {
    const { config } = this.d;
    const pages = config.hostedPages;
    const path = pages.enabled ? `${pages.path}/magic-link` : `${config.basePath}/magic-link/verify`;
    const url = new URL(path, config.publicUrl);
    url.searchParams.set('token', token);
    if (pages.enabled) {
      if (input.callbackURL) url.searchParams.set('callbackURL', input.callbackURL);
      if (input.newUserCallbackURL) url.searchParams.set('newUserCallbackURL', input.newUserCallbackURL);
    } else {
      url.searchParams.set('callbackURL', input.callbackURL || '/');
      if (input.newUserCallbackURL) url.searchParams.set('newUserCallbackURL', input.newUserCallbackURL);
      if (input.errorCallbackURL) url.searchParams.set('errorCallbackURL', input.errorCallbackURL);
    }
    return url.toString();
  }

  private now(): Date {
    return new Date(this.d.clock.now());
  }
}

import { type AuditSource, asUser, userTarget } from '../../shared/audit';
import { normalizeEmail } from '../../shared/email';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { ProviderTokens } from './oauth-client';
import type { SocialParts } from './parts';
import type { Provider } from './providers/registry';
import type { Profile } from './providers/types';
import type { AccountRow } from './repository';

/** Why a provider login cannot become a signed-in user; the callback's redirect codes (spec §8). */
export type SignInRefusal = 'email_not_found' | 'account_not_linked' | 'signup_disabled';
export type LinkRefusal = 'linking_not_allowed' | 'different_emails' | 'already_linked_to_other_user';

/** Who a provider login is, before anything is written (so a refused user leaves no trace). */
export type Identified =
  | { kind: 'linked'; user: UserView; account: AccountRow }
  | { kind: 'same-email'; user: UserView }
  | { kind: 'new' }
  | { kind: 'refused'; reason: SignInRefusal };

/** What finding or making the account of a provider identity uses. */
export type IdentifyDeps = Pick<SocialParts, 'sql' | 'repo' | 'vault' | 'accounts' | 'config' | 'clock' | 'audit'>;

/**
 * spec §4 social sign-in: sign in the linked user, link to the user with the same email only when allowed, or
 * register. Linking needs the provider trusted or the email verified by it, linking not disabled, and (default
 * on) the local account's own email verified: nobody can pre-register a victim's address and inherit their login.
 */
export class IdentifyService {
  constructor(private readonly d: IdentifyDeps) {}

  /** `requestSignUp`: the sign-in asked to register (needed when the provider has implicit sign-up off). */
  async identify(p: Provider, profile: Profile, requestSignUp = false): Promise<Identified> {
    const account = await this.d.repo.findAccount(p.id, profile.id);
    if (account) {
      const user = await this.d.accounts.getUser(account.userId);
      if (user) return { kind: 'linked', user, account };
    }
    if (!profile.email || !EMAIL.test(profile.email)) return { kind: 'refused', reason: 'email_not_found' };
    const user = await this.d.accounts.getUserByEmail(profile.email);
    if (user)
      return this.mayLinkOnSignIn(p, profile, user) ? { kind: 'same-email', user } : refused('account_not_linked');
    if (p.settings.disableSignUp || (p.settings.disableImplicitSignUp && !requestSignUp))
      return refused('signup_disabled');
    return { kind: 'new' };
  }

  /** Writes what `identify` decided: new tokens, a new link or a new user. Null: a concurrent sign-up won. */
  async persist(
    p: Provider,
    profile: Profile,
    found: Exclude<Identified, { kind: 'refused' }>,
    tokens: Partial<ProviderTokens>,
    source: AuditSource,
  ): Promise<{ user: UserView; isNew: boolean } | null> {
    const now = new Date(this.d.clock.now());
    const seal = this.d.vault.seal(tokens);
    const account = { providerId: p.id, accountId: profile.id, seal };
    if (found.kind === 'linked') {
      await this.d.repo.updateTokens(found.account.id, seal(found.account.id), now);
      return { user: found.user, isNew: false };
    }
    try {
      if (found.kind === 'same-email') {
        const by = asUser(source, found.user.id);
        await this.d.sql.transaction(async (tx) => {
          await this.d.repo.insertAccount(found.user.id, account, now, tx);
          await this.linked(tx, by, found.user.id, p, profile, 'sign-in');
        });
        return { user: found.user, isNew: false };
      }
      const input = {
        email: profile.email!,
        name: profile.name.slice(0, 256),
        image: safeImage(profile.image),
        emailVerified: profile.emailVerified,
      };
      const user = await this.d.accounts.registerExternal(input, p.id, source, async (tx, created) => {
        await this.d.repo.insertAccount(created.id, account, now, tx);
      });
      return { user, isNew: true };
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** link-social: attach the provider account to the signed-in user (spec §4 linking rule). */
  async link(
    p: Provider,
    profile: Profile,
    link: { userId: string; email: string },
    tokens: Partial<ProviderTokens>,
    source: AuditSource,
  ): Promise<LinkRefusal | null> {
    const now = new Date(this.d.clock.now());
    const seal = this.d.vault.seal(tokens);
    const existing = await this.d.repo.findAccount(p.id, profile.id);
    if (existing) {
      if (existing.userId !== link.userId) return 'already_linked_to_other_user';
      await this.d.repo.updateTokens(existing.id, seal(existing.id), now);
      return null;
    }
    if (p.settings.disableLinking || !(p.settings.trustedForLinking || profile.emailVerified))
      return 'linking_not_allowed';
    const email = profile.email ? normalizeEmail(profile.email) : null;
    if (email !== link.email && !this.d.config.social.allowDifferentEmails) return 'different_emails';
    try {
      await this.d.sql.transaction(async (tx) => {
        await this.d.repo.insertAccount(link.userId, { providerId: p.id, accountId: profile.id, seal }, now, tx);
        await this.linked(tx, source, link.userId, p, profile, 'link-social');
      });
      return null;
    } catch (error) {
      if (isUniqueViolation(error)) return 'already_linked_to_other_user';
      throw error;
    }
  }

  /** The `user.account_linked` event of a new provider account, in its transaction. */
  private linked(tx: Sql, source: AuditSource, userId: string, p: Provider, profile: Profile, via: string) {
    const details = { providerId: p.id, accountId: profile.id, via };
    return this.d.audit.record(tx, { type: 'user.account_linked', source, target: userTarget(userId), details });
  }

  private mayLinkOnSignIn(p: Provider, profile: Profile, user: UserView): boolean {
    if (p.settings.disableLinking) return false;
    if (!(p.settings.trustedForLinking || profile.emailVerified)) return false;
    return user.emailVerified || !this.d.config.social.requireLocalEmailVerifiedForLinking;
  }
}

const refused = (reason: SignInRefusal): Identified => ({ kind: 'refused', reason });

/** One address, no spaces or control characters, at most 254 characters: what the email schema would accept. */
const EMAIL = /^(?=.{3,254}$)[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A provider's picture is kept only as an http(s) URL of bounded length (it is rendered by frontends). */
function safeImage(image: string | null): string | null {
  if (!image || image.length > 2048) return null;
  try {
    const url = new URL(image);
    return url.protocol === 'https:' || url.protocol === 'http:' ? image : null;
  } catch {
    return null;
  }
}

import type { Config } from '../../config';
import type { PasswordHasher } from '../../crypto/password';
import { fail } from '../../errors';
import { type AuditEventType, type AuditSource, asUser, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import { normalizeEmail } from '../../shared/email';
import type { ProvenIdentity } from '../../shared/sign-in';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { CreateSessionInput, SessionService } from '../session';
import type { AccountAudit } from './deps';
import type { EmailService } from './email.service';
import type { AccountRepository } from './repository';
import type { ProfileFields, SignInInput, SignUpInput } from './schemas';

export interface NewUserInput {
  email: string;
  name: string;
  role: string;
  image?: string | null;
  language?: string | null;
}

/**
 * The sign-in event of a session made outside the sign-in seam (a password change's new session, docs/audit.md):
 * the user is the actor, the session's id and how it was made are the details. For `CreateSessionInput.event`.
 */
export const signedIn =
  (source: AuditSource, method: string): CreateSessionInput['event'] =>
  ({ session, user }) => ({
    type: 'user.signed_in',
    source: asUser(source, user.id),
    target: userTarget(user.id),
    details: { method, sessionId: session.id },
  });

/** Email+password accounts (spec §4, §5): sign-up, sign-in, profile updates. */
export class AccountService {
  private readonly repo: AccountRepository;
  private readonly sessions: SessionService;
  private readonly hasher: PasswordHasher;
  private readonly config: Config;
  private readonly clock: Clock;
  private readonly emails: Pick<EmailService, 'sendVerificationMail'>;
  private readonly audit: AccountAudit;
  private readonly sql: Sql;

  constructor(deps: {
    sql: Sql;
    repo: AccountRepository;
    sessions: SessionService;
    hasher: PasswordHasher;
    config: Config;
    clock: Clock;
    emails: Pick<EmailService, 'sendVerificationMail'>;
    audit: AccountAudit;
  }) {
    ({
      sql: this.sql,
      repo: this.repo,
      sessions: this.sessions,
      hasher: this.hasher,
      config: this.config,
      clock: this.clock,
      emails: this.emails,
      audit: this.audit,
    } = deps);
  }

  /** Returns the new user and, with auto sign-in, the identity the sign-in seam takes to its first session. */
  async signUp(
    input: SignUpInput,
    source: AuditSource,
    lang?: string,
  ): Promise<{ user: UserView; signIn: ProvenIdentity | null }> {
    this.assertEmailPasswordEnabled();
    if (this.config.emailAndPassword.disableSignUp) fail('SIGN_UP_DISABLED');
    const email = normalizeEmail(input.email);
    this.assertPasswordLength(input.password);
    if (await this.repo.findUserByEmail(email)) fail('USER_ALREADY_EXISTS');
    const hash = await this.hasher.hash(input.password);
    const user = await this.repo
      .createWithPassword(
        {
          email,
          name: input.name,
          image: input.image ?? null,
          emailVerified: false,
          language: input.language ?? null,
          role: this.config.admin.defaultRole, // spec §9: default admin role
        },
        hash,
        new Date(this.clock.now()),
        (tx, created) =>
          this.audit.record(tx, {
            type: 'user.signed_up',
            source: asUser(source, created.id),
            target: userTarget(created.id),
            details: { method: 'email' },
          }),
      )
      .catch((error) => (isUniqueViolation(error) ? fail('USER_ALREADY_EXISTS') : Promise.reject(error)));
    const { emailVerification, emailAndPassword } = this.config;
    if (emailVerification.sendOnSignUp || emailAndPassword.requireEmailVerification)
      await this.emails.sendVerificationMail(user, input.callbackURL, lang);
    // Unverified accounts get no session when verification is required (spec §4, better-auth's behaviour).
    if (!emailAndPassword.autoSignIn || emailAndPassword.requireEmailVerification) return { user, signIn: null };
    const rememberMe = input.rememberMe ?? true;
    return { user, signIn: { user, method: 'sign-up', rememberMe, secondFactor: 'ask' } };
  }

  /**
   * Unknown email, social-only account and wrong password all answer INVALID_EMAIL_OR_PASSWORD after the
   * same argon2 work, so timing reveals no account. The sign-in seam (the ban, the second factor) takes over only
   * after a correct password.
   * A failure is recorded with the address's digest as its target, never the address, and never which of the two
   * was wrong (docs/audit.md).
   */
  async signIn(input: SignInInput, source: AuditSource, lang?: string): Promise<ProvenIdentity> {
    this.assertEmailPasswordEnabled();
    const email = normalizeEmail(input.email);
    const found = await this.repo.findUserWithPasswordHash(email);
    const user = found?.user;
    const result = await this.verifyPassword(found?.passwordHash ?? null, input.password);
    if (!user || !result.ok) {
      await this.audit.record(this.sql, {
        type: 'user.sign_in_failed',
        source: { ...source, actor: { type: 'anonymous' } },
        target: this.audit.emailTarget(email),
        details: { method: 'email' },
      });
      fail('INVALID_EMAIL_OR_PASSWORD');
    }
    if (result.needsRehash) await this.rehash(user!.id, input.password);
    if (this.config.emailAndPassword.requireEmailVerification && !user!.emailVerified) {
      await this.emails.sendVerificationMail(user!, input.callbackURL, lang); // only after a correct password
      fail('EMAIL_NOT_VERIFIED');
    }
    return { user: user!, method: 'email', rememberMe: input.rememberMe ?? true, secondFactor: 'ask' };
  }

  /**
   * An account made by an operator (admin create-user, the CLI): email, password, name and role; never
   * emailVerified or ban fields (spec §3). Same password and duplicate rules as sign-up.
   */
  async createUser(input: NewUserInput, password: string, source: AuditSource): Promise<UserView> {
    const email = normalizeEmail(input.email);
    this.assertPasswordLength(password);
    if (await this.repo.findUserByEmail(email)) fail('USER_ALREADY_EXISTS');
    const hash = await this.hasher.hash(password);
    const user = { email, name: input.name, image: input.image ?? null, language: input.language ?? null };
    const record = (tx: Sql, created: UserView) =>
      this.audit.record(tx, {
        type: 'admin.user.created',
        source,
        target: userTarget(created.id),
        details: { role: created.role },
      });
    return this.repo
      .createWithPassword({ ...user, emailVerified: false, role: input.role }, hash, new Date(this.clock.now()), record)
      .catch((error) => (isUniqueViolation(error) ? fail('USER_ALREADY_EXISTS') : Promise.reject(error)));
  }

  /**
   * A user registered through another sign-in method (a social provider): never a password; `attach` adds the
   * method's account in the same transaction, with the sign-up's audit event. A unique violation (the email was
   * taken meanwhile) is passed on.
   */
  registerExternal(
    input: { email: string; name: string; image: string | null; emailVerified: boolean },
    method: string,
    source: AuditSource,
    attach: (tx: Sql, user: UserView) => Promise<void>,
  ): Promise<UserView> {
    const user = { ...input, email: normalizeEmail(input.email), language: null, role: this.config.admin.defaultRole };
    return this.repo.createWith(user, new Date(this.clock.now()), async (tx, created) => {
      await attach(tx, created);
      await this.audit.record(tx, {
        type: 'user.signed_up',
        source: asUser(source, created.id),
        target: userTarget(created.id),
        details: { method },
      });
    });
  }

  /**
   * A passwordless method's sign-up (a mailed link or code): a user with a verified address and no password, or
   * the one a parallel request registered first when the address was taken meanwhile.
   */
  async registerVerified(
    input: { email: string; name: string; image: string | null },
    method: string,
    source: AuditSource,
  ): Promise<{ user: UserView; newUser: boolean }> {
    try {
      const user = await this.registerExternal({ ...input, emailVerified: true }, method, source, async () => {});
      return { user, newUser: true };
    } catch (error) {
      const existing = isUniqueViolation(error) ? await this.getUserByEmail(input.email) : null;
      if (!existing) throw error;
      return { user: existing, newUser: false };
    }
  }

  /**
   * In `tx`: the user's address is verified by `method` (a mailed link or code), with its `user.email_verified`
   * event, the user as actor. False when it already was (nothing written).
   */
  async verifyAddressIn(tx: Sql, user: UserView, method: string, source: AuditSource): Promise<boolean> {
    if (!(await this.repo.verifyUnverified(user.id, new Date(this.clock.now()), tx))) return false;
    await this.audit.record(tx, {
      type: 'user.email_verified',
      source: asUser(source, user.id),
      target: userTarget(user.id),
      details: { email: user.email, method },
    });
    return true;
  }

  /**
   * A mailed link or code proved the address of an unverified account: the address is verified now, and the
   * password and sessions set on it before (by whoever typed the address at sign-up) end, in one transaction, as
   * better-auth does. Answers the user as now.
   */
  async claimAddress(user: UserView, method: string, source: AuditSource): Promise<UserView> {
    const now = new Date(this.clock.now());
    const after = await this.sessions.changeUser(user.id, async (tx) => {
      if (!(await this.verifyAddressIn(tx, user, method, source))) return async () => {};
      await this.repo.removePassword(user.id, tx);
      return this.sessions.endAllForUserIn(tx, user.id);
    });
    await after();
    return { ...user, emailVerified: true, updatedAt: now.toISOString() };
  }

  getUser(id: string): Promise<UserView | null> {
    return this.repo.findUserById(id);
  }

  getUserByEmail(email: string): Promise<UserView | null> {
    return this.repo.findUserByEmail(normalizeEmail(email));
  }

  /** `type`: the user's own update, or an operator's (admin update-user). */
  async updateProfile(
    userId: string,
    fields: ProfileFields,
    source: AuditSource,
    type: AuditEventType = 'user.updated',
  ): Promise<UserView> {
    const now = new Date(this.clock.now());
    const user = await this.sessions.changeUser(userId, async (tx) => {
      const updated = await this.repo.updateProfile(userId, fields, now, tx);
      if (updated)
        await this.audit.record(tx, {
          type,
          source,
          target: userTarget(userId),
          details: { fields: Object.keys(fields) },
        });
      return updated;
    });
    return user ?? fail('USER_NOT_FOUND');
  }

  /**
   * `password` against the user's credential. Without a user or a credential a dummy hash takes the same time;
   * a password over the maximum length never matches (and is not hashed at its full length).
   */
  async checkPassword(userId: string | null, password: string) {
    return this.verifyPassword(userId ? await this.repo.findPasswordHash(userId) : null, password);
  }

  private async verifyPassword(hash: string | null, password: string) {
    const tooLong = password.length > this.config.password.maxLength;
    const result = await this.hasher.verify(hash, tooLong ? '' : password);
    return { ok: result.ok && !tooLong, hasCredential: hash !== null, needsRehash: result.needsRehash };
  }

  assertPasswordLength(password: string): void {
    if (password.length < this.config.password.minLength) fail('PASSWORD_TOO_SHORT');
    if (password.length > this.config.password.maxLength) fail('PASSWORD_TOO_LONG');
  }

  private async rehash(userId: string, password: string): Promise<void> {
    await this.repo.updatePasswordHash(userId, await this.hasher.hash(password), new Date(this.clock.now()));
  }

  private assertEmailPasswordEnabled(): void {
    if (!this.config.emailAndPassword.enabled) fail('EMAIL_PASSWORD_DISABLED');
  }
}

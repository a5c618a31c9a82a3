import type { Config } from '../../config';
import type { PasswordHasher } from '../../crypto/password';
import { fail } from '../../errors';
import { type AuditEventType, type AuditSource, asUser, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import { normalizeEmail } from '../../shared/email';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { CreateSessionInput, SessionService } from '../session';
import type { AccountAudit } from './deps';
import type { EmailService } from './email.service';
import type { AccountRepository } from './repository';
import type { ProfileFields, SignInInput, SignUpInput } from './schemas';

/** A signed cookie value and how long the browser keeps it (the second factor's cookies). */
export interface CookieGrant {
  value: string;
  maxAgeSec: number;
}

/**
 * What the password sign-in asks once the password is right and before a session is made: the two-factor feature
 * plugs in here (docs/two-factor.md). It answers from the user row already loaded, so a user without a second
 * factor costs no statement. `trustedDevice`: the device cookie the browser presented, if any.
 */
export type SecondFactorGate = (
  user: UserView,
  attempt: { rememberMe: boolean; trustedDevice: string | null },
) => Promise<
  | { pass: true; trustedDevice: CookieGrant | null }
  | { pass: false; challenge: CookieGrant; methods: string[]; forgetDevice: boolean }
>;

/** A sign-in's outcome: a session, or (a second factor enabled) a pending sign-in and no session. */
export type SignInOutcome =
  | { kind: 'signed-in'; current: SessionWithUser; trustedDevice: CookieGrant | null }
  | { kind: 'second-factor'; challenge: CookieGrant; methods: string[]; forgetDevice: boolean };

export interface NewUserInput {
  email: string;
  name: string;
  role: string;
  image?: string | null;
  language?: string | null;
}

/**
 * The sign-in event of a new session (docs/audit.md): the user is the actor, the session's id and how it was made
 * are the details. For `CreateSessionInput.event`.
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
  /** Named hook points: the second factor asked after a correct password (the two-factor feature's hooks.ts). */
  readonly hooks: { secondFactor: SecondFactorGate | null } = { secondFactor: null };
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

  /** Returns the new user and, with auto sign-in, its first session. */
  async signUp(
    input: SignUpInput,
    source: AuditSource,
    lang?: string,
  ): Promise<{ user: UserView; session: SessionWithUser | null }> {
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
    if (!emailAndPassword.autoSignIn || emailAndPassword.requireEmailVerification) return { user, session: null };
    const session = await this.sessions.create({
      user,
      rememberMe: input.rememberMe ?? true,
      ...source,
      event: signedIn(source, 'sign-up'),
    });
    return { user, session };
  }

  /**
   * Unknown email, social-only account and wrong password all answer INVALID_EMAIL_OR_PASSWORD after the
   * same argon2 work, so timing reveals no account. Ban and other hooks run only after a correct password.
   * A failure is recorded with the address's digest as its target, never the address, and never which of the two
   * was wrong (docs/audit.md).
   */
  async signIn(
    input: SignInInput,
    source: AuditSource,
    lang?: string,
    trustedDevice: string | null = null,
  ): Promise<SignInOutcome> {
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
    const rememberMe = input.rememberMe ?? true;
    let device: CookieGrant | null = null;
    // Only a user with a second factor reaches the gate's statements (docs/two-factor.md).
    if (user!.twoFactorEnabled && this.hooks.secondFactor) {
      const gate = await this.hooks.secondFactor(user!, { rememberMe, trustedDevice });
      if (!gate.pass) return { kind: 'second-factor', ...gate };
      device = gate.trustedDevice;
    }
    const current = await this.sessions.create({
      user: user!,
      rememberMe,
      ...source,
      event: signedIn(source, device ? 'email+trusted-device' : 'email'),
    });
    return { kind: 'signed-in', current, trustedDevice: device };
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

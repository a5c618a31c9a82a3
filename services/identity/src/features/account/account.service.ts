import type { Config } from '../../config';
import type { PasswordHasher } from '../../crypto/password';
import { fail } from '../../errors';
import type { Clock } from '../../shared/clock';
import { normalizeEmail } from '../../shared/email';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { ClientInfo, SessionWithUser, UserView } from '../../shared/views';
import type { SessionService } from '../session';
import type { EmailService } from './email.service';
import type { AccountRepository, ProfileFields } from './repository';

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  image?: string;
  language?: string;
  rememberMe?: boolean;
  callbackURL?: string;
}

export interface SignInInput {
  email: string;
  password: string;
  rememberMe?: boolean;
  callbackURL?: string;
}

export interface NewUserInput {
  email: string;
  name: string;
  role: string;
  image?: string | null;
  language?: string | null;
}

/** Email+password accounts (spec §4, §5): sign-up, sign-in, profile updates. */
export class AccountService {
  constructor(
    private readonly repo: AccountRepository,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly emails: Pick<EmailService, 'sendVerificationMail'>,
  ) {}

  /** Returns the new user and, with auto sign-in, its first session. */
  async signUp(
    input: SignUpInput,
    client: ClientInfo,
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
      )
      .catch((error) => (isUniqueViolation(error) ? fail('USER_ALREADY_EXISTS') : Promise.reject(error)));
    const { emailVerification, emailAndPassword } = this.config;
    if (emailVerification.sendOnSignUp || emailAndPassword.requireEmailVerification)
      await this.emails.sendVerificationMail(user, input.callbackURL, lang);
    // Unverified accounts get no session when verification is required (spec §4, better-auth's behaviour).
    if (!emailAndPassword.autoSignIn || emailAndPassword.requireEmailVerification) return { user, session: null };
    const session = await this.sessions.create({ user, rememberMe: input.rememberMe ?? true, ...client });
    return { user, session };
  }

  /**
   * Unknown email, social-only account and wrong password all answer INVALID_EMAIL_OR_PASSWORD after the
   * same argon2 work, so timing reveals no account. Ban and other hooks run only after a correct password.
   */
  async signIn(input: SignInInput, client: ClientInfo, lang?: string): Promise<SessionWithUser> {
    this.assertEmailPasswordEnabled();
    const email = normalizeEmail(input.email);
    const user = await this.repo.findUserByEmail(email);
    const result = await this.checkPassword(user?.id ?? null, input.password);
    if (!user || !result.ok) fail('INVALID_EMAIL_OR_PASSWORD');
    if (result.needsRehash) await this.rehash(user!.id, input.password);
    if (this.config.emailAndPassword.requireEmailVerification && !user!.emailVerified) {
      await this.emails.sendVerificationMail(user!, input.callbackURL, lang); // only after a correct password
      fail('EMAIL_NOT_VERIFIED');
    }
    return this.sessions.create({ user: user!, rememberMe: input.rememberMe ?? true, ...client });
  }

  /**
   * An account made by an operator (admin create-user, the CLI): email, password, name and role; never
   * emailVerified or ban fields (spec §3). Same password and duplicate rules as sign-up.
   */
  async createUser(input: NewUserInput, password: string): Promise<UserView> {
    const email = normalizeEmail(input.email);
    this.assertPasswordLength(password);
    if (await this.repo.findUserByEmail(email)) fail('USER_ALREADY_EXISTS');
    const hash = await this.hasher.hash(password);
    const user = { email, name: input.name, image: input.image ?? null, language: input.language ?? null };
    return this.repo
      .createWithPassword({ ...user, emailVerified: false, role: input.role }, hash, new Date(this.clock.now()))
      .catch((error) => (isUniqueViolation(error) ? fail('USER_ALREADY_EXISTS') : Promise.reject(error)));
  }

  /**
   * A user registered through another sign-in method (a social provider): never a password; `attach` adds the
   * method's account in the same transaction. A unique violation (the email was taken meanwhile) is passed on.
   */
  registerExternal(
    input: { email: string; name: string; image: string | null; emailVerified: boolean },
    attach: (tx: Sql, user: UserView) => Promise<void>,
  ): Promise<UserView> {
    const user = { ...input, email: normalizeEmail(input.email), language: null, role: this.config.admin.defaultRole };
    return this.repo.createWith(user, new Date(this.clock.now()), attach);
  }

  getUser(id: string): Promise<UserView | null> {
    return this.repo.findUserById(id);
  }

  getUserByEmail(email: string): Promise<UserView | null> {
    return this.repo.findUserByEmail(normalizeEmail(email));
  }

  async updateProfile(userId: string, fields: ProfileFields): Promise<UserView> {
    const now = new Date(this.clock.now());
    const user = await this.sessions.changeUser(userId, (tx) => this.repo.updateProfile(userId, fields, now, tx));
    return user ?? fail('USER_NOT_FOUND');
  }

  /**
   * `password` against the user's credential. Without a user or a credential a dummy hash takes the same time;
   * a password over the maximum length never matches (and is not hashed at its full length).
   */
  async checkPassword(userId: string | null, password: string) {
    const hash = userId ? await this.repo.findPasswordHash(userId) : null;
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

import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { AdminParts } from './parts';

/** What the mails an operator sends for a user use. */
export type UserMailDeps = Pick<AdminParts, 'access' | 'accounts' | 'emails' | 'passwords'>;

/**
 * Account mails an operator sends for a user (the console's "send a password reset" and "send a verification
 * mail"): the same mails and links the user could ask for, through the same outbox and mail cap.
 */
export class AdminUserMailService {
  constructor(private readonly d: UserMailDeps) {}

  async sendReset(auth: SessionWithUser, userId: string, redirectTo: string | undefined): Promise<void> {
    this.d.access.demand(auth, { user: ['set-password'] }, 'NOT_ALLOWED_TO_SET_USERS_PASSWORD');
    await this.d.passwords.sendResetFor(await this.user(userId), redirectTo);
  }

  async sendVerification(auth: SessionWithUser, userId: string, callbackURL: string | undefined): Promise<void> {
    this.d.access.demand(auth, { user: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_USERS');
    const user = await this.user(userId);
    if (user.emailVerified) fail('EMAIL_ALREADY_VERIFIED');
    await this.d.emails.sendVerificationMail(user, callbackURL);
  }

  private async user(userId: string): Promise<UserView> {
    return (isId(userId) && (await this.d.accounts.getUser(userId))) || fail('USER_NOT_FOUND');
  }
}

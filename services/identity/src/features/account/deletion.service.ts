import type { Config } from '../../config';
import { LOWER_ALPHANUMERIC, randomString } from '../../crypto/random';
import { fail } from '../../errors';
import { type AuditDetails, type AuditEventType, type AuditSource, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import type { SessionService } from '../session';
import type { AccountService } from './account.service';
import type { AccountAudit } from './deps';
import type { DeleteInput } from './flows.schemas';
import type { AccountMailer } from './mailer';
import type { AccountRepository } from './repository';
import type { TokenRepository } from './tokens.repository';

/** spec §3 identifier and spec §9 shape of a deletion token: 32 characters, digits and lowercase letters. */
const DELETE = 'delete-account-';
const TOKEN = /^[a-z0-9]{32}$/;

/** Account deletion (spec §4): at once with proof, otherwise after a confirmation mail. */
export class DeletionService {
  constructor(
    private readonly deps: {
      sql: Sql;
      repo: AccountRepository;
      tokens: TokenRepository;
      sessions: SessionService;
      accounts: Pick<AccountService, 'checkPassword'>;
      mailer: AccountMailer;
      config: Config;
      clock: Clock;
      audit: AccountAudit;
    },
  ) {}

  /** 'deleted' with a correct password, a valid token of this user, or a fresh session; else 'mailed'. */
  async request(
    auth: SessionWithUser,
    input: DeleteInput,
    source: AuditSource,
    lang?: string,
  ): Promise<'deleted' | 'mailed'> {
    const deleted = { type: 'user.deleted', source } as const;
    const { sessions, config } = this.deps;
    if (!config.deleteUser.enabled) fail('DELETE_USER_DISABLED');
    if (input.password !== undefined) {
      const check = await this.deps.accounts.checkPassword(auth.user.id, input.password);
      if (!check.hasCredential) fail('CREDENTIAL_ACCOUNT_NOT_FOUND');
      if (!check.ok) fail('INVALID_PASSWORD');
      await this.deleteNow(auth.user.id, { ...deleted, proof: 'password' });
      return 'deleted';
    }
    if (input.token !== undefined) {
      await this.confirm(auth, input.token, source);
      return 'deleted';
    }
    if (sessions.isFresh(auth.session)) {
      await this.deleteNow(auth.user.id, { ...deleted, proof: 'fresh-session' });
      return 'deleted';
    }
    await this.sendConfirmation(auth, input.callbackURL, lang);
    return 'mailed';
  }

  /** spec §5: the token must be this user's and not expired; it is used up even by a concurrent twin. */
  async confirm(auth: SessionWithUser, token: string, source: AuditSource): Promise<void> {
    if (!this.deps.config.deleteUser.enabled) fail('DELETE_USER_DISABLED');
    if (!TOKEN.test(token)) fail('INVALID_TOKEN');
    const now = new Date(this.deps.clock.now());
    const removed = await this.deleteNow(auth.user.id, { type: 'user.deleted', source, proof: 'token' }, (tx) =>
      this.deps.tokens.takeFor(DELETE + token, auth.user.id, now, tx),
    );
    if (!removed) fail('INVALID_TOKEN');
  }

  /** An operator removes a user (admin remove-user): sessions, accounts and tokens go with it. */
  removeUser(userId: string, source: AuditSource): Promise<boolean> {
    return this.deleteNow(userId, { type: 'admin.user.removed', source });
  }

  /**
   * One transaction: the guard (a token use), the sessions, then the user with its accounts (cascade), and the
   * event (the user's own deletion, or an operator's removal). No
   * session can be added in between; cached copies are dropped after the commit.
   */
  private async deleteNow(
    userId: string,
    event: { type: AuditEventType; source: AuditSource; proof?: string },
    guard?: (tx: Sql) => Promise<boolean>,
  ): Promise<boolean> {
    const { sql, repo, sessions, audit } = this.deps;
    const forget = await sql.transaction(async (tx) => {
      if (guard && !(await guard(tx))) return null;
      await this.deps.tokens.deleteForValue(userId, '', tx); // its reset and deletion links die too
      const drop = await sessions.endAllForUserIn(tx, userId);
      await repo.deleteUser(userId, tx);
      const details: AuditDetails = event.proof ? { proof: event.proof } : {};
      await audit.record(tx, { type: event.type, source: event.source, target: userTarget(userId), details });
      return drop;
    });
    if (!forget) return false;
    await forget();
    return true;
  }

  /** The token and its mail in one transaction: a committed token's mail is sent (unless the cap drops it). */
  private async sendConfirmation(auth: SessionWithUser, callbackURL: string | undefined, lang?: string) {
    const { sql, tokens, mailer, config, clock } = this.deps;
    const token = randomString(32, LOWER_ALPHANUMERIC);
    const now = clock.now();
    const expiresAt = new Date(now + config.deleteUser.tokenExpiresInSec * 1000);
    const url = mailer.tokenLink('/delete-user/callback', token, callbackURL);
    await sql.transaction(async (tx) => {
      await tokens.put(DELETE + token, auth.user.id, expiresAt, new Date(now), tx);
      await mailer.send(token, auth.user, lang, { kind: 'delete-account', url }, tx);
    });
  }
}

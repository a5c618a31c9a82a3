import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import { type AuditSource, userTarget } from '../../shared/audit';
import type { SessionView, SessionWithUser } from '../../shared/views';
import type { AdminDeps } from './deps';
import type { RevokeSessionInput } from './schemas';

/**
 * Operator session control and impersonation (spec §4 Impersonation, §7). Every revocation goes through the
 * session feature, which drops the Redis entries before answering.
 */
export class AdminSessionsService {
  constructor(private readonly d: AdminDeps) {}

  /** All of the user's active sessions, impersonation sessions included (operators see them). */
  async listFor(auth: SessionWithUser, userId: string, hideTokens = false): Promise<SessionView[]> {
    this.d.access.demand(auth, { session: ['list'] }, 'NOT_ALLOWED_TO_LIST_USERS_SESSIONS');
    const sessions = isId(userId) ? await this.d.sessions.listAll(userId) : [];
    return hideTokens ? sessions.map((s) => ({ ...s, token: '' })) : sessions;
  }

  /** One session, named by its token (better-auth) or by its id (consoles, which never hold the token). */
  async revoke(auth: SessionWithUser, by: RevokeSessionInput, source: AuditSource): Promise<void> {
    this.d.access.demand(auth, { session: ['revoke'] }, 'NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS');
    if ((by.sessionToken === undefined) === (by.sessionId === undefined))
      fail('VALIDATION_ERROR', [{ field: 'body.sessionId', problem: 'give either sessionToken or sessionId' }]);
    const end = { type: 'admin.user.session_revoked', source } as const;
    if (by.sessionToken !== undefined) await this.d.sessions.revoke(by.sessionToken, end);
    else await this.d.sessions.revokeById(by.sessionId!, end);
  }

  async revokeAll(auth: SessionWithUser, userId: string, source: AuditSource): Promise<void> {
    this.d.access.demand(auth, { session: ['revoke'] }, 'NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS');
    if (isId(userId)) await this.d.sessions.revokeAllForUser(userId, { type: 'admin.user.sessions_revoked', source });
  }

  /**
   * A session of the target with impersonatedBy = the admin, lasting impersonationSessionDurationSec and never
   * renewed (the session feature does not extend impersonation sessions). Admins only when configured.
   */
  async impersonate(auth: SessionWithUser, userId: string, source: AuditSource): Promise<SessionWithUser> {
    const { access, accounts, sessions, config } = this.d;
    access.demand(auth, { user: ['impersonate'] }, 'NOT_ALLOWED_TO_IMPERSONATE_USERS');
    const target = (isId(userId) && (await accounts.getUser(userId))) || fail('FAILED_TO_FIND_USER');
    if (access.isAdmin(target) && !config.admin.allowImpersonatingAdmins) fail('CANNOT_IMPERSONATE_ADMINS');
    return sessions.create({
      user: target,
      rememberMe: true,
      ipAddress: source.ipAddress,
      userAgent: source.userAgent,
      impersonatedBy: auth.user.id,
      fixedLifetimeSec: config.admin.impersonationSessionDurationSec,
      event: ({ session, user }) => ({
        type: 'admin.user.impersonation_started',
        source,
        target: userTarget(user.id),
        details: { sessionId: session.id },
      }),
    });
  }

  /**
   * Ends the impersonation session and answers the admin's own session, found by the token kept in the admin
   * cookie; it must still exist and belong to the admin who started the impersonation.
   */
  async stop(auth: SessionWithUser, adminToken: string | null, source: AuditSource): Promise<SessionWithUser> {
    const { sessions } = this.d;
    const adminId = auth.session.impersonatedBy ?? fail('NOT_IMPERSONATING');
    if (!adminToken) return fail('FAILED_TO_FIND_ADMIN_SESSION');
    const admin = (await sessions.resolve(adminToken, { source: 'database', refresh: false })).current;
    if (!admin || admin.user.id !== adminId) return fail('FAILED_TO_FIND_ADMIN_SESSION');
    await sessions.revoke(auth.session.token, { type: 'admin.user.impersonation_stopped', source });
    return admin;
  }
}

import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import { type AuditSource, userTarget } from '../../shared/audit';
import type { SessionWithUser } from '../../shared/views';
import type { AdminParts } from './parts';

/** What impersonation uses. */
export type ImpersonationDeps = Pick<AdminParts, 'access' | 'accounts' | 'sessions' | 'config'>;

/**
 * spec §4 Impersonation: an operator signs in as another user for a fixed time, and comes back to their own
 * session. The routes keep the operator's own token in a signed cookie meanwhile.
 */
export class AdminImpersonationService {
  constructor(private readonly d: ImpersonationDeps) {}

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
      signIn: { method: 'impersonation', secondFactor: null },
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

import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import type { AuditSource } from '../../shared/audit';
import type { ListedSessionView, SessionWithUser } from '../../shared/views';
import type { AdminParts } from './parts';
import type { RevokeSessionInput } from './schemas';

/** What operator session control uses. */
export type AdminSessionsDeps = Pick<AdminParts, 'access' | 'sessions'>;

/**
 * Operator session control (spec §7): list and revoke another user's sessions. Every revocation goes through the
 * session feature, which drops the Redis entries before answering.
 */
export class AdminSessionsService {
  constructor(private readonly d: AdminSessionsDeps) {}

  /**
   * All of the user's active sessions, impersonation sessions included (operators see them), each with how it was
   * made.
   */
  async listFor(auth: SessionWithUser, userId: string, hideTokens = false): Promise<ListedSessionView[]> {
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
}

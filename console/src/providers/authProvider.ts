import type { AuthProvider } from 'react-admin';
import type { ApiClient } from '../api/client';
import type { components } from '../api/schema';
import { canAccessWithRole, isAdminRole } from './access';
import { unwrap } from './errors';

/** What get-session answers for a signed-in caller: `{session, user}`. */
export type SessionInfo = components['schemas']['SessionWithUser'];

/** i18n keys (src/i18n/en.ts) for the refusals the console adds on top of the API's own messages. */
export const NOT_ADMIN = 'console.auth.not_admin';
export const SIGNED_OUT = 'console.auth.signed_out';

/** The two kinds of code that complete a pending sign-in (docs/two-factor.md "The sign-in"). */
export type SecondFactorMethod = 'totp' | 'backup-code';

/**
 * What `login` rejects with when the password was right and the account has a second factor: the sign-in is
 * pending (the service keeps it in its HttpOnly cookie) until `login` is called again with a code. The sign-in page
 * catches it and asks for the code; anything else reads the message.
 */
export class SecondFactorNeeded extends Error {
  constructor(readonly methods: readonly string[]) {
    super('console.sign_in.two_factor.title');
    this.name = 'SecondFactorNeeded';
  }
}

/** `login`'s parameters: the password step, or the code step of a pending sign-in. */
export type LoginParams =
  | { username?: string; email?: string; password: string }
  | { secondFactor: SecondFactorMethod; code: string; trustDevice?: boolean };

/**
 * Cookie-session auth against the identity service (docs/sessions.md): sign-in/email sets the session cookie,
 * get-session tells who is signed in, sign-out ends it. An account with a second factor signs in in two steps: the
 * password (`SecondFactorNeeded`), then a code (two-factor/verify-totp or verify-backup-code). Only users holding
 * an admin role get past the sign-in screen; a session that impersonates someone (session.impersonatedBy) is let in
 * so the banner can stop it.
 */
export function makeAuthProvider(client: ApiClient): AuthProvider & { getSession(): Promise<SessionInfo | null> } {
  let current: SessionInfo | null = null;

  async function getSession(): Promise<SessionInfo | null> {
    const data = unwrap(await client.GET('/get-session'));
    current = data ?? null;
    return current;
  }

  /** A new session of a user without an admin role is ended at once: only admins use the console. */
  async function admitOnly(role: string | null | undefined) {
    if (!isAdminRole(role)) {
      await client.POST('/sign-out', {});
      current = null;
      throw new Error(NOT_ADMIN);
    }
    await getSession();
  }

  const allowed = (info: SessionInfo | null) =>
    !!info && (isAdminRole(info.user.role) || !!info.session.impersonatedBy);

  return {
    getSession,

    async login(params: LoginParams) {
      if ('secondFactor' in params) {
        // The code of a pending sign-in (the same browser: its cookie names it); a right one makes the session.
        const body = { code: params.code.replace(/\s+/g, ''), trustDevice: params.trustDevice === true };
        const done = unwrap(
          params.secondFactor === 'totp'
            ? await client.POST('/two-factor/verify-totp', { body })
            : await client.POST('/two-factor/verify-backup-code', { body }),
        );
        await admitOnly(done.user.role);
        return;
      }
      const { username, email, password } = params;
      const signedIn = unwrap(
        await client.POST('/sign-in/email', { body: { email: email ?? username ?? '', password } }),
      );
      // An account with a second factor gets no session from the password alone (docs/two-factor.md).
      if ('twoFactorRedirect' in signedIn) throw new SecondFactorNeeded(signedIn.twoFactorMethods);
      await admitOnly(signedIn.user.role);
    },

    async logout() {
      if (current || (await getSession().catch(() => null))) await client.POST('/sign-out', {});
      current = null;
    },

    async checkAuth() {
      const info = await getSession();
      // No session: back to the sign-in screen without a notification (the normal first visit).
      if (!info) return Promise.reject({ message: false });
      if (!allowed(info)) throw new Error(NOT_ADMIN);
    },

    async checkError(error: { status?: number }) {
      if (error?.status === 401) {
        current = null;
        throw new Error(SIGNED_OUT);
      }
    },

    async getIdentity() {
      const info = current ?? (await getSession());
      if (!info) throw new Error(SIGNED_OUT);
      return {
        id: info.user.id,
        fullName: info.user.name || info.user.email,
        email: info.user.email,
        role: info.user.role,
        impersonatedBy: info.session.impersonatedBy,
        /** This browser's session: the sessions tab marks it ("This session"). */
        sessionId: info.session.id,
        /** When this session ends: an impersonation session's fixed end, which the banner shows. */
        sessionExpiresAt: info.session.expiresAt,
      };
    },

    async canAccess({ resource, action }: { resource: string; action: string }) {
      const info = current ?? (await getSession());
      if (!info || info.session.impersonatedBy) return false;
      return canAccessWithRole(info.user.role, resource, action);
    },
  };
}

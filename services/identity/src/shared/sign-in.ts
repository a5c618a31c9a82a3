import type { AuditDetails, AuditSource } from './audit';
import type { Sql } from './sql';
import type { SessionSecondFactor, SessionWithUser, UserView } from './views';

/**
 * The sign-in seam's vocabulary (docs/architecture.md "The sign-in seam"). A sign-in method (a password, a
 * provider's answer, a passkey, the second step, a mailed link or code) proves who the caller is and hands a
 * `ProvenIdentity` to the seam; the seam alone decides what follows: a ban in force refuses, the second factor is
 * asked, the session is made with its audit event, and the route applies the result's cookies.
 */

/** A signed cookie value and how long the browser keeps it (the second factor's cookies). */
export interface CookieGrant {
  value: string;
  maxAgeSec: number;
}

export interface ProvenIdentity {
  user: UserView;
  /**
   * How the caller proved it: the `method` of the `user.signed_in` event (docs/audit.md), e.g. `email`,
   * `social:github`, and the session's `signInMethod` (docs/sessions.md "How a session was made").
   */
  method: string;
  rememberMe: boolean;
  /**
   * `ask`: a user with a second factor is asked for it (a password, a provider's answer, a mailed link or code);
   * `skip`: nothing more is asked, because this proof already holds two factors (a passkey verified with the user's
   * screen lock, the second step of a pending sign-in) or the operator said so (a provider's `twoFactor: false`).
   */
  secondFactor: 'ask' | 'skip';
  /**
   * The second factor this proof completed (the second step of a pending sign-in, whose `method` is the first
   * step's): the session records it and the `user.signed_in` event names it (`secondFactor`).
   */
  secondFactorUsed?: Exclude<SessionSecondFactor, 'trusted-device'>;
  /** More facts for the `user.signed_in` event (a passkey's id, whether the device was trusted). Never a secret. */
  details?: AuditDetails;
  /**
   * Spends what proved the identity (a pending sign-in, a one-time link or code) in the new session's transaction,
   * so the proof is used up exactly when the session commits, or when the seam opens a pending sign-in instead.
   * Throws when it was already spent.
   */
  spend?: (tx: Sql) => Promise<void>;
  /** A trusted-device cookie this proof grants (the second step with "trust this device"). */
  trustedDevice?: CookieGrant | null;
}

/** The request's part in a sign-in: where it came from, and the trusted-device cookie it presented (if any). */
export interface SignInContext {
  source: AuditSource;
  trustedDevice: string | null;
}

/** A session, or (the user has a second factor) a pending sign-in and no session. */
export type SignInResult =
  | { kind: 'signed-in'; current: SessionWithUser; trustedDevice: CookieGrant | null }
  | { kind: 'second-factor'; challenge: CookieGrant; methods: string[]; forgetDevice: boolean };

/**
 * The second factor as the seam asks it, for a user who has one: a device the user trusted passes (its cookie
 * renewed); otherwise a pending sign-in is opened, remembering how the first step was made (`method`).
 */
export type SecondFactorGate = (
  user: UserView,
  attempt: { rememberMe: boolean; trustedDevice: string | null; method: string },
) => Promise<
  | { pass: true; trustedDevice: CookieGrant | null }
  | { pass: false; challenge: CookieGrant; methods: string[]; forgetDevice: boolean }
>;

/** What sign-in methods call: the seam (features/sign-in). */
export interface SignInSteps {
  /** Takes a proven identity to a session or a pending sign-in. */
  complete(identity: ProvenIdentity, context: SignInContext): Promise<SignInResult>;
  /**
   * The ban rule alone, for a method that must refuse a banned user before it changes anything of its own (a
   * provider's sign-in links the account only for a user who may sign in). A lapsed ban is cleared: the user is
   * answered as now.
   */
  checkBan(user: UserView): Promise<UserView>;
}

import { fail } from '../../errors';
import { asUser, userTarget } from '../../shared/audit';
import { banInForce } from '../../shared/ban';
import type { CookieGrant, ProvenIdentity, SignInContext, SignInResult, SignInSteps } from '../../shared/sign-in';
import type { SessionSecondFactor, UserView } from '../../shared/views';
import type { CreateSessionInput } from '../session';
import type { SignInDeps } from './deps';

/**
 * The end of every sign-in (docs/architecture.md "The sign-in seam"), in this order:
 *
 *   1. ban: a ban in force refuses (BANNED_USER); a lapsed one is cleared and the user goes on as now;
 *   2. second factor: asked of a user who has one unless the proof already holds it; a trusted device passes,
 *      otherwise the answer is a pending sign-in (its cookie) and no session;
 *   3. session: made in one transaction with its `user.signed_in` event, and with the spending of the proof when it
 *      is single-use (a pending sign-in, a link, a code), so the proof is used exactly when the session commits; a
 *      proof that opened a pending sign-in instead is spent then, so it opens one at most. The session records the
 *      method and the second factor that completed it (the second step's, or a trusted device).
 *
 * The route applies the result's cookies (SessionCookies.applySignIn) and shapes its own answer. Sign-in methods
 * never make sessions themselves; a test holds them to that.
 */
export class SignInSeam implements SignInSteps {
  constructor(private readonly d: SignInDeps) {}

  async checkBan(user: UserView): Promise<UserView> {
    if (!user.banned) return user;
    if (banInForce(user, this.d.clock.now())) fail('BANNED_USER');
    // Cleared here, or already by a parallel sign-in (a new ban meanwhile is caught in the session's transaction).
    return (await this.d.lapsedBans?.lift(user)) ?? { ...user, banned: false, banReason: null, banExpires: null };
  }

  async complete(identity: ProvenIdentity, context: SignInContext): Promise<SignInResult> {
    const user = await this.checkBan(identity.user);
    let trustedDevice: CookieGrant | null = identity.trustedDevice ?? null;
    let secondFactor: SessionSecondFactor | null = identity.secondFactorUsed ?? null;
    // Only a user with a second factor reaches the gate's statements (docs/two-factor.md).
    if (identity.secondFactor === 'ask' && user.twoFactorEnabled && this.d.secondFactor) {
      const gate = await this.d.secondFactor(user, {
        rememberMe: identity.rememberMe,
        trustedDevice: context.trustedDevice,
        method: identity.method,
      });
      if (!gate.pass) {
        // A single-use proof (a link, a code) is used up by the pending sign-in it opened: it opens one at most.
        if (identity.spend) await this.d.sql.transaction(identity.spend);
        return {
          kind: 'second-factor',
          challenge: gate.challenge,
          methods: gate.methods,
          forgetDevice: gate.forgetDevice,
        };
      }
      trustedDevice = gate.trustedDevice;
      if (trustedDevice) secondFactor = 'trusted-device';
    }
    const { source } = context;
    // The event appends a trusted device to the method (docs/audit.md); the session records it as its second factor.
    const eventMethod = secondFactor === 'trusted-device' ? `${identity.method}+trusted-device` : identity.method;
    const used = identity.secondFactorUsed;
    const input: CreateSessionInput = {
      user,
      rememberMe: identity.rememberMe,
      ipAddress: source.ipAddress,
      userAgent: source.userAgent,
      signIn: { method: identity.method, secondFactor },
      event: ({ session }) => ({
        type: 'user.signed_in',
        source: asUser(source, user.id),
        target: userTarget(user.id),
        details: {
          method: eventMethod,
          ...(used ? { secondFactor: used } : {}),
          ...identity.details,
          sessionId: session.id,
        },
      }),
    };
    const { spend } = identity;
    const current = spend
      ? await this.d.sql.transaction(async (tx) => {
          await spend(tx);
          return this.d.sessions.create(input, tx);
        })
      : await this.d.sessions.create(input);
    return { kind: 'signed-in', current, trustedDevice };
  }
}

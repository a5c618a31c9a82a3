import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { PasskeyConfig, RelyingParty } from '../../config';
import { isId, LOWER_ALPHANUMERIC, newId, randomString } from '../../crypto/random';
import { fail } from '../../errors';
import { TrustedOrigins } from '../../http/origins';
import { mailLanguage } from '../../mail/language';
import type { MailOutbox } from '../../mail/mail-outbox';
import { type AuditDetails, type AuditLog, type AuditSource, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { ProvenIdentity } from '../../shared/sign-in';
import { isUniqueViolation, type Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { SessionService } from '../session';
import type { OrganizationPolicy, UserLookup } from './deps';
import { type Ceremony, type PasskeyRepository, type PasskeyRow, toView } from './repository';
import type { PasskeyView, RegistrationInput, RegistrationQuery } from './schemas';

/** A signed cookie value and how long the browser keeps it: the challenge cookie of a ceremony. */
export interface ChallengeGrant {
  value: string;
  maxAgeSec: number;
}

/** The transports WebAuthn defines (AuthenticatorTransport); anything else an authenticator reports is dropped. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const transportsOf = (text: string): AuthenticatorTransport[] =>
  text.split(',').filter((t): t is AuthenticatorTransport => TRANSPORTS.has(t));

/** Why a passkey sign-in was refused, as its `user.sign_in_failed` event says (docs/audit.md). */
type Refusal = 'unknown-passkey' | 'invalid' | 'signature' | 'counter' | 'user-verification';

/**
 * Passkeys (docs/two-factor.md "Passkeys"): WebAuthn registration and sign-in as better-auth's passkey plugin
 * answers them, on @simplewebauthn/server. A ceremony's challenge is kept server-side and used once; a sign-in
 * checks the origin against the configured pages, the relying party id, user verification (unless set to
 * `preferred`), the signature and the signature counter, and makes its session as a password sign-in does (with
 * the ban check), without asking for a second factor: a passkey is two factors in one.
 */
export class PasskeyService {
  private readonly origins: TrustedOrigins;

  constructor(
    private readonly deps: {
      sql: Sql;
      repo: PasskeyRepository;
      accounts: UserLookup;
      sessions: SessionService;
      organizations: OrganizationPolicy;
      mail: MailOutbox;
      config: PasskeyConfig;
      rp: RelyingParty;
      /** Unverified emails are refused at sign-in, as the password sign-in refuses them. */
      requireEmailVerification: boolean;
      accountUrl: string;
      clock: Clock;
      audit: AuditLog;
    },
  ) {
    this.origins = new TrustedOrigins(deps.rp.origins);
  }

  private get userVerificationRequired(): boolean {
    return this.deps.config.userVerification === 'required';
  }

  // Registration, signed in

  /** Options for navigator.credentials.create(), and the challenge cookie naming the stored ceremony. */
  async registrationOptions(user: UserView, query: RegistrationQuery) {
    const { rp, config } = this.deps;
    const passkeys = await this.deps.repo.listOf(user.id);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      // A random user handle per registration, as better-auth makes it: the user's id never reaches the device.
      userID: new TextEncoder().encode(randomString(32, LOWER_ALPHANUMERIC)),
      userName: query.name || user.email,
      userDisplayName: user.email,
      attestationType: 'none',
      excludeCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
      authenticatorSelection: {
        residentKey: 'preferred',
        userVerification: config.userVerification,
        ...(query.authenticatorAttachment ? { authenticatorAttachment: query.authenticatorAttachment } : {}),
      },
    });
    const challenge = await this.store('registration', options.challenge, user.id);
    return { options, challenge };
  }

  /**
   * Adds the passkey the browser made for the ceremony `challengeId` (taken first: it is used once, whatever the
   * outcome), with its audit event and notice, and counts it on the user. Answers the passkey and the user as now.
   */
  async register(
    user: UserView,
    challengeId: string,
    input: RegistrationInput,
    source: AuditSource,
    lang?: string,
  ): Promise<{ passkey: PasskeyView; user: UserView }> {
    const stored = await this.take(challengeId, 'registration');
    if (stored.userId !== user.id) fail('YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY');
    const response = input.response as RegistrationResponseJSON;
    const origin = this.originOf(response.response.clientDataJSON) ?? fail('FAILED_TO_VERIFY_REGISTRATION');
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: stored.challenge,
        expectedOrigin: origin,
        expectedRPID: this.deps.rp.id,
        requireUserVerification: this.userVerificationRequired,
      });
    } catch {
      return fail('FAILED_TO_VERIFY_REGISTRATION');
    }
    if (!verification.verified) fail('FAILED_TO_VERIFY_REGISTRATION');
    const info = verification.registrationInfo;
    const name = input.name?.trim() || null;
    const now = this.now();
    const transports = (response.response.transports ?? []).filter((t) => TRANSPORTS.has(t));
    const passkey = await this.deps.sessions
      .changeUser(user.id, async (tx) => {
        const row = await this.deps.repo.insert(
          {
            id: newId(),
            userId: user.id,
            name,
            credentialId: info.credential.id,
            publicKey: Buffer.from(info.credential.publicKey).toString('base64'),
            counter: info.credential.counter,
            deviceType: info.credentialDeviceType,
            backedUp: info.credentialBackedUp,
            transports: [...new Set(transports)].join(','),
            aaguid: info.aaguid,
          },
          now,
          tx,
        );
        await this.deps.audit.record(tx, {
          type: 'user.passkey_added',
          source,
          target: userTarget(user.id),
          details: this.describe(row),
        });
        await this.notify(tx, user, 'passkey-added', lang);
        return row;
      })
      .catch((error) => (isUniqueViolation(error) ? fail('PREVIOUSLY_REGISTERED') : Promise.reject(error)));
    const changed = { ...user, passkeyCount: user.passkeyCount + 1, updatedAt: now.toISOString() };
    return { passkey: toView(passkey), user: changed };
  }

  // Sign-in

  /**
   * Options for navigator.credentials.get(). Without a user, none are named (the authenticator offers its
   * discoverable passkeys for this relying party); for a signed-in user, theirs, and only theirs will verify.
   */
  async authenticationOptions(user: UserView | null) {
    const passkeys = user ? await this.deps.repo.listOf(user.id) : [];
    const options = await generateAuthenticationOptions({
      rpID: this.deps.rp.id,
      userVerification: this.deps.config.userVerification,
      ...(passkeys.length
        ? { allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })) }
        : {}),
    });
    const challenge = await this.store('authentication', options.challenge, user?.id ?? null);
    return { options, challenge };
  }

  /**
   * The assertion for the ceremony `challengeId` (taken first, so it is used once): the passkey it names, the
   * origin, the relying party, user verification, the signature, then the counter, which only moves forward (a
   * counter that did not grow is a cloned authenticator: refused and recorded). Answers the identity for the
   * sign-in seam: verified with the user's screen lock it holds two factors, so no second factor is asked.
   */
  async signIn(challengeId: string, input: unknown, source: AuditSource): Promise<ProvenIdentity> {
    const stored = await this.take(challengeId, 'authentication');
    const response = input as AuthenticationResponseJSON;
    const passkey = await this.deps.repo.findByCredential(response.id);
    if (!passkey || (stored.userId !== null && passkey.userId !== stored.userId)) {
      await this.refused(source, null, 'unknown-passkey');
      fail('PASSKEY_NOT_FOUND', undefined, 401);
    }
    const origin = this.originOf(response.response.clientDataJSON);
    if (!origin) {
      await this.refused(source, passkey, 'invalid');
      fail('AUTHENTICATION_FAILED');
    }
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: stored.challenge,
        expectedOrigin: origin,
        expectedRPID: this.deps.rp.id,
        // The counter is compared below, after the signature: the library would refuse it unrecorded.
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64')),
          counter: 0,
          transports: transportsOf(passkey.transports),
        },
        requireUserVerification: this.userVerificationRequired,
      });
    } catch (error) {
      const reason = /user verification/i.test((error as Error).message) ? 'user-verification' : 'invalid';
      await this.refused(source, passkey, reason);
      return fail('AUTHENTICATION_FAILED');
    }
    if (!verification.verified) {
      await this.refused(source, passkey, 'signature');
      fail('AUTHENTICATION_FAILED', undefined, 401);
    }
    const { newCounter, userVerified } = verification.authenticationInfo;
    const regressed = (newCounter > 0 || passkey.counter > 0) && newCounter <= passkey.counter;
    if (regressed || !(await this.deps.repo.advanceCounter(passkey.id, newCounter))) {
      await this.refused(source, passkey, 'counter', { counter: newCounter, expectedAbove: passkey.counter });
      fail('AUTHENTICATION_FAILED', undefined, 401);
    }
    const user = await this.deps.accounts.getUser(passkey.userId);
    if (!user) fail('PASSKEY_NOT_FOUND', undefined, 401);
    // `preferred`: a passkey used without user verification is one factor; a user with a second factor needs both.
    if (!userVerified && user.twoFactorEnabled) {
      await this.refused(source, passkey, 'user-verification');
      fail('AUTHENTICATION_FAILED');
    }
    if (this.deps.requireEmailVerification && !user.emailVerified) fail('EMAIL_NOT_VERIFIED');
    return {
      user,
      method: 'passkey',
      rememberMe: true,
      secondFactor: 'skip',
      details: { passkeyId: passkey.id, userVerified },
    };
  }

  // The user's passkeys

  async list(userId: string): Promise<PasskeyView[]> {
    return (await this.deps.repo.listOf(userId)).map(toView);
  }

  /** Renames one of the user's passkeys; another user's or an unknown id answers the same PASSKEY_NOT_FOUND. */
  async rename(user: UserView, id: string, name: string): Promise<PasskeyView> {
    const trimmed = name.trim();
    if (!trimmed) fail('VALIDATION_ERROR', [{ field: 'name', problem: 'must not be blank' }]);
    const row = isId(id) ? await this.deps.repo.rename(id, user.id, trimmed) : null;
    return row ? toView(row) : fail('PASSKEY_NOT_FOUND');
  }

  /**
   * Removes one of the user's passkeys, with its audit event and notice, in one transaction; another user's or an
   * unknown id answers PASSKEY_NOT_FOUND and changes nothing. When it was the user's last second factor,
   * organizations requiring one stop being active in their sessions (docs/two-factor.md "Policies"). Answers the
   * user as now and those organizations.
   */
  async remove(
    user: UserView,
    id: string,
    source: AuditSource,
    lang?: string,
  ): Promise<{ user: UserView; organizationsCleared: string[] }> {
    if (!isId(id)) fail('PASSKEY_NOT_FOUND');
    const now = this.now();
    const cleared = await this.deps.sessions.changeUser(user.id, async (tx) => {
      const row = await this.deps.repo.remove(id, user.id, now, tx);
      if (!row) return null;
      await this.deps.audit.record(tx, {
        type: 'user.passkey_removed',
        source,
        target: userTarget(user.id),
        details: this.describe(row),
      });
      await this.notify(tx, user, 'passkey-removed', lang);
      return this.deps.organizations.secondFactorLostIn(tx, user.id);
    });
    if (!cleared) return fail('PASSKEY_NOT_FOUND');
    await cleared.after();
    return {
      user: { ...user, passkeyCount: Math.max(0, user.passkeyCount - 1), updatedAt: now.toISOString() },
      organizationsCleared: cleared.organizationIds,
    };
  }

  /** The operator's reset (two-factor's hook): every passkey of the user, in the reset's transaction. */
  removeAll(userId: string, tx: Sql): Promise<number> {
    return this.deps.repo.removeAll(userId, this.now(), tx);
  }

  /** Deletes expired challenges (the API's periodic sweep). */
  sweepExpired(batch: number): Promise<number> {
    return this.deps.repo.deleteExpired(this.now(), batch);
  }

  // Steps

  private async store(ceremony: Ceremony, challenge: string, userId: string | null): Promise<ChallengeGrant> {
    const id = randomString(32);
    const ttl = this.deps.config.challengeTtlSec;
    const now = this.now();
    await this.deps.repo.createChallenge(
      id,
      { ceremony, challenge, userId },
      new Date(now.getTime() + ttl * 1000),
      now,
    );
    return { value: id, maxAgeSec: ttl };
  }

  /** The stored ceremony, consumed: unknown, expired, used, or another kind of ceremony is CHALLENGE_NOT_FOUND. */
  private async take(challengeId: string, ceremony: Ceremony) {
    const stored = await this.deps.repo.consumeChallenge(challengeId, this.now());
    if (!stored || stored.ceremony !== ceremony) fail('CHALLENGE_NOT_FOUND');
    return stored;
  }

  /** The origin in the client data when it is one of the configured pages', else null. */
  private originOf(clientDataJSON: string): string | null {
    try {
      const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { origin?: unknown };
      return typeof data.origin === 'string' &&
        this.origins.has(data.origin) &&
        new URL(data.origin).origin === data.origin
        ? data.origin
        : null;
    } catch {
      return null;
    }
  }

  /** A refused passkey sign-in, recorded as a failed sign-in of the passkey's user (when the passkey is known). */
  private async refused(
    source: AuditSource,
    passkey: PasskeyRow | null,
    reason: Refusal,
    extra: Record<string, number> = {},
  ): Promise<void> {
    await this.deps.audit.record(this.deps.sql, {
      type: 'user.sign_in_failed',
      source: { ...source, actor: { type: 'anonymous' } },
      target: passkey ? userTarget(passkey.userId) : null,
      details: { method: 'passkey', reason, ...(passkey ? { passkeyId: passkey.id } : {}), ...extra },
    });
  }

  private describe(row: PasskeyRow): AuditDetails {
    return {
      passkeyId: row.id,
      name: row.name,
      deviceType: row.deviceType,
      backedUp: row.backedUp,
      aaguid: row.aaguid,
    };
  }

  /** The notice of a change, in the change's transaction (mailed once it commits). */
  private notify(tx: Sql, user: UserView, kind: 'passkey-added' | 'passkey-removed', lang?: string): Promise<void> {
    const job = {
      kind,
      to: user.email,
      name: user.name,
      language: mailLanguage(user.language, lang),
      url: this.deps.accountUrl,
    };
    return this.deps.mail.write(`${kind}.${newId()}`, job, tx);
  }

  private now(): Date {
    return new Date(this.deps.clock.now());
  }
}

import type { TwoFactorConfig } from '../../config';
import { randomString } from '../../crypto/random';
import { fail } from '../../errors';
import type { AuditSource } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { ProvenIdentity, SecondFactorGate } from '../../shared/sign-in';
import type { CodeChecks, Factor } from './codes';
import type { PasswordCheck } from './deps';
import type { TwoFactorRepository } from './repository';

/**
 * The second factor at sign-in (docs/two-factor.md "The sign-in"): the sign-in seam's gate, which lets a trusted
 * device through or opens a pending sign-in, and the second step that proves it with a code. Wrong codes are
 * counted per pending sign-in and taken from the account's budget (codes.ts).
 */
export class SignInChallenges {
  constructor(
    private readonly deps: {
      repo: TwoFactorRepository;
      codes: CodeChecks;
      /** The user of a pending sign-in, as now. */
      passwords: Pick<PasswordCheck, 'getUser'>;
      config: TwoFactorConfig;
      clock: Clock;
    },
  ) {}

  /**
   * The sign-in seam's gate for a user with a second factor: a device the user trusted (and that trust still
   * running) passes and is renewed; otherwise a pending sign-in is opened, remembering how the first step was made.
   */
  readonly gate: SecondFactorGate = async (user, attempt) => {
    const { config } = this.deps;
    const now = this.now();
    if (attempt.trustedDevice && config.trustDeviceDays > 0) {
      const maxAgeSec = config.trustDeviceDays * 86_400;
      const until = new Date(now.getTime() + maxAgeSec * 1000);
      if (await this.deps.repo.renewDevice(attempt.trustedDevice, user.id, until, now))
        return { pass: true, trustedDevice: { value: attempt.trustedDevice, maxAgeSec } };
    }
    const id = randomString(32);
    const ttl = config.pendingSignInTtlSec;
    const pending = { userId: user.id, rememberMe: attempt.rememberMe, method: attempt.method };
    await this.deps.repo.createChallenge(id, pending, new Date(now.getTime() + ttl * 1000), now);
    return {
      pass: false,
      challenge: { value: id, maxAgeSec: ttl },
      methods: ['totp'],
      forgetDevice: attempt.trustedDevice !== null,
    };
  };

  /**
   * The second step of a sign-in: `challengeId` from the signed cookie, a code of `factor`. Each attempt is
   * counted on the pending sign-in first (one increment, so parallel guesses cannot all slip past the limit); past
   * the limit it is given up. Then it is taken from the account's budget, before the code is checked, so parallel
   * guesses through many pending sign-ins cannot pass the account's lockout either. A right code answers the identity
   * for the sign-in seam, which ends the pending sign-in (and trusts the device, when asked) in the session's
   * transaction.
   */
  async proveSecondStep(
    challengeId: string,
    factor: Factor,
    code: string,
    trustDevice: boolean,
    source: AuditSource,
  ): Promise<ProvenIdentity> {
    const { repo, config, codes } = this.deps;
    const now = this.now();
    const challenge = await repo.countAttempt(challengeId, now);
    if (!challenge) fail('INVALID_TWO_FACTOR_COOKIE');
    if (challenge.attempts > config.maxAttemptsPerSignIn) {
      await repo.dropChallenge(challengeId);
      fail('TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE');
    }
    const row = await repo.find(challenge.userId);
    if (!row?.verified) fail(factor === 'totp' ? 'TOTP_NOT_ENABLED' : 'BACKUP_CODES_NOT_ENABLED');
    // opened before an attempt is taken: a secret no configured secret opens costs the owner nothing
    const secret = codes.secretOf(row);
    const verdict = await codes.attempts.spend(row.userId, async () =>
      factor === 'totp' ? codes.useTotp(row, secret, code) : (await codes.useBackupCode(row, secret, code)) !== null,
    );
    if (!verdict.right) {
      await codes.recordWrongCode(row.userId, factor, verdict, source, challenge.method);
      fail(factor === 'totp' ? 'INVALID_CODE' : 'INVALID_BACKUP_CODE');
    }
    const user = await this.deps.passwords.getUser(challenge.userId);
    if (!user) fail('INVALID_TWO_FACTOR_COOKIE');
    const maxAgeSec = config.trustDeviceDays * 86_400;
    const device = trustDevice && maxAgeSec > 0 ? randomString(32) : null;
    return {
      user,
      method: challenge.method,
      rememberMe: challenge.rememberMe,
      secondFactor: 'skip',
      secondFactorUsed: factor,
      details: { trustDevice: device !== null },
      spend: async (tx) => {
        if (!(await repo.consumeChallenge(challengeId, now, tx))) fail('INVALID_TWO_FACTOR_COOKIE');
        if (device) await repo.trustDevice(device, user.id, new Date(now.getTime() + maxAgeSec * 1000), now, tx);
      },
      trustedDevice: device ? { value: device, maxAgeSec } : null,
    };
  }

  /** Deletes expired pending sign-ins and trusted devices (the API's periodic sweep). */
  sweepExpired(batch: number): Promise<number> {
    return this.deps.repo.deleteExpired(this.now(), batch);
  }

  private now(): Date {
    return new Date(this.deps.clock.now());
  }
}

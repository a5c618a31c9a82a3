import type { TwoFactorConfig } from '../../config';
import { newId, randomString } from '../../crypto/random';
import { type Sealer } from '../../crypto/sealed';
import { newTotpSecret, totpUri } from '../../crypto/totp';
import { fail } from '../../errors';
import { mailLanguage } from '../../mail/language';
import type { MailOutbox } from '../../mail/mail-outbox';
import { type AuditEventType, type AuditSource, userTarget } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { SessionService } from '../session';
import { BACKUP_CODE_ALPHABET, type CodeChecks, hashCode, sealContext } from './codes';
import type { OrganizationPolicy, PasswordCheck, ResettableFactor, TwoFactorAudit } from './deps';
import type { TwoFactorRepository } from './repository';

export interface TwoFactorStatus {
  enabled: boolean;
  totp: boolean;
  backupCodesRemaining: number;
  /** Passkeys the user has (docs/two-factor.md "Passkeys"): each counts as a second factor for the policies. */
  passkeys: number;
}

/**
 * The second factor's enrolment (docs/two-factor.md): TOTP turned on and off, backup codes, codes checked with a
 * session, an operator's reset. The TOTP secret is sealed at rest (bound to its user); backup codes are stored as
 * keyed hashes; codes are checked by codes.ts. The sign-in's part is sign-in-challenge.service.ts.
 */
export class TwoFactorService {
  constructor(
    private readonly deps: {
      sql: Sql;
      repo: TwoFactorRepository;
      passwords: PasswordCheck;
      sessions: SessionService;
      organizations: OrganizationPolicy;
      sealer: Sealer;
      mail: MailOutbox;
      config: TwoFactorConfig;
      publicUrl: string;
      clock: Clock;
      audit: TwoFactorAudit;
      /** The other second factors an operator's reset removes too (passkeys), in its transaction. */
      resettable: readonly ResettableFactor[];
      codes: CodeChecks;
    },
  ) {}

  /** Starts enrolling: a new secret (unconfirmed until a first code) and a set of backup codes. */
  async enable(user: UserView, password: string, issuer: string | undefined) {
    await this.assertPassword(user.id, password);
    const secret = newTotpSecret();
    const codes = this.newBackupCodes();
    const now = this.now();
    const started = await this.deps.repo.transaction((tx) =>
      this.deps.repo.startEnrolment(
        user.id,
        this.deps.sealer.seal(secret, sealContext(user.id)),
        codes.map((c) => hashCode(secret, user.id, c)),
        now,
        tx,
      ),
    );
    if (!started) fail('TOTP_ALREADY_ENABLED');
    return {
      method: 'totp' as const,
      totpURI: totpUri(secret, issuer ?? this.deps.config.issuer, user.email),
      backupCodes: codes,
    };
  }

  async totpUri(user: UserView, password: string): Promise<string> {
    const row = await this.deps.repo.find(user.id);
    if (!row) fail('TOTP_NOT_ENABLED');
    await this.assertPassword(user.id, password);
    return totpUri(this.deps.codes.secretOf(row), this.deps.config.issuer, user.email);
  }

  /**
   * A code from the signed-in user: the first one confirms the enrolment (the second factor is on from then, with
   * its audit event and notice). Answers the user as it now is. Once the factor is confirmed, a code checked here
   * takes from the account's budget as at sign-in (a session is no licence to guess); while enrolling it does not:
   * the caller was just shown the secret, and a wrong first code tests no factor that guards anything.
   */
  async verifyTotpSignedIn(user: UserView, code: string, source: AuditSource, lang?: string): Promise<UserView> {
    const row = await this.deps.repo.find(user.id);
    if (!row) fail('TOTP_NOT_ENABLED');
    const secret = this.deps.codes.secretOf(row);
    if (row.verified) {
      const verdict = await this.deps.codes.attempts.spend(user.id, () => this.deps.codes.useTotp(row, secret, code));
      if (!verdict.right) {
        await this.deps.codes.recordWrongCode(user.id, 'totp', verdict, source, null);
        fail('INVALID_CODE');
      }
      return user;
    }
    if (!(await this.deps.codes.useTotp(row, secret, code))) fail('INVALID_CODE');
    const now = this.now();
    const changed = await this.deps.sessions.changeUser(user.id, async (tx) => {
      if (!(await this.deps.repo.confirm(user.id, now, tx))) return false;
      await this.deps.repo.setUserEnabled(user.id, true, now, tx);
      await this.record(tx, 'user.two_factor_enabled', source, user.id, { factor: 'totp' });
      await this.notify(tx, user, 'two-factor-enabled', lang);
      return true;
    });
    return changed ? { ...user, twoFactorEnabled: true, updatedAt: now.toISOString() } : user;
  }

  /** A backup code from the signed-in user (better-auth allows it): spent, and counted, like at sign-in. */
  async verifyBackupCodeSignedIn(user: UserView, code: string, source: AuditSource): Promise<void> {
    const row = await this.deps.repo.find(user.id);
    if (!row?.verified) fail('BACKUP_CODES_NOT_ENABLED');
    const secret = this.deps.codes.secretOf(row);
    const verdict = await this.deps.codes.attempts.spend(
      user.id,
      async () => (await this.deps.codes.useBackupCode(row, secret, code)) !== null,
    );
    if (!verdict.right) {
      await this.deps.codes.recordWrongCode(user.id, 'backup-code', verdict, source, null);
      fail('INVALID_BACKUP_CODE');
    }
  }

  /**
   * Removes the second factor, its backup codes, pending sign-ins and trusted devices; organizations that require
   * one stop being active in the user's sessions (docs/two-factor.md "Policies"), in the same transaction. Answers
   * the user and those organizations.
   */
  async disable(
    user: UserView,
    password: string,
    source: AuditSource,
    lang?: string,
  ): Promise<{ user: UserView; organizationsCleared: string[] }> {
    await this.assertPassword(user.id, password);
    const now = this.now();
    const cleared = await this.deps.sessions.changeUser(user.id, async (tx) => {
      if (!(await this.deps.repo.removeAll(user.id, tx))) return null;
      await this.deps.repo.setUserEnabled(user.id, false, now, tx);
      await this.record(tx, 'user.two_factor_disabled', source, user.id, { factor: 'totp' });
      if (user.twoFactorEnabled) await this.notify(tx, user, 'two-factor-disabled', lang);
      return this.deps.organizations.secondFactorLostIn(tx, user.id);
    });
    if (!cleared) return fail('TWO_FACTOR_NOT_ENABLED');
    await cleared.after();
    return {
      user: { ...user, twoFactorEnabled: false, updatedAt: now.toISOString() },
      organizationsCleared: cleared.organizationIds,
    };
  }

  /**
   * An operator removes the user's second factors (admin reset-two-factor): the TOTP secret, the backup codes, the
   * pending sign-ins, the trusted devices and the other factors plugged in (passkeys), in one transaction with the
   * audit event and the notice to the user; organizations that require a second factor stop being active in the
   * user's sessions. Nothing to remove (no enrolment, not even an unconfirmed one, and no other factor) answers
   * TWO_FACTOR_NOT_ENABLED. Answers the user.
   */
  async reset(user: UserView, source: AuditSource, lang?: string): Promise<UserView> {
    const now = this.now();
    const cleared = await this.deps.sessions.changeUser(user.id, async (tx) => {
      const totp = await this.deps.repo.removeAll(user.id, tx);
      const details: Record<string, number | boolean> = { wasEnabled: user.twoFactorEnabled };
      let others = 0;
      for (const factor of this.deps.resettable) {
        const count = await factor.removeAll(user.id, tx);
        details[`${factor.name}Removed`] = count;
        others += count;
      }
      if (!totp && others === 0) return null;
      await this.deps.repo.setUserEnabled(user.id, false, now, tx);
      await this.record(tx, 'admin.user.two_factor_reset', source, user.id, details);
      await this.notify(tx, user, 'two-factor-reset', lang);
      return this.deps.organizations.secondFactorLostIn(tx, user.id);
    });
    if (!cleared) return fail('TWO_FACTOR_NOT_ENABLED');
    await cleared.after();
    return { ...user, twoFactorEnabled: false, passkeyCount: 0, updatedAt: now.toISOString() };
  }

  /**
   * A new set of backup codes; the old ones stop working. The second factor's row is locked while they are hashed
   * with its secret (a re-seal or a removal meanwhile waits).
   */
  async regenerateBackupCodes(user: UserView, password: string, source: AuditSource, lang?: string) {
    if (!user.twoFactorEnabled) fail('TWO_FACTOR_NOT_ENABLED');
    await this.assertPassword(user.id, password);
    const codes = this.newBackupCodes();
    const now = this.now();
    const replaced = await this.deps.repo.transaction(async (tx) => {
      const row = await this.deps.repo.find(user.id, tx, true);
      if (!row?.verified) return false;
      const secret = this.deps.codes.secretOf(row);
      const hashes = codes.map((c) => hashCode(secret, user.id, c));
      if (!(await this.deps.repo.replaceBackupCodes(user.id, hashes, now, tx))) return false;
      await this.record(tx, 'user.backup_codes_regenerated', source, user.id, { count: codes.length });
      await this.notify(tx, user, 'backup-codes-regenerated', lang);
      return true;
    });
    if (!replaced) fail('TWO_FACTOR_NOT_ENABLED');
    return codes;
  }

  async status(user: UserView): Promise<TwoFactorStatus> {
    const row = await this.deps.repo.find(user.id);
    return {
      enabled: user.twoFactorEnabled,
      totp: row?.verified ?? false,
      backupCodesRemaining: row?.verified ? row.backupCodes.length : 0,
      passkeys: user.passkeyCount,
    };
  }

  private async assertPassword(userId: string, password: string): Promise<void> {
    const { ok } = await this.deps.passwords.checkPassword(userId, password);
    if (!ok) fail('INVALID_PASSWORD');
  }

  private newBackupCodes(): string[] {
    return Array.from({ length: this.deps.config.backupCodeCount }, () => {
      const code = randomString(10, BACKUP_CODE_ALPHABET);
      return `${code.slice(0, 5)}-${code.slice(5)}`;
    });
  }

  private record(
    tx: Sql,
    type: AuditEventType,
    source: AuditSource,
    userId: string,
    details: Record<string, string | number | boolean>,
  ) {
    return this.deps.audit.record(tx, { type, source, target: userTarget(userId), details });
  }

  /** The notice of a change, in the change's transaction (mailed once it commits). */
  private notify(
    tx: Sql,
    user: UserView,
    kind: 'two-factor-enabled' | 'two-factor-disabled' | 'two-factor-reset' | 'backup-codes-regenerated',
    lang?: string,
  ): Promise<void> {
    const url = this.deps.config.accountUrl ?? this.deps.publicUrl;
    const job = { kind, to: user.email, name: user.name, language: mailLanguage(user.language, lang), url };
    return this.deps.mail.write(`${kind}.${newId()}`, job, tx);
  }

  private now(): Date {
    return new Date(this.deps.clock.now());
  }
}

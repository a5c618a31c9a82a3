import { fail } from '../../errors';
import { type AuditSource, userTarget } from '../../shared/audit';
import { fetchProfile, refreshTokens } from './oauth-client';
import type { SocialParts } from './parts';
import type { AccountRow } from './repository';
import type { AccountSelector } from './schemas';

/** spec §3: the stored scope is comma-separated; spaces around the commas and empty entries are not scopes. */
const scopesOf = (scope: string | null): string[] =>
  scope
    ? scope
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** What the stored provider tokens use. */
export type TokensDeps = Pick<SocialParts, 'repo' | 'vault' | 'providers' | 'config' | 'clock' | 'audit'>;

/** list-accounts, unlink-account and the provider-token calls (spec §7). Every lookup is within one user's accounts. */
export class AccountTokensService {
  constructor(private readonly d: TokensDeps) {}

  async list(userId: string) {
    return (await this.d.repo.listForUser(userId)).map((a) => ({
      id: a.id,
      provider: a.providerId,
      providerId: a.providerId,
      accountId: a.accountId,
      userId: a.userId,
      scopes: scopesOf(a.scope),
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    }));
  }

  /** The unlink and its audit event are one transaction. */
  async unlink(userId: string, selector: AccountSelector, source: AuditSource): Promise<void> {
    const { providerId } = selector;
    const result = await this.d.repo.unlink(userId, providerId, selector.accountId, (tx, accountId) =>
      this.d.audit.record(tx, {
        type: 'user.account_unlinked',
        source,
        target: userTarget(userId),
        details: { providerId, accountId },
      }),
    );
    if (result === 'not_found') fail('ACCOUNT_NOT_FOUND');
    if (result === 'last') fail('FAILED_TO_UNLINK_LAST_ACCOUNT');
  }

  /** The access token, refreshed first when it expires within `social.refreshWithinMs` (spec §9: 5000 ms). */
  async accessToken(userId: string, selector: AccountSelector) {
    let account = await this.find(userId, selector);
    const expiresAt = account.accessTokenExpiresAt?.getTime();
    if (expiresAt !== undefined && expiresAt - this.d.clock.now() < this.d.config.social.refreshWithinMs) {
      if (this.d.vault.open(account).refreshToken) account = await this.refreshed(account);
    }
    return this.view(account);
  }

  async refresh(userId: string, selector: AccountSelector) {
    const account = await this.refreshed(await this.find(userId, selector));
    const tokens = this.d.vault.open(account);
    return {
      ...this.view(account),
      refreshToken: tokens.refreshToken,
      refreshTokenExpiresAt: account.refreshTokenExpiresAt?.toISOString() ?? null,
      providerId: account.providerId,
      accountId: account.accountId,
    };
  }

  /** The provider's current profile of an account (fresh from its user-info endpoint), and the raw document. */
  async info(userId: string, accountId: string) {
    const accounts = await this.d.repo.listForUser(userId);
    const account = accounts.find(
      (a) => a.providerId !== 'credential' && (a.accountId === accountId || a.id === accountId),
    );
    if (!account) return fail('ACCOUNT_NOT_FOUND');
    const { accessToken } = await this.accessToken(userId, {
      providerId: account.providerId,
      accountId: account.accountId,
    });
    const p = (await this.d.providers.get(account.providerId).catch(() => null)) ?? fail('PROVIDER_NOT_FOUND');
    const claims = this.d.vault.open(account).idToken ? decodeClaims(this.d.vault.open(account).idToken!) : null;
    const fetched = await fetchProfile(p, accessToken, claims).catch(() => null);
    if (!fetched?.profile) return fail('FAILED_TO_GET_USER_INFO');
    const { id, name, email, image, emailVerified } = fetched.profile;
    return { user: { id, name, email, image, emailVerified }, data: fetched.raw };
  }

  private async find(userId: string, { providerId, accountId }: AccountSelector): Promise<AccountRow> {
    const accounts = await this.d.repo.listForUser(userId);
    const account = accounts.find(
      (a) => a.providerId === providerId && providerId !== 'credential' && (!accountId || a.accountId === accountId),
    );
    return account ?? fail('ACCOUNT_NOT_FOUND');
  }

  private async refreshed(account: AccountRow): Promise<AccountRow> {
    const p = (await this.d.providers.get(account.providerId).catch(() => null)) ?? fail('PROVIDER_NOT_FOUND');
    const current = this.d.vault.open(account).refreshToken ?? fail('INVALID_TOKEN');
    const now = this.d.clock.now();
    const tokens = await refreshTokens(p, current, now).catch(() => fail('INVALID_TOKEN'));
    const updated = await this.d.repo.updateTokens(account.id, this.d.vault.seal(tokens)(account.id), new Date(now));
    return updated ?? fail('ACCOUNT_NOT_FOUND');
  }

  private view(account: AccountRow) {
    const tokens = this.d.vault.open(account);
    return {
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: account.accessTokenExpiresAt?.toISOString() ?? null,
      scopes: scopesOf(account.scope),
      idToken: tokens.idToken,
    };
  }
}

/** The payload of an id token we stored ourselves after verifying it (only to map the profile again). */
function decodeClaims(token: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

import type { Sealer } from '../../crypto/sealed';
import type { ProviderTokens } from './oauth-client';
import type { AccountRow, StoredTokens } from './repository';

export interface OpenTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
}

/** Provider tokens are sealed at rest (AES-256-GCM), each bound to its account row and column. */
export class TokenVault {
  constructor(private readonly sealer: Sealer) {}

  seal(tokens: Partial<ProviderTokens>): (accountRowId: string) => StoredTokens {
    return (id) => ({
      accessToken: this.sealer.sealOrNull(tokens.accessToken, `${id}:access`),
      refreshToken: this.sealer.sealOrNull(tokens.refreshToken, `${id}:refresh`),
      idToken: this.sealer.sealOrNull(tokens.idToken, `${id}:id`),
      accessTokenExpiresAt: tokens.accessTokenExpiresAt ?? null,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt ?? null,
      scope: tokens.scopes?.length ? tokens.scopes.join(',') : null, // spec §3: comma-separated
    });
  }

  open(row: AccountRow): OpenTokens {
    const open = (value: string | null, field: string) =>
      value ? this.sealer.open(value, `${row.id}:${field}`) : null;
    return {
      accessToken: open(row.accessToken, 'access'),
      refreshToken: open(row.refreshToken, 'refresh'),
      idToken: open(row.idToken, 'id'),
    };
  }
}

import type { SealedColumns } from '../../crypto/reseal';
import { type Sealer, unreadableSealed } from '../../crypto/sealed';
import type { ProviderTokens } from './oauth-client';
import type { AccountRow, StoredTokens } from './repository';

export interface OpenTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
}

/** Each token column and its sealing context: bound to its account row and its column. */
const FIELDS = [
  ['access_token', 'access'],
  ['refresh_token', 'refresh'],
  ['id_token', 'id'],
] as const;
const contextOf = (accountRowId: string, field: (typeof FIELDS)[number][1]) => `${accountRowId}:${field}`;

/** The `accounts` columns `secrets:reseal` seals again. */
export const SEALED_TOKENS: SealedColumns = {
  label: 'provider tokens',
  table: 'accounts',
  key: 'id',
  columns: FIELDS.map(([name, field]) => ({ name, context: (id: string) => contextOf(id, field) })),
};

/**
 * Provider tokens are sealed at rest (AES-256-GCM), each bound to its account row and column. A stored token no
 * configured secret opens reads as none (get-access-token answers a null token, refresh-token INVALID_TOKEN, until
 * the user signs in with the provider again), and is logged with the fix (docs/security.md, rotation).
 */
export class TokenVault {
  constructor(
    private readonly sealer: Sealer,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  seal(tokens: Partial<ProviderTokens>): (accountRowId: string) => StoredTokens {
    return (id) => ({
      accessToken: this.sealer.sealOrNull(tokens.accessToken, contextOf(id, 'access')),
      refreshToken: this.sealer.sealOrNull(tokens.refreshToken, contextOf(id, 'refresh')),
      idToken: this.sealer.sealOrNull(tokens.idToken, contextOf(id, 'id')),
      accessTokenExpiresAt: tokens.accessTokenExpiresAt ?? null,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt ?? null,
      scope: tokens.scopes?.length ? tokens.scopes.join(',') : null, // spec §3: comma-separated
    });
  }

  open(row: AccountRow): OpenTokens {
    const open = (value: string | null, field: (typeof FIELDS)[number][1]) => {
      if (!value) return null;
      const plain = this.sealer.open(value, contextOf(row.id, field));
      if (plain === null) this.warn(unreadableSealed(`the ${field} token of account ${row.id}`));
      return plain;
    };
    return {
      accessToken: open(row.accessToken, 'access'),
      refreshToken: open(row.refreshToken, 'refresh'),
      idToken: open(row.idToken, 'id'),
    };
  }
}

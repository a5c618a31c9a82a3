import type { Sql } from '../../shared/sql';
import type { ClientType, GrantType } from './schemas';
import type { ClientRow, ClientSettings } from './types';

/** Each column of oauth_clients (migration 1796500000200) and the row field it holds, in one list. */
const COLUMN_OF = {
  clientId: 'client_id',
  name: 'name',
  logoUri: 'logo_uri',
  description: 'description',
  type: 'type',
  secretHash: 'secret_hash',
  previousSecretHash: 'previous_secret_hash',
  previousSecretExpiresAt: 'previous_secret_expires_at',
  redirectUris: 'redirect_uris',
  postLogoutRedirectUris: 'post_logout_redirect_uris',
  grantTypes: 'grant_types',
  scopes: 'scopes',
  tokenEndpointAuthMethod: 'token_endpoint_auth_method',
  requirePkce: 'require_pkce',
  accessTokenFormat: 'access_token_format',
  accessTokenTtlSec: 'access_token_ttl_sec',
  refreshTokenTtlSec: 'refresh_token_ttl_sec',
  idTokenTtlSec: 'id_token_ttl_sec',
  firstParty: 'first_party',
  organizationId: 'organization_id',
  backchannelLogoutUri: 'backchannel_logout_uri',
  pairwiseSubject: 'pairwise_subject',
  createdBy: 'created_by',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Record<keyof ClientRow, string>;

const FIELDS = Object.keys(COLUMN_OF) as (keyof ClientRow)[];
const COLUMNS = FIELDS.map((f) => COLUMN_OF[f]).join(', ');

/** The settings an update writes (everything an operator may change: not the type, the id or the secrets). */
const SETTINGS: (keyof ClientSettings)[] = [
  'name',
  'logoUri',
  'description',
  'redirectUris',
  'postLogoutRedirectUris',
  'grantTypes',
  'scopes',
  'tokenEndpointAuthMethod',
  'requirePkce',
  'accessTokenFormat',
  'accessTokenTtlSec',
  'refreshTokenTtlSec',
  'idTokenTtlSec',
  'firstParty',
  'organizationId',
  'backchannelLogoutUri',
  'pairwiseSubject',
];

export interface ClientFilter {
  /** Part of the name, any case (LIKE wildcards in it match themselves). */
  name?: string;
  type?: ClientType;
  organizationId?: string;
}

/** oauth_clients: SQL with its one column list and row mapper. */
export class OAuthClientRepository {
  constructor(private readonly sql: Sql) {}

  async insert(tx: Sql, row: ClientRow): Promise<void> {
    const values = FIELDS.map((f) => row[f]);
    await tx.query(
      `INSERT INTO oauth_clients (${COLUMNS}) VALUES (${FIELDS.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    );
  }

  async get(clientId: string, sql: Sql = this.sql): Promise<ClientRow | null> {
    const rows = await sql.query(`SELECT ${COLUMNS} FROM oauth_clients WHERE client_id = $1`, [clientId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** The row, locked until the transaction ends (an update checks the client it makes from it). */
  async lock(tx: Sql, clientId: string): Promise<ClientRow | null> {
    const rows = await tx.query(`SELECT ${COLUMNS} FROM oauth_clients WHERE client_id = $1 FOR UPDATE`, [clientId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** A page, newest first, and how many match in all. */
  async list(filter: ClientFilter, limit: number, offset: number): Promise<{ rows: ClientRow[]; total: number }> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter.name !== undefined) {
      params.push(`%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`name ILIKE $${params.length}`);
    }
    if (filter.type !== undefined) {
      params.push(filter.type);
      where.push(`type = $${params.length}`);
    }
    if (filter.organizationId !== undefined) {
      params.push(filter.organizationId);
      where.push(`organization_id = $${params.length}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [rows, count] = await Promise.all([
      this.sql.query(
        `SELECT ${COLUMNS} FROM oauth_clients ${clause} ORDER BY created_at DESC, client_id DESC
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, offset],
      ),
      this.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM oauth_clients ${clause}`, params),
    ]);
    return { rows: rows.map(toRow), total: count[0].n };
  }

  /** Writes every setting of `settings` (checked as a whole by the caller); answers the row. */
  async update(tx: Sql, clientId: string, settings: ClientSettings, now: Date): Promise<ClientRow | null> {
    const sets = SETTINGS.map((f, i) => `${COLUMN_OF[f]} = $${i + 2}`);
    const rows = await tx.query(
      `UPDATE oauth_clients SET ${sets.join(', ')}, updated_at = $${SETTINGS.length + 2}
       WHERE client_id = $1 RETURNING ${COLUMNS}`,
      [clientId, ...SETTINGS.map((f) => settings[f]), now],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  async delete(tx: Sql, clientId: string): Promise<ClientRow | null> {
    const rows = await tx.query(`DELETE FROM oauth_clients WHERE client_id = $1 RETURNING ${COLUMNS}`, [clientId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * A new secret in one statement: the current hash becomes the previous one, accepted until `previousUntil`.
   * Rotations of one client that race are applied one after the other by PostgreSQL's row lock, each on the row
   * the one before it wrote, so the client ends with one current and one previous secret. Null for an unknown or
   * public client (which has no secret).
   */
  async rotate(
    tx: Sql,
    clientId: string,
    secretHash: string,
    previousUntil: Date,
    now: Date,
  ): Promise<ClientRow | null> {
    const rows = await tx.query(
      `UPDATE oauth_clients SET previous_secret_hash = secret_hash, secret_hash = $2,
         previous_secret_expires_at = $3, updated_at = $4
       WHERE client_id = $1 AND type = 'confidential' RETURNING ${COLUMNS}`,
      [clientId, secretHash, previousUntil, now],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** What a secret check reads: the hashes and until when the previous one holds. */
  async secrets(
    clientId: string,
  ): Promise<Pick<ClientRow, 'secretHash' | 'previousSecretHash' | 'previousSecretExpiresAt'> | null> {
    const rows = await this.sql.query<{
      secret_hash: string | null;
      previous_secret_hash: string | null;
      previous_secret_expires_at: Date | null;
    }>('SELECT secret_hash, previous_secret_hash, previous_secret_expires_at FROM oauth_clients WHERE client_id = $1', [
      clientId,
    ]);
    const r = rows[0];
    if (!r) return null;
    return {
      secretHash: r.secret_hash,
      previousSecretHash: r.previous_secret_hash,
      previousSecretExpiresAt: r.previous_secret_expires_at,
    };
  }
}

function toRow(r: Record<string, unknown>): ClientRow {
  return {
    clientId: r.client_id as string,
    name: r.name as string,
    logoUri: (r.logo_uri as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    type: r.type as ClientType,
    secretHash: (r.secret_hash as string | null) ?? null,
    previousSecretHash: (r.previous_secret_hash as string | null) ?? null,
    previousSecretExpiresAt: (r.previous_secret_expires_at as Date | null) ?? null,
    redirectUris: r.redirect_uris as string[],
    postLogoutRedirectUris: r.post_logout_redirect_uris as string[],
    grantTypes: r.grant_types as GrantType[],
    scopes: r.scopes as string[],
    tokenEndpointAuthMethod: r.token_endpoint_auth_method as ClientRow['tokenEndpointAuthMethod'],
    requirePkce: r.require_pkce as boolean,
    accessTokenFormat: r.access_token_format as ClientRow['accessTokenFormat'],
    accessTokenTtlSec: (r.access_token_ttl_sec as number | null) ?? null,
    refreshTokenTtlSec: (r.refresh_token_ttl_sec as number | null) ?? null,
    idTokenTtlSec: (r.id_token_ttl_sec as number | null) ?? null,
    firstParty: r.first_party as boolean,
    organizationId: (r.organization_id as string | null) ?? null,
    backchannelLogoutUri: (r.backchannel_logout_uri as string | null) ?? null,
    pairwiseSubject: r.pairwise_subject as boolean,
    createdBy: (r.created_by as string | null) ?? null,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

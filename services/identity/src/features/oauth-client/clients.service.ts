import type { Permissions } from '../../access';
import { isId } from '../../crypto/random';
import { ApiError, type ErrorCode, fail } from '../../errors';
import type { AuditDetails, AuditEventType, AuditLog, AuditSource } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import { isForeignKeyViolation, type Sql } from '../../shared/sql';
import type { SessionWithUser } from '../../shared/views';
import type { OAuthClientAdminAccess, OAuthClientFeatureDeps } from './deps';
import type { OAuthClientRepository } from './repository';
import { checkClient } from './rules';
import {
  type CreateClientBody,
  DEFAULT_PAGE,
  type ListClientsQuery,
  type OAuthClientView,
  type UpdateClientBody,
} from './schemas';
import { hashClientSecret, isClientId, newClientId, newClientSecret } from './secret';
import type { ClientRow, ClientSettings } from './types';

export interface ClientsDeps {
  sql: Sql;
  repo: OAuthClientRepository;
  clock: Clock;
  audit: AuditLog;
  admin: OAuthClientAdminAccess | null;
  config: OAuthClientFeatureDeps['config']['oauthClients'];
  /** Every scope a client may be allowed (scopes.ts). */
  scopes: readonly string[];
}

export interface ClientWithSecret {
  client: OAuthClientView;
  /** Shown once: only the create (confidential) and rotate answers carry it. */
  secret: string | null;
}

/**
 * The registered OAuth clients (docs/oauth-clients.md), managed by operators holding the admin `oauthClient`
 * permission. Every change is checked as a whole against the rules (rules.ts), then written with its audit event in
 * one transaction. A confidential client's secret is made here, answered once and stored as a hash.
 */
export class OAuthClients {
  constructor(private readonly d: ClientsDeps) {}

  /** Refuses unless the caller holds the permission (an impersonation session never does). */
  demand(auth: SessionWithUser, permissions: Permissions, code: ErrorCode): void {
    if (!this.d.admin?.can(auth, permissions)) fail(code);
  }

  async create(auth: SessionWithUser, body: CreateClientBody, source: AuditSource): Promise<ClientWithSecret> {
    this.demand(auth, { oauthClient: ['create'] }, 'NOT_ALLOWED_TO_CREATE_OAUTH_CLIENTS');
    const settings = checkClient(
      {
        name: body.name,
        logoUri: body.logoUri ?? null,
        description: body.description ?? null,
        type: body.type,
        redirectUris: body.redirectUris ?? [],
        postLogoutRedirectUris: body.postLogoutRedirectUris ?? [],
        grantTypes: body.grantTypes,
        scopes: body.scopes,
        tokenEndpointAuthMethod:
          body.tokenEndpointAuthMethod ?? (body.type === 'public' ? 'none' : 'client_secret_basic'),
        requirePkce: body.requirePkce ?? true,
        accessTokenFormat: body.accessTokenFormat ?? 'opaque',
        accessTokenTtlSec: body.accessTokenTtlSec ?? null,
        refreshTokenTtlSec: body.refreshTokenTtlSec ?? null,
        idTokenTtlSec: body.idTokenTtlSec ?? null,
        firstParty: body.firstParty ?? false,
        organizationId: checkOrganizationId(body.organizationId ?? null),
        backchannelLogoutUri: body.backchannelLogoutUri ?? null,
        pairwiseSubject: body.pairwiseSubject ?? false,
      },
      this.d.scopes,
    );
    const secret = settings.type === 'confidential' ? newClientSecret() : null;
    const now = new Date(this.d.clock.now());
    const row: ClientRow = {
      ...settings,
      clientId: newClientId(),
      secretHash: secret === null ? null : hashClientSecret(secret),
      previousSecretHash: null,
      previousSecretExpiresAt: null,
      createdBy: auth.user.id,
      createdAt: now,
      updatedAt: now,
    };
    await organizationMustExist(() =>
      this.d.sql.transaction(async (tx) => {
        await this.d.repo.insert(tx, row);
        await this.record(tx, 'oauth_client.created', row, source, {
          name: row.name,
          clientType: row.type,
          grantTypes: row.grantTypes,
          scopes: row.scopes,
          firstParty: row.firstParty,
        });
      }),
    );
    return { client: clientView(row), secret };
  }

  async list(
    auth: SessionWithUser,
    query: ListClientsQuery,
  ): Promise<{ clients: OAuthClientView[]; total: number; limit: number; offset: number }> {
    this.demand(auth, { oauthClient: ['read'] }, 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS');
    const limit = query.limit ?? DEFAULT_PAGE;
    const offset = query.offset ?? 0;
    // An organization id that is no id names no client (and must not reach the uuid column as an error).
    if (query.organizationId !== undefined && !isId(query.organizationId))
      return { clients: [], total: 0, limit, offset };
    const { rows, total } = await this.d.repo.list(query, limit, offset);
    return { clients: rows.map(clientView), total, limit, offset };
  }

  async get(auth: SessionWithUser, clientId: string): Promise<{ client: OAuthClientView }> {
    this.demand(auth, { oauthClient: ['read'] }, 'NOT_ALLOWED_TO_READ_OAUTH_CLIENTS');
    const row = isClientId(clientId) ? await this.d.repo.get(clientId) : null;
    return { client: clientView(row ?? fail('OAUTH_CLIENT_NOT_FOUND')) };
  }

  async update(
    auth: SessionWithUser,
    body: UpdateClientBody,
    source: AuditSource,
  ): Promise<{ client: OAuthClientView }> {
    this.demand(auth, { oauthClient: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_OAUTH_CLIENTS');
    const { clientId, ...changes } = body;
    const fields = (Object.keys(changes) as (keyof typeof changes)[]).filter((k) => changes[k] !== undefined);
    if (!fields.length) fail('NO_DATA_TO_UPDATE');
    if (!isClientId(clientId)) fail('OAUTH_CLIENT_NOT_FOUND');
    if (changes.organizationId !== undefined) checkOrganizationId(changes.organizationId);
    const row = await organizationMustExist(() =>
      this.d.sql.transaction(async (tx) => {
        const current = (await this.d.repo.lock(tx, clientId)) ?? fail('OAUTH_CLIENT_NOT_FOUND');
        const next = checkClient({ ...settingsOf(current), ...definedOnly(changes) }, this.d.scopes);
        const updated =
          (await this.d.repo.update(tx, clientId, next, new Date(this.d.clock.now()))) ??
          fail('OAUTH_CLIENT_NOT_FOUND');
        await this.record(tx, 'oauth_client.updated', updated, source, { fields });
        return updated;
      }),
    );
    return { client: clientView(row) };
  }

  async delete(auth: SessionWithUser, clientId: string, source: AuditSource): Promise<void> {
    this.demand(auth, { oauthClient: ['delete'] }, 'NOT_ALLOWED_TO_DELETE_OAUTH_CLIENTS');
    if (!isClientId(clientId)) fail('OAUTH_CLIENT_NOT_FOUND');
    await this.d.sql.transaction(async (tx) => {
      const gone = (await this.d.repo.delete(tx, clientId)) ?? fail('OAUTH_CLIENT_NOT_FOUND');
      await this.record(tx, 'oauth_client.deleted', gone, source, { name: gone.name });
    });
  }

  /**
   * A new secret, answered once. The one it replaces is still accepted for `secretGraceSec`, so the application
   * can switch without an outage; a secret older than that one stops at once.
   */
  async rotate(auth: SessionWithUser, clientId: string, source: AuditSource): Promise<ClientWithSecret> {
    this.demand(auth, { oauthClient: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_OAUTH_CLIENTS');
    if (!isClientId(clientId)) fail('OAUTH_CLIENT_NOT_FOUND');
    const secret = newClientSecret();
    const now = this.d.clock.now();
    const graceSec = this.d.config.secretGraceSec;
    const row = await this.d.sql.transaction(async (tx) => {
      const rotated = await this.d.repo.rotate(
        tx,
        clientId,
        hashClientSecret(secret),
        new Date(now + graceSec * 1000),
        new Date(now),
      );
      if (!rotated) {
        const exists = await this.d.repo.get(clientId, tx);
        return fail(exists ? 'OAUTH_CLIENT_HAS_NO_SECRET' : 'OAUTH_CLIENT_NOT_FOUND');
      }
      await this.record(tx, 'oauth_client.secret_rotated', rotated, source, { graceSec });
      return rotated;
    });
    return { client: clientView(row), secret };
  }

  private record(tx: Sql, type: AuditEventType, row: ClientRow, source: AuditSource, details: AuditDetails) {
    return this.d.audit.record(tx, {
      type,
      source,
      target: { type: 'oauth_client', id: row.clientId },
      organizationId: row.organizationId,
      details,
    });
  }
}

/** An organization id that is not an id names no organization (and must not reach the uuid column as an error). */
function checkOrganizationId(id: string | null): string | null {
  if (id !== null && !isId(id))
    fail('ORGANIZATION_NOT_FOUND', [{ field: 'organizationId', problem: 'no such organization' }]);
  return id;
}

/** Runs a write whose organization id the foreign key checks: an organization that is not there (or went meanwhile) is ORGANIZATION_NOT_FOUND. */
async function organizationMustExist<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error) && !(error instanceof ApiError))
      fail('ORGANIZATION_NOT_FOUND', [{ field: 'organizationId', problem: 'no such organization' }]);
    throw error;
  }
}

const definedOnly = <T extends object>(changes: T): Partial<T> =>
  Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>;

export function settingsOf(row: ClientRow): ClientSettings {
  const {
    clientId: _id,
    secretHash: _s,
    previousSecretHash: _p,
    previousSecretExpiresAt: _e,
    createdBy: _b,
    createdAt: _c,
    updatedAt: _u,
    ...settings
  } = row;
  return settings;
}

export function clientView(row: ClientRow): OAuthClientView {
  return {
    ...settingsOf(row),
    clientId: row.clientId,
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

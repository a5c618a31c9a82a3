import type { Permissions } from '../../access';
import type { Config } from '../../config';
import { isId, newId, randomString } from '../../crypto/random';
import { ApiError, type ErrorCode, fail } from '../../errors';
import type { AuditDetails, AuditLog, AuditSource } from '../../shared/audit';
import { banInForce } from '../../shared/ban';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { AdminAccess } from '../admin';
import type { OrganizationAccess } from '../organization';
import type { ApiKeyChanges, ApiKeyRepository } from './repository';
import type { CreateInput, ListQuery, TrustedFields, UpdateInput } from './schemas';
import { type ApiKeyVerifier, hashApiKey, isServiceKey, type Verification } from './verify.service';
import type { ApiKeyView } from './views';

/** Who calls a management route: a signed-in user (maybe an operator), or a server with the service credential. */
/** Who manages keys, and where the request came from (the audit trail's source). */
export type ApiKeyCaller = ({ kind: 'server' } | { kind: 'user'; auth: SessionWithUser }) & { source: AuditSource };

export interface ApiKeyDeps {
  repo: ApiKeyRepository;
  verifier: ApiKeyVerifier;
  config: Config;
  clock: Clock;
  getUser(id: string): Promise<UserView | null>;
  /** The organization feature's access checks; null when that feature is off. */
  organizations: OrganizationAccess | null;
  /** The admin feature's access model; null when that feature is off. */
  admin: AdminAccess | null;
  /** Runs a change with its audit event in one transaction. */
  sql: Sql;
  audit: AuditLog;
}

const TRUSTED: Array<keyof TrustedFields> = [
  'remaining',
  'refillAmount',
  'refillInterval',
  'rateLimitEnabled',
  'rateLimitTimeWindow',
  'rateLimitMax',
  'permissions',
];

/** create, read, list, update and delete API keys; a key belongs to a user or an organization. */
export class ApiKeyService {
  constructor(private readonly d: ApiKeyDeps) {}

  async create(caller: ApiKeyCaller, input: CreateInput): Promise<ApiKeyView & { key: string }> {
    this.assertTrustedFields(caller, input);
    const owner = await this.ownerForCreate(caller, input);
    const { config, clock } = this.d;
    const prefix = input.prefix ?? config.apiKey.defaultPrefix ?? null;
    const key = `${prefix ?? ''}${randomString(config.apiKey.keyLength)}`;
    const now = clock.now();
    const limits = config.apiKey.rateLimit;
    const created = await this.d.sql
      .transaction(async (tx) => {
        const row = await this.d.repo.insert(
          {
            id: newId(),
            name: input.name ?? null,
            start: config.apiKey.startingCharacters > 0 ? key.slice(0, config.apiKey.startingCharacters) : null,
            prefix,
            keyHash: hashApiKey(key),
            ...owner,
            refillInterval: input.refillInterval ?? null,
            refillAmount: input.refillAmount ?? null,
            enabled: true,
            rateLimitEnabled: input.rateLimitEnabled ?? limits.enabled,
            rateLimitTimeWindow: input.rateLimitTimeWindow ?? limits.timeWindowMs,
            rateLimitMax: input.rateLimitMax ?? limits.max,
            remaining: input.remaining ?? null,
            expiresAt: input.expiresIn ? new Date(now + input.expiresIn * 1000) : null,
            permissions: input.permissions ? JSON.stringify(input.permissions) : null,
            metadata: input.metadata ? JSON.stringify(input.metadata) : null,
            now: new Date(now),
          },
          tx,
        );
        await this.recorded(tx, caller, 'api_key.created', row, { name: row.name, prefix: row.prefix });
        return row;
      })
      .catch((error) => (isForeignKeyViolation(error) ? fail(missingOwner(owner)) : Promise.reject(error)));
    return { ...created, key };
  }

  async get(caller: ApiKeyCaller, keyId: string): Promise<ApiKeyView> {
    return this.manageable(caller, keyId);
  }

  /** The caller's own keys; an organization's with `organizationId`; any user's for trusted callers. */
  async list(caller: ApiKeyCaller, query: ListQuery): Promise<ApiKeyView[]> {
    if (query.organizationId) {
      await this.assertManagesOrganization(caller, query.organizationId);
      return this.d.repo.list({ organizationId: query.organizationId });
    }
    if (caller.kind === 'user' && (!query.userId || query.userId === caller.auth.user.id))
      return this.d.repo.list({ userId: caller.auth.user.id });
    if (!this.isTrusted(caller)) return fail('NOT_ALLOWED_TO_MANAGE_API_KEYS');
    if (!query.userId) return fail('VALIDATION_ERROR', [{ field: 'query.userId', problem: 'required' }]);
    return isId(query.userId) ? this.d.repo.list({ userId: query.userId }) : [];
  }

  async update(caller: ApiKeyCaller, input: UpdateInput): Promise<ApiKeyView> {
    this.assertTrustedFields(caller, input);
    if (input.refillAmount !== undefined || input.refillInterval !== undefined) refillPair(input);
    const current = await this.manageable(caller, input.keyId);
    const now = this.d.clock.now();
    const changes: ApiKeyChanges = {
      name: input.name,
      enabled: input.enabled,
      expires_at:
        input.expiresIn === undefined ? undefined : input.expiresIn ? new Date(now + input.expiresIn * 1000) : null,
      metadata: input.metadata === undefined ? undefined : JSON.stringify(input.metadata),
      remaining: input.remaining,
      refill_amount: input.refillAmount,
      refill_interval: input.refillInterval,
      rate_limit_enabled: input.rateLimitEnabled,
      rate_limit_time_window: input.rateLimitTimeWindow,
      rate_limit_max: input.rateLimitMax,
      permissions: input.permissions === undefined ? undefined : JSON.stringify(input.permissions),
    };
    if (Object.values(changes).every((v) => v === undefined)) return fail('NO_DATA_TO_UPDATE');
    const updated = await this.d.sql.transaction(async (tx) => {
      const row = await this.d.repo.update(current.id, changes, new Date(now), tx);
      const fields = Object.keys(changes).filter((k) => changes[k as keyof ApiKeyChanges] !== undefined);
      if (row) await this.recorded(tx, caller, 'api_key.updated', row, { fields });
      return row;
    });
    return updated ?? fail('FAILED_TO_UPDATE_API_KEY');
  }

  async delete(caller: ApiKeyCaller, keyId: string): Promise<{ success: boolean }> {
    const current = await this.manageable(caller, keyId);
    const deleted = await this.d.sql.transaction(async (tx) => {
      if (!(await this.d.repo.delete(current.id, tx))) return false;
      await this.recorded(tx, caller, 'api_key.deleted', current, { name: current.name });
      return true;
    });
    if (!deleted) fail('KEY_NOT_FOUND');
    return { success: true };
  }

  /** A key's event: the key is the target, its organization (if any) the organization; never the key itself. */
  private recorded(
    tx: Sql,
    caller: ApiKeyCaller,
    type: 'api_key.created' | 'api_key.updated' | 'api_key.deleted',
    key: ApiKeyView,
    details: AuditDetails,
  ): Promise<void> {
    return this.d.audit.record(tx, {
      type,
      source: caller.source,
      target: { type: 'api_key', id: key.id },
      organizationId: key.organizationId,
      details: { ownerId: key.userId, ...details },
    });
  }

  /** POST /api-key/verify: spends one use of the key (better-auth's answer shape). */
  verify(key: string, permissions?: Permissions): Promise<Verification> {
    return this.d.verifier.verify(key, permissions);
  }

  /**
   * better-auth's sessions for API keys: a valid key of a user stands for a session of that user, made for this
   * request only and never stored. Keys of organizations and service keys are no user's session.
   */
  async sessionFor(presented: string, client: { ipAddress: string | null; userAgent: string | null }) {
    const result = await this.d.verifier.verify(presented);
    if (!result.valid) return result;
    const { key } = result;
    if (!key.userId || isServiceKey(key)) return fail('API_KEY_SESSION_NOT_ALLOWED');
    const user = (await this.d.getUser(key.userId)) ?? fail('INVALID_API_KEY');
    const now = this.d.clock.now();
    if (banInForce(user, now)) fail('BANNED_USER');
    const session: SessionWithUser = {
      user,
      session: {
        id: key.id,
        token: '',
        userId: user.id,
        expiresAt: key.expiresAt ?? new Date(now + 3600_000).toISOString(),
        createdAt: key.createdAt,
        updatedAt: new Date(now).toISOString(),
        ...client,
        impersonatedBy: null,
        activeOrganizationId: null,
        rememberMe: false,
      },
    };
    return { valid: true as const, key, session };
  }

  /** An operator (admin `apiKey: manage`) or a server holding the service credential. */
  private isTrusted(caller: ApiKeyCaller): boolean {
    if (caller.kind === 'server') return true;
    return !!this.d.admin?.can(caller.auth, { apiKey: ['manage'] });
  }

  private assertTrustedFields(caller: ApiKeyCaller, input: TrustedFields): void {
    if (TRUSTED.some((field) => input[field] !== undefined) && !this.isTrusted(caller)) fail('SERVER_ONLY_PROPERTY');
    if (input.refillAmount !== undefined || input.refillInterval !== undefined) refillPair(input);
  }

  private async ownerForCreate(caller: ApiKeyCaller, input: CreateInput) {
    if (input.organizationId) {
      if (input.userId) fail('VALIDATION_ERROR', [{ field: 'body.userId', problem: 'not with organizationId' }]);
      await this.assertManagesOrganization(caller, input.organizationId);
      return { userId: null, organizationId: input.organizationId };
    }
    if (caller.kind === 'user' && (!input.userId || input.userId === caller.auth.user.id))
      return { userId: caller.auth.user.id, organizationId: null };
    if (!this.isTrusted(caller)) return fail('NOT_ALLOWED_TO_MANAGE_API_KEYS');
    if (!input.userId) return fail('VALIDATION_ERROR', [{ field: 'body.userId', problem: 'required' }]);
    return isId(input.userId) ? { userId: input.userId, organizationId: null } : fail('USER_NOT_FOUND');
  }

  /** A key the caller may manage; any other answers "not found", so key ids of others reveal nothing. */
  private async manageable(caller: ApiKeyCaller, keyId: string): Promise<ApiKeyView> {
    const key = (await this.d.repo.findById(keyId)) ?? fail('KEY_NOT_FOUND');
    if (this.isTrusted(caller)) return key;
    if (caller.kind === 'user' && key.userId === caller.auth.user.id) return key;
    if (key.organizationId && (await this.managesOrganization(caller, key.organizationId))) return key;
    return fail('KEY_NOT_FOUND');
  }

  private async assertManagesOrganization(caller: ApiKeyCaller, organizationId: string): Promise<void> {
    if (!this.d.organizations || !isId(organizationId)) fail('ORGANIZATION_NOT_FOUND');
    if (!(await this.managesOrganization(caller, organizationId))) fail('NOT_ALLOWED_TO_MANAGE_API_KEYS');
  }

  /** Organization keys are managed by members who may update the organization (owner, admin: spec §6). */
  private async managesOrganization(caller: ApiKeyCaller, organizationId: string): Promise<boolean> {
    if (this.isTrusted(caller)) return true;
    if (caller.kind !== 'user' || !this.d.organizations) return false;
    const access = this.d.organizations;
    // Not a member: refused below. A member without the second factor the organization requires hears so
    // (docs/two-factor.md "Policies"). Any other failure (the database out of reach) is passed on, not taken as a
    // refusal.
    const member = await access
      .self(organizationId, caller.auth.user, 'NOT_ALLOWED_TO_MANAGE_API_KEYS')
      .catch((error) =>
        error instanceof ApiError && error.code !== 'ORGANIZATION_REQUIRES_TWO_FACTOR' ? null : Promise.reject(error),
      );
    return !!member && access.can(member, { organization: ['update'] });
  }
}

function refillPair(input: TrustedFields): void {
  if ((input.refillAmount === undefined) !== (input.refillInterval === undefined))
    fail('VALIDATION_ERROR', [{ field: 'body.refillAmount', problem: 'refillAmount and refillInterval go together' }]);
}

const isForeignKeyViolation = (error: unknown): boolean => (error as { code?: string })?.code === '23503';

const missingOwner = (owner: { organizationId: string | null }): ErrorCode =>
  owner.organizationId ? 'ORGANIZATION_NOT_FOUND' : 'USER_NOT_FOUND';

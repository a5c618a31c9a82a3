import type { Permissions } from '../../access';
import type { Config } from '../../config';
import { isId, newId } from '../../crypto/random';
import type { Sealer } from '../../crypto/sealed';
import { type ErrorCode, fail } from '../../errors';
import { AUDIT_EVENT_TYPES, type AuditEventType, type AuditLog, type AuditSource } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { TargetPolicy } from '../../shared/target-policy';
import type { SessionWithUser } from '../../shared/views';
import { secretContext } from './delivery';
import type { WebhookAdminAccess } from './deps';
import type { EndpointChanges, EndpointRow, WebhookRepository } from './repository';
import type { EndpointRouting } from './routing';
import type { CreateEndpointBody, UpdateEndpointBody, WebhookEndpointView } from './schemas';
import { newSecret } from './signature';

export interface EndpointsDeps {
  sql: Sql;
  repo: WebhookRepository;
  clock: Clock;
  sealer: Sealer;
  audit: AuditLog;
  admin: WebhookAdminAccess | null;
  routing: EndpointRouting;
  policy: TargetPolicy;
  config: Config['webhook'];
}

export interface EndpointWithSecret {
  endpoint: WebhookEndpointView;
  /** Shown once: only the create and rotate answers carry it. */
  secret: string;
}

/**
 * The webhook endpoints (docs/webhooks.md), managed by operators holding the admin `webhook` permission. Every
 * change is an audit event in its own transaction; the signing secret is made here, answered once and stored
 * sealed. A URL is checked when it is saved (scheme, and in production https and public addresses) and again at
 * every connection.
 */
export class WebhookEndpoints {
  constructor(private readonly d: EndpointsDeps) {}

  /** Refuses unless the caller holds the permission (an impersonation session never does). */
  demand(auth: SessionWithUser, permissions: Permissions, code: ErrorCode): void {
    if (!this.d.admin?.can(auth, permissions)) fail(code);
  }

  async create(auth: SessionWithUser, body: CreateEndpointBody, source: AuditSource): Promise<EndpointWithSecret> {
    this.demand(auth, { webhook: ['create'] }, 'NOT_ALLOWED_TO_CREATE_WEBHOOKS');
    const eventTypes = checkEventTypes(body.eventTypes);
    await this.checkUrl(body.url);
    const id = newId();
    const secret = newSecret();
    const now = new Date(this.d.clock.now());
    const row: EndpointRow = {
      id,
      url: body.url,
      eventTypes,
      enabled: body.enabled ?? true,
      description: body.description ?? null,
      secretSealed: this.d.sealer.seal(secret, secretContext(id)),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.d.sql.transaction(async (tx) => {
      await this.d.repo.insert(tx, row);
      await this.record(tx, 'webhook.endpoint_created', id, source, {
        host: new URL(row.url).host,
        eventTypes,
        enabled: row.enabled,
      });
      tx.afterCommit(() => this.d.routing.changed(routeOf(row), id));
    });
    return { endpoint: endpointView(row), secret };
  }

  async list(auth: SessionWithUser): Promise<{ endpoints: WebhookEndpointView[] }> {
    this.demand(auth, { webhook: ['read'] }, 'NOT_ALLOWED_TO_READ_WEBHOOKS');
    return { endpoints: (await this.d.repo.list()).map(endpointView) };
  }

  /** One endpoint, for the other webhook routes (the caller's permission already checked). */
  async get(id: string): Promise<EndpointRow> {
    const row = isId(id) ? await this.d.repo.get(id) : null;
    return row ?? fail('WEBHOOK_ENDPOINT_NOT_FOUND');
  }

  async update(
    auth: SessionWithUser,
    body: UpdateEndpointBody,
    source: AuditSource,
  ): Promise<{ endpoint: WebhookEndpointView }> {
    this.demand(auth, { webhook: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS');
    const { id, ...fields } = body;
    const changes: EndpointChanges = {};
    if (fields.eventTypes !== undefined) changes.eventTypes = checkEventTypes(fields.eventTypes);
    if (fields.url !== undefined) {
      await this.checkUrl(fields.url);
      changes.url = fields.url;
    }
    if (fields.enabled !== undefined) changes.enabled = fields.enabled;
    if (fields.description !== undefined) changes.description = fields.description;
    if (!Object.keys(changes).length) fail('NO_DATA_TO_UPDATE');
    if (!isId(id)) fail('WEBHOOK_ENDPOINT_NOT_FOUND');
    const row = await this.d.sql.transaction(async (tx) => {
      const updated = await this.d.repo.update(tx, id, changes, new Date(this.d.clock.now()));
      if (!updated) return fail('WEBHOOK_ENDPOINT_NOT_FOUND');
      await this.record(tx, 'webhook.endpoint_updated', id, source, {
        fields: Object.keys(changes),
        ...(changes.url !== undefined ? { host: new URL(changes.url).host } : {}),
        ...(changes.eventTypes !== undefined ? { eventTypes: changes.eventTypes } : {}),
        ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
      });
      tx.afterCommit(() => this.d.routing.changed(routeOf(updated), id));
      return updated;
    });
    return { endpoint: endpointView(row) };
  }

  async delete(auth: SessionWithUser, id: string, source: AuditSource): Promise<void> {
    this.demand(auth, { webhook: ['delete'] }, 'NOT_ALLOWED_TO_DELETE_WEBHOOKS');
    if (!isId(id)) fail('WEBHOOK_ENDPOINT_NOT_FOUND');
    await this.d.sql.transaction(async (tx) => {
      const gone = await this.d.repo.delete(tx, id);
      if (!gone) return fail('WEBHOOK_ENDPOINT_NOT_FOUND');
      await this.record(tx, 'webhook.endpoint_deleted', id, source, { host: new URL(gone.url).host });
      tx.afterCommit(() => this.d.routing.changed(null, id));
    });
  }

  /**
   * A new secret, answered once. The previous one keeps signing too (each message carries both signatures) for
   * `secretOverlapSec`, so receivers can switch without losing a message.
   */
  async rotate(auth: SessionWithUser, id: string, source: AuditSource): Promise<EndpointWithSecret> {
    this.demand(auth, { webhook: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_WEBHOOKS');
    if (!isId(id)) fail('WEBHOOK_ENDPOINT_NOT_FOUND');
    const secret = newSecret();
    const now = this.d.clock.now();
    const row = await this.d.sql.transaction(async (tx) => {
      const current = (await this.d.repo.lockSecret(tx, id)) ?? fail('WEBHOOK_ENDPOINT_NOT_FOUND');
      const until = new Date(now + this.d.config.secretOverlapSec * 1000);
      const sealed = this.d.sealer.seal(secret, secretContext(id));
      const rotated = await this.d.repo.rotate(tx, id, sealed, current, until, new Date(now));
      if (!rotated) return fail('WEBHOOK_ENDPOINT_NOT_FOUND');
      await this.record(tx, 'webhook.secret_rotated', id, source, { overlapSec: this.d.config.secretOverlapSec });
      return rotated;
    });
    return { endpoint: endpointView(row), secret };
  }

  /** A URL the service can call: INVALID_WEBHOOK_URL for its form, WEBHOOK_URL_NOT_ALLOWED for where it goes. */
  private async checkUrl(url: string): Promise<void> {
    const { policy } = this.d;
    const malformed = policy.urlProblem(url, false);
    if (malformed) fail('INVALID_WEBHOOK_URL', [{ field: 'url', problem: malformed }]);
    const refused = policy.urlProblem(url) ?? (await policy.hostProblem(url));
    if (refused) fail('WEBHOOK_URL_NOT_ALLOWED', [{ field: 'url', problem: refused }]);
  }

  private record(
    tx: Sql,
    type: AuditEventType,
    id: string,
    source: AuditSource,
    details: Record<string, string | number | boolean | readonly string[]>,
  ): Promise<void> {
    return this.d.audit.record(tx, { type, source, target: { type: 'webhook_endpoint', id }, details });
  }
}

/** Exact types must exist; a prefix (ending in a dot) must cover at least one type. Duplicates are dropped. */
export function checkEventTypes(types: readonly string[]): string[] {
  types.forEach((type, i) => {
    const known = type.endsWith('.')
      ? AUDIT_EVENT_TYPES.some((t) => t.startsWith(type))
      : (AUDIT_EVENT_TYPES as readonly string[]).includes(type);
    if (!known)
      fail('INVALID_WEBHOOK_EVENT_TYPE', [
        { field: `eventTypes/${i}`, problem: `names no event type (exact types, or prefixes ending in a dot)` },
      ]);
  });
  return [...new Set(types)];
}

const routeOf = (row: EndpointRow) => (row.enabled ? { id: row.id, eventTypes: row.eventTypes } : null);

export function endpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    description: row.description,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

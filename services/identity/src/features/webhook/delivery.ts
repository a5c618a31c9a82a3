import type { Config } from '../../config';
import { type Sealer, unreadableSealed } from '../../crypto/sealed';
import { type AuditLog, SYSTEM_SOURCE } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { TargetPolicy } from '../../shared/target-policy';
import { postMessage } from './http-post';
import type { WebhookJob } from './message';
import type { EndpointRow, WebhookRepository } from './repository';
import { signatureHeader } from './signature';

const DAY_MS = 86_400_000;

/** What one attempt came to: the queue retries `failed` (while its schedule lasts) and drops the others. */
export type AttemptOutcome = 'succeeded' | 'failed' | 'skipped';

export interface DeliveryLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface DeliveryDeps {
  sql: Sql;
  repo: WebhookRepository;
  sealer: Sealer;
  clock: Clock;
  /** Records the disabling of a failing endpoint (system actor), in the transaction that disables it. */
  audit: AuditLog;
  policy: TargetPolicy;
  config: Config['webhook'];
  log: DeliveryLogger;
  /** Each attempt made: its outcome and how long it took (the metrics). */
  observe?: (outcome: 'succeeded' | 'failed', seconds: number) => void;
}

/** The sealing context of an endpoint's secret: a sealed secret copied into another row does not open there. */
export const secretContext = (endpointId: string): string => `webhook-secret:${endpointId}`;

/**
 * One delivery attempt of a message (docs/webhooks.md), the same in the worker and in the API's own queue: reads
 * the endpoint as it is now (a deleted endpoint gets nothing; a disabled one only what an operator sends it),
 * signs the body with its secrets, POSTs it, logs the attempt, and keeps the endpoint's failure record: an
 * endpoint failing without a success for `disableAfterFailingDays` is disabled, which is an audit event.
 */
export class WebhookDelivery {
  constructor(private readonly deps: DeliveryDeps) {}

  async attempt(job: WebhookJob, attempt: number): Promise<AttemptOutcome> {
    const { repo, clock, config, log } = this.deps;
    const endpoint = await repo.get(job.endpointId);
    const fields = { endpointId: job.endpointId, webhookId: job.webhookId, type: job.type, attempt };
    if (!endpoint) {
      log.info(fields, 'webhook: endpoint deleted; message dropped');
      return 'skipped';
    }
    if (!endpoint.enabled && !job.manual) {
      log.info(fields, 'webhook: endpoint disabled; message dropped');
      return 'skipped';
    }
    const now = clock.now();
    const secrets = this.secrets(endpoint, now);
    if (!secrets.length) {
      log.error(fields, `webhook: ${unreadableSealed(`the secret of endpoint ${endpoint.id}`)}; message dropped`);
      return 'skipped';
    }
    const timestamp = Math.floor(now / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'identity-webhooks/1',
      'webhook-id': job.webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, job.webhookId, timestamp, job.body),
    };
    const result = await postMessage(endpoint.url, headers, job.body, config.timeoutMs, this.deps.policy);
    const status = result.ok ? 'succeeded' : 'failed';
    await repo.insertDelivery({
      endpointId: endpoint.id,
      eventId: job.eventId,
      webhookId: job.webhookId,
      eventType: job.type,
      attempt,
      status,
      responseCode: result.status,
      durationMs: result.durationMs,
      error: result.error,
      attemptedAt: new Date(now),
    });
    this.deps.observe?.(status, result.durationMs / 1000);
    if (result.ok) {
      await repo.succeeded(endpoint.id);
      return 'succeeded';
    }
    log.warn({ ...fields, status: result.status, error: result.error }, 'webhook: delivery attempt failed');
    await this.failed(endpoint, now);
    return 'failed';
  }

  /** The current secret, and the previous one while its overlap lasts. */
  private secrets(endpoint: EndpointRow, now: number): string[] {
    const context = secretContext(endpoint.id);
    const current = this.deps.sealer.open(endpoint.secretSealed, context);
    const previous =
      endpoint.previousSecretSealed &&
      endpoint.previousSecretExpiresAt &&
      endpoint.previousSecretExpiresAt.getTime() > now
        ? this.deps.sealer.open(endpoint.previousSecretSealed, context)
        : null;
    return [current, previous].filter((s): s is string => s !== null);
  }

  private async failed(endpoint: EndpointRow, now: number): Promise<void> {
    const { repo, sql, config, audit, log } = this.deps;
    const since = await repo.failed(endpoint.id, new Date(now));
    const line = now - config.disableAfterFailingDays * DAY_MS;
    if (!since || since.getTime() > line || !endpoint.enabled) return;
    const disabled = await sql.transaction(async (tx) => {
      const row = await repo.disableFailing(tx, endpoint.id, new Date(line), new Date(now));
      if (row)
        await audit.record(tx, {
          type: 'webhook.endpoint_disabled',
          source: SYSTEM_SOURCE,
          target: { type: 'webhook_endpoint', id: row.id },
          details: { reason: 'failing', failingSince: since.toISOString(), days: config.disableAfterFailingDays },
        });
      return row;
    });
    if (disabled)
      log.error(
        { endpointId: endpoint.id, failingSince: since.toISOString() },
        'webhook: endpoint disabled after failing for days',
      );
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (docs/webhooks.md): the endpoints operators register, and the log of every delivery attempt.
 *
 * - `webhook_endpoints`: the URL, the event types wanted (exact types, or prefixes ending in a dot), whether it is
 *   enabled, and its signing secrets sealed with the service's key (`secret_sealed`; after a rotation the previous
 *   one, still used to sign until `previous_secret_expires_at`). `failing_since` is the first failed attempt since
 *   the last success: when it is older than the configured number of days the endpoint is disabled
 *   (`disabled_reason = 'failing'`).
 * - `webhook_deliveries`: one row per attempt (the event, the message id every retry shares, the attempt number,
 *   the outcome, the response status, how long it took, the error), listed newest first per endpoint and deleted
 *   after the configured retention by the expiry sweep. Deleting an endpoint deletes its log.
 */
export class Webhooks1796100000200 implements MigrationInterface {
  name = 'Webhooks1796100000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" (
        "id" uuid NOT NULL,
        "url" text NOT NULL,
        "event_types" text[] NOT NULL,
        "enabled" boolean NOT NULL DEFAULT true,
        "description" text,
        "secret_sealed" text NOT NULL,
        "previous_secret_sealed" text,
        "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE,
        "failing_since" TIMESTAMP WITH TIME ZONE,
        "disabled_reason" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_endpoints_enabled_idx" ON "webhook_endpoints" ("id") WHERE "enabled"',
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" (
        "id" uuid NOT NULL,
        "endpoint_id" uuid NOT NULL REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE,
        "event_id" uuid,
        "webhook_id" text NOT NULL,
        "event_type" text NOT NULL,
        "attempt" integer NOT NULL,
        "status" text NOT NULL,
        "response_code" integer,
        "duration_ms" integer NOT NULL,
        "error" text,
        "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "webhook_deliveries_status_known" CHECK ("status" IN ('succeeded', 'failed')),
        CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "attempted_at" DESC, "id" DESC)',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" ("endpoint_id", "event_id") WHERE "event_id" IS NOT NULL',
    );
    await queryRunner.query('CREATE INDEX "webhook_deliveries_time_idx" ON "webhook_deliveries" ("attempted_at")');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_deliveries"');
    await queryRunner.query('DROP TABLE "webhook_endpoints"');
  }
}

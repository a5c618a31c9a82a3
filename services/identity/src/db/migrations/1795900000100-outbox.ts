import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox (docs/decisions/0003-transactional-outbox.md): a row per piece of work to do once its
 * transaction has committed (a mail). The relay finds the rows it may act on through the partial index on
 * `available_at` (rows not done), and prunes done rows through the one on `done_at`; the unique key drops a second
 * row for the same work.
 *
 * A row: `topic` (which handler relays it: `mail` or `webhook`), `dedupe_key` (the work's own id, the same on every
 * hand-over: a mail's job id), `payload` (the work; a mail's links carry tokens, so it is never logged),
 * `available_at` (when a relay next looks at it: to hand it over, to ask the queue about it, or to take it over),
 * `attempts` (hand-overs tried, failed ones included), `relayed_at` and `relayed_to` (the last successful hand-over
 * and where it went: `redis:<BullMQ prefix>` or `process:<instance>`), `done_at` (when the queue reported the work
 * done; the row is deleted a retention period later), `outcome` (sent, failed: the queue gave up, or expired: no
 * queue confirmed it within the retention period) and `last_error` (why the last hand-over failed, no payload
 * content).
 */
export class Outbox1795900000100 implements MigrationInterface {
  name = 'Outbox1795900000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "outbox" ("id" uuid NOT NULL, "topic" text NOT NULL, "dedupe_key" text NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "available_at" TIMESTAMP WITH TIME ZONE NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "relayed_at" TIMESTAMP WITH TIME ZONE, "relayed_to" text, "done_at" TIMESTAMP WITH TIME ZONE, "outcome" text, "last_error" text, CONSTRAINT "outbox_outcome_known" CHECK ("outcome" IN ('sent', 'failed', 'expired')), CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "outbox_done_at_idx" ON "outbox"  ("done_at") WHERE "done_at" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "outbox_due_idx" ON "outbox"  ("available_at") WHERE "done_at" IS NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "outbox_topic_dedupe_key_key" ON "outbox"  ("topic", "dedupe_key") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "outbox"');
  }
}

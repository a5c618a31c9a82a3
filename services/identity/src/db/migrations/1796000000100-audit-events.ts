import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail (docs/audit.md): one append-only table of events, written in the transaction of
 * the change each describes.
 *
 * - Range-partitioned by month on `occurred_at` (UTC months, `audit_events_YYYY_MM`), so retention drops whole
 *   partitions (DDL) instead of deleting rows. A default partition takes any row no monthly one covers (a clock far
 *   ahead or behind): an insert never fails for want of a partition. `audit_events_add_partitions(first, months)`
 *   creates the monthly partitions of a span, moving rows of that span out of the default partition first; this
 *   migration creates the current month and the next 12, the `events:prune` command keeps 12 months ahead.
 * - Append-only: a trigger refuses UPDATE always and DELETE unless the transaction set
 *   `identity.events_prune = 'on'` (only the pruning command does, with SET LOCAL); TRUNCATE is refused too.
 * - `seq` (a sequence) orders events of the same instant in the order they were written (one transaction's events
 *   share its clock reading); `id` is the event's public name.
 * - Indexes serve list-events' filters newest first: the primary key (time, seq) for no filter or a time range, and
 *   (actor), (target), (organization), (type) each followed by (time, seq), so a filtered page reads its rows in
 *   order and stops at the page's end.
 */
export class AuditEvents1796000000100 implements MigrationInterface {
  name = 'AuditEvents1796000000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SEQUENCE "audit_events_seq" AS bigint');
    await queryRunner.query(
      `CREATE TABLE "audit_events" (
        "seq" bigint NOT NULL DEFAULT nextval('audit_events_seq'),
        "id" uuid NOT NULL,
        "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "type" text NOT NULL,
        "actor_type" text NOT NULL,
        "actor_id" text,
        "impersonator_id" uuid,
        "target_type" text,
        "target_id" text,
        "organization_id" uuid,
        "ip_address" text,
        "user_agent" text,
        "request_id" text,
        "details" jsonb NOT NULL DEFAULT '{}',
        CONSTRAINT "audit_events_actor_type_known" CHECK ("actor_type" IN ('user', 'api_key', 'service', 'system', 'anonymous')),
        CONSTRAINT "audit_events_pkey" PRIMARY KEY ("occurred_at", "seq")
      ) PARTITION BY RANGE ("occurred_at")`,
    );
    await queryRunner.query('CREATE TABLE "audit_events_default" PARTITION OF "audit_events" DEFAULT');
    await queryRunner.query(
      'CREATE INDEX "audit_events_actor_idx" ON "audit_events" ("actor_id", "occurred_at", "seq") WHERE "actor_id" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "audit_events_target_idx" ON "audit_events" ("target_id", "occurred_at", "seq") WHERE "target_id" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "audit_events_organization_idx" ON "audit_events" ("organization_id", "occurred_at", "seq") WHERE "organization_id" IS NOT NULL',
    );
    await queryRunner.query('CREATE INDEX "audit_events_type_idx" ON "audit_events" ("type", "occurred_at", "seq")');
    await queryRunner.query(`CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('identity.events_prune', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
       FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
       FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"()`,
    );
    await queryRunner.query(`CREATE FUNCTION "audit_events_add_partitions"("first" timestamptz, "months" integer)
      RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE
        month_start timestamp := date_trunc('month', "first" AT TIME ZONE 'UTC');
        from_at timestamptz;
        to_at timestamptz;
        part text;
        previous text;
        added integer := 0;
      BEGIN
        FOR i IN 0 .. "months" - 1 LOOP
          from_at := (month_start + make_interval(months => i)) AT TIME ZONE 'UTC';
          to_at := (month_start + make_interval(months => i + 1)) AT TIME ZONE 'UTC';
          part := 'audit_events_' || to_char(month_start + make_interval(months => i), 'YYYY_MM');
          CONTINUE WHEN to_regclass(quote_ident(part)) IS NOT NULL;
          IF EXISTS (SELECT 1 FROM audit_events_default WHERE occurred_at >= from_at AND occurred_at < to_at) THEN
            -- Rows of this month wait in the default partition: move them into the new one, then attach it.
            EXECUTE format('CREATE TABLE %I (LIKE audit_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
            previous := current_setting('identity.events_prune', true);
            PERFORM set_config('identity.events_prune', 'on', true);
            EXECUTE format('WITH moved AS (DELETE FROM audit_events_default WHERE occurred_at >= $1 AND occurred_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', part)
              USING from_at, to_at;
            PERFORM set_config('identity.events_prune', coalesce(previous, ''), true);
            EXECUTE format('ALTER TABLE audit_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, from_at, to_at);
          ELSE
            EXECUTE format('CREATE TABLE %I PARTITION OF audit_events FOR VALUES FROM (%L) TO (%L)', part, from_at, to_at);
          END IF;
          added := added + 1;
        END LOOP;
        RETURN added;
      END $$`);
    await queryRunner.query('SELECT "audit_events_add_partitions"(now(), 13)');
    await queryRunner.query('ALTER SEQUENCE "audit_events_seq" OWNED BY "audit_events"."seq"');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "audit_events"');
    await queryRunner.query('DROP FUNCTION "audit_events_add_partitions"(timestamptz, integer)');
    await queryRunner.query('DROP FUNCTION "audit_events_append_only"()');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SLOTS, USER_COUNTS_APPLY } from './1795300000200-user-counts';

/**
 * The trigger function of migration 1795300000200 with every write to users also counted in `changes`, writing the
 * counter slot `target` (an SQL expression): a random one per statement here, the transaction's from migration
 * 1795700000100 on (which puts this one back on revert).
 */
export const countAndChanges = (
  target: string,
) => `CREATE OR REPLACE FUNCTION "user_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE delta bigint := 0; touched bigint; target smallint := ${target};
  BEGIN
    IF TG_OP = 'TRUNCATE' THEN
      UPDATE "user_counts" SET "n" = 0, "changes" = "changes" + 1;
      RETURN NULL;
    ELSIF TG_OP = 'INSERT' THEN
      SELECT count(*) INTO touched FROM added;
      delta := touched;
    ELSIF TG_OP = 'UPDATE' THEN
      SELECT count(*) INTO touched FROM added;
    ELSE
      SELECT count(*) INTO touched FROM removed;
      delta := -touched;
    END IF;
    IF touched <> 0 THEN
      UPDATE "user_counts" SET "n" = "n" + delta, "changes" = "changes" + 1 WHERE "slot" = target;
    END IF;
    RETURN NULL;
  END $$`;

export const COUNT_AND_CHANGES = countAndChanges(`floor(random() * ${SLOTS})`);

/**
 * A change stamp for users (admin list-users reuses a search's exact total while no user changed).
 * `sum(changes)` over the counter's slots grows by at least one in every transaction that inserts, updates,
 * deletes or truncates users, inside that transaction, so two statements that read the same sum saw the same
 * users. The same statement-level triggers keep it (one more: AFTER UPDATE); an UPDATE of no row changes nothing.
 * Writes that skip triggers (session_replication_role = replica) skip it too: README, Operations.
 */
export class UserChanges1795600000100 implements MigrationInterface {
  name = 'UserChanges1795600000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "user_counts" ADD "changes" bigint NOT NULL DEFAULT 0');
    await queryRunner.query(COUNT_AND_CHANGES);
    await queryRunner.query(
      `CREATE TRIGGER "users_count_update" AFTER UPDATE ON "users" REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "user_counts_apply"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER "users_count_update" ON "users"');
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION "user_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$${USER_COUNTS_APPLY}$$`,
    );
    await queryRunner.query('ALTER TABLE "user_counts" DROP COLUMN "changes"');
  }
}

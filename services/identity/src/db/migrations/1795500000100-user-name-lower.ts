import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * admin list-users: a search is case-insensitive. On a UTF-8 database `name ILIKE p` lowers both sides
 * on every row it checks (PostgreSQL's ILIKE is `lower(name) LIKE lower(p)` there), and that per-row `lower` was
 * half the cost of a broad search (10,000 of 200,000 names: 11.3 ms → 6.1 ms as `name_lower LIKE`, pgbench).
 * `name_lower` holds `lower(name)` once, kept by PostgreSQL itself, and the trigram index moves to it. Emails are
 * already stored lowercase (CHECK users_email_lowercase), so `email LIKE lower(p)` needs no such column.
 * Adding a stored generated column rewrites the table and its indexes under an exclusive lock: 2.4 s, then 0.5 s
 * for the new index, with 200,000 users on a 2-core machine (README, Operations).
 * (It once also recorded the column in TypeORM's `typeorm_metadata` table, for entities that no longer exist:
 * docs/decisions/0015-schema-source.md; migration 1796200000100 drops that table where it remains.)
 */
export class UserNameLower1795500000100 implements MigrationInterface {
  name = 'UserNameLower1795500000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "users" ADD "name_lower" text GENERATED ALWAYS AS (lower("name")) STORED NOT NULL',
    );
    await queryRunner.query('DROP INDEX "public"."users_name_trgm_idx"');
    await queryRunner.query(
      'CREATE INDEX "users_name_lower_trgm_idx" ON "users" USING gin ("name_lower" gin_trgm_ops)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."users_name_lower_trgm_idx"');
    await queryRunner.query('CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops)');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "name_lower"');
  }
}

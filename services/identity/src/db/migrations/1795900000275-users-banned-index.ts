import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bans in force are counted (the console's dashboard) and listed without reading every user: a partial index of the
 * banned users by when their ban ends (most users are never banned, so it stays small).
 */
export class UsersBannedIndex1795900000275 implements MigrationInterface {
  name = 'UsersBannedIndex1795900000275';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "users_banned_idx" ON "users" ("ban_expires") WHERE "banned"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."users_banned_idx"`);
  }
}

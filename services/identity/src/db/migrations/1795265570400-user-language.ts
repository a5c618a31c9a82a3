import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users.language`: the user's language, one of the spec §1 enumeration (by name); null lets the request's
 * Accept-Language, then ENG, decide the language of mail.
 */
export class UserLanguage1795265570400 implements MigrationInterface {
  name = 'UserLanguage1795265570400';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "language" text`);
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_language_known" CHECK ("language" IN ('RUS', 'UKR', 'ENG', 'SPA', 'GERMAN', 'POL', 'FRA', 'TURKEY'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_language_known"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "language"`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A second factor (docs/two-factor.md): TOTP and backup codes, the pending sign-ins waiting for one, and the
 * devices a user chose to trust.
 *
 * - `users.two_factor_enabled`: read with the user row the password sign-in loads anyway, so a sign-in without a
 *   second factor costs no extra statement.
 * - `two_factors`: one row per user who started enrolling: the TOTP secret sealed with the service's key
 *   (`secret_sealed`), whether a first code confirmed it (`verified`), the backup codes as keyed hashes (each
 *   removed when used), the last time step a code was accepted for (a code is accepted once), and the failure
 *   count and lock of the account-wide lockout.
 * - `two_factor_challenges`: a sign-in that passed the password and waits for the second factor; its id is in a
 *   signed cookie; it expires after minutes and counts its attempts.
 * - `two_factor_trusted_devices`: a device that skips the second factor until `expires_at`; its id is in a signed
 *   cookie.
 */
export class TwoFactor1796100000300 implements MigrationInterface {
  name = 'TwoFactor1796100000300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "two_factor_enabled" boolean NOT NULL DEFAULT false');
    await queryRunner.query(
      `CREATE TABLE "two_factors" (
        "user_id" uuid NOT NULL,
        "secret_sealed" text NOT NULL,
        "verified" boolean NOT NULL DEFAULT false,
        "backup_codes" text[] NOT NULL,
        "last_used_step" bigint,
        "failed_count" integer NOT NULL DEFAULT 0,
        "locked_until" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "two_factors_pkey" PRIMARY KEY ("user_id"),
        CONSTRAINT "two_factors_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE "two_factor_challenges" (
        "id" text NOT NULL,
        "user_id" uuid NOT NULL,
        "remember_me" boolean NOT NULL,
        "attempts" integer NOT NULL DEFAULT 0,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "two_factor_challenges_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "two_factor_challenges_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )`,
    );
    await queryRunner.query('CREATE INDEX "two_factor_challenges_user_id_idx" ON "two_factor_challenges" ("user_id")');
    await queryRunner.query(
      'CREATE INDEX "two_factor_challenges_expires_at_idx" ON "two_factor_challenges" ("expires_at")',
    );
    await queryRunner.query(
      `CREATE TABLE "two_factor_trusted_devices" (
        "id" text NOT NULL,
        "user_id" uuid NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "two_factor_trusted_devices_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "two_factor_trusted_devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "two_factor_trusted_devices_user_id_idx" ON "two_factor_trusted_devices" ("user_id")',
    );
    await queryRunner.query(
      'CREATE INDEX "two_factor_trusted_devices_expires_at_idx" ON "two_factor_trusted_devices" ("expires_at")',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "two_factor_trusted_devices"');
    await queryRunner.query('DROP TABLE "two_factor_challenges"');
    await queryRunner.query('DROP TABLE "two_factors"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "two_factor_enabled"');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How a session was made (docs/sessions.md "How a session was made"): `sign_in_method`, the method of the sign-in
 * that made it as the `user.signed_in` event names it (`email`, `social:github`, `passkey`, `magic-link`,
 * `email-otp`, …) or `impersonation`, and `second_factor`, what completed a sign-in that asked for one (`totp`,
 * `backup-code`, `trusted-device`). Both are written by the session's INSERT. Sessions made before this migration
 * keep NULL in both: unknown. Nullable without a default: no table rewrite.
 */
export class SessionSignInMethod1796400000100 implements MigrationInterface {
  name = 'SessionSignInMethod1796400000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "sessions" ADD COLUMN "sign_in_method" text, ADD COLUMN "second_factor" text');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "sessions" DROP COLUMN "second_factor", DROP COLUMN "sign_in_method"');
  }
}

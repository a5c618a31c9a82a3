import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pending sign-in (`two_factor_challenges`) remembers how its first step was made (`method`: `email`,
 * `social:github`, `email-verification`, …), so the `user.signed_in` event of its second step names the method
 * the person actually used. Rows written before this migration were all password sign-ins' or providers'; they
 * read as `email`, which is what the event said of them. A constant default: no table rewrite on PostgreSQL 11+.
 */
export class PendingSignInMethod1796300000100 implements MigrationInterface {
  name = 'PendingSignInMethod1796300000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "two_factor_challenges" ADD COLUMN "method" text NOT NULL DEFAULT 'email'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "two_factor_challenges" DROP COLUMN "method"');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An organization's second-factor policy (docs/two-factor.md "Policies"): `require_two_factor` on, its members
 * without a second factor cannot make it their active organization. Off for every existing organization.
 */
export class OrganizationTwoFactor1796100000400 implements MigrationInterface {
  name = 'OrganizationTwoFactor1796100000400';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "organizations" ADD "require_two_factor" boolean NOT NULL DEFAULT false');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "organizations" DROP COLUMN "require_two_factor"');
  }
}

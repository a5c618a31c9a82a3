import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * spec §3 Member has an optional teamId, and spec §4: accepting an invitation "creates a membership with the invited
 * role and teamId". The team is stored on the member row (rather than derived from team_members, where a member may
 * hold several places): it is the team the membership was made with, read with the row at no extra cost, and null
 * for a membership made without one. Deleting the team clears it (SET NULL; the index serves that lookup).
 * Existing members keep null: which of their team places they joined with was never recorded.
 */
export class MemberTeam1795800000410 implements MigrationInterface {
  name = 'MemberTeam1795800000410';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "members" ADD "team_id" uuid`);
    await queryRunner.query(`CREATE INDEX "members_team_id_idx" ON "members"  ("team_id") `);
    await queryRunner.query(
      `ALTER TABLE "members" ADD CONSTRAINT "FK_eee0b30f2ccac9355b8c28f7391" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "members" DROP CONSTRAINT "FK_eee0b30f2ccac9355b8c28f7391"`);
    await queryRunner.query(`DROP INDEX "public"."members_team_id_idx"`);
    await queryRunner.query(`ALTER TABLE "members" DROP COLUMN "team_id"`);
  }
}

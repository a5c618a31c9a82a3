import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `invitations.accepted_by`: the user who accepted an invitation, kept while they are a member (cleared when the
 * membership ends; SET NULL when the user is deleted). It tells an accepted invitation whose membership is missing
 * (a partial state, reported by `cli check`) from one whose member has left since. Existing accepted invitations get
 * the member who holds them today, matched by email; one whose invitee is no member stays null (left, or unknown).
 */
export class InvitationAcceptedBy1795900000270 implements MigrationInterface {
  name = 'InvitationAcceptedBy1795900000270';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invitations" ADD "accepted_by" uuid`);
    await queryRunner.query(
      `CREATE INDEX "invitations_accepted_by_idx" ON "invitations"  ("accepted_by") WHERE "accepted_by" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "invitations" ADD CONSTRAINT "FK_fdcaac54a139fa30a51ce246f98" FOREIGN KEY ("accepted_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `UPDATE "invitations" i SET "accepted_by" = m."user_id"
       FROM "members" m JOIN "users" u ON u."id" = m."user_id"
       WHERE i."status" = 'accepted' AND m."organization_id" = i."organization_id" AND u."email" = i."email"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "FK_fdcaac54a139fa30a51ce246f98"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_accepted_by_idx"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP COLUMN "accepted_by"`);
  }
}

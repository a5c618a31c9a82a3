import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organizations (docs/SPEC.md §3, §5):
 *
 * - `organizations`: `slug` unique (spec §5: "Organization already exists" / "slug is taken"); `metadata` is an
 *   object stored as JSON text.
 * - `members`: one row per (organization, user); `role` may hold several comma-separated roles.
 * - `teams`, and `team_members`: a user's place in a team (better-auth's teamMember), at most one row per pair.
 * - `invitations`: emails stored lowercase (CHECK), so the partial unique index on (organization_id, email) allows
 *   one pending invitation per organization and case-insensitive address.
 */
export class Organizations1795300000000 implements MigrationInterface {
  name = 'Organizations1795300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "organizations" ("id" uuid NOT NULL, "name" text NOT NULL, "slug" text NOT NULL, "logo" text, "metadata" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "organizations_slug_key" ON "organizations"  ("slug") `);
    await queryRunner.query(
      `CREATE TABLE "teams" ("id" uuid NOT NULL, "name" text NOT NULL, "organization_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_7e5523774a38b08a6236d322403" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "teams_organization_id_idx" ON "teams"  ("organization_id") `);
    await queryRunner.query(
      `CREATE TABLE "invitations" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "email" text NOT NULL, "role" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "team_id" uuid, "inviter_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "invitations_status_known" CHECK ("status" IN ('pending', 'accepted', 'rejected', 'canceled')), CONSTRAINT "invitations_email_lowercase" CHECK ("email" = lower("email")), CONSTRAINT "PK_5dec98cfdfd562e4ad3648bbb07" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "invitations_organization_id_idx" ON "invitations"  ("organization_id") `);
    await queryRunner.query(`CREATE INDEX "invitations_email_idx" ON "invitations"  ("email") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "invitations_pending_email_key" ON "invitations"  ("organization_id", "email") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE TABLE "members" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_28b53062261b996d9c99fa12404" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "members_user_id_idx" ON "members"  ("user_id") `);
    await queryRunner.query(
      `CREATE INDEX "members_organization_created_idx" ON "members"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "members_organization_user_key" ON "members"  ("organization_id", "user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "team_members" ("id" uuid NOT NULL, "team_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ca3eae89dcf20c9fd95bf7460aa" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "team_members_user_id_idx" ON "team_members"  ("user_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "team_members_team_user_key" ON "team_members"  ("team_id", "user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "teams" ADD CONSTRAINT "FK_fdc736f761896ccc179c823a785" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invitations" ADD CONSTRAINT "FK_42d1dbb4d85dc3643fdc6560af0" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invitations" ADD CONSTRAINT "FK_67a78e8571040a0deb60ee6c319" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invitations" ADD CONSTRAINT "FK_9752bd6630e9c8a1e1b046b43e7" FOREIGN KEY ("inviter_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "members" ADD CONSTRAINT "FK_40c051286e8db5b4613ecb3035a" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "members" ADD CONSTRAINT "FK_da404b5fd9c390e25338996e2d1" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_c2bf4967c8c2a6b845dadfbf3d4"`);
    await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "FK_fdad7d5768277e60c40e01cdcea"`);
    await queryRunner.query(`ALTER TABLE "members" DROP CONSTRAINT "FK_da404b5fd9c390e25338996e2d1"`);
    await queryRunner.query(`ALTER TABLE "members" DROP CONSTRAINT "FK_40c051286e8db5b4613ecb3035a"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "FK_9752bd6630e9c8a1e1b046b43e7"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "FK_67a78e8571040a0deb60ee6c319"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "FK_42d1dbb4d85dc3643fdc6560af0"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP CONSTRAINT "FK_fdc736f761896ccc179c823a785"`);
    await queryRunner.query(`DROP INDEX "public"."team_members_team_user_key"`);
    await queryRunner.query(`DROP INDEX "public"."team_members_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP INDEX "public"."members_organization_user_key"`);
    await queryRunner.query(`DROP INDEX "public"."members_organization_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."members_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "members"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_pending_email_key"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_email_idx"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_organization_id_idx"`);
    await queryRunner.query(`DROP TABLE "invitations"`);
    await queryRunner.query(`DROP INDEX "public"."teams_organization_id_idx"`);
    await queryRunner.query(`DROP TABLE "teams"`);
    await queryRunner.query(`DROP INDEX "public"."organizations_slug_key"`);
    await queryRunner.query(`DROP TABLE "organizations"`);
  }
}

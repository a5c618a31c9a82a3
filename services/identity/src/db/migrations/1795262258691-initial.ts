import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The accounts of docs/SPEC.md §3 (later migrations add to them; src/db/schema.snapshot.txt shows where they ended):
 *
 * - `users`: spec §3 User. `email` is stored lowercase (CHECK users_email_lowercase) and unique; `role`, `banned`,
 *   `ban_reason` and `ban_expires` are never set from normal input.
 * - `accounts`: spec §3 Account, one per provider login (unique provider_id, account_id). `scope` is comma-separated
 *   (spec §3); `password` is an argon2id PHC string, set on the `credential` account only.
 * - `sessions`: spec §3 Session. `token` is the opaque bearer secret (unique); rows are deleted on expiry, sign-out
 *   and revocation. `remember_me` false: a browser-session cookie and the shorter server-side lifetime (spec §4).
 *   `impersonated_by` is the admin's user id for an impersonation session (admin), `active_organization_id` the
 *   session's active organization (organizations).
 * - `verifications`: spec §3 Verification values: OAuth state, `reset-password:{token}`, `delete-account-{token}`.
 */
export class Initial1795262258691 implements MigrationInterface {
  name = 'Initial1795262258691';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL, "email" text NOT NULL, "email_verified" boolean NOT NULL DEFAULT false, "name" text NOT NULL, "image" text, "role" text NOT NULL DEFAULT 'user', "banned" boolean NOT NULL DEFAULT false, "ban_reason" text, "ban_expires" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "users_email_lowercase" CHECK ("email" = lower("email")), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "users"  ("email") `);
    await queryRunner.query(
      `CREATE TABLE "accounts" ("id" uuid NOT NULL, "provider_id" text NOT NULL, "account_id" text NOT NULL, "user_id" uuid NOT NULL, "access_token" text, "refresh_token" text, "id_token" text, "access_token_expires_at" TIMESTAMP WITH TIME ZONE, "refresh_token_expires_at" TIMESTAMP WITH TIME ZONE, "scope" text, "password" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5a7a02c20412299d198e097a8fe" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "accounts_user_id_idx" ON "accounts"  ("user_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "accounts_provider_account_key" ON "accounts"  ("provider_id", "account_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sessions" ("id" uuid NOT NULL, "token" text NOT NULL, "user_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "remember_me" boolean NOT NULL DEFAULT true, "ip_address" text, "user_agent" text, "impersonated_by" uuid, "active_organization_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "sessions_token_key" ON "sessions"  ("token") `);
    await queryRunner.query(`CREATE INDEX "sessions_user_id_idx" ON "sessions"  ("user_id") `);
    await queryRunner.query(`CREATE INDEX "sessions_expires_at_idx" ON "sessions"  ("expires_at") `);
    await queryRunner.query(
      `CREATE TABLE "verifications" ("id" uuid NOT NULL, "identifier" text NOT NULL, "value" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2127ad1b143cf012280390b01d1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "verifications_identifier_key" ON "verifications"  ("identifier") `);
    await queryRunner.query(`CREATE INDEX "verifications_expires_at_idx" ON "verifications"  ("expires_at") `);
    await queryRunner.query(
      `ALTER TABLE "accounts" ADD CONSTRAINT "FK_3000dad1da61b29953f07476324" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19"`);
    await queryRunner.query(`ALTER TABLE "accounts" DROP CONSTRAINT "FK_3000dad1da61b29953f07476324"`);
    await queryRunner.query(`DROP INDEX "public"."verifications_expires_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."verifications_identifier_key"`);
    await queryRunner.query(`DROP TABLE "verifications"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_expires_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_user_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_token_key"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
    await queryRunner.query(`DROP INDEX "public"."accounts_provider_account_key"`);
    await queryRunner.query(`DROP INDEX "public"."accounts_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "accounts"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_key"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}

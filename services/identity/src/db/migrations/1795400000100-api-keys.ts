import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys (better-auth's api-key fields). A key belongs to exactly one owner, a user or an organization (CHECK
 * api_keys_one_owner). Only a SHA-256 of the key is stored (`key_hash`: a key is high-entropy random, not a
 * password), with its first characters (`start`) for display. Durations are milliseconds, as in better-auth;
 * `permissions` is a JSON object (resource → actions) and `metadata` a JSON object, both as text.
 */
export class ApiKeys1795400000100 implements MigrationInterface {
  name = 'ApiKeys1795400000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL, "name" text, "start" text, "prefix" text, "key_hash" text NOT NULL, "user_id" uuid, "organization_id" uuid, "refill_interval" integer, "refill_amount" integer, "last_refill_at" TIMESTAMP WITH TIME ZONE, "enabled" boolean NOT NULL DEFAULT true, "rate_limit_enabled" boolean NOT NULL DEFAULT true, "rate_limit_time_window" integer, "rate_limit_max" integer, "request_count" integer NOT NULL DEFAULT '0', "remaining" integer, "last_request" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "permissions" text, "metadata" text, CONSTRAINT "api_keys_one_owner" CHECK (num_nonnulls("user_id", "organization_id") = 1), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"  ("key_hash") `);
    await queryRunner.query(`CREATE INDEX "api_keys_user_id_idx" ON "api_keys"  ("user_id") `);
    await queryRunner.query(`CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"  ("organization_id") `);
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_a283bdef18876e525aefaec042f" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_a283bdef18876e525aefaec042f"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_organization_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_user_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_key_hash_key"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}

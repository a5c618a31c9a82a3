import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OpenID provider's durable records (docs/oidc-provider.md, "Storage"): what outlives a browser visit, a
 * user's grant to a client and the refresh tokens that stand on it. The short-lived ones (sessions, interactions,
 * authorization codes, access tokens) live in the key-value store.
 *
 * - `model` is the library's model name (`Grant`, `RefreshToken`) and `id` its identifier; `payload` the record as
 *   the library stores it, as JSON text (never queried inside; text keeps any character a request carried).
 * - `grant_id` (a refresh token's grant; a grant's own id) lets a revocation remove everything of a grant in one
 *   statement; `user_id` (the record's account) makes a deleted user's grants and tokens go with the user.
 * - `consumed_at` marks a rotated refresh token (set once, by the statement that checks it was not set), so a
 *   second use is seen as a replay; `expires_at` is when the record stops counting (rows past it are swept).
 */
export class OidcProvider1796500000100 implements MigrationInterface {
  name = 'OidcProvider1796500000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oidc_records" (
        "model" text NOT NULL,
        "id" text NOT NULL,
        "payload" text NOT NULL,
        "grant_id" text,
        "user_id" uuid,
        "expires_at" TIMESTAMP WITH TIME ZONE,
        "consumed_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "oidc_records_pkey" PRIMARY KEY ("model", "id"),
        CONSTRAINT "oidc_records_model_check" CHECK ("model" IN ('Grant', 'RefreshToken')),
        CONSTRAINT "oidc_records_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )`,
    );
    await queryRunner.query('CREATE INDEX "oidc_records_grant_id_idx" ON "oidc_records" ("grant_id")');
    await queryRunner.query('CREATE INDEX "oidc_records_user_id_idx" ON "oidc_records" ("user_id")');
    await queryRunner.query('CREATE INDEX "oidc_records_expires_at_idx" ON "oidc_records" ("expires_at")');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "oidc_records"');
  }
}

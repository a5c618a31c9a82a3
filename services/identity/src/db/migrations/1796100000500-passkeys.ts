import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys (docs/two-factor.md "Passkeys"): WebAuthn credentials a user signs in with, and the challenges of the
 * ceremonies in progress.
 *
 * - `users.passkey_count`: how many passkeys the user has, changed in the transaction that adds or removes one. Read
 *   with the user row every session lookup loads anyway, so the second-factor policies count a passkey without
 *   another statement.
 * - `passkeys`: one row per credential: its id as the authenticator names it (`credential_id`, unique: a sign-in
 *   looks it up), the COSE public key (base64, as better-auth stores it), the signature counter, the device type and
 *   backup state, the transports and the authenticator model (`aaguid`), and the name the user gave it.
 * - `passkey_challenges`: a registration or sign-in started and not finished; its id is in a signed cookie, it
 *   expires after minutes, and verifying consumes it (one DELETE), so a challenge is used once.
 */
export class Passkeys1796100000500 implements MigrationInterface {
  name = 'Passkeys1796100000500';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "passkey_count" integer NOT NULL DEFAULT 0');
    await queryRunner.query(
      `CREATE TABLE "passkeys" (
        "id" uuid NOT NULL,
        "user_id" uuid NOT NULL,
        "name" text,
        "credential_id" text NOT NULL,
        "public_key" text NOT NULL,
        "counter" bigint NOT NULL DEFAULT 0,
        "device_type" text NOT NULL,
        "backed_up" boolean NOT NULL,
        "transports" text NOT NULL DEFAULT '',
        "aaguid" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "passkeys_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "passkeys_credential_id_key" UNIQUE ("credential_id"),
        CONSTRAINT "passkeys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )`,
    );
    await queryRunner.query('CREATE INDEX "passkeys_user_id_idx" ON "passkeys" ("user_id", "created_at")');
    await queryRunner.query(
      `CREATE TABLE "passkey_challenges" (
        "id" text NOT NULL,
        "ceremony" text NOT NULL,
        "challenge" text NOT NULL,
        "user_id" uuid,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "passkey_challenges_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "passkey_challenges_ceremony_check" CHECK ("ceremony" IN ('registration', 'authentication')),
        CONSTRAINT "passkey_challenges_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )`,
    );
    await queryRunner.query('CREATE INDEX "passkey_challenges_user_id_idx" ON "passkey_challenges" ("user_id")');
    await queryRunner.query('CREATE INDEX "passkey_challenges_expires_at_idx" ON "passkey_challenges" ("expires_at")');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "passkey_challenges"');
    await queryRunner.query('DROP TABLE "passkeys"');
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "passkey_count"');
  }
}

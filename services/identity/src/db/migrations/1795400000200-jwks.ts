import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * the key-pair record (spec §3) for signed session tokens. Never more than a handful of rows (the
 * active key and retired keys until their tokens expire): no index beyond the primary key.
 * `id` is the JWT `kid`; `public_key` the public JWK as JSON text; `private_key` the private JWK sealed under
 * AUTH_SECRET (src/crypto/sealed.ts); `alg` EdDSA, ES256 or RS256.
 * The active key is the one whose `retired_at` is null; a retired key stays published in `/jwks` until every token
 * it signed has expired, then its row is deleted.
 */
export class Jwks1795400000200 implements MigrationInterface {
  name = 'Jwks1795400000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "jwks" ("id" uuid NOT NULL, "public_key" text NOT NULL, "private_key" text NOT NULL, "alg" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "retired_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_147086b49bf8366682d1a7ca7c1" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "jwks"');
  }
}

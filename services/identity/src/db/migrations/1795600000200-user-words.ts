import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The body of the trigger function (migration 1795700000100 puts it back on revert). */
export const USER_WORDS_APPLY = `
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM "user_words";
          RETURN NULL;
        END IF;
        IF TG_OP = 'DELETE' THEN
          DELETE FROM "user_words" uw USING removed r, "user_words_of"(r.email, r.name) w
          WHERE uw.field = w.field AND uw.word = w.word AND uw.user_id = r.id;
          RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' THEN
          -- only the rows whose email or name changed: old words out, new words in
          DELETE FROM "user_words" uw
          USING (SELECT id, email, name FROM removed EXCEPT SELECT id, email, name FROM added) o,
                "user_words_of"(o.email, o.name) w
          WHERE uw.field = w.field AND uw.word = w.word AND uw.user_id = o.id;
          WITH w AS (
            SELECT w.field, w.word, n.id
            FROM (SELECT id, email, name FROM added EXCEPT SELECT id, email, name FROM removed) n,
                 "user_words_of"(n.email, n.name) w
          ), held AS (INSERT INTO "user_words" ("field", "word", "user_id") SELECT * FROM w ON CONFLICT DO NOTHING)
          INSERT INTO "search_words" ("field", "word") SELECT DISTINCT field, word FROM w ON CONFLICT DO NOTHING;
          RETURN NULL;
        END IF;
        -- INSERT: each new row's words, split once for both tables
        WITH w AS (SELECT w.field, w.word, a.id FROM added a, "user_words_of"(a.email, a.name) w),
             held AS (INSERT INTO "user_words" ("field", "word", "user_id") SELECT * FROM w ON CONFLICT DO NOTHING)
        INSERT INTO "search_words" ("field", "word") SELECT DISTINCT field, word FROM w ON CONFLICT DO NOTHING;
        RETURN NULL;
      END `;

/**
 * Each user's words (admin list-users counts a one-word search without reading every matching user).
 * A word is a run of letters and digits (`[[:alnum:]]` by the database's own character classes) of the email
 * (stored lowercase) or of lower(name): "Olivia Smith 12" has olivia, smith and 12. A search text made only of such
 * characters can only occur inside one word, so the users whose email or name contains it are exactly the users
 * with a word containing it: `search_words` (every word ever seen, trigram-indexed) finds those words and the
 * primary key of `user_words` counts their users from the index alone. Field 0 is the email, 1 the name.
 * Statement-level triggers keep both in the transaction that writes users; words nobody holds any more stay in
 * `search_words` (they match no user). Filling them for the users present runs while writes to users wait (SHARE
 * lock; 8.8 s for 200,000 users here): README, Operations. Each users write costs 0.1–0.3 ms more (a one-row
 * insert: 0.8–1.0 ms against 0.7 ms), and the words take about 1.8 times the space of the users table and its indexes.
 */
export class UserWords1795600000200 implements MigrationInterface {
  name = 'UserWords1795600000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_words" ("field" smallint NOT NULL, "word" text NOT NULL, "user_id" uuid NOT NULL)`,
    );
    await queryRunner.query(`CREATE TABLE "search_words" ("field" smallint NOT NULL, "word" text NOT NULL)`);
    await queryRunner.query(`CREATE FUNCTION "user_words_of"(email text, name text)
      RETURNS TABLE ("field" smallint, "word" text) LANGUAGE sql IMMUTABLE AS $$
        SELECT DISTINCT f.field, w.word
        FROM (VALUES (0::smallint, email), (1::smallint, lower(name))) f (field, value),
             regexp_split_to_table(f.value, '[^[:alnum:]]+') w (word)
        WHERE w.word <> '' $$`);
    await queryRunner.query(
      `CREATE FUNCTION "user_words_apply"() RETURNS trigger LANGUAGE plpgsql AS $$${USER_WORDS_APPLY}$$`,
    );
    await queryRunner.query('LOCK TABLE "users" IN SHARE MODE');
    await queryRunner.query(
      `INSERT INTO "user_words" ("field", "word", "user_id") SELECT w.field, w.word, u.id FROM "users" u, "user_words_of"(u.email, u.name) w`,
    );
    await queryRunner.query(
      `INSERT INTO "search_words" ("field", "word") SELECT DISTINCT "field", "word" FROM "user_words"`,
    );
    // The keys are built after the rows are in (one sort each, not one index insertion per row: with 200,000 users
    // the migration took 8.8 s instead of 14.8 s, on this 2-core machine).
    await queryRunner.query(
      'ALTER TABLE "user_words" ADD CONSTRAINT "PK_user_words" PRIMARY KEY ("field", "word", "user_id")',
    );
    await queryRunner.query(
      'ALTER TABLE "search_words" ADD CONSTRAINT "PK_search_words" PRIMARY KEY ("field", "word")',
    );
    // One per field, so that a search reads only its field's words (a field condition beside one index made the
    // planner AND in the primary key's 200,000 entries of that field: 15 ms).
    for (const [field, name] of [
      [0, 'email'],
      [1, 'name'],
    ])
      await queryRunner.query(
        `CREATE INDEX "search_words_${name}_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WHERE "field" = ${field}`,
      );
    for (const [name, event, transition] of [
      ['users_words_insert', 'INSERT', 'NEW TABLE AS added'],
      ['users_words_update', 'UPDATE', 'OLD TABLE AS removed NEW TABLE AS added'],
      ['users_words_delete', 'DELETE', 'OLD TABLE AS removed'],
    ])
      await queryRunner.query(
        `CREATE TRIGGER "${name}" AFTER ${event} ON "users" REFERENCING ${transition} FOR EACH STATEMENT EXECUTE FUNCTION "user_words_apply"()`,
      );
    await queryRunner.query(
      `CREATE TRIGGER "users_words_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "user_words_apply"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['users_words_truncate', 'users_words_delete', 'users_words_update', 'users_words_insert'])
      await queryRunner.query(`DROP TRIGGER "${name}" ON "users"`);
    await queryRunner.query('DROP FUNCTION "user_words_apply"()');
    await queryRunner.query('DROP FUNCTION "user_words_of"(text, text)');
    await queryRunner.query('DROP TABLE "search_words"');
    await queryRunner.query('DROP TABLE "user_words"');
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SLOTS } from './1795300000200-user-counts';
import { COUNT_AND_CHANGES, countAndChanges } from './1795600000100-user-changes';
import { USER_WORDS_APPLY } from './1795600000200-user-words';

/**
 * The counter slot a transaction writes: the same one for all its statements and in both trigger functions (the
 * top-level transaction id, round robin over the slots).
 */
const TARGET = `(pg_current_xact_id()::text::bigint % ${SLOTS})::smallint`;

/**
 * Adds each statement's words to `user_words` and their number of users to `search_words`, from the rows the
 * statement actually inserted and deleted there (RETURNING), so that per word the sum of `n` over its slots is
 * always its number of `user_words` entries. An UPDATE touches only the words that changed (a rename from
 * "Ann Lee" to "Ann Low" removes lee and adds low; ann stays).
 */
const WORDS_APPLY = `
      DECLARE target smallint := ${TARGET};
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM "user_words";
          DELETE FROM "search_words";
          RETURN NULL;
        END IF;
        IF TG_OP = 'DELETE' THEN
          WITH gone AS (
            DELETE FROM "user_words" uw USING removed r, "user_words_of"(r.email, r.name) w
            WHERE uw.field = w.field AND uw.word = w.word AND uw.user_id = r.id
            RETURNING uw.field, uw.word, -1 AS d)
          INSERT INTO "search_words" AS sw ("field", "word", "slot", "n")
          SELECT field, word, target, sum(d) FROM gone GROUP BY field, word ORDER BY field, word
          ON CONFLICT ("field", "word", "slot") DO UPDATE SET "n" = sw."n" + excluded."n";
          RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' THEN
          -- only the rows whose email or name changed, and of those only the words they lost or gained
          WITH o AS (
            SELECT w.field, w.word, r.id
            FROM (SELECT id, email, name FROM removed EXCEPT SELECT id, email, name FROM added) r,
                 "user_words_of"(r.email, r.name) w
          ), a AS (
            SELECT w.field, w.word, r.id
            FROM (SELECT id, email, name FROM added EXCEPT SELECT id, email, name FROM removed) r,
                 "user_words_of"(r.email, r.name) w
          ), lost AS (SELECT * FROM o EXCEPT SELECT * FROM a),
          gained AS (SELECT * FROM a EXCEPT SELECT * FROM o),
          gone AS (
            DELETE FROM "user_words" uw USING lost l
            WHERE uw.field = l.field AND uw.word = l.word AND uw.user_id = l.id
            RETURNING uw.field, uw.word, -1 AS d),
          held AS (
            INSERT INTO "user_words" ("field", "word", "user_id") SELECT * FROM gained ON CONFLICT DO NOTHING
            RETURNING "field", "word", 1 AS d)
          INSERT INTO "search_words" AS sw ("field", "word", "slot", "n")
          SELECT field, word, target, sum(d) FROM (SELECT * FROM gone UNION ALL SELECT * FROM held) c
          GROUP BY field, word HAVING sum(d) <> 0 ORDER BY field, word
          ON CONFLICT ("field", "word", "slot") DO UPDATE SET "n" = sw."n" + excluded."n";
          RETURN NULL;
        END IF;
        -- INSERT: each new row's words, split once
        WITH held AS (
          INSERT INTO "user_words" ("field", "word", "user_id")
          SELECT w.field, w.word, a.id FROM added a, "user_words_of"(a.email, a.name) w ON CONFLICT DO NOTHING
          RETURNING "field", "word")
        INSERT INTO "search_words" AS sw ("field", "word", "slot", "n")
        SELECT field, word, target, count(*) FROM held GROUP BY field, word ORDER BY field, word
        ON CONFLICT ("field", "word", "slot") DO UPDATE SET "n" = sw."n" + excluded."n";
        RETURN NULL;
      END `;

/** The two partial trigram indexes of `search_words` (one per field), as migration 1795600000200 made them. */
async function wordIndexes(queryRunner: QueryRunner): Promise<void> {
  for (const [field, name] of [
    [0, 'email'],
    [1, 'name'],
  ])
    await queryRunner.query(
      `CREATE INDEX "search_words_${name}_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WHERE "field" = ${field}`,
    );
}

/**
 * Each word's number of users, kept beside the word (admin list-users answered the total of a one-word
 * search by reading its users' entries in `user_words`: 10,000 entries for "olivia", every user for "example").
 * `search_words` gets `n`, split over the counter's slots like `user_counts` (primary key (field, word, slot)): the
 * triggers add to the slot of their transaction, so concurrent sign-ups holding a common word ("gmail") update
 * different rows. A word's count is sum(n) over its slots; a word nobody holds any more sums to 0.
 *
 * One slot per transaction, for both functions: `user_counts_apply` (trigger users_count_*) fires before
 * `user_words_apply` (users_words_*; same event, triggers fire in name order), so a transaction takes its counter row
 * before any word row of that slot, and two transactions of the same slot queue on the counter row instead of
 * locking word rows in turn: no deadlock between writers of users. (Before, each statement drew its own random slot,
 * so two transactions of several statements could take two counter rows in opposite orders.)
 *
 * The table is rebuilt from `user_words` while writes to users wait (SHARE lock), keys and indexes after the fill.
 * Fill factor 90: a common word's rows are updated in place (HOT) at each sign-up.
 */
export class WordCounts1795700000100 implements MigrationInterface {
  name = 'WordCounts1795700000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('LOCK TABLE "users" IN SHARE MODE');
    await queryRunner.query(countAndChanges(TARGET));
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION "user_words_apply"() RETURNS trigger LANGUAGE plpgsql AS $$${WORDS_APPLY}$$`,
    );
    await queryRunner.query('DROP TABLE "search_words"');
    await queryRunner.query(
      `CREATE TABLE "search_words" ("field" smallint NOT NULL, "word" text NOT NULL, "slot" smallint NOT NULL, "n" bigint NOT NULL) WITH (fillfactor = 90)`,
    );
    await queryRunner.query(
      `INSERT INTO "search_words" ("field", "word", "slot", "n") SELECT "field", "word", 0, count(*) FROM "user_words" GROUP BY "field", "word"`,
    );
    await queryRunner.query(
      'ALTER TABLE "search_words" ADD CONSTRAINT "PK_search_words" PRIMARY KEY ("field", "word", "slot")',
    );
    await wordIndexes(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('LOCK TABLE "users" IN SHARE MODE');
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION "user_words_apply"() RETURNS trigger LANGUAGE plpgsql AS $$${USER_WORDS_APPLY}$$`,
    );
    await queryRunner.query(COUNT_AND_CHANGES);
    await queryRunner.query('DROP TABLE "search_words"');
    await queryRunner.query(`CREATE TABLE "search_words" ("field" smallint NOT NULL, "word" text NOT NULL)`);
    await queryRunner.query(
      `INSERT INTO "search_words" ("field", "word") SELECT DISTINCT "field", "word" FROM "user_words"`,
    );
    await queryRunner.query(
      'ALTER TABLE "search_words" ADD CONSTRAINT "PK_search_words" PRIMARY KEY ("field", "word")',
    );
    await wordIndexes(queryRunner);
  }
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One word of a user's email (field 0) or lower(name) (field 1), kept by statement triggers on `users`
 * (migration 1795600000200). admin list-users counts a one-word search's users from the primary key alone.
 */
@Entity('user_words')
export class UserWord {
  @PrimaryColumn('smallint', { primaryKeyConstraintName: 'PK_user_words' })
  field: number;

  @PrimaryColumn('text', { primaryKeyConstraintName: 'PK_user_words' })
  word: string;

  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'PK_user_words' })
  userId: string;
}

/**
 * Every word `user_words` has held, per field, with its number of users split over the counter's slots
 * (migration 1795700000100): sum(n) over a word's slots is its number of `user_words` entries. A partial trigram GIN
 * index per field (declared here unsynchronized) finds the words.
 */
@Entity('search_words')
export class SearchWord {
  @PrimaryColumn('smallint', { primaryKeyConstraintName: 'PK_search_words' })
  field: number;

  @Index('search_words_email_trgm_idx', { synchronize: false })
  @Index('search_words_name_trgm_idx', { synchronize: false })
  @PrimaryColumn('text', { primaryKeyConstraintName: 'PK_search_words' })
  word: string;

  @PrimaryColumn('smallint', { primaryKeyConstraintName: 'PK_search_words' })
  slot: number;

  @Column('bigint')
  n: string;
}

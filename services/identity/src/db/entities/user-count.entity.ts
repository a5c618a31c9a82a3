import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The number of users, kept exact by statement triggers on `users` (migration 1795300000200) and spread over
 * a few slots so concurrent sign-ups do not queue on one row. The total is `sum(n)`: admin list-users answers
 * its unfiltered total from here instead of counting every row (the list-users benchmark).
 */
@Entity('user_counts')
export class UserCount {
  @PrimaryColumn('smallint', { primaryKeyConstraintName: 'PK_user_counts' })
  slot: number;

  @Column('bigint', { default: 0 })
  n: string;

  /**
   * Grows in every transaction that writes users (migration 1795600000100): `sum(changes)` is a change stamp, and
   * list-users reuses a search's exact total while it is unchanged.
   */
  @Column('bigint', { default: 0 })
  changes: string;
}

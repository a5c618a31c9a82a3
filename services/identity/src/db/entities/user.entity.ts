import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** spec §3 User. role, banned, banReason and banExpires are never set from normal input. */
@Entity('users')
@Check('users_email_lowercase', '"email" = lower("email")')
// admin list-users (migration 1795300000100): sorts with a page; the trigram GIN indexes are declared on their
// columns with synchronize: false, as TypeORM cannot describe an operator class.
@Index('users_created_at_id_idx', ['createdAt', 'id'])
@Index('users_name_id_idx', ['name', 'id'])
@Index('users_banned_idx', ['banExpires'], { where: '"banned"' })
@Check('users_language_known', `"language" IN ('RUS', 'UKR', 'ENG', 'SPA', 'GERMAN', 'POL', 'FRA', 'TURKEY')`)
export class User {
  @PrimaryColumn('uuid')
  id: string;

  /** Stored lowercase (spec §3); unique. */
  @Index('users_email_key', { unique: true })
  @Index('users_email_trgm_idx', { synchronize: false })
  @Column('text')
  email: string;

  @Column('boolean', { default: false })
  emailVerified: boolean;

  @Column('text')
  name: string;

  /**
   * search_fold(name) = lower(unaccent(name)), kept by PostgreSQL (migration 1796100000100): what list-users searches
   * names in, without folding every row it checks.
   */
  @Index('users_name_fold_trgm_idx', { synchronize: false })
  @Column({
    type: 'text',
    generatedType: 'STORED',
    asExpression: 'search_fold("name")',
    select: false,
    insert: false,
    update: false,
  })
  nameFold: string;

  @Column('text', { nullable: true })
  image: string | null;

  /** spec §1 language enumeration (name); null: Accept-Language, then ENG, decides the language of mail. */
  @Column('text', { nullable: true })
  language: string | null;

  @Column('text', { default: 'user' })
  role: string;

  @Column('boolean', { default: false })
  banned: boolean;

  @Column('text', { nullable: true })
  banReason: string | null;

  @Column('timestamptz', { nullable: true })
  banExpires: Date | null;

  /** A confirmed second factor (docs/two-factor.md): the password sign-in asks for it. */
  @Column('boolean', { default: false })
  twoFactorEnabled: boolean;

  /** Passkeys the user has (docs/two-factor.md "Passkeys"): changed with the passkeys table, read with the user row. */
  @Column('integer', { default: 0 })
  passkeyCount: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

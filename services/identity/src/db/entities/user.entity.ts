import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** spec §3 User. role, banned, banReason and banExpires are never set from normal input. */
@Entity('users')
@Check('users_email_lowercase', '"email" = lower("email")')
@Check('users_language_known', `"language" IN ('RUS', 'UKR', 'ENG', 'SPA', 'GERMAN', 'POL', 'FRA', 'TURKEY')`)
export class User {
  @PrimaryColumn('uuid')
  id: string;

  /** Stored lowercase (spec §3); unique. */
  @Index('users_email_key', { unique: true })
  @Column('text')
  email: string;

  @Column('boolean', { default: false })
  emailVerified: boolean;

  @Column('text')
  name: string;

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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

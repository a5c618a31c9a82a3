import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { User } from './user.entity';

/** spec §3 Account: one per provider login; providerId 'credential' holds the password hash. */
@Entity('accounts')
@Index('accounts_provider_account_key', ['providerId', 'accountId'], { unique: true })
export class Account {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  providerId: string;

  @Column('text')
  accountId: string;

  @Index('accounts_user_id_idx')
  @Column('uuid')
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column('text', { nullable: true })
  accessToken: string | null;

  @Column('text', { nullable: true })
  refreshToken: string | null;

  @Column('text', { nullable: true })
  idToken: string | null;

  @Column('timestamptz', { nullable: true })
  accessTokenExpiresAt: Date | null;

  @Column('timestamptz', { nullable: true })
  refreshTokenExpiresAt: Date | null;

  /** Comma-separated (spec §3). */
  @Column('text', { nullable: true })
  scope: string | null;

  /** argon2id PHC string; credential accounts only. */
  @Column('text', { nullable: true })
  password: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

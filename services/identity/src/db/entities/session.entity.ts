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

/** spec §3 Session. `token` is the opaque bearer secret; rows are deleted on expiry, sign-out and revocation. */
@Entity('sessions')
export class Session {
  @PrimaryColumn('uuid')
  id: string;

  @Index('sessions_token_key', { unique: true })
  @Column('text')
  token: string;

  @Index('sessions_user_id_idx')
  @Column('uuid')
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Index('sessions_expires_at_idx')
  @Column('timestamptz')
  expiresAt: Date;

  /** false: a browser-session cookie and the shorter server-side lifetime (spec §4 remember-me). */
  @Column('boolean', { default: true })
  rememberMe: boolean;

  @Column('text', { nullable: true })
  ipAddress: string | null;

  @Column('text', { nullable: true })
  userAgent: string | null;

  /** Admin feature: the admin's user id for an impersonation session. */
  @Column('uuid', { nullable: true })
  impersonatedBy: string | null;

  /** Organization feature: the session's active organization. */
  @Column('uuid', { nullable: true })
  activeOrganizationId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

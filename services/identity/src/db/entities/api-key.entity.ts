import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { Organization } from './organization.entity';
import { User } from './user.entity';

/**
 * API keys (better-auth's api-key fields). Only a SHA-256 of the key is stored (`keyHash`, a key is
 * high-entropy random, not a password) plus its first characters (`start`) for display. A key belongs to exactly
 * one owner: a user or an organization. Durations are milliseconds, as in better-auth.
 */
@Entity('api_keys')
@Check('api_keys_one_owner', 'num_nonnulls("user_id", "organization_id") = 1')
export class ApiKey {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('text', { nullable: true })
  start: string | null;

  @Column('text', { nullable: true })
  prefix: string | null;

  @Index('api_keys_key_hash_key', { unique: true })
  @Column('text')
  keyHash: string;

  @Index('api_keys_user_id_idx')
  @Column('uuid', { nullable: true })
  userId: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Index('api_keys_organization_id_idx')
  @Column('uuid', { nullable: true })
  organizationId: string | null;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Column('integer', { nullable: true })
  refillInterval: number | null;

  @Column('integer', { nullable: true })
  refillAmount: number | null;

  @Column('timestamptz', { nullable: true })
  lastRefillAt: Date | null;

  @Column('boolean', { default: true })
  enabled: boolean;

  @Column('boolean', { default: true })
  rateLimitEnabled: boolean;

  @Column('integer', { nullable: true })
  rateLimitTimeWindow: number | null;

  @Column('integer', { nullable: true })
  rateLimitMax: number | null;

  @Column('integer', { default: 0 })
  requestCount: number;

  @Column('integer', { nullable: true })
  remaining: number | null;

  @Column('timestamptz', { nullable: true })
  lastRequest: Date | null;

  @Column('timestamptz', { nullable: true })
  expiresAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz')
  updatedAt: Date;

  /** JSON object: resource → actions. */
  @Column('text', { nullable: true })
  permissions: string | null;

  /** JSON object. */
  @Column('text', { nullable: true })
  metadata: string | null;
}

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
import { Team } from './team.entity';
import { User } from './user.entity';

/**
 * spec §3 Invitation. Emails are stored lowercase, so the partial unique index on (organization_id, email)
 * is one pending invitation per organization and case-insensitive address.
 */
@Entity('invitations')
@Check('invitations_email_lowercase', '"email" = lower("email")')
@Check('invitations_status_known', `"status" IN ('pending', 'accepted', 'rejected', 'canceled')`)
@Index('invitations_pending_email_key', ['organizationId', 'email'], { unique: true, where: `"status" = 'pending'` })
export class Invitation {
  @PrimaryColumn('uuid')
  id: string;

  @Index('invitations_organization_id_idx')
  @Column('uuid')
  organizationId: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Index('invitations_email_idx')
  @Column('text')
  email: string;

  @Column('text')
  role: string;

  @Column('text', { default: 'pending' })
  status: string;

  @Column('uuid', { nullable: true })
  teamId: string | null;

  @ManyToOne(() => Team, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<Team>;

  @Column('uuid')
  inviterId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'inviter_id' })
  inviter?: Relation<User>;

  @Column('timestamptz')
  expiresAt: Date;

  /**
   * The user who accepted it, while they are a member through it: set with status `accepted`, cleared when that
   * membership ends (leaving, removal, the user's deletion). An accepted invitation whose `accepted_by` is no member
   * is a partial state (`cli check`). Not part of the spec's Invitation; never answered.
   */
  @Index('invitations_accepted_by_idx', { where: '"accepted_by" IS NOT NULL' })
  @Column('uuid', { nullable: true })
  acceptedBy: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'accepted_by' })
  accepter?: Relation<User>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

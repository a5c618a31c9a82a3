import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from './organization.entity';
import { Team } from './team.entity';
import { User } from './user.entity';

/**
 * spec §3 Member: one row per (organization, user); `role` may hold several comma-separated roles. `teamId` is the
 * team the membership was made with (an accepted invitation's team, or the creator's default team); it is cleared
 * when the member leaves that team or the team is removed.
 */
@Entity('members')
@Index('members_organization_user_key', ['organizationId', 'userId'], { unique: true })
@Index('members_organization_created_idx', ['organizationId', 'createdAt', 'id'])
export class Member {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  organizationId: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Index('members_user_id_idx')
  @Column('uuid')
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column('text')
  role: string;

  @Index('members_team_id_idx')
  @Column('uuid', { nullable: true })
  teamId: string | null;

  @ManyToOne(() => Team, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<Team>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

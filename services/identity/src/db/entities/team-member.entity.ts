import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Team } from './team.entity';
import { User } from './user.entity';

/** A user's place in a team (better-auth's teamMember): at most one row per pair. */
@Entity('team_members')
@Index('team_members_team_user_key', ['teamId', 'userId'], { unique: true })
export class TeamMember {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  teamId: string;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: Relation<Team>;

  @Index('team_members_user_id_idx')
  @Column('uuid')
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from './organization.entity';

/** spec §3 Team. */
@Entity('teams')
export class Team {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Index('teams_organization_id_idx')
  @Column('uuid')
  organizationId: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { nullable: true })
  updatedAt: Date | null;
}

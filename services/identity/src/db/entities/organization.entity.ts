import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** spec §3 Organization. `metadata` is an object stored as JSON text. */
@Entity('organizations')
export class Organization {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  /** spec §5: unique ("Organization already exists" / "slug is taken"). */
  @Index('organizations_slug_key', { unique: true })
  @Column('text')
  slug: string;

  @Column('text', { nullable: true })
  logo: string | null;

  @Column('text', { nullable: true })
  metadata: string | null;

  /** docs/two-factor.md "Policies": members without a second factor cannot make it their active organization. */
  @Column('boolean', { name: 'require_two_factor', default: false })
  requireTwoFactor: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** spec §3 Verification value: OAuth state, reset-password:{token}, delete-account-{token}. */
@Entity('verifications')
export class Verification {
  @PrimaryColumn('uuid')
  id: string;

  @Index('verifications_identifier_key', { unique: true })
  @Column('text')
  identifier: string;

  @Column('text')
  value: string;

  @Index('verifications_expires_at_idx')
  @Column('timestamptz')
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * spec §3 key-pair record (id, publicKey, privateKey, createdAt): the keys that sign `GET /token` JWTs.
 * `id` is the JWT `kid`. The private key is stored encrypted (AES-256-GCM, key derived from AUTH_SECRET).
 * The active key is the one not retired; a retired key stays published in `/jwks` until every token it signed
 * has expired, then the row is deleted.
 */
@Entity('jwks')
export class Jwk {
  @PrimaryColumn('uuid')
  id: string;

  /** The public JWK as JSON text. */
  @Column('text')
  publicKey: string;

  /** The private JWK as JSON text, encrypted: `v1.<iv>.<ciphertext>.<tag>` (base64url). */
  @Column('text')
  privateKey: string;

  /** JWS algorithm of the key: EdDSA, ES256 or RS256. */
  @Column('text')
  alg: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** When a newer key took over signing; null for the active key. */
  @Column('timestamptz', { nullable: true })
  retiredAt: Date | null;
}

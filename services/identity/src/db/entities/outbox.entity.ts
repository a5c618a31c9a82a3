import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The transactional outbox (docs/decisions/0003-transactional-outbox.md): work to do once a transaction has
 * committed, written in that transaction. Today: the mails of the account flows and invitations (topic `mail`),
 * written with the token or invitation they carry. The relay (src/outbox) hands each row to its queue and keeps it
 * until the queue says the work is done, so a queue that loses it (Redis flushed, a process killed) only delays it.
 */
@Entity('outbox')
@Check('outbox_outcome_known', `"outcome" IN ('sent', 'failed', 'expired')`)
@Index('outbox_topic_dedupe_key_key', ['topic', 'dedupeKey'], { unique: true })
@Index('outbox_due_idx', ['availableAt'], { where: '"done_at" IS NULL' })
@Index('outbox_done_at_idx', ['doneAt'], { where: '"done_at" IS NOT NULL' })
export class OutboxMessage {
  @PrimaryColumn('uuid')
  id: string;

  /** What the row asks for, and so which handler relays it: `mail`. */
  @Column('text')
  topic: string;

  /** The work's own id, the same on every hand-over (a mail's job id): a second row or hand-over of it is dropped. */
  @Column('text')
  dedupeKey: string;

  /** The work itself (a mail job: recipient, language, link). Links carry tokens: never logged. */
  @Column('jsonb')
  payload: unknown;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** When a relay next looks at the row: to hand it over, to ask the queue about it, or to take it over. */
  @Column('timestamptz')
  availableAt: Date;

  /** Hand-overs tried, failed ones included. */
  @Column('integer', { default: 0 })
  attempts: number;

  /** The last successful hand-over. */
  @Column('timestamptz', { nullable: true })
  relayedAt: Date | null;

  /** Where it went: `redis:<BullMQ prefix>` (the worker's queue) or `process:<instance>` (sent by that API). */
  @Column('text', { nullable: true })
  relayedTo: string | null;

  /** When the queue reported the work done; the row is deleted a retention period later. */
  @Column('timestamptz', { nullable: true })
  doneAt: Date | null;

  /** sent, failed (the queue gave up on it), or expired (no queue confirmed it within the retention period). */
  @Column('text', { nullable: true })
  outcome: string | null;

  /** Why the last hand-over failed (no payload content). */
  @Column('text', { nullable: true })
  lastError: string | null;
}

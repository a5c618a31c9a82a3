import type { Clock } from '../../shared/clock';
import type { EventRepository } from './events.repository';

const DAY_MS = 86_400_000;

export interface PruneResult {
  /** Monthly partitions created ahead (the current month and the next 12 always exist afterwards). */
  added: number;
  /** Partitions dropped whole: every event in them was past the retention age. */
  dropped: string[];
  /** Events deleted one by one: those past the age in the month the cutoff falls in, and in the default partition. */
  deleted: number;
  cutoff: string;
}

/**
 * Retention of the audit trail (docs/audit.md, docs/operations.md): events older than the configured age go.
 * Whole months go as partitions (DDL, instant, no row trigger); the rest of the age line is one DELETE the
 * append-only trigger allows only because this transaction says so. Partitions for the months ahead are made in
 * the same run, so inserts keep landing in a monthly partition.
 */
export class EventRetention {
  constructor(
    private readonly repo: EventRepository,
    private readonly clock: Clock,
    private readonly retentionDays: number,
  ) {}

  async prune(): Promise<PruneResult> {
    const now = this.clock.now();
    const cutoff = new Date(now - this.retentionDays * DAY_MS);
    const added = await this.repo.addPartitions(new Date(now));
    const dropped: string[] = [];
    for (const partition of await this.repo.partitions()) {
      if (partition.to.getTime() > cutoff.getTime()) continue;
      await this.repo.dropPartition(partition.name);
      dropped.push(partition.name);
    }
    const deleted = await this.repo.deleteBefore(cutoff);
    return { added, dropped, deleted, cutoff: cutoff.toISOString() };
  }
}

import type { SessionWithUser } from '../../shared/views';
import type { AdminParts } from './parts';
import { type StatCounts, StatsRepository } from './stats.repository';

const DAY_MS = 86_400_000;

export interface AdminStats extends StatCounts {
  /** One entry per UTC day, oldest first, ending today; days without sign-ups count 0. */
  signUpsPerDay: Array<{ day: string; count: number }>;
}

/** What the dashboard counts use. */
export type StatsDeps = Pick<AdminParts, 'sql' | 'access' | 'clock'>;

/** admin/stats: the console dashboard's counts and daily sign-ups (needs user:list, like the users list). */
export class AdminStatsService {
  private readonly repo: StatsRepository;

  constructor(private readonly d: StatsDeps) {
    this.repo = new StatsRepository(d.sql);
  }

  async read(auth: SessionWithUser, days: number): Promise<AdminStats> {
    this.d.access.demand(auth, { user: ['list'] }, 'NOT_ALLOWED_TO_LIST_USERS');
    const now = this.d.clock.now();
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const first = today - (days - 1) * DAY_MS;
    const [counts, perDay] = await Promise.all([
      this.repo.counts(new Date(now), new Date(now - 7 * DAY_MS)),
      this.repo.signUpsPerDay(new Date(first)),
    ]);
    const signUpsPerDay = Array.from({ length: days }, (_, i) => {
      const day = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
      return { day, count: perDay.get(day) ?? 0 };
    });
    return { ...counts, signUpsPerDay };
  }
}

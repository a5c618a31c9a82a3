import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';

export type CheckState = 'ok' | 'failing' | 'not-configured';

export interface Readiness {
  ready: boolean;
  draining: boolean;
  checks: { database: CheckState; migrations: CheckState; redis: CheckState };
}

const within = <T>(ms: number, work: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

/**
 * Whether this instance can serve: PostgreSQL answers and every migration it knows has run. Redis (when
 * configured) is checked and reported too. Each check is bounded, so a hung dependency makes the probe fail rather than hang.
 */
export class ReadinessCheck {
  private migrated = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis | null,
    private readonly lifecycle: { draining: boolean },
    private readonly timeoutMs = 2000,
  ) {}

  async check(): Promise<Readiness> {
    const [database, migrations, redis] = await Promise.all([this.database(), this.migrations(), this.redisState()]);
    // Redis only speeds things up (the API degrades to PostgreSQL and in-process fallbacks): its failure is
    // reported, but taking every instance out of the load balancer for it would turn a slowdown into an outage.
    const { draining } = this.lifecycle;
    return {
      ready: !draining && database === 'ok' && migrations === 'ok',
      draining,
      checks: { database, migrations, redis },
    };
  }

  private async database(): Promise<CheckState> {
    try {
      await within(this.timeoutMs, this.dataSource.query('SELECT 1'));
      return 'ok';
    } catch {
      return 'failing';
    }
  }

  /** Once every migration is seen applied it stays so (migrations only ever get added by a new release). */
  private async migrations(): Promise<CheckState> {
    if (this.migrated) return 'ok';
    try {
      this.migrated = !(await within(this.timeoutMs, this.dataSource.showMigrations()));
      return this.migrated ? 'ok' : 'failing';
    } catch {
      return 'failing';
    }
  }

  private async redisState(): Promise<CheckState> {
    if (!this.redis) return 'not-configured';
    if (this.redis.status !== 'ready') return 'failing';
    try {
      await within(this.timeoutMs, this.redis.ping());
      return 'ok';
    } catch {
      return 'failing';
    }
  }
}

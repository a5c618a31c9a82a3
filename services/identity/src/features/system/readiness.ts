import type { Redis } from 'ioredis';
import { pendingMigrations } from '../../db/pending-migrations';
import type { Sql } from '../../shared/sql';
import { withTimeout } from '../../shared/with-timeout';

export type CheckState = 'ok' | 'failing' | 'not-configured';

export interface Readiness {
  ready: boolean;
  draining: boolean;
  checks: { database: CheckState; migrations: CheckState; redis: CheckState };
}

/**
 * Whether this instance can serve: PostgreSQL answers and every migration it knows has run. Redis (when
 * configured) is checked and reported too. Each check is bounded, so a hung dependency makes the probe fail rather than hang.
 */
export class ReadinessCheck {
  private migrated = false;

  constructor(
    private readonly sql: Sql,
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
      await withTimeout(this.sql.query('SELECT 1'), this.timeoutMs, 'timed out');
      return 'ok';
    } catch {
      return 'failing';
    }
  }

  /** Once every migration is seen applied it stays so (migrations only ever get added by a new release). */
  private async migrations(): Promise<CheckState> {
    if (this.migrated) return 'ok';
    try {
      const pending = await withTimeout(pendingMigrations(this.sql), this.timeoutMs, 'timed out');
      this.migrated = pending.length === 0;
      return this.migrated ? 'ok' : 'failing';
    } catch {
      return 'failing';
    }
  }

  private async redisState(): Promise<CheckState> {
    if (!this.redis) return 'not-configured';
    if (this.redis.status !== 'ready') return 'failing';
    try {
      await withTimeout(this.redis.ping(), this.timeoutMs, 'timed out');
      return 'ok';
    } catch {
      return 'failing';
    }
  }
}

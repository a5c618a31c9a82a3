import { type ApiProcess, spawnApi } from '../../setup/api-process';
import { type RunningWorker, spawnWorker } from '../../setup/worker-process';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster';
import { type RedisServer, startRedisServer } from './redis-server';

/**
 * What a fault test runs on: its own PostgreSQL cluster and Redis (free ports, temporary directories), and the
 * API and the mail worker as real processes on them. Nothing here touches the machine's shared servers.
 */
export interface FaultStack {
  pg: PostgresCluster;
  redis: RedisServer;
  /** Environment that points a process at this stack's stores. */
  storeEnv: Record<string, string>;
  /** Start an API process (`node dist/main.js`) on this stack; stopped by `destroy`. */
  api(env?: Record<string, string>): Promise<ApiProcess>;
  /** Start a mail worker process (`node dist/worker.js`) on this stack; killed by `destroy`. */
  worker(env?: Record<string, string>): RunningWorker;
  destroy(): Promise<void>;
}

export async function startFaultStack(): Promise<FaultStack> {
  const [pg, redis] = await Promise.all([startPostgresCluster(), startRedisServer()]);
  const storeEnv = { DATABASE_URL: pg.url, REDIS_URL: redis.url, REDIS_PREFIX: 'fault:' };
  const apis: ApiProcess[] = [];
  const workers: RunningWorker[] = [];
  return {
    pg,
    redis,
    storeEnv,
    async api(env = {}) {
      const api = await spawnApi({ ...storeEnv, ...env });
      apis.push(api);
      return api;
    },
    worker(env = {}) {
      const worker = spawnWorker({ ...storeEnv, ...env });
      workers.push(worker);
      return worker;
    },
    async destroy() {
      for (const p of [...apis.map((a) => a.child), ...workers.map((w) => w.child)])
        if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
      pg.resume();
      redis.resume();
      await Promise.all([pg.destroy(), redis.stop()]);
    },
  };
}

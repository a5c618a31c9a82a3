import { execFileSync } from 'node:child_process';
import { Socket } from 'node:net';

/**
 * Where the tests find PostgreSQL and Redis: DATABASE_URL / REDIS_URL first, then the local
 * default ports, then testcontainers where a Docker engine exists, otherwise a clear error.
 */
export interface ServiceUrls {
  databaseUrl: string;
  redisUrl: string;
  stop: () => Promise<void>;
}

const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379/0';

function answers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.connect(port, host, () => finish(true));
  });
}

function dockerAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

export async function resolveServices(): Promise<ServiceUrls> {
  let databaseUrl = process.env.DATABASE_URL;
  let redisUrl = process.env.REDIS_URL;
  const stops: Array<() => Promise<unknown>> = [];
  if (!databaseUrl && (await answers('127.0.0.1', 5432))) databaseUrl = LOCAL_PG;
  if (!redisUrl && (await answers('127.0.0.1', 6379))) redisUrl = LOCAL_REDIS;
  if ((!databaseUrl || !redisUrl) && dockerAvailable()) {
    const { GenericContainer, Wait } = await import('testcontainers');
    if (!databaseUrl) {
      const pg = await new GenericContainer('postgres:15-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
      stops.push(() => pg.stop());
      databaseUrl = `postgres://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`;
    }
    if (!redisUrl) {
      const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
      stops.push(() => redis.stop());
      redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}/0`;
    }
  }
  if (!databaseUrl || !redisUrl)
    throw new Error(
      `Tests need PostgreSQL and Redis: set DATABASE_URL and REDIS_URL, start them on 127.0.0.1:5432 and :6379, ` +
        `or provide a Docker engine for testcontainers (missing: ${[!databaseUrl && 'DATABASE_URL', !redisUrl && 'REDIS_URL'].filter(Boolean).join(', ')})`,
    );
  return { databaseUrl, redisUrl, stop: async () => void (await Promise.all(stops.map((s) => s()))) };
}

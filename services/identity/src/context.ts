import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Config } from './config';
import { deriveKey } from './crypto/keys';
import { PasswordHasher } from './crypto/password';
import { createDataSource } from './db/data-source';
import { startEmbeddedPostgres } from './db/embedded';
import { AccountService } from './features/account/account.service';
import { AccountRepository } from './features/account/repository';
import { SessionRepository } from './features/session/repository';
import { type Clock, SessionService } from './features/session/session.service';
import { TrustedOrigins } from './http/origins';
import { SessionCookies } from './http/session-cookies';
import { type Sql, sqlFor } from './shared/sql';
import { type KeyValueStore, MemoryStore, RedisStore } from './store';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** Everything the feature plugins use, built once by plain wiring (DESIGN §4.9: no DI container). */
export interface AppContext {
  config: Config;
  clock: Clock;
  dataSource: DataSource;
  sql: Sql;
  redis: Redis | null;
  store: KeyValueStore;
  hasher: PasswordHasher;
  trusted: TrustedOrigins;
  cookies: SessionCookies;
  sessions: SessionService;
  accounts: AccountService;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  logger?: Logger;
  /** Wire everything without connecting (OpenAPI generation): no query may run. */
  offline?: boolean;
  /** Run pending migrations at start (the embedded default and development). */
  migrate?: boolean;
}

const consoleLogger: Logger = {
  info: (m) => console.log(m),
  warn: (m) => console.warn(m),
  error: (m) => console.error(m),
};

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const log = options.logger ?? consoleLogger;
  const clock = options.clock ?? { now: () => Date.now() };
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const { dataSource, redis } = await connect(config, options, log, closers);
    const sql = sqlFor(dataSource);
    const store: KeyValueStore = redis ? new RedisStore(redis, config.redisPrefix) : new MemoryStore(clock.now);
    const sessionCache = config.session.redisCacheTtlSec > 0 ? store : null;
    const hasher = new PasswordHasher(config.argon2);
    const sessions = new SessionService(new SessionRepository(sql), sessionCache, config.session, clock);
    const accounts = new AccountService(new AccountRepository(sql), sessions, hasher, config, clock);
    return {
      config,
      clock,
      dataSource,
      sql,
      redis,
      store,
      hasher,
      trusted: new TrustedOrigins([config.publicUrl, ...config.trustedOrigins]),
      cookies: new SessionCookies(config, deriveKey(config.secret, 'session-cache')),
      sessions,
      accounts,
      close: () => closeAll(closers),
    };
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

async function connect(config: Config, options: ContextOptions, log: Logger, closers: Array<() => Promise<unknown>>) {
  if (options.offline) {
    return { dataSource: createDataSource({ url: 'postgres://offline.invalid/none' }), redis: null };
  }
  let url = config.databaseUrl;
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.dataDir, log.info);
    closers.unshift(() => embedded.stop());
    url = embedded.url;
  }
  const dataSource = createDataSource({ url });
  await dataSource.initialize();
  closers.unshift(() => dataSource.destroy());
  if (options.migrate) await dataSource.runMigrations({ transaction: 'all' });
  let redis: Redis | null = null;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 5000, lazyConnect: true });
    closers.unshift(() => redis!.quit().catch(() => redis!.disconnect()));
    await redis.connect();
  } else {
    log.warn('REDIS_URL is not set: in-process session cache, state and rate-limit stores (single instance only)');
  }
  return { dataSource, redis };
}

async function closeAll(closers: Array<() => Promise<unknown>>): Promise<void> {
  for (const close of closers.splice(0)) await close().catch(() => {});
}

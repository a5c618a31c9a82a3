import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { type Config, type ConfigOverrides, loadConfig } from '../../src/config';
import { type AppContext, createContext } from '../../src/context';
import { loggerOptions } from '../../src/infra/logger';
import { PUBLIC_URL } from './public-url';

export { PUBLIC_URL };
export const TRUSTED_ORIGIN = 'https://app.example.test';
export const TEST_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** A clock tests move by hand: expiries without sleeping. */
export class TestClock {
  private t = Date.now();
  now = (): number => this.t;
  advance(seconds: number): void {
    this.t += seconds * 1000;
  }
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  clock: TestClock;
  close(): Promise<void>;
}

/** The real service (real PostgreSQL and Redis of this run) with test-friendly settings and a movable clock. */
export async function startTestApp(
  overrides: ConfigOverrides = {},
  env: Record<string, string> = {},
  /** Write the app's request log here (the production logger settings at `LOG_LEVEL`); silent otherwise. */
  logTo?: NodeJS.WritableStream,
): Promise<TestApp> {
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: process.env.TEST_REDIS_PREFIX,
      AUTH_SECRET: TEST_SECRET,
      PUBLIC_URL,
      TRUSTED_ORIGINS: TRUSTED_ORIGIN,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_ENABLED: 'false',
      ...env,
    },
    overrides,
  );
  const clock = new TestClock();
  const ctx = await createContext(config, { clock, logger: { info() {}, warn() {}, error() {} } });
  const logger = logTo ? { ...(loggerOptions(config) as object), stream: logTo } : false;
  const app = await buildApp(ctx, { logger }).catch(async (error) => {
    await ctx.close();
    throw error;
  });
  await app.ready();
  ctx.outbox.start(); // as main.ts does
  return {
    app,
    ctx,
    config,
    clock,
    close: async () => {
      await app.close();
      await ctx.close();
    },
  };
}

/** Listens on a free loopback port (for clients that need real HTTP) and answers the API's base URL there. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/auth`;
}

import { Redis } from 'ioredis';
import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const { TEST_ADMIN_DATABASE_URL, TEST_DATABASE_NAME, TEST_REDIS_URL, TEST_REDIS_PREFIX } = process.env;
  if (TEST_ADMIN_DATABASE_URL && TEST_DATABASE_NAME) {
    const admin = new Client({ connectionString: TEST_ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${TEST_DATABASE_NAME}" WITH (FORCE)`);
    await admin.end();
  }
  if (TEST_REDIS_URL && TEST_REDIS_PREFIX) {
    const redis = new Redis(TEST_REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${TEST_REDIS_PREFIX}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  }
  await (globalThis as { __stopServices?: () => Promise<void> }).__stopServices?.();
}

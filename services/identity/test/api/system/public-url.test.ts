import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { until } from '../../mail/helpers';
import { type ApiProcess, spawnApi } from '../../setup/api-process';
import { PASSWORD, uniqueEmail } from '../../setup/fixtures';

/**
 * Outside production, an unset PUBLIC_URL is the address the service listens on (`PORT=3100 make run`): links in
 * mail, the trusted origin and the start-up note all name that port, not the default 3000.
 */
const outbox = mkdtempSync(join(tmpdir(), 'identity-public-url-'));
let api: ApiProcess;

beforeAll(async () => {
  api = await spawnApi({ PUBLIC_URL: '', REDIS_URL: '', MAIL_OUTBOX_DIR: outbox, HOST: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await api?.stop();
  rmSync(outbox, { recursive: true, force: true });
});

it('links, origin checks and the start-up note use http://localhost:<PORT>', async () => {
  const port = new URL(api.base).port;
  const origin = `http://localhost:${port}`;
  const post = (path: string, body: unknown, from: string) =>
    fetch(`${api.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: from },
      body: JSON.stringify(body),
    });
  const email = uniqueEmail('public-url');

  const foreign = await post('/sign-up/email', { name: 'P', email, password: PASSWORD }, 'http://localhost:3000');
  expect([foreign.status, (await foreign.json()).code]).toEqual([403, 'INVALID_ORIGIN']);
  expect((await post('/sign-up/email', { name: 'P', email, password: PASSWORD }, origin)).status).toBe(200);

  expect((await post('/request-password-reset', { email, redirectTo: '/reset' }, origin)).status).toBe(200);
  await until(() => readdirSync(outbox).some((f) => f.endsWith('.eml')), 20_000);
  const file = readdirSync(outbox).find((f) => f.endsWith('.eml'))!;
  const mail = await simpleParser(readFileSync(join(outbox, file)));
  expect(mail.text).toContain(`${origin}/api/auth/reset-password/`);

  expect(api.output()).toContain(`identity API on ${origin}/api/auth`);
}, 60_000);

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { simpleParser } from 'mailparser';
import { uniquePrefix, until } from '../../mail/helpers';
import { type ApiProcess, spawnApi } from '../../setup/api-process';
import { PUBLIC_URL, TEST_SECRET } from '../../setup/app';
import { PASSWORD, uniqueEmail } from '../../setup/fixtures';
import { type RunningWorker, spawnWorker } from '../../setup/worker-process';

/**
 * Every line the API and the mail worker write (stdout and stderr, start-up and mail notes included) is one JSON
 * object (pino), with the request logger's redaction: no reset token, password or service key in any of them.
 */
const root = resolve(__dirname, '../../..');
const SERVICE_KEY = `svc-${randomBytes(24).toString('hex')}`;
const NEW_PASSWORD = 'a brand new passphrase 42';
const dirs: string[] = [];
const apis: ApiProcess[] = [];
const workers: RunningWorker[] = [];

afterAll(async () => {
  for (const api of apis) await api.stop();
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const outbox = () => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-outbox-'));
  dirs.push(dir);
  return dir;
};

/** Each non-empty line parses as a JSON object with pino's level, time and message. */
function expectJsonLines(output: string): Record<string, unknown>[] {
  const lines = output.split('\n').filter((l) => l.trim());
  expect(lines.length).toBeGreaterThan(0);
  return lines.map((line) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(`not a JSON line: ${line}`);
    }
    expect([line, typeof parsed.level, typeof parsed.time, typeof parsed.msg]).toEqual([
      line,
      'number',
      'number',
      'string',
    ]);
    return parsed;
  });
}

function expectNoSecret(output: string, secrets: string[]): void {
  for (const secret of secrets) expect([secret, output.includes(secret)]).toEqual([secret, false]);
}

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL, ...headers },
    body: JSON.stringify(body),
  });

/** The reset token from the one mail in `dir` (the dev outbox), once it is there. */
async function resetTokenFrom(dir: string): Promise<string> {
  await until(() => readdirSync(dir).some((f) => f.endsWith('.eml')), 20_000);
  const file = readdirSync(dir).find((f) => f.endsWith('.eml'))!;
  const mail = await simpleParser(readFileSync(join(dir, file)));
  const token = /\/reset-password\/([^?\s"]+)/.exec(mail.text ?? '')?.[1];
  expect(token).toEqual(expect.any(String));
  return token!;
}

/** Sign up, ask for a reset, use the mailed token, sign in with the new password: returns the secrets used. */
async function resetFlow(base: string, dir: string): Promise<string[]> {
  const email = uniqueEmail('logs');
  expect((await post(base, '/sign-up/email', { name: 'Log Reader', email, password: PASSWORD })).status).toBe(200);
  const asked = await post(base, '/request-password-reset', { email, redirectTo: '/reset' });
  expect(asked.status).toBe(200);
  const token = await resetTokenFrom(dir);
  const reset = await post(base, '/reset-password', { token, newPassword: NEW_PASSWORD });
  expect(reset.status).toBe(200);
  const signedIn = await post(base, '/sign-in/email', { email, password: NEW_PASSWORD });
  expect(signedIn.status).toBe(200);
  // The service credential on a server-only route.
  await post(base, '/get-access-token', { providerId: 'github' }, { 'x-api-key': SERVICE_KEY });
  return [token, PASSWORD, NEW_PASSWORD, SERVICE_KEY, TEST_SECRET];
}

it('the API alone (in-process mail to the dev outbox): JSON lines only, no secret', async () => {
  const dir = outbox();
  const api = await spawnApi({ REDIS_URL: '', MAIL_OUTBOX_DIR: dir, SERVICE_API_KEY: SERVICE_KEY });
  apis.push(api);
  const secrets = await resetFlow(api.base, dir);
  expect(await api.stop()).toBe(0);
  const lines = expectJsonLines(api.output());
  const messages = lines.map((l) => l.msg);
  expect(messages).toContain('mail written to the dev outbox');
  expect(messages).toContain('mail sent');
  expect(messages.some((m) => String(m).startsWith('REDIS_URL is not set'))).toBe(true);
  expect(lines.some((l) => l.req)).toBe(true);
  expectNoSecret(api.output(), secrets);
}, 60_000);

it('the API with Redis and the mail worker process: JSON lines only, no secret', async () => {
  const dir = outbox();
  const prefix = uniquePrefix('proclogs');
  const api = await spawnApi({ REDIS_PREFIX: prefix, MAIL_OUTBOX_DIR: outbox(), SERVICE_API_KEY: SERVICE_KEY });
  apis.push(api);
  const worker = spawnWorker({ REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: prefix, MAIL_OUTBOX_DIR: dir });
  workers.push(worker);
  await until(() => worker.output().includes('mail worker started') || worker.child.exitCode !== null, 20_000);
  const secrets = await resetFlow(api.base, dir);
  expect(await api.stop()).toBe(0);
  worker.child.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
  const lines = expectJsonLines(worker.output());
  expect(lines.map((l) => l.msg)).toEqual(
    expect.arrayContaining([
      'mail worker started',
      'mail written to the dev outbox',
      'mail sent',
      'mail worker stopped',
    ]),
  );
  expectJsonLines(api.output());
  expectNoSecret(worker.output() + api.output(), secrets);
}, 60_000);

it.each([
  ['API', 'dist/main.js'],
  ['worker', 'dist/worker.js'],
])('a configuration error stops the %s with one JSON line naming the setting', (_name, entry) => {
  const run = spawnSync(process.execPath, [entry], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', PORT: 'abc', AUTH_SECRET: TEST_SECRET },
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(run.status).toBe(1);
  const [line] = expectJsonLines(run.stdout + run.stderr);
  expect(line.msg).toBe('Configuration error: PORT="abc": expected a whole number');
});

it("Node's warnings and libraries' console output become JSON lines in a service process", () => {
  const script = `
    const { createLogger, routeProcessOutput } = require('./dist/infra/logger');
    routeProcessOutput(createLogger({ logLevel: 'debug', apiKey: { header: 'x-api-key' } }));
    console.log('plain %s', 'log');
    console.warn('[lib] careful');
    console.error(new Error('library failure'));
    process.emitWarning('something odd', 'DeprecationWarning');
    setTimeout(() => {}, 50);
  `;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', timeout: 20_000 });
  expect(run.status).toBe(0);
  const lines = expectJsonLines(run.stdout + run.stderr);
  expect(lines.map((l) => l.msg)).toEqual(
    expect.arrayContaining([
      'plain log',
      '[lib] careful',
      expect.stringContaining('library failure'),
      'process warning',
    ]),
  );
});

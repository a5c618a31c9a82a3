import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { simpleParser } from 'mailparser';
import type { Config } from '../../src/config';
import type { MailQueue } from '../../src/mail/jobs';
import { createMailQueue, idFor } from '../../src/mail/queue';
import { MailRenderError } from '../../src/mail/render';
import { type MailWorker, startWorker } from '../../src/worker';
import { uniqueEmail } from '../setup/fixtures';
import { headerValue, type SmtpSink, startSmtpSink } from '../setup/smtp-sink';
import { CaptureLogger, mailConfig, sampleJob, token, uniquePrefix, until } from './helpers';

/** Real Redis (BullMQ) and a real SMTP server: the path a mail takes in production. */
describe('mail queue and worker (Redis, BullMQ)', () => {
  let sink: SmtpSink;
  let config: Config;
  let apiRedis: Redis;
  let queue: MailQueue;
  let worker: MailWorker;
  let prefix: string;
  const logger = new CaptureLogger();

  beforeAll(async () => {
    sink = await startSmtpSink();
    prefix = uniquePrefix('mailq');
    config = mailConfig({
      REDIS_URL: process.env.TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      SMTP_URL: sink.url,
      MAIL_ATTEMPTS: '3',
      MAIL_BACKOFF_MS: '50',
      MAIL_CONCURRENCY: '1', // one at a time: a marker sent after a duplicate proves the duplicate was dropped
    });
    // Stands for the API's client: createMailQueue opens its own BullMQ connection.
    apiRedis = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
    queue = createMailQueue(config, apiRedis, logger);
    worker = await startWorker(config, logger);
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.close();
    await apiRedis?.quit();
    await sink?.stop();
  });

  beforeEach(() => sink.clear());

  it('delivers a job to the SMTP server with From, To, subject and the link', async () => {
    const to = uniqueEmail('bull');
    const secret = token();
    const job = sampleJob('reset-password', to, 'ENG', secret);
    await queue.enqueue(idFor(job.kind, secret), job);
    const mail = await sink.waitFor((m) => m.to.includes(to));
    expect(mail.from).toBe('no-reply@identity.test');
    expect(mail.fromText).toContain('Identity Test');
    expect(mail.envelope.to).toEqual([to]);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain(job.url);
    expect(mail.html).toContain(job.url);
    expect(headerValue(mail, 'Auto-Submitted')).toBe('auto-generated');
    // Redis holds the job under a hashed id: the token never becomes a key.
    const keys = await apiRedis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join('\n')).not.toContain(secret);
    await until(() =>
      logger.lines.some((l) => l.message === 'mail sent' && l.fields.recipientDomain === 'example.com'),
    );
    expect(logger.dump()).not.toContain(secret);
  });

  it('sends a job enqueued twice (at once and after delivery) exactly once', async () => {
    const to = uniqueEmail('dup');
    const secret = token();
    const job = sampleJob('verify-email', to, 'POL', secret);
    const id = idFor(job.kind, secret);
    await Promise.all([queue.enqueue(id, job), queue.enqueue(id, job)]);
    await sink.waitFor((m) => m.to.includes(to));
    await queue.enqueue(id, job);
    const marker = uniqueEmail('marker');
    await queue.enqueue(idFor('verify-email', token()), sampleJob('verify-email', marker));
    await sink.waitFor((m) => m.to.includes(marker));
    expect(sink.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
    expect(sink.messages[0].subject).toBe('Potwierdź swój adres e-mail');
  });

  it('retries a refused send with backoff and delivers it, logging no link', async () => {
    sink.refuseNext(2, 451);
    const to = uniqueEmail('retry');
    const secret = token();
    const job = sampleJob('delete-account', to, 'TURKEY', secret);
    await queue.enqueue(idFor(job.kind, secret), job);
    const mail = await sink.waitFor((m) => m.to.includes(to));
    expect(mail.subject).toBe('Hesabınızın silinmesini onaylayın');
    expect(sink.attempts).toBe(3);
    const retries = logger.lines.filter((l) => l.message.includes('will retry') && l.fields.kind === 'delete-account');
    expect(retries.map((l) => l.fields.attempt)).toEqual([1, 2]);
    expect(retries[0].fields).toMatchObject({ recipientDomain: 'example.com', attempts: 3, responseCode: 451 });
    expect(logger.dump()).not.toContain(secret);
    expect(logger.dump()).not.toContain(job.url);
  });

  it('does not retry a permanent refusal (5xx)', async () => {
    sink.refuseNext(5, 550);
    const to = uniqueEmail('perm');
    const job = sampleJob('verify-email', to);
    await queue.enqueue(idFor(job.kind, token()), job);
    const failed = await until(() =>
      logger.lines.find((l) => l.message === 'mail send failed for good' && l.fields.responseCode === 550),
    );
    expect(failed.fields).toMatchObject({ kind: 'verify-email', attempt: 1, recipientDomain: 'example.com' });
    expect(sink.attempts).toBe(1);
  });

  it('refuses at enqueue a job that can never be sent (bad link, list or display name as recipient)', async () => {
    const job = { ...sampleJob('reset-password', uniqueEmail()), url: 'javascript:alert(1)' };
    await expect(queue.enqueue(idFor(job.kind, token()), job)).rejects.toBeInstanceOf(MailRenderError);
    for (const to of [
      'a@example.test, b@example.test',
      'Eve <eve@example.test>',
      'no-at-sign',
      'a@b.test\r\nBcc: c@d.test',
    ])
      await expect(queue.enqueue(idFor('verify-email', token()), sampleJob('verify-email', to))).rejects.toBeInstanceOf(
        MailRenderError,
      );
  });

  it('says where a mail went and what became of it: queued, then sent; unknown once Redis has lost it', async () => {
    const to = uniqueEmail('state');
    const id = idFor('reset-password', token());
    const route = await queue.enqueue(id, sampleJob('reset-password', to));
    expect(route).toBe(`redis:${prefix}bull`);
    expect(queue.routes()).toEqual([route, expect.stringMatching(/^process:/)]);
    expect(['queued', 'sent']).toContain(await queue.state(id, route));
    await sink.waitFor((m) => m.to.includes(to));
    await until(async () => (await queue.state(id, route)) === 'sent', 5000, 'the job to complete');
    const lost = idFor('reset-password', token()); // as after a flush: Redis has no such job
    expect(await queue.state(lost, route)).toBe('unknown');
  });

  it('when Redis does not answer, sends the mail from this process at once and says so in the log', async () => {
    const down = mailConfig({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: prefix, SMTP_URL: sink.url });
    const log = new CaptureLogger();
    const stranded = createMailQueue(down, apiRedis, log, { enqueueTimeoutMs: 300 });
    try {
      const to = uniqueEmail('noredis');
      const started = Date.now();
      const id = idFor('verify-email', token());
      const route = await stranded.enqueue(id, sampleJob('verify-email', to));
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await sink.waitFor((m) => m.to.includes(to))).to).toContain(to);
      expect(log.lines.map((l) => l.message)).toContain('mail queue unavailable: sending in-process');
      // This process sent it: it says so, and Redis (unreachable) is not asked.
      expect(route).toMatch(/^process:/);
      await until(async () => (await stranded.state(id, route)) === 'sent', 5000, 'the send');
      await expect(stranded.state(id, `redis:${prefix}bull`)).rejects.toThrow('not connected');
    } finally {
      await stranded.close();
    }
  });
});

/** Without REDIS_URL the API sends mail itself, with the same retry and dedupe semantics. */
describe('in-process mail queue (no Redis)', () => {
  let sink: SmtpSink;
  let queue: MailQueue;
  const logger = new CaptureLogger();

  beforeAll(async () => {
    sink = await startSmtpSink();
    const config = mailConfig({ SMTP_URL: sink.url, MAIL_ATTEMPTS: '3', MAIL_BACKOFF_MS: '50' });
    queue = createMailQueue(config, null, logger);
  });

  afterAll(async () => {
    await queue?.close();
    await sink?.stop();
  });

  beforeEach(() => sink.clear());

  it('delivers, and a job enqueued twice is sent once', async () => {
    const to = uniqueEmail('local');
    const secret = token();
    const job = sampleJob('invitation', to, 'SPA', secret);
    const id = idFor(job.kind, secret);
    await Promise.all([queue.enqueue(id, job), queue.enqueue(id, job)]);
    const mail = await sink.waitFor((m) => m.to.includes(to));
    expect(mail.subject).toBe('Bob Boss te ha invitado a unirte a Acme Rockets');
    expect(mail.from).toBe('no-reply@identity.test');
    expect(mail.text).toContain(job.url);
    await queue.enqueue(id, job);
    const marker = uniqueEmail('marker');
    await queue.enqueue(idFor('verify-email', token()), sampleJob('verify-email', marker));
    await sink.waitFor((m) => m.to.includes(marker));
    await new Promise((r) => setTimeout(r, 100));
    expect(sink.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it('retries a refused send with exponential backoff', async () => {
    sink.refuseNext(2, 421);
    const to = uniqueEmail('local-retry');
    const secret = token();
    const job = sampleJob('change-email', to, 'UKR', secret);
    const started = Date.now();
    await queue.enqueue(idFor(job.kind, secret), job);
    const mail = await sink.waitFor((m) => m.to.includes(to));
    expect(Date.now() - started).toBeGreaterThanOrEqual(50 + 100); // 50 ms, then 100 ms
    expect(mail.subject).toBe('Підтвердьте зміну адреси електронної пошти');
    expect(sink.attempts).toBe(3);
    const retries = logger.lines.filter((l) => l.message.includes('will retry'));
    expect(retries.map((l) => l.fields.attempt)).toEqual([1, 2]);
    expect(logger.dump()).not.toContain(secret);
  });

  it('gives up after the last attempt and logs it without the link', async () => {
    sink.refuseNext(10, 451);
    const secret = token();
    const job = sampleJob('reset-password', uniqueEmail('local-fail'), 'ENG', secret);
    await queue.enqueue(idFor(job.kind, secret), job);
    const failed = await until(() => logger.lines.find((l) => l.message === 'mail send failed for good'));
    expect(failed.fields).toMatchObject({ kind: 'reset-password', attempt: 3, attempts: 3, responseCode: 451 });
    expect(sink.attempts).toBe(3);
    expect(logger.dump()).not.toContain(secret);
  });

  it('reports each mail sent or given up on (the outbox marks it done), and answers what became of it', async () => {
    const settled: string[] = [];
    const config = mailConfig({ SMTP_URL: sink.url, MAIL_ATTEMPTS: '1' });
    const own = createMailQueue(config, null, new CaptureLogger(), {
      onSettled: (id, s) => settled.push(`${id} ${s}`),
    });
    try {
      const [sent, refused, never] = [idFor('verify-email', token()), idFor('verify-email', token()), 'never'];
      const route = await own.enqueue(sent, sampleJob('verify-email', uniqueEmail('settled')));
      expect([route, own.routes()]).toEqual([expect.stringMatching(/^process:/), [route]]);
      await until(() => settled.length === 1, 5000, 'the send');
      sink.refuseNext(1, 550);
      await own.enqueue(refused, sampleJob('verify-email', uniqueEmail('refused')));
      await until(() => settled.length === 2, 5000, 'the refusal');
      expect(settled).toEqual([`${sent} sent`, `${refused} failed`]);
      expect([await own.state(sent, route), await own.state(refused, route), await own.state(never, route)]).toEqual([
        'sent',
        'failed',
        'unknown',
      ]);
    } finally {
      await own.close();
    }
  });

  it('close() waits for a mail being sent', async () => {
    const sink2 = await startSmtpSink({ holdMs: 300 });
    const own = createMailQueue(mailConfig({ SMTP_URL: sink2.url }), null, new CaptureLogger());
    try {
      const to = uniqueEmail('closing');
      await own.enqueue(idFor('verify-email', token()), sampleJob('verify-email', to));
      await until(() => sink2.attempts === 1);
      await own.close();
      expect(sink2.messages.map((m) => m.to[0])).toEqual([to]);
      await expect(own.enqueue('late', sampleJob('verify-email', to))).rejects.toThrow('closed');
    } finally {
      await own.close();
      await sink2.stop();
    }
  });
});

/** No SMTP_URL: each mail becomes an .eml file in the dev outbox and one log line without the link. */
describe('dev outbox (no SMTP_URL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-outbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes an .eml file holding the mail, and logs recipient, subject and file only', async () => {
    const logger = new CaptureLogger();
    const queue = createMailQueue(mailConfig({ MAIL_OUTBOX_DIR: join(dir, 'outbox') }), null, logger);
    const to = uniqueEmail('outbox');
    const secret = token();
    const job = sampleJob('reset-password', to, 'GERMAN', secret);
    try {
      await queue.enqueue(idFor(job.kind, secret), job);
      const line = await until(() => logger.lines.find((l) => l.message === 'mail written to the dev outbox'));
      const files = readdirSync(join(dir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const file = join(dir, 'outbox', files[0]);
      expect(line.fields).toEqual({ to, subject: 'Passwort zurücksetzen', file });
      const parsed = await simpleParser(readFileSync(file));
      expect(parsed.subject).toBe('Passwort zurücksetzen');
      expect(parsed.text).toContain(job.url);
      expect(parsed.html).toContain(job.url);
      expect(logger.dump()).not.toContain(secret);
    } finally {
      await queue.close();
    }
  });
});

import { Redis } from 'ioredis';
import type { MailQueue } from '../../src/mail/jobs';
import { createMailQueue, idFor } from '../../src/mail/queue';
import { uniqueEmail } from '../setup/fixtures';
import { type SmtpSink, startSmtpSink } from '../setup/smtp-sink';
import { type RunningWorker, spawnWorker } from '../setup/worker-process';
import { CaptureLogger, mailConfig, sampleJob, token, uniquePrefix, until } from './helpers';

describe('mail worker process (node dist/worker.js)', () => {
  let sink: SmtpSink;
  const running: RunningWorker[] = [];

  // dist/ is built once by global-setup.
  beforeAll(async () => {
    sink = await startSmtpSink();
  }, 120_000);

  afterAll(async () => {
    for (const { child, exited } of running) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    await sink?.stop();
  });

  it('sends what the API enqueues, finishes the mail in flight on SIGTERM and exits 0', async () => {
    const prefix = uniquePrefix('mailproc');
    const worker = spawnWorker({
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_PREFIX: prefix,
      SMTP_URL: sink.url,
      MAIL_BACKOFF_MS: '100',
    });
    running.push(worker);
    const config = mailConfig({ REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: prefix });
    const apiRedis = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
    const queue: MailQueue = createMailQueue(config, apiRedis, new CaptureLogger());
    try {
      await until(() => worker.output().includes('mail worker started') || worker.child.exitCode !== null, 20_000);
      expect(worker.output()).toContain('mail worker started');

      const to = uniqueEmail('proc');
      const secret = token();
      const job = sampleJob('invitation', to, 'FRA', secret);
      await queue.enqueue(idFor(job.kind, secret), job);
      const mail = await sink.waitFor((m) => m.to.includes(to), 15_000);
      expect(mail.subject).toBe('Bob Boss vous invite à rejoindre Acme Rockets');
      expect(mail.from).toBe('no-reply@identity.test');
      expect(mail.text).toContain(job.url);

      // A slow server: SIGTERM arrives while the next mail is being sent; the worker finishes it first.
      sink.clear();
      sink.hold(1000);
      const late = uniqueEmail('inflight');
      const lateSecret = token();
      await queue.enqueue(idFor('verify-email', lateSecret), sampleJob('verify-email', late, 'RUS', lateSecret));
      await until(() => sink.attempts === 1, 15_000, 'the send to start');
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(sink.messages.map((m) => m.to[0])).toEqual([late]);
      expect(sink.messages[0].subject).toBe('Подтвердите адрес электронной почты');
      const output = worker.output();
      expect(output).toContain('mail worker stopped');
      expect(output).toContain('"msg":"mail sent"');
      expect(output).not.toContain(secret);
      expect(output).not.toContain(lateSecret);
    } finally {
      await queue.close();
      await apiRedis.quit();
    }
  }, 60_000);

  it('without REDIS_URL it idles (the API sends in-process) and exits 0 on SIGTERM', async () => {
    const worker = spawnWorker({});
    running.push(worker);
    await until(() => worker.output().includes('worker is idle') || worker.child.exitCode !== null, 20_000);
    expect(worker.output()).toContain('REDIS_URL is not set');
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 30_000);
});

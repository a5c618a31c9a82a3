import { randomBytes } from 'node:crypto';
import type { ConfigOverrides } from '../../src/config';
import { startTestApp, type TestApp } from './app';
import { type SinkMessage, type SmtpSink, startSmtpSink } from './smtp-sink';
import { MAIL_FROM, spawnWorker } from './worker-process';

export interface MailStack extends TestApp {
  sink: SmtpSink;
  /** The first mail to `email` (matching `predicate`), waiting up to 10 s. */
  mailTo(email: string, predicate?: (m: SinkMessage) => boolean): Promise<SinkMessage>;
  /** The first link in a mail's text that starts with the service's public URL. */
  linkIn(message: SinkMessage): URL;
}

/**
 * The API (in-process, real PostgreSQL and Redis) plus the REAL mail worker process (`node dist/worker.js`,
 * built by global-setup) sending to a real SMTP sink. A Redis prefix of this stack's own keeps other test
 * files' jobs away from this worker.
 */
export async function startMailStack(overrides: ConfigOverrides = {}, env: Record<string, string> = {}) {
  const sink = await startSmtpSink();
  const prefix = `${process.env.TEST_REDIS_PREFIX}mail-${randomBytes(4).toString('hex')}:`;
  const mailEnv = { REDIS_PREFIX: prefix, SMTP_URL: sink.url, MAIL_FROM, MAIL_BACKOFF_MS: '100' };
  const worker = spawnWorker({ ...mailEnv, REDIS_URL: process.env.TEST_REDIS_URL!, LOG_LEVEL: 'warn' });
  const app = await startTestApp(overrides, { ...mailEnv, ...env });
  const stack: MailStack = {
    ...app,
    sink,
    mailTo: (email, predicate = () => true) => sink.waitFor((m) => m.to.includes(email) && predicate(m), 10_000),
    linkIn(message) {
      const found = message.text.match(/https?:\/\/\S+/g)?.find((u) => u.startsWith(app.config.publicUrl));
      if (!found) throw new Error(`no link in mail "${message.subject}"`);
      return new URL(found);
    },
    async close() {
      await app.close();
      worker.child.kill('SIGTERM');
      await worker.exited;
      await sink.stop();
    },
  };
  return stack;
}

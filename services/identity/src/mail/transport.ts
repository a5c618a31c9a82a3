import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport as nodemailerTransport } from 'nodemailer';
import type { Config } from '../config';
import type { MailLogger } from './log';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface SentMail {
  messageId: string;
  /** The .eml file, for the dev outbox. */
  file?: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
  close(): Promise<void>;
}

export type TransportConfig = Pick<Config, 'smtpUrl' | 'mail'>;

/**
 * SMTP_URL set: a pooled nodemailer SMTP transport (options in the URL's query win, e.g. `?ignoreTLS=true`).
 * Unset: the dev outbox, one .eml file per mail in `mail.outboxDir` and one log line (never the body: links
 * carry tokens).
 */
export function createTransport(config: TransportConfig, logger: MailLogger): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config.mail.concurrency) : outboxTransport(config, logger);
}

/** Where mail goes, for start-up logs: the SMTP host without credentials, or the outbox directory. */
export function describeTransport(config: TransportConfig): string {
  if (!config.smtpUrl) return `dev outbox ${resolve(config.mail.outboxDir)}`;
  const url = new URL(config.smtpUrl);
  return `${url.protocol}//${url.host}`;
}

function smtpTransport(url: string, maxConnections: number): MailTransport {
  const transporter = nodemailerTransport({
    url,
    pool: true,
    maxConnections,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  return {
    kind: 'smtp',
    async send(message) {
      const info = await transporter.sendMail(message);
      return { messageId: info.messageId };
    },
    async close() {
      transporter.close();
    },
  };
}

function outboxTransport(config: TransportConfig, logger: MailLogger): MailTransport {
  const dir = resolve(config.mail.outboxDir);
  const composer = nodemailerTransport({ streamTransport: true, buffer: true });
  let ready: Promise<unknown> | undefined;
  return {
    kind: 'outbox',
    async send(message) {
      ready ??= mkdir(dir, { recursive: true }).catch((error) => {
        ready = undefined;
        throw error;
      });
      await ready;
      const info = await composer.sendMail(message);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      // Written aside, then renamed: whoever watches the directory (a mail client, a test) never reads half a mail.
      await writeFile(`${file}.part`, info.message as Buffer, { mode: 0o600 });
      await rename(`${file}.part`, file);
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written to the dev outbox');
      return { messageId: info.messageId, file };
    },
    async close() {
      composer.close();
    },
  };
}

import { randomBytes } from 'node:crypto';
import { type Config, type ConfigOverrides, loadConfig } from '../../src/config';
import type { Language, MailJob, MailKind } from '../../src/mail/jobs';
import type { MailLogger } from '../../src/mail/log';

import { TEST_SECRET } from '../setup/app';
import { MAIL_FROM } from '../setup/worker-process';

export { MAIL_FROM, TEST_SECRET };

/** The real config loader with test settings, as test/setup/app.ts builds it (no database needed here). */
export function mailConfig(env: Record<string, string | undefined> = {}, overrides: ConfigOverrides = {}): Config {
  return loadConfig({ NODE_ENV: 'test', AUTH_SECRET: TEST_SECRET, LOG_LEVEL: 'silent', MAIL_FROM, ...env }, overrides);
}

/**
 * A Redis prefix of this file's own under the run's prefix (teardown still removes it), so that no other test
 * file's jobs reach this file's workers, nor the reverse.
 */
export function uniquePrefix(tag: string): string {
  return `${process.env.TEST_REDIS_PREFIX ?? 'test:'}${tag}-${randomBytes(4).toString('hex')}:`;
}

export const token = (): string => randomBytes(24).toString('base64url');

export function sampleJob(kind: MailKind, to: string, language: Language = 'ENG', secret = token()): MailJob {
  const url = `https://id.example.test/api/auth/${kind}?token=${secret}`;
  const base = { to, language, name: 'Ann Example', url };
  switch (kind) {
    case 'change-email':
      return { ...base, kind, newEmail: 'ann.new@example.test' };
    case 'invitation':
      return {
        ...base,
        kind,
        organizationName: 'Acme Rockets',
        inviterName: 'Bob Boss',
        inviterEmail: 'bob@acme.test',
        role: 'member',
      };
    case 'email-otp':
    case 'change-email-otp':
      return { ...base, kind, code: '042917' };
    default:
      return { ...base, kind };
  }
}

/** A MailLogger that keeps every line, to assert on what was logged (and what never was). */
export class CaptureLogger implements MailLogger {
  readonly lines: { level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string }[] = [];
  info = (fields: object, message: string) => this.push('info', fields, message);
  warn = (fields: object, message: string) => this.push('warn', fields, message);
  error = (fields: object, message: string) => this.push('error', fields, message);

  /** Everything logged, as one string, to search for secrets. */
  dump(): string {
    return JSON.stringify(this.lines);
  }

  private push(level: 'info' | 'warn' | 'error', fields: object, message: string): void {
    this.lines.push({ level, fields: fields as Record<string, unknown>, message });
  }
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function until<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

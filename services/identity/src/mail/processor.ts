import type { Config } from '../config';
import type { MailJob } from './jobs';
import { recipientDomain } from './log';
import { MailRenderError, type RenderedMail, render } from './render';
import { LANGUAGE_TAGS } from './templates';
import type { MailTransport, SentMail } from './transport';

/** One address, nothing that nodemailer would read as a list or a display name. */
const SINGLE_ADDRESS = /^[^\s@,;:<>"()[\]\\]+@[^\s@,;:<>"()[\]\\]+$/;

/**
 * Renders a job and sends it from MAIL_FROM. Errors propagate so that the queue retries; a job that can never
 * be sent (bad link, bad recipient) throws MailRenderError, which the queues do not retry.
 */
export async function sendMail(
  job: MailJob,
  transport: MailTransport,
  config: Pick<Config, 'mailFrom'>,
): Promise<SentMail> {
  const mail = checkJob(job);
  return transport.send({
    from: config.mailFrom,
    to: job.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // RFC 3834: automatic mail, so auto-responders stay quiet.
    headers: {
      'Auto-Submitted': 'auto-generated',
      'X-Auto-Response-Suppress': 'All',
      'Content-Language': LANGUAGE_TAGS[mail.language],
    },
  });
}

/**
 * Throws MailRenderError for a job that could never be sent (bad recipient, bad link, unknown kind). The queues
 * call it at enqueue too, so such a bug fails in the caller and not, later, in a log.
 */
export function checkJob(job: MailJob): RenderedMail {
  if (typeof job.to !== 'string' || !SINGLE_ADDRESS.test(job.to))
    throw new MailRenderError('mail recipient is not a single email address');
  return render(job);
}

/** Retrying cannot help: the job cannot render, or the SMTP server refused it for good (5xx). */
export function isPermanentFailure(error: unknown): boolean {
  if (error instanceof MailRenderError) return true;
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Log fields for a failed attempt: kind, recipient domain, attempt, the error; never the link (a token). */
export function failureFields(job: MailJob, error: unknown, attempt: number, attempts: number, jobId?: string) {
  const err = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return {
    kind: job.kind,
    recipientDomain: recipientDomain(job.to),
    jobId,
    attempt,
    attempts,
    error: safeErrorMessage(error, job),
    code: typeof err.code === 'string' ? err.code : undefined,
    responseCode: typeof err.responseCode === 'number' ? err.responseCode : undefined,
  };
}

/** An error's message with the job's link, and anything else that looks like a link, taken out. */
export function safeErrorMessage(error: unknown, job: Pick<MailJob, 'url'>): string {
  let message = error instanceof Error ? error.message : String(error);
  if (typeof job.url === 'string' && job.url) message = message.split(job.url).join('[link]');
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[link]');
}

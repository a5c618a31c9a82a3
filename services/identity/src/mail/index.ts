/** The mail module's surface for the API (enqueue side) and the worker (send side). */
export {
  DEFAULT_LANGUAGE,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
  type MailJob,
  type MailKind,
  type MailQueue,
  type MailState,
} from './jobs';
export { type MailLogger, silentLogger } from './log';
export { checkJob, failureFields, isPermanentFailure, sendMail } from './processor';
export { bullPrefix, createMailQueue, idFor, MAIL_QUEUE_NAME, redisRoute } from './queue';
export { MailRenderError, type RenderedMail, render } from './render';
export { createTransport, describeTransport, type MailMessage, type MailTransport } from './transport';

/**
 * The logger the mail module writes to: the `(fields, message)` shape of pino, so a pino or Fastify logger fits
 * as is. Fields never carry a link: links hold tokens.
 */
export interface MailLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLogger: MailLogger = { info() {}, warn() {}, error() {} };

/** The part of an address after the last `@`: enough to see which provider refuses, without the person. */
export function recipientDomain(to: string): string {
  const at = String(to).lastIndexOf('@');
  return at >= 0
    ? String(to)
        .slice(at + 1)
        .toLowerCase()
    : '(invalid)';
}

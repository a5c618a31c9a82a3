import { format } from 'node:util';
import type { FastifyServerOptions } from 'fastify';
import pino, { type LoggerOptions, type Logger as PinoLogger } from 'pino';
import type { Config } from '../config';

/** Query values and path segments that carry secrets never reach a log line. */
export function redactUrl(url: string): string {
  return url
    .replace(
      /([?&](?:token|code|state|id_token|access_token|refresh_token|id_token_hint|login_hint)=)[^&#]*/gi,
      '$1[redacted]',
    )
    .replace(/\/(reset-password|verify-email|delete-user\/callback)\/[^/?#]+/g, '/$1/[redacted]');
}

/** The request logger's settings: level, redacted headers, the request serializer with the URL redacted. */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'apiKey'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        ...(config.apiKey.header === 'x-api-key' ? [] : [`req.headers["${config.apiKey.header}"]`]),
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

export interface ProcessLoggerOptions {
  /** Fields on every line, e.g. `{ service: 'mail-worker' }`. */
  base?: Record<string, unknown>;
  /** File descriptor: 1 (stdout, the default) or 2 (the CLI keeps stdout for its answers). */
  fd?: 1 | 2;
}

/**
 * The one logger of a process (API, worker, CLI): JSON lines through pino with the request logger's redaction,
 * so start-up notes, mail notes and request lines read alike. Synchronous writes: a line logged just before
 * process.exit is neither lost nor reordered.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'apiKey'>, options: ProcessLoggerOptions = {}) {
  const logger = pino(
    { ...(loggerOptions(config) as LoggerOptions), ...(options.base ? { base: { ...options.base } } : {}) },
    pino.destination({ fd: options.fd ?? 1, sync: true }),
  );
  return logger;
}

/**
 * What else would print plain text in a service process goes through its logger as JSON lines: Node's warnings
 * (printed on stderr by default) and libraries that write with console.* (ioredis's unhandled error events,
 * BullMQ's Redis eviction-policy notice).
 */
export function routeProcessOutput(logger: PinoLogger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    logger.warn({ warning: { name: warning.name, message: warning.message } }, 'process warning'),
  );
  const line = (args: unknown[]) => format(...args);
  console.log = (...args: unknown[]) => logger.info(line(args));
  console.info = (...args: unknown[]) => logger.info(line(args));
  console.debug = (...args: unknown[]) => logger.debug(line(args));
  console.warn = (...args: unknown[]) => logger.warn(line(args));
  console.error = (...args: unknown[]) => logger.error(line(args));
}

/**
 * A start that fails before the configuration is known (a ConfigError, a database that does not answer): one
 * JSON line at `fatal`, then the caller exits. The message names the setting; the stack only for the unexpected.
 */
export function logStartFailure(
  error: unknown,
  options: { base?: Record<string, unknown>; configError?: boolean } = {},
) {
  const logger = pino(options.base ? { base: { ...options.base } } : {}, pino.destination({ fd: 2, sync: true }));
  if (options.configError) logger.fatal(`Configuration error: ${(error as Error).message}`);
  else logger.fatal({ err: error }, `start failed: ${error instanceof Error ? error.message : String(error)}`);
}

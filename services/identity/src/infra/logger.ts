import { format } from 'node:util';
import type { FastifyServerOptions } from 'fastify';
import pino, { type LoggerOptions, type Logger as PinoLogger } from 'pino';
import type { Config } from '../config';

/** Query values and path segments that carry secrets never reach a log line. */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|code|state|id_token|access_token|refresh_token)=)[^&#]*/gi, '$1[redacted]')
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

/**
 * Lines are gathered up to 4 KB (about 25 request lines) and written together, and whatever is gathered is written
 * at least every 250 ms, so a quiet instance's lines are not held back.
 */
const BUFFERED = { minLength: 4096, periodicFlush: 250 };

export interface ProcessLoggerOptions {
  /** Fields on every line, e.g. `{ service: 'mail-worker' }`. */
  base?: Record<string, unknown>;
  /** File descriptor: 1 (stdout, the default) or 2 (the CLI keeps stdout for its answers). */
  fd?: 1 | 2;
}

/**
 * The one logger of a process (API, worker, CLI): JSON lines through pino with the request logger's redaction,
 * so start-up notes, mail notes and request lines read alike.
 *
 * Writes are asynchronous: lines logged while a write is under way are written together after it, so a busy API
 * makes one write for many request lines instead of one each (a synchronous write per line cost get-session a
 * fifth of its throughput at LOG_LEVEL=info, docs/performance.md). pino flushes what is pending, synchronously, when
 * the process exits (process.exit included), so a line logged just before it is not lost; only a process killed
 * outright (SIGKILL) can lose the lines of its last moment. The CLI (`fd: 2`) writes synchronously: its lines
 * interleave with its answers on the terminal.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'apiKey'>, options: ProcessLoggerOptions = {}) {
  const fd = options.fd ?? 1;
  const logger = pino(
    { ...(loggerOptions(config) as LoggerOptions), ...(options.base ? { base: { ...options.base } } : {}) },
    fd === 2 ? pino.destination({ fd, sync: true }) : pino.destination({ fd, sync: false, ...BUFFERED }),
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

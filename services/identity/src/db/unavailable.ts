/**
 * Whether a failure means PostgreSQL could not serve the request now, so that a retry may pass: stopped,
 * restarting, hung, unreachable, out of connections, or too slow. The request then answers 503
 * SERVICE_UNAVAILABLE with Retry-After (errors/handler.ts) instead of a 500, and a failed sign-in of such an
 * outage is not counted against the account (features/account/sign-in-throttle.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some(unavailable);
}

/**
 * SQLSTATEs: class 08 connection exception; class 53 insufficient resources (too many connections, out of memory
 * or disk); 57014 query canceled (statement_timeout); 57P01 admin shutdown ("terminating connection due to
 * administrator command"), 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down), 57P05 idle
 * session timeout; 55P03 lock not available (lock_timeout).
 */
const UNAVAILABLE_STATES = /^(08|53)...$|^(57014|57P01|57P02|57P03|57P05|55P03)$/;

/** Socket failures of Node's net and dns modules. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** pg and pg-pool's own errors, which carry no code: the connection went away, or an answer did not come in time. */
const CLIENT_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

function unavailable(error: Failure): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  return UNAVAILABLE_STATES.test(code) || NETWORK_CODES.has(code) || CLIENT_MESSAGES.has(String(error.message));
}

interface Failure {
  code?: unknown;
  message?: unknown;
  /** TypeORM's QueryFailedError wraps pg's error. */
  driverError?: unknown;
  cause?: unknown;
  /** AggregateError: a connect to every address of a host name failed. */
  errors?: unknown;
}

/** The error and what it wraps, a few levels deep. */
function causes(error: unknown, depth = 0): Failure[] {
  if (!error || typeof error !== 'object' || depth > 3) return [];
  const failure = error as Failure;
  const inner = [failure.driverError, failure.cause, ...(Array.isArray(failure.errors) ? failure.errors : [])];
  return [failure, ...inner.flatMap((e) => causes(e, depth + 1))];
}

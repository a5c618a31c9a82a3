import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A lookup made at machine rates (get-session, introspection, probes): its successful answers get no request
     * line at info unless LOG_LOOKUPS is on, or the answer took longer than SLOW_LOOKUP_MS.
     */
    lookup?: boolean;
  }
}

/** A successful lookup slower than this is logged all the same: it is worth an operator's look. */
export const SLOW_LOOKUP_MS = 1000;

export interface RequestLogOptions {
  /** LOG_LOOKUPS: a line for every successful lookup too. */
  logLookups: boolean;
}

/**
 * One log line per request, written when it is answered, naming the request (method, redacted URL, client
 * address, request id) and its answer (status, time taken): an access log line. Fastify's default adds an
 * "incoming request" line before each; that one is written at debug. Every request is answered within its deadline
 * (http/request-deadline.ts), so the answer's line always comes.
 *
 * The lookups internal services make on every request of theirs (routes with `config.lookup`) are logged when they
 * fail or are slow; their successes at debug, unless LOG_LOOKUPS: tens of thousands of identical lines a second
 * would cost as much CPU as the lookups themselves (docs/performance.md) and bury the lines that matter.
 * get-session's cookie fast path follows the same rule (features/session/cookie-fast-path.ts).
 */
export class RequestLog extends LogController {
  constructor(private readonly options: RequestLogOptions) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const responseTime = reply.elapsedTime;
    const fields = { req: request, res: reply, responseTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (this.quiet(request, reply, responseTime)) reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }

  private quiet(request: FastifyRequest, reply: FastifyReply, responseTime: number): boolean {
    return (
      !this.options.logLookups &&
      request.routeOptions.config.lookup === true &&
      reply.statusCode < 400 &&
      responseTime < SLOW_LOOKUP_MS
    );
  }
}

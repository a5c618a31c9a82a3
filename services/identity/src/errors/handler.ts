import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable';
import { ApiError, type ErrorDetail } from './api-error';
import { CATALOGUE, type ErrorCode } from './catalogue';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Schema failures become catalogue errors: an email format → INVALID_EMAIL, an extra field → FIELD_NOT_ALLOWED. */
export function fromValidation(issues: ValidationIssue[], context: string): ApiError {
  const details: ErrorDetail[] = issues.map((i) => ({
    field: fieldOf(i, context),
    problem: i.keyword === 'additionalProperties' ? 'not allowed' : (i.message ?? i.keyword),
  }));
  if (issues.some((i) => i.keyword === 'additionalProperties')) return new ApiError('FIELD_NOT_ALLOWED', details);
  if (issues.some((i) => i.keyword === 'format' && i.params.format === 'email')) return new ApiError('INVALID_EMAIL');
  return new ApiError('VALIDATION_ERROR', details);
}

function fieldOf(issue: ValidationIssue, context: string): string {
  const extra = issue.params.additionalProperty;
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const name = typeof extra === 'string' ? (path ? `${path}.${extra}` : extra) : path;
  return `${context}${name ? `.${name}` : ''}`;
}

function toApiError(
  error: FastifyError & { validation?: ValidationIssue[]; validationContext?: string },
): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error.validation) return fromValidation(error.validation, error.validationContext ?? 'body');
  const byFastifyCode: Record<string, ErrorCode> = {
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_JSON',
    FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
    FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  };
  const mapped = error.code ? byFastifyCode[error.code] : undefined;
  if (mapped) return new ApiError(mapped);
  // JSON syntax errors and prototype-poisoning refusals from the body parser.
  if (error.statusCode === 400 && (error instanceof SyntaxError || /prototype|JSON/i.test(error.message)))
    return new ApiError('INVALID_JSON');
  if (error.statusCode === 429) return new ApiError('RATE_LIMITED');
  // Fastify's handler timeout: the request's deadline came first (http/request-deadline.ts).
  if (error.code === 'FST_ERR_HANDLER_TIMEOUT') return new ApiError('SERVICE_UNAVAILABLE');
  if (isDatabaseUnavailable(error)) return new ApiError('SERVICE_UNAVAILABLE');
  return null;
}

/**
 * Fastify's `frameworkErrors`: a request its router refused before any route or hook ran. A path whose
 * percent-encoding does not decode (`%e0%a4%a`, an overlong `%c0%ae`) or whose parameter passes the router's length
 * limit is a bad input like any other, so it answers the catalogue's VALIDATION_ERROR instead of Fastify's own body.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const problems: Record<string, string> = {
    FST_ERR_BAD_URL: 'not a valid percent-encoded path',
    FST_ERR_MAX_PARAM_LENGTH: 'a path segment longer than the limit',
  };
  const problem = error.code ? problems[error.code] : undefined;
  if (!problem) request.log.error({ err: error }, 'unexpected error');
  const api = problem
    ? new ApiError('VALIDATION_ERROR', [{ field: 'url', problem }])
    : new ApiError('INTERNAL_SERVER_ERROR');
  reply.status(api.status).send({ code: api.code, message: api.message, details: api.details });
}

/** Seconds a client should wait before retrying a 503: about what a PostgreSQL restart or failover takes. */
export const RETRY_AFTER_SEC = 5;

/**
 * The one error handler: catalogue errors as `{code, message}`; PostgreSQL out of reach (stopped, restarting, hung,
 * no free connection) a 503 SERVICE_UNAVAILABLE; anything else a logged, generic 500. A 503 carries Retry-After.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const api = toApiError(error);
    if (api) {
      // An outage is expected and already known from readiness and metrics: one short line per request, no stack.
      if (api.code === 'SERVICE_UNAVAILABLE' && isDatabaseUnavailable(error))
        request.log.warn({ cause: (error as { code?: string }).code ?? error.message }, 'database unavailable');
      else if (error.code === 'FST_ERR_HANDLER_TIMEOUT')
        request.log.warn({ deadlineMs: request.routeOptions.handlerTimeout }, 'request deadline passed');
      else if (api.status >= 500) request.log.error({ err: error }, api.logMessage ?? 'request failed');
      if (api.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', RETRY_AFTER_SEC);
      return reply.status(api.status).send({ code: api.code, message: api.message, details: api.details });
    }
    request.log.error({ err: error }, 'unexpected error');
    const { status, message } = CATALOGUE.INTERNAL_SERVER_ERROR;
    return reply.status(status).send({ code: 'INTERNAL_SERVER_ERROR', message });
  });
  app.setNotFoundHandler((_request, reply) => {
    const { status, message } = CATALOGUE.NOT_FOUND;
    return reply.status(status).send({ code: 'NOT_FOUND', message });
  });
}

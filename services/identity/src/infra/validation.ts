import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { unstorableField } from './storable-text';

export interface Validation {
  /** A body validator built like the routes' own (for a GET that stands for a POST without a body). */
  compileBody(schema: object): ValidateFunction;
}

/**
 * Two validators: bodies are taken exactly as sent (no type coercion, unknown fields kept so they are
 * refused rather than silently dropped, so no client sets a field it may not); query strings and params are coerced
 * from text ("true", "10"), as URLs carry only text.
 *
 * Before either runs, one hook refuses text PostgreSQL cannot store (storable-text.ts) in the body, the query,
 * the path parameters, the cookies and the headers, so no route reaches the database with it (a route handed over
 * to the OpenID provider excepted: its input is the provider's to check, and it stores records as JSON text).
 */
export function registerValidation(app: FastifyInstance): Validation {
  const common = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false } as const;
  const body = new Ajv({ ...common, coerceTypes: false });
  const text = new Ajv({ ...common, coerceTypes: 'array' });
  for (const ajv of [body, text]) addFormats(ajv, ['email', 'date-time', 'uri', 'uuid']);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema));
  // A route handed over to another listener (http/cors.ts) is checked by that listener, which stores nothing raw.
  app.addHook('preValidation', (request, _reply, done) =>
    done(request.routeOptions.config.handedOver ? undefined : refuseUnstorable(request)),
  );
  return { compileBody: (schema) => body.compile(schema) };
}

function refuseUnstorable(request: FastifyRequest): ApiError | undefined {
  const parts: Array<[string, unknown]> = [
    ['body', request.body],
    ['query', request.query],
    ['params', request.params],
    ['headers', request.headers],
    ['cookies', request.cookies],
    ['ip', request.ip],
  ];
  for (const [part, value] of parts) {
    const field = unstorableField(value, part);
    if (field)
      return new ApiError('VALIDATION_ERROR', [{ field, problem: 'contains a character that cannot be stored' }]);
  }
  return undefined;
}

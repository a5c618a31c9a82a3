import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Two validators: bodies are taken exactly as sent (no type coercion, unknown fields kept so they are
 * refused rather than silently dropped: SECURITY.md mass assignment); query strings and params are coerced
 * from text ("true", "10"), as URLs carry only text.
 */
export function registerValidation(app: FastifyInstance): void {
  const common = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false } as const;
  const body = new Ajv({ ...common, coerceTypes: false });
  const text = new Ajv({ ...common, coerceTypes: 'array' });
  for (const ajv of [body, text]) addFormats(ajv, ['email', 'date-time', 'uri', 'uuid']);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema));
}

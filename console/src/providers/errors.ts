import { HttpError } from 'react-admin';
import type { components } from '../api/schema';

/** An error body from the catalogue: `{code, message}` (openapi.yaml's Error, every 4XX/5XX). */
export type ApiErrorBody = components['schemas']['Error'];

function isApiError(body: unknown): body is ApiErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).message === 'string';
}

/**
 * Unwraps an openapi-fetch result: the data on success, else an HttpError whose message is the catalogue's
 * `message` (react-admin shows it in the notification) and whose body keeps the `code`.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    const body = result.error;
    const message = isApiError(body) ? body.message : `HTTP ${result.response.status}`;
    throw new HttpError(message, result.response.status, body);
  }
  return result.data as T;
}

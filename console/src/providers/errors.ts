import { HttpError } from 'react-admin';

/** An error body from the catalogue: `{code, message}` (openapi.yaml, every 4XX/5XX). */
export interface ApiErrorBody {
  code: string;
  message: string;
}

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

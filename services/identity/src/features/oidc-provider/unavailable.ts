import { errors } from 'oidc-provider';
import { isDatabaseUnavailable } from '../../db/unavailable';

/**
 * The stores could not answer now (PostgreSQL or Redis stopped, hung, out of connections): the provider answers
 * 503 `temporarily_unavailable` (RFC 6749's code for it), with Retry-After, as the service's other routes answer
 * 503 SERVICE_UNAVAILABLE (docs/operations.md), never a 500; an authorization request gets it at its redirect URI.
 */
export class StorageUnavailable extends errors.OIDCProviderError {
  constructor(cause: unknown) {
    super(503, 'temporarily_unavailable', { cause });
    this.expose = true;
    this.error_description = 'the service cannot answer this now; try again shortly';
  }
}

/** `error` as the provider should see it: a 503 when the database could not serve, else unchanged. */
export function fromDatabase(error: unknown): unknown {
  return !(error instanceof errors.OIDCProviderError) && isDatabaseUnavailable(error)
    ? new StorageUnavailable(error)
    : error;
}

/** `error` of a key-value store call: any failure there means the store did not answer (Redis away or hung). */
export function fromStore(error: unknown): unknown {
  return error instanceof errors.OIDCProviderError ? error : new StorageUnavailable(error);
}

/** `work`, with its failures as `map` makes them. */
export async function mapped<T>(work: () => Promise<T>, map: (error: unknown) => unknown): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw map(error);
  }
}

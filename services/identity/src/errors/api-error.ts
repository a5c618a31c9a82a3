import { CATALOGUE, type ErrorCode } from './catalogue';

export interface ErrorDetail {
  field: string;
  problem: string;
}

/**
 * The one error type routes and services throw; the error handler turns it into `{code, message}`. The status is
 * the catalogue's, unless a use answers the same message with another one (better-auth does so for `invalid token`:
 * 401 when an id token is refused, 400 for a reset token): such a use passes its status here, the entry keeps its own.
 */
export class ApiError extends Error {
  readonly status: number;
  /** What the error handler logs for a 5xx instead of its generic line (never sent to the client). */
  logMessage?: string;

  constructor(
    readonly code: ErrorCode,
    readonly details?: ErrorDetail[],
    status?: number,
  ) {
    super(CATALOGUE[code].message);
    this.status = status ?? CATALOGUE[code].status;
  }
}

export function fail(code: ErrorCode, details?: ErrorDetail[], status?: number): never {
  throw new ApiError(code, details, status);
}

/** A catalogue error whose log line tells the operator what to do (the client gets the catalogue answer only). */
export function failLogged(code: ErrorCode, logMessage: string): never {
  const error = new ApiError(code);
  error.logMessage = logMessage;
  throw error;
}

import { CATALOGUE, type ErrorCode } from './catalogue';

export interface ErrorDetail {
  field: string;
  problem: string;
}

/** The one error type routes and services throw; the error handler turns it into `{code, message}`. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly details?: ErrorDetail[],
  ) {
    super(CATALOGUE[code].message);
    this.status = CATALOGUE[code].status;
  }
}

export function fail(code: ErrorCode, details?: ErrorDetail[]): never {
  throw new ApiError(code, details);
}

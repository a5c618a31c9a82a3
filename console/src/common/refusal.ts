import { HttpError } from 'react-admin';

/** An API error's body as the console gets it (openapi.yaml's Error). */
interface ErrorBody {
  code?: string;
  message?: string;
  details?: { field: string; problem: string }[];
}

/**
 * Catalogue codes that are about one field of the form that was sent, though the API names no field in `details`:
 * a slug another organization holds (create and update answer ORGANIZATION_ALREADY_EXISTS, the slug being the
 * organization's one unique field), an email another user holds, a password the length rules refuse, a role the
 * service does not know.
 */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  ORGANIZATION_ALREADY_EXISTS: 'slug',
  SLUG_IS_TAKEN: 'slug',
  USER_ALREADY_EXISTS: 'email',
  INVALID_EMAIL: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
  NOT_ALLOWED_TO_SET_NON_EXISTENT_ROLE: 'role',
};

/**
 * Which of the form's fields an API refusal is about, and the problem it names: the first detail's field (`url`,
 * `eventTypes/0`, a schema check's `body.url`, or `body.data.name` of a call whose changes go in `data`) when it is
 * one of `fields`; else the field the error's code is about (FIELD_OF_CODE), when the form has it; else no field
 * (the message belongs to the whole form).
 */
export function refusedField(body: unknown, fields: readonly string[]): { field?: string; problem?: string } {
  const error = body as ErrorBody | null | undefined;
  const detail = error?.details?.[0];
  const byCode =
    typeof error?.code === 'string' && Object.hasOwn(FIELD_OF_CODE, error.code) ? FIELD_OF_CODE[error.code] : undefined;
  if (!detail || typeof detail.field !== 'string') return byCode && fields.includes(byCode) ? { field: byCode } : {};
  const name = detail.field
    .replace(/^(body|query|querystring)\./, '')
    .replace(/^data\./, '')
    .split(/[./]/)[0];
  if (fields.includes(name)) return { field: name, problem: detail.problem };
  return byCode && fields.includes(byCode) ? { field: byCode, problem: detail.problem } : { problem: detail.problem };
}

/** The text a refusal shows: the catalogue's message, with the problem the API named when it named one. */
export const refusalMessage = (message: string, problem?: string) => (problem ? `${message}: ${problem}` : message);

/**
 * A create page's refusal as react-admin's server-side validation takes it: when the refusal is about one of the
 * form's `fields`, an HttpError whose `body.errors` names that field and its message (the form shows it under the
 * field, and no notification); any other error as it was (a notification).
 */
export function asFormErrors(error: unknown, fields: readonly string[]): unknown {
  if (!(error instanceof HttpError)) return error;
  const { field, problem } = refusedField(error.body, fields);
  if (!field) return error;
  const body = { ...(error.body as object), errors: { [field]: refusalMessage(error.message, problem) } };
  return new HttpError(error.message, error.status, body);
}

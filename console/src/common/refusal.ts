/** An API error's body as the console gets it (openapi.yaml's Error). */
interface ErrorBody {
  code?: string;
  message?: string;
  details?: { field: string; problem: string }[];
}

/**
 * Which of the dialog's fields an API refusal is about, and the problem it names: the first detail's field
 * (`url`, `eventTypes/0`, or a schema check's `body.url`) when it is one of `fields`; else no field (the message
 * belongs to the whole form).
 */
export function refusedField(body: unknown, fields: readonly string[]): { field?: string; problem?: string } {
  const detail = (body as ErrorBody | null)?.details?.[0];
  if (!detail || typeof detail.field !== 'string') return {};
  const name = detail.field.replace(/^(body|query|querystring)\./, '').split(/[./]/)[0];
  return fields.includes(name) ? { field: name, problem: detail.problem } : { problem: detail.problem };
}
